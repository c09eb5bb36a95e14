"""Account forms: they check the shape of input; accounts.services decides the rest."""

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.forms import (
    AdminUserCreationForm,
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordForm,
    UserChangeForm,
)
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import selectors, services, throttle
from accounts.models import Preferences, User
from accounts.validators import USERNAME_MAX_LENGTH, time_zone_names, validate_username

# Hashing is deliberately slow, so an enormous password would be a cheap way to load the server.
PASSWORD_MAX_LENGTH = 128


def _password_field(label, autocomplete: str, help_text="") -> forms.CharField:
    return forms.CharField(
        label=label,
        strip=False,
        max_length=PASSWORD_MAX_LENGTH,
        help_text=help_text,
        widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}),
    )


class PlainLabels:
    """Labels read "Password", not "Password:", for people and screen readers alike."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class RegistrationForm(PlainLabels, forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Username"),
        max_length=USERNAME_MAX_LENGTH,
        validators=[validate_username],
        help_text=gettext_lazy("3 to 20 letters, digits, '-' or '_'. Shown to other players."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = forms.EmailField(
        label=gettext_lazy("Email"),
        max_length=254,
        required=False,
        help_text=gettext_lazy(
            "Optional; never shown to other players. Needed to reset a forgotten password."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = _password_field(
        gettext_lazy("Password"),
        "new-password",
        password_validation.password_validators_help_text_html(),
    )
    password_confirm = _password_field(gettext_lazy("Password again"), "new-password")

    def clean(self):
        cleaned = super().clean()
        password, confirm = cleaned.get("password"), cleaned.get("password_confirm")
        if password and confirm and password != confirm:
            self.add_error("password_confirm", _("The two passwords differ."))
        return cleaned


class LoginForm(PlainLabels, AuthenticationForm):
    """Django's login form, refusing bots and throttling repeated failures."""

    password = _password_field(gettext_lazy("Password"), "current-password")
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": gettext_lazy(
            "That username and password do not match. Both are case-sensitive except the username."
        ),
        "bot": gettext_lazy(
            "%(username)s is a bot account: bots play from the server and cannot log in."
        ),
        "throttled": gettext_lazy(
            "Too many failed attempts to log in as %(username)s. "
            "Wait %(minutes)s minutes and try again."
        ),
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        # The skip link, not a jump into the form, comes first for keyboard users.
        self.fields["username"].widget.attrs.pop("autofocus", None)

    def _address(self) -> str:
        return self.request.META.get("REMOTE_ADDR", "") if self.request else ""

    def clean(self):
        username = self.cleaned_data.get("username")
        if not username or not self.cleaned_data.get("password"):
            return self.cleaned_data
        address = self._address()
        if throttle.login_blocked(username=username, address=address):
            raise ValidationError(
                self.error_messages["throttled"],
                code="throttled",
                params={"username": username, "minutes": throttle.window_minutes()},
            )
        if User.objects.filter(username__iexact=username, is_bot=True).exists():
            raise ValidationError(
                self.error_messages["bot"], code="bot", params={"username": username}
            )
        try:
            cleaned = super().clean()
        except ValidationError:
            throttle.login_failure_record(username=username, address=address)
            raise
        throttle.login_failures_clear(username=username, address=address)
        return cleaned


class BoundedPasswordChangeForm(PlainLabels, PasswordChangeForm):
    """Django's password change form with the same length bound as everywhere else."""

    old_password = _password_field(gettext_lazy("Current password"), "current-password")
    new_password1 = _password_field(
        gettext_lazy("New password"),
        "new-password",
        password_validation.password_validators_help_text_html(),
    )
    new_password2 = _password_field(gettext_lazy("New password again"), "new-password")


class ThrottledPasswordResetForm(PlainLabels, PasswordResetForm):
    """Django's reset request, limited per address (every address alike, known or not)."""

    email = forms.EmailField(
        label=gettext_lazy("Your account's e-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    def clean_email(self):
        email = self.cleaned_data["email"]
        if not throttle.password_reset_allowed(email=email):
            raise ValidationError(
                _(
                    "Too many reset requests for this address. "
                    "Wait %(minutes)s minutes and try again."
                ),
                code="throttled",
                params={"minutes": throttle.password_reset_window_minutes()},
            )
        return email

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        """The mail goes out in the account's own language (its setting), else the page's."""
        language = selectors.language_of(user=context["user"]) or translation.get_language()
        with translation.override(language):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


class BoundedSetPasswordForm(PlainLabels, SetPasswordForm):
    new_password1 = _password_field(
        gettext_lazy("New password"),
        "new-password",
        password_validation.password_validators_help_text_html(),
    )
    new_password2 = _password_field(gettext_lazy("New password again"), "new-password")


class TwoFactorCodeForm(PlainLabels, forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=32,
        help_text=gettext_lazy(
            "The 6 digits your authenticator app shows, or one of your recovery codes."
        ),
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "text", "autocapitalize": "none"}
        ),
    )


class PasswordAndCodeForm(PlainLabels, forms.Form):
    password = _password_field(gettext_lazy("Password"), "current-password")
    code = forms.CharField(
        label=gettext_lazy("Two-factor code"),
        max_length=32,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code"}),
    )


class EmailChangeForm(PlainLabels, forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("New e-mail address"),
        max_length=254,
        help_text=gettext_lazy(
            "We send a link to it; the change takes effect when you follow the link."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = _password_field(gettext_lazy("Password"), "current-password")


class PreferencesForm(PlainLabels, forms.ModelForm):
    class Meta:
        model = Preferences
        fields = list(Preferences.FIELDS)
        labels = {
            "sound": gettext_lazy("Sounds (a move, your turn, the clock running low)"),
            "confirm_moves": gettext_lazy("Confirm each move before it is sent"),
            "theme": gettext_lazy("Theme"),
            "language": gettext_lazy("Language"),
            "coordinates": gettext_lazy("Board coordinates (a-e and 1-5 along the edges)"),
            "animation": gettext_lazy("Board animations"),
            "time_zone": gettext_lazy("Time zone"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A form from before the board preferences existed does not post them: kept as they are.
        self.fields["animation"].required = False
        if self.instance.user_id is None:
            # A visitor's pages use the browser's zone; there is no e-mail to time.
            del self.fields["time_zone"]
            return
        self.fields["time_zone"] = forms.ChoiceField(
            label=self._meta.labels["time_zone"],
            required=False,
            choices=[
                ("", gettext_lazy("The browser's (e-mails: UTC)")),
                *((name, name) for name in time_zone_names()),
            ],
            help_text=gettext_lazy(
                "Tournament times on the pages, times in e-mails, and the daily digest "
                "(sent at 07:00 in this zone)."
            ),
            widget=forms.Select(attrs={"data-time-zone": ""}),
        )

    def clean_animation(self):
        return self.cleaned_data.get("animation") or self.instance.animation


class PlayerAdminCreationForm(AdminUserCreationForm):
    """The admin's new account: its name passes the same checks as a registration's."""

    def clean_username(self):
        username = super().clean_username()
        services.username_check(username=username)
        return username


class PlayerAdminChangeForm(UserChangeForm):
    """The admin's account page: a renamed account passes the registration's name checks."""

    def clean_username(self):
        username = self.cleaned_data["username"]
        if "username" in self.changed_data:
            services.username_check(username=username, user=self.instance)
        return username
