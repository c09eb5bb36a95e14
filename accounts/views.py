"""Account pages: register, log in/out, passwords, settings, two-factor, closing, profiles."""

import json
import time

import django_otp
import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse, reverse_lazy
from django.utils import formats, translation
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_http_methods

from accounts import selectors, services, throttle
from accounts.forms import (
    BoundedPasswordChangeForm,
    BoundedSetPasswordForm,
    EmailChangeForm,
    LoginForm,
    PasswordAndCodeForm,
    PreferencesForm,
    RegistrationForm,
    ThrottledPasswordResetForm,
    TwoFactorCodeForm,
)
from accounts.models import Preferences, User
from kit.language import browser_language

# The password is right, the code still to come: who, how, and since when (session keys).
PENDING_USER = "two_factor_user"
PENDING_BACKEND = "two_factor_backend"
PENDING_SINCE = "two_factor_since"
PENDING_NEXT = "two_factor_next"
PENDING_SECONDS = 300


def _with_next(url: str, next_url: str | None) -> str:
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def _next_of(request) -> str:
    """The page to come back to (``next``, posted or in the query), if it is this site's."""
    wanted = request.POST.get("next") or request.GET.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if safe else ""


def register(request):
    """Sign up, then arrive logged in on your new profile (or on ``next``: an invite link
    followed signed out comes back to its table)."""
    if request.user.is_authenticated:
        return redirect("home")
    form = RegistrationForm(request.POST or None)
    next_url = _next_of(request)
    context = {
        "form": form,
        "next": next_url,
        "login_url": _with_next(reverse("accounts:login"), next_url),
    }
    address = request.META.get("REMOTE_ADDR", "")
    if request.method == "POST" and throttle.registration_blocked(address=address):
        form.is_valid()
        form.add_error(
            None, _("Too many accounts were opened from your address. Try again in an hour.")
        )
        return render(request, "accounts/register.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_register(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            throttle.registration_record(address=address)
            login(request, user, backend="accounts.backends.PlayerBackend")
            messages.success(
                request, _("Welcome to Topiary Online, %(name)s!") % {"name": user.username}
            )
            return redirect(next_url or reverse("accounts:profile", args=[user.username]))
    # A form shown again with its errors is a page like any other (200): a 400 would show
    # in the browser's console as a failed request.
    return render(request, "accounts/register.html", context)


class LoginView(auth_views.LoginView):
    """Password first; with two-factor on, the code page comes before the session does."""

    form_class = LoginForm
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # "Create an account" keeps where the player was going (an invite link, say).
        context["register_url"] = _with_next(reverse("accounts:register"), context.get("next"))
        return context

    def form_valid(self, form):
        user = form.get_user()
        if services.two_factor_device(user) is None:
            return super().form_valid(form)
        self.request.session.cycle_key()
        self.request.session[PENDING_USER] = user.pk
        self.request.session[PENDING_BACKEND] = user.backend
        self.request.session[PENDING_SINCE] = time.time()
        self.request.session[PENDING_NEXT] = self.get_redirect_url()
        return redirect("accounts:login_code")


def _pending_user(request) -> User | None:
    since = request.session.get(PENDING_SINCE, 0)
    if time.time() - since > PENDING_SECONDS:
        return None
    return User.objects.filter(pk=request.session.get(PENDING_USER), is_active=True).first()


def login_code(request):
    """The second step of signing in: the authenticator's code or a recovery code."""
    user = _pending_user(request)
    if user is None:
        messages.info(request, _("Sign in with your password first."))
        return redirect("accounts:login")
    form = TwoFactorCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            device = services.two_factor_verify(user=user, code=form.cleaned_data["code"])
        except ValidationError as error:
            form.add_error("code", error)
        else:
            next_url = request.session.get(PENDING_NEXT) or reverse("home")
            backend = request.session.get(PENDING_BACKEND)
            for key in (PENDING_USER, PENDING_BACKEND, PENDING_SINCE, PENDING_NEXT):
                request.session.pop(key, None)
            login(request, user, backend=backend)
            django_otp.login(request, device)
            return redirect(next_url)
    status = 400 if form.errors else 200
    return render(request, "registration/login_code.html", {"form": form}, status=status)


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = BoundedPasswordChangeForm

    def get_success_url(self) -> str:
        messages.success(self.request, _("Your password was changed."))
        return reverse("accounts:profile", args=[self.request.user.username])


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request: the same answer whether or not the address has an account."""

    form_class = ThrottledPasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's token check: expired after PASSWORD_RESET_TIMEOUT, void once used."""

    form_class = BoundedSetPasswordForm
    success_url = reverse_lazy("accounts:password_reset_complete")


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _language_cookie_set(response, language: str) -> None:
    """Keep a language choice in the cookie the footer's switcher sets too, so the very
    next page speaks it (signed out as well); "" (the browser's) drops the cookie."""
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    else:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )


def _language_after(request, chosen: str) -> str:
    """The language of the page after a save: the one chosen, else the browser's."""
    if chosen:
        return chosen
    return browser_language(request.headers.get("Accept-Language", ""))


