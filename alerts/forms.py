from django import forms
from django.utils.translation import gettext_lazy

from alerts.models import AlertSettings


class EmailAlertsForm(forms.ModelForm):
    """The player's e-mail alerts, one switch per kind of event."""

    class Meta:
        model = AlertSettings
        fields = [
            "email_turns",
            "email_clocks",
            "email_challenges",
            "email_games",
            "email_tournaments",
        ]
        labels = {
            "email_turns": gettext_lazy("Your turn in a correspondence game"),
            "email_clocks": gettext_lazy("A day and an hour before a correspondence clock ends"),
            "email_challenges": gettext_lazy("A challenge arrives"),
            "email_games": gettext_lazy("A game of yours starts or ends"),
            "email_tournaments": gettext_lazy("A tournament you entered starts"),
        }
        widgets = {"email_turns": forms.RadioSelect}
