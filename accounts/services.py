"""Writes to accounts: registration, bot accounts, preferences, e-mail, two-factor, closing."""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import throttle
from accounts.hooks import account_closing, player_blocked, vacation_changed
from accounts.models import Block, EmailChange, Follow, Preferences, User
from accounts.validators import username_skeleton, validate_username

BOT_USERNAMES = {
    User.BotLevel.RANDOM: "RandomBot",
    User.BotLevel.GREEDY: "GreedyBot",
    User.BotLevel.STRONG: "StrongBot",
    User.BotLevel.MASTER: "MasterBot",
}

USERNAME_TAKEN = gettext_lazy("That username is taken.")
USERNAME_LOOKALIKE = gettext_lazy(
    "That username looks too much like %(name)s, the name of another account: "
    "players could take one for the other. Choose another."
)
EMAIL_TAKEN = gettext_lazy("An account with that email address already exists.")


def _username_errors(username: str, *, user=None) -> list[str]:
    try:
        validate_username(username)
    except ValidationError as error:
        return error.messages
    others = User.objects.exclude(pk=user.pk) if user is not None else User.objects.all()
    if others.filter(username__iexact=username).exists():
        return [str(USERNAME_TAKEN)]
    # One indexed lookup: every account's key is stored (User.username_skeleton).
    lookalike = others.filter(username_skeleton=username_skeleton(username)).first()
    if lookalike is not None:
        return [USERNAME_LOOKALIKE % {"name": lookalike.username}]
    return []


def username_check(*, username: str, user=None) -> None:
    """Refuse (ValidationError) a name that is malformed, reserved, taken, or looks like
    another account's; ``user`` is the account being renamed, None for a new one."""
    errors = _username_errors(username, user=user)
    if errors:
        raise ValidationError(errors, code="username")


def _registration_errors(*, username: str, email: str, password: str) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    username_errors = _username_errors(username)
    if username_errors:
        errors["username"] = username_errors
    # The address is optional (without one, a forgotten password cannot be reset).
    try:
        if email:
            # The model field's validators: the address's form and the column's length.
            User._meta.get_field("email").run_validators(email)
    except ValidationError as error:
        errors["email"] = error.messages
    else:
        if email and User.objects.filter(email__iexact=email).exists():
            errors["email"] = [EMAIL_TAKEN]
    try:
        validate_password(password, user=User(username=username, email=email))
    except ValidationError as error:
        errors["password"] = error.messages
    return errors


def user_register(*, username: str, email: str, password: str) -> User:
    """Create a player account, or raise ValidationError (keyed by field) and create nothing."""
    username = username.strip()
    email = User.objects.normalize_email(email.strip())
    errors = _registration_errors(username=username, email=email, password=password)
    if errors:
        raise ValidationError(errors)
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        # Someone registered the same name, a look-alike or the same address between our
        # check and our insert: the unique indexes refused the second.
        errors = _registration_errors(username=username, email=email, password=password)
        raise ValidationError(errors or {"username": [USERNAME_TAKEN]}) from None


def bot_ensure(*, level: str) -> User:
    """The house bot playing at ``level``, created on first use; it can never log in."""
    level = User.BotLevel(level)
    name = BOT_USERNAMES[level]
    try:
        bot, _created = User.objects.get_or_create(
            username=name,
            defaults={"is_bot": True, "bot_level": level, "password": make_password(None)},
        )
    except IntegrityError:
        bot = User.objects.filter(username__iexact=name).first()
        if bot is None:
            holder = User.objects.get(username_skeleton=username_skeleton(name))
            raise ValueError(
                f"The account {holder.username!r} looks like the {level} bot's name {name!r}."
            ) from None
    if not bot.is_bot or bot.bot_level != level:
        raise ValueError(f"The account {bot.username!r} exists and is not the {level} bot.")
    return bot


# --------------------------------------------------------------------------- preferences


def _preference_value(name: str, raw):
    """One preference from form or JSON input, or ValidationError."""
    field = Preferences._meta.get_field(name)
    if isinstance(field, models.BooleanField):
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in {"1", "true", "on", "yes"}:
            return True
        if text in {"0", "false", "off", "no", ""}:
            return False
        message = _("%(name)s: expected true or false, got %(value)s.")
        raise ValidationError({name: [message % {"name": name, "value": repr(raw)}]})
    value = str(raw)
    if not field.choices:  # free text with validators: the time zone
        try:
            field.run_validators(value)
        except ValidationError as error:
            raise ValidationError({name: error.messages}) from None
        return value
    if value not in {choice for choice, _label in field.choices}:
        allowed = ", ".join(repr(choice) for choice, _label in field.choices)
        message = _("%(name)s: expected one of %(allowed)s, got %(value)s.")
        raise ValidationError(
            {name: [message % {"name": name, "allowed": allowed, "value": repr(raw)}]}
        )
    return value