def _saved(request, text, *, language: str):
    """Back to the settings, saying ``text`` (lazy) in the language the page will be in."""
    with translation.override(_language_after(request, language)):
        messages.success(request, str(text))
    response = redirect("accounts:settings")
    _language_cookie_set(response, language)
    return response


def _settings_page(request, form):
    signed_in = request.user.is_authenticated
    context = {
        "form": form,
        "two_factor_on": signed_in and services.two_factor_device(request.user) is not None,
        "vacation": selectors.vacation_of(user=request.user) if signed_in else None,
    }
    status = 400 if form.errors else 200
    return render(request, "accounts/settings.html", context, status=status)


@require_http_methods(["GET", "POST"])
def account_settings(request):
    """Preferences for everyone and account entries. A visitor's preferences live in the
    browser: the language in the cookie (set here), the rest in localStorage
    (static/js/preferences.js); a player's are saved on the server, the language in the
    cookie too."""
    if not request.user.is_authenticated:
        return _visitor_settings(request)
    prefs = selectors.preferences_of(user=request.user)
    if request.method == "GET":
        return _settings_page(request, PreferencesForm(instance=prefs))
    if request.content_type == "application/json":
        try:
            changes = json.loads(request.body or b"{}")
        except ValueError:
            changes = None
        if not isinstance(changes, dict):
            return JsonResponse(
                {"ok": False, "errors": {"__all__": [_("Send a JSON object.")]}}, status=400
            )
    else:
        changes = Preferences.form_changes(request.POST)
    try:
        prefs = services.preferences_save(user=request.user, changes=changes)
    except ValidationError as error:
        if _wants_json(request):
            return JsonResponse({"ok": False, "errors": error.message_dict}, status=400)
        form = PreferencesForm(request.POST, instance=prefs)
        form.is_valid()
        for field, errors in error.message_dict.items():
            form.add_error(None if field == "__all__" else field, errors)
        return _settings_page(request, form)
    if _wants_json(request):
        response = JsonResponse({"ok": True, "prefs": prefs.as_dict()})
        if "language" in changes:
            _language_cookie_set(response, prefs.language)
        return response
    return _saved(request, gettext_lazy("Your settings were saved."), language=prefs.language)


def _visitor_settings(request):
    """The settings page signed out: a posted form keeps its language in the cookie."""
    language = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    if language not in Preferences.Language.values:
        language = ""
    if request.method == "GET":
        return _settings_page(request, PreferencesForm(initial={"language": language}))
    if _wants_json(request) or request.content_type == "application/json":
        error = _("Sign in to save preferences on the server; visitors keep them in the browser.")
        return JsonResponse({"ok": False, "errors": {"__all__": [error]}}, status=403)
    form = PreferencesForm(request.POST, initial={"language": language})
    if not form.is_valid():
        return _settings_page(request, form)
    return _saved(
        request, gettext_lazy("Saved in this browser."), language=form.cleaned_data["language"]
    )


