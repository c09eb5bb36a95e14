"""Forms of the lobby: a new table, a challenge, a game against bots."""

from django import forms

from games.models import GameKind, TimeControl
from games.services import BOT_LEVELS


class TableForm(forms.Form):
    """What every new game needs: which game, how many players, the clock, rated or not."""

    kind = forms.ChoiceField(label="Game", choices=GameKind.choices, initial=GameKind.TOPIARY)
    players = forms.TypedChoiceField(
        label="Players",
        coerce=int,
        choices=[(2, "2"), (3, "3"), (4, "4")],
        initial=2,
        help_text="Wizards' Garden is always 2 players.",
    )
    time_control = forms.ChoiceField(
        label="Time control", choices=TimeControl.choices, initial=TimeControl.RAPID
    )
    rated = forms.BooleanField(label="Rated", required=False, initial=True)

    def clean(self):
        data = super().clean()
        if data.get("kind") == GameKind.WIZARDS_GARDEN and data.get("players", 2) != 2:
            self.add_error("players", "Wizards' Garden is for 2 players.")
        return data

    def game_fields(self) -> dict:
        """Keyword arguments for the games services."""
        data = self.cleaned_data
        return {
            "kind": data["kind"],
            "rated": data["rated"],
            **TimeControl(data["time_control"]).fields(),
        }


class ChallengeForm(TableForm):
    """A 2-player game against one named player."""

    opponent = forms.CharField(label="Opponent's username", max_length=150)
    players = None


class BotGameForm(TableForm):
    """A game against bots right now."""

    level = forms.ChoiceField(
        label="Bot level", choices=[(level, level.title()) for level in BOT_LEVELS]
    )
    rated = forms.BooleanField(label="Rated", required=False, initial=False)