def preferences_save(*, user, changes: dict) -> Preferences:
    """Save any subset of the preferences; unknown keys or bad values change nothing."""
    unknown = sorted(set(changes) - set(Preferences.FIELDS))
    if unknown:
        message = _("Unknown preference: %(names)s.") % {"names": ", ".join(unknown)}
        raise ValidationError({"__all__": [message]})
    values = {name: _preference_value(name, raw) for name, raw in changes.items()}
    with transaction.atomic():
        prefs, _created = Preferences.objects.select_for_update().get_or_create(user=user)
        for name, value in values.items():
            setattr(prefs, name, value)
        prefs.save()
    return prefs


# --------------------------------------------------------------------------- vacation


def _vacation_told(user) -> None:
    """Once committed, the apps that keep clocks stop or start them (``vacation_changed``)."""
    transaction.on_commit(lambda: vacation_changed.send(sender=User, user=user))


def vacation_start(*, user, days) -> Preferences:
    """Go away for ``days`` whole days from now: the player's correspondence clocks stop
    until then. Charged to this year's allowance at once; ValidationError (nothing
    changed) for a number out of range, more than is left, or a vacation already on."""
    if isinstance(days, str) and days.strip().isdigit():
        days = int(days.strip())
    most = Preferences.VACATION_DAYS_AT_ONCE
    if type(days) is not int or not 1 <= days <= most:
        raise ValidationError(
            {"days": [_("Choose a whole number of days from 1 to %(most)s.") % {"most": most}]},
            code="vacation_days",
        )
    with transaction.atomic():
        prefs, _created = Preferences.objects.select_for_update().get_or_create(user=user)
        now = timezone.now()
        if prefs.away_until(now) is not None:
            raise ValidationError(
                {"days": [_("You are already away. Come back first to plan another vacation.")]},
                code="vacation_on",
            )
        left = prefs.vacation_days_left(now)
        if days > left:
            raise ValidationError(
                {
                    "days": [
                        ngettext(
                            "You have %(count)s day of vacation left this year.",
                            "You have %(count)s days of vacation left this year.",
                            left,
                        )
                        % {"count": left}
                    ]
                },
                code="vacation_allowance",
            )
        if prefs.vacation_year != now.year:
            prefs.vacation_year, prefs.vacation_days_used = now.year, 0
        prefs.vacation_days_used += days
        prefs.vacation_started_at = now
        prefs.vacation_until = now + timedelta(days=days)
        prefs.save()
        _vacation_told(user)
    return prefs


def vacation_end(*, user) -> Preferences:
    """Come back early: the clocks start again from where they stopped, and the whole
    days not begun go back to the allowance. ValidationError if not away."""
    with transaction.atomic():
        prefs, _created = Preferences.objects.select_for_update().get_or_create(user=user)
        now = timezone.now()
        if prefs.away_until(now) is None:
            raise ValidationError({"__all__": [_("You are not on vacation.")]}, code="vacation_off")
        unused = (prefs.vacation_until - now) // timedelta(days=1)
        if prefs.vacation_year == prefs.vacation_started_at.year:
            prefs.vacation_days_used = max(0, prefs.vacation_days_used - unused)
        prefs.vacation_until = now
        prefs.save()
        _vacation_told(user)
    return prefs


# --------------------------------------------------------------------------- following and blocking


def _other_player(user, username: str, yourself: str) -> User:
    """The active player called ``username`` (not ``user``), or ValidationError."""
    if user is None or not user.is_authenticated:
        raise ValidationError(_("Sign in first."), code="signed_out")
    other = User.objects.filter(username__iexact=str(username).strip(), is_active=True).first()
    if other is None:
        raise ValidationError(
            _("There is no player called %(name)s.") % {"name": repr(username)}, code="no_user"
        )
    if other.pk == user.pk:
        raise ValidationError(yourself, code="yourself")
    return other


def follow_set(*, user, username: str, on: bool = True) -> User:
    """Follow (or stop following) a player; the player followed. Following a player who
    blocked you, or whom you blocked, is refused."""
    other = _other_player(user, username, _("You cannot follow yourself."))
    if not on:
        Follow.objects.filter(follower=user, followed=other).delete()
        return other
    if Block.objects.filter(
        models.Q(blocker=other, blocked=user) | models.Q(blocker=user, blocked=other)
    ).exists():
        raise ValidationError(
            _("You cannot follow %(name)s.") % {"name": other.username}, code="blocked"
        )
    Follow.objects.get_or_create(follower=user, followed=other)
    return other