@login_required
def email_change(request):
    """Ask for a new address; it takes effect from the link sent to it."""
    form = EmailChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not request.user.check_password(form.cleaned_data["password"]):
            form.add_error("password", _("That is not your password."))
        else:
            try:
                token = services.email_change_token(
                    user=request.user, new_email=form.cleaned_data["email"]
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                link = request.build_absolute_uri(reverse("accounts:email_confirm", args=[token]))
                _email_change_send(request.user, form.cleaned_data["email"], link)
                messages.success(
                    request,
                    _("We sent a link to %(address)s. Your address changes when you follow it.")
                    % {"address": form.cleaned_data["email"]},
                )
                return redirect("accounts:settings")
    status = 400 if form.errors else 200
    return render(request, "accounts/email_change.html", {"form": form}, status=status)


def _email_change_send(user, address: str, link: str) -> None:
    """The confirmation link, in the player's own language (their setting, else the page's)."""
    hours = max(1, round(settings.EMAIL_CHANGE_TIMEOUT / 3600))
    with translation.override(selectors.language_of(user=user) or translation.get_language()):
        body = render_to_string(
            "accounts/email_change_email.txt", {"user": user, "link": link, "hours": hours}
        )
        send_mail(_("Confirm your new address for Topiary Online"), body, None, [address])


def email_confirm(request, token: str):
    """Follow the link from the new address: the change takes effect once."""
    try:
        user = services.email_change_confirm(token=token)
    except ValidationError as error:
        return render(
            request, "accounts/email_confirm.html", {"errors": error.messages}, status=400
        )
    return render(request, "accounts/email_confirm.html", {"confirmed_email": user.email})


def _errors_to_form(form, error: ValidationError) -> None:
    """A service's refusal (keyed by field) shown on the form's fields, the rest above it."""
    for field, errors in error.message_dict.items():
        form.add_error(field if field in form.fields else None, errors)


@login_required
def two_factor(request):
    """Turn two-factor sign-in on (QR code, password and first code, recovery codes) or
    off (password and a code)."""
    user = request.user
    address = request.META.get("REMOTE_ADDR", "")
    form = PasswordAndCodeForm(request.POST or None)
    form.fields["code"].required = True
    if services.two_factor_device(user) is not None:
        if request.method == "POST" and form.is_valid():
            try:
                services.two_factor_disable(
                    user=user,
                    password=form.cleaned_data["password"],
                    code=form.cleaned_data["code"],
                    address=address,
                )
            except ValidationError as error:
                _errors_to_form(form, error)
            else:
                messages.success(request, _("Two-factor sign-in is off."))
                return redirect("accounts:settings")
        status = 400 if form.errors else 200
        return render(
            request, "accounts/two_factor.html", {"enabled": True, "form": form}, status=status
        )

    form.fields["code"].help_text = _("The 6 digits the app shows for Topiary Online now.")
    if request.method == "POST" and form.is_valid():
        try:
            codes = services.two_factor_confirm(
                user=user,
                password=form.cleaned_data["password"],
                code=form.cleaned_data["code"],
                address=address,
            )
        except ValidationError as error:
            _errors_to_form(form, error)
        else:
            return render(request, "accounts/two_factor_codes.html", {"codes": codes})
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    if request.method == "GET" or device is None:
        device = services.two_factor_start(user=user)
    qr = segno.make(device.config_url, error="m")
    context = {
        "enabled": False,
        "form": form,
        "qr_svg": qr.svg_inline(scale=5, dark="#1b2a1b", light="#ffffff"),
        "secret": _base32(device.bin_key),
    }
    status = 400 if form.errors else 200
    return render(request, "accounts/two_factor.html", context, status=status)


def _base32(key: bytes) -> str:
    import base64

    text = base64.b32encode(key).decode().rstrip("=")
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


@login_required
def account_close(request):
    """Close the account for good, after the password (and code)."""
    two_factor_on = services.two_factor_device(request.user) is not None
    form = PasswordAndCodeForm(request.POST or None)
    if two_factor_on:
        form.fields["code"].required = True
    else:
        del form.fields["code"]
    if request.method == "POST" and form.is_valid():
        try:
            services.account_close(
                user=request.user,
                password=form.cleaned_data["password"],
                code=form.cleaned_data.get("code", ""),
                address=request.META.get("REMOTE_ADDR", ""),
            )
        except ValidationError as error:
            _errors_to_form(form, error)
        else:
            logout(request)
            messages.info(request, _("Your account is closed. Thank you for playing."))
            return redirect("home")
    status = 400 if form.errors else 200
    return render(request, "accounts/close.html", {"form": form}, status=status)


@login_required
def data_export(request):
    """Download everything the player made here as one zip."""
    response = HttpResponse(
        selectors.export_archive(user=request.user), content_type="application/zip"
    )
    filename = f"topiary-{request.user.username}.zip"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def profile(request, username: str):
    """A player's public page; the other apps add their panels to it."""
    profile_user = selectors.profile_user_by_username(username=username)
    if profile_user.username != username:
        return redirect("accounts:profile", username=profile_user.username, permanent=True)
    context = {
        "profile_user": profile_user,
        "away_until": selectors.away_until(user=profile_user),
        "relation": selectors.relation_of(user=request.user, other=profile_user),
    }
    return render(request, "accounts/profile.html", context)


def _first_message(error: ValidationError) -> str:
    return error.messages[0] if error.messages else str(error)


@login_required
@require_http_methods(["POST"])
def vacation(request):
    """Go away for some days (``days``), or come back early (``back``)."""
    try:
        if "back" in request.POST:
            services.vacation_end(user=request.user)
            messages.success(request, _("Welcome back: your clocks run again."))
        else:
            prefs = services.vacation_start(user=request.user, days=request.POST.get("days", ""))
            messages.success(
                request,
                _(
                    "Enjoy your time away. Your days-per-move clocks stand still until "
                    "%(until)s UTC."
                )
                % {
                    "until": formats.date_format(
                        prefs.vacation_until, pgettext("date and time format", "j F Y, H:i")
                    )
                },
            )
    except ValidationError as error:
        messages.error(request, _first_message(error))
    return redirect(f"{reverse('accounts:settings')}#vacation")


def _relation_set(request, username: str, change, done_on: str, done_off: str):
    """Follow/unfollow or block/unblock from a profile (``on`` posted: "1" or "0")."""
    on = request.POST.get("on", "1") != "0"
    try:
        other = change(user=request.user, username=username, on=on)
    except ValidationError as error:
        messages.error(request, _first_message(error))
        return redirect("accounts:profile", username=username)
    messages.success(request, (done_on if on else done_off) % {"name": other.username})
    return redirect("accounts:profile", username=other.username)


@login_required
@require_http_methods(["POST"])
def follow(request, username: str):
    """Follow a player (``on=0``: stop following)."""
    return _relation_set(
        request,
        username,
        services.follow_set,
        _("You follow %(name)s: the home page shows when they are online or playing."),
        _("You no longer follow %(name)s."),
    )


@login_required
@require_http_methods(["POST"])
def block(request, username: str):
    """Block a player (``on=0``: unblock)."""
    return _relation_set(
        request,
        username,
        services.block_set,
        _("You blocked %(name)s: their challenges, invitations and chat no longer reach you."),
        _("You unblocked %(name)s."),
    )