def block_set(*, user, username: str, on: bool = True) -> User:
    """Block (or unblock) a player: a blocked player's challenges, invitations and chat
    no longer reach you, and neither of you follows the other any more."""
    other = _other_player(user, username, _("You cannot block yourself."))
    if not on:
        Block.objects.filter(blocker=user, blocked=other).delete()
        return other
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(
            models.Q(follower=user, followed=other) | models.Q(follower=other, followed=user)
        ).delete()
        transaction.on_commit(lambda: player_blocked.send(sender=User, blocker=user, blocked=other))
    return other


# --------------------------------------------------------------------------- e-mail address


def _email_change_hash(token: str) -> str:
    """The stored form of a link's token: SHA-256 (256 random bits need no slow hash)."""
    return hashlib.sha256(token.encode()).hexdigest()


def email_change_token(*, user, new_email: str) -> str:
    """A pending change to ``new_email`` and the token of the link confirming it.

    The token is random and opaque: the row it names (by its hash) holds the user and
    both addresses, so a link copied into a log, a browser's history or a referrer tells
    nothing. Its old address makes the link single-use: once the change is made it no
    longer matches.
    """
    new_email = User.objects.normalize_email(new_email.strip())
    User._meta.get_field("email").run_validators(new_email)
    if User.objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists():
        raise ValidationError({"email": [EMAIL_TAKEN]})
    if new_email.lower() == user.email.lower():
        raise ValidationError({"email": [_("That is already your address.")]})
    # Rows long past their link's life only keep addresses: a link that old reads "not
    # valid" rather than "expired".
    forgotten = timezone.now() - timedelta(seconds=2 * max(settings.EMAIL_CHANGE_TIMEOUT, 0))
    EmailChange.objects.filter(created_at__lt=forgotten).delete()
    token = secrets.token_urlsafe(32)
    EmailChange.objects.create(
        user=user,
        token_hash=_email_change_hash(token),
        old_email=user.email,
        new_email=new_email,
    )
    return token


def email_change_confirm(*, token: str) -> User:
    """Apply a confirmed address change, or raise ValidationError (expired, used, forged)."""
    with transaction.atomic():
        change = (
            EmailChange.objects.select_for_update()
            .filter(token_hash=_email_change_hash(token))
            .first()
        )
        if change is None:
            raise ValidationError(_("This confirmation link is not valid."))
        age = (timezone.now() - change.created_at).total_seconds()
        if change.used_at is None and age > settings.EMAIL_CHANGE_TIMEOUT:
            raise ValidationError(_("This confirmation link has expired: ask for a new one."))
        user = User.objects.select_for_update().filter(pk=change.user_id, is_active=True).first()
        if change.used_at is not None or user is None or user.email != change.old_email:
            raise ValidationError(_("This confirmation link has already been used."))
        if User.objects.filter(email__iexact=change.new_email).exclude(pk=user.pk).exists():
            raise ValidationError(EMAIL_TAKEN)
        user.email = change.new_email
        user.save(update_fields=["email"])
        change.used_at = timezone.now()
        change.save(update_fields=["used_at"])
    return user


# --------------------------------------------------------------------------- password

PASSWORD_WRONG = gettext_lazy("That is not your password.")
PASSWORD_THROTTLED = gettext_lazy(
    "Too many wrong passwords: wait %(minutes)s minutes and try again."
)


def password_confirm(*, user, password: str, address: str = "") -> None:
    """Refuse (ValidationError on ``password``) a wrong password before a sensitive change.

    Asking for it again means a session left open or stolen cannot turn two-factor on or
    off, close the account or make API tokens. Wrong passwords count with the login
    form's (per name and address), so the form is no faster way to guess it.
    """
    if throttle.login_blocked(username=user.username, address=address):
        message = PASSWORD_THROTTLED % {"minutes": throttle.window_minutes()}
        raise ValidationError({"password": [message]})
    if not user.check_password(password):
        throttle.login_failure_record(username=user.username, address=address)
        raise ValidationError({"password": [PASSWORD_WRONG]})


# --------------------------------------------------------------------------- two-factor

RECOVERY_CODES = 10


def two_factor_device(user) -> TOTPDevice | None:
    """The player's confirmed authenticator, if two-factor sign-in is on."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).first()


def two_factor_start(*, user) -> TOTPDevice:
    """A fresh, unconfirmed authenticator secret to show as a QR code."""
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name="Authenticator", confirmed=False)


def two_factor_confirm(*, user, password: str, code: str, address: str = "") -> list[str]:
    """Turn two-factor on once the password is right and the app's first code matches;
    returns the recovery codes. Raises ValidationError (keyed by field) and changes nothing
    otherwise."""
    password_confirm(user=user, password=password, address=address)
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=False).first()
        if device is None:
            raise ValidationError({"code": [_("Start again: scan a new QR code.")]})
        try:
            verified = _device_verify(device, code)
        except ValidationError as error:
            raise ValidationError({"code": error.messages}) from None
        if not verified:
            raise ValidationError({"code": [TWO_FACTOR_WRONG]})
        TOTPDevice.objects.filter(user=user, confirmed=True).delete()
        device.confirmed = True
        device.save()
        StaticDevice.objects.filter(user=user).delete()
        recovery = StaticDevice.objects.create(user=user, name="Recovery codes")
        codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
        recovery.token_set.bulk_create([StaticToken(device=recovery, token=c) for c in codes])
    return codes


TWO_FACTOR_WRONG = gettext_lazy("That code is not right (or was used already).")
TWO_FACTOR_THROTTLED = gettext_lazy("Too many wrong codes: wait %(seconds)s seconds and try again.")


def _device_verify(device, code: str) -> bool:
    """django-otp's check, with its throttle (each failure doubles the wait)."""
    allowed, details = device.verify_is_allowed()
    if not allowed:
        wait = 1
        if details and details.get("locked_until"):
            wait = max(1, int((details["locked_until"] - timezone.now()).total_seconds()))
        raise ValidationError(TWO_FACTOR_THROTTLED, params={"seconds": wait}, code="throttled")
    return device.verify_token(code.replace(" ", "").strip())


def two_factor_verify(*, user, code: str):
    """The device that accepts ``code`` (the app's code or a recovery code), or ValidationError."""
    code = (code or "").replace(" ", "").strip()
    if not code:
        raise ValidationError(_("Enter the code from your authenticator app or a recovery code."))
    totp = two_factor_device(user)
    if totp is None:
        raise ValidationError(_("Two-factor sign-in is off for this account."))
    if code.isdigit():
        if _device_verify(totp, code):
            return totp
    else:
        for device in StaticDevice.objects.filter(user=user):
            if _device_verify(device, code):
                return device
        # A wrong recovery code costs the authenticator's throttle too.
        totp.throttle_increment()
    raise ValidationError(TWO_FACTOR_WRONG)


def two_factor_disable(*, user, password: str, code: str, address: str = "") -> None:
    """Turn two-factor off: needs the password and a current code."""
    password_confirm(user=user, password=password, address=address)
    try:
        two_factor_verify(user=user, code=code)
    except ValidationError as error:
        raise ValidationError({"code": error.messages}) from None
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


# --------------------------------------------------------------------------- closing


def account_close(*, user, password: str, code: str = "", address: str = "") -> User:
    """Close the account for good, or raise ValidationError and change nothing.

    The name stays (history reads right, nobody can take it); the address, password,
    preferences, follows and blocks, authenticators and sessions go. Open tables and
    challenges are cancelled, running games resigned, upcoming and running tournaments
    left, and the account drops off the leaderboards (inactive).
    """
    password_confirm(user=user, password=password, address=address)
    if two_factor_device(user) is not None:
        try:
            two_factor_verify(user=user, code=code)
        except ValidationError as error:
            raise ValidationError({"code": error.messages}) from None

    # Games and tournaments end what the player still has running (accounts.hooks).
    account_closing.send(sender=User, user=user)

    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        user.email = ""
        user.first_name = user.last_name = ""
        user.set_unusable_password()
        user.is_active = False
        user.closed_at = timezone.now()
        user.save()
        Preferences.objects.filter(user=user).delete()
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
        EmailChange.objects.filter(user=user).delete()
        # Whom they followed and blocked, and who followed them: gone with the account.
        Follow.objects.filter(models.Q(follower=user) | models.Q(followed=user)).delete()
        Block.objects.filter(blocker=user).delete()
        _sessions_end(user)
    return user


def _sessions_end(user) -> None:
    """End every session signed in as ``user`` (database sessions hold the user id)."""
    from django.contrib.auth import SESSION_KEY
    from django.contrib.sessions.models import Session

    doomed = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get(SESSION_KEY) == str(user.pk):
            doomed.append(session.pk)
    Session.objects.filter(pk__in=doomed).delete()
