"""Writes to accounts: registration, bot accounts, demo accounts."""

from django.contrib.auth.hashers import make_password
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import User
from accounts.validators import validate_username

BOT_USERNAMES = {
    User.BotLevel.RANDOM: "RandomBot",
    User.BotLevel.GREEDY: "GreedyBot",
    User.BotLevel.STRONG: "StrongBot",
}

USERNAME_TAKEN = "That username is taken."
EMAIL_TAKEN = "An account with that email address already exists."


def _registration_errors(*, username: str, email: str, password: str) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    try:
        validate_username(username)
    except ValidationError as error:
        errors["username"] = error.messages
    else:
        if User.objects.filter(username__iexact=username).exists():
            errors["username"] = [USERNAME_TAKEN]
    try:
        if not email:
            raise ValidationError("Enter your email address.")
        # The model field's validators: the address's form and the column's length.
        User._meta.get_field("email").run_validators(email)
    except ValidationError as error:
        errors["email"] = error.messages
    else:
        if User.objects.filter(email__iexact=email).exists():
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
        # Someone registered the same name or address between our check and our insert.
        errors = _registration_errors(username=username, email=email, password=password)
        raise ValidationError(errors or {"username": [USERNAME_TAKEN]}) from None


def bot_ensure(*, level: str) -> User:
    """The house bot playing at ``level``, created on first use; it can never log in."""
    level = User.BotLevel(level)
    name = BOT_USERNAMES[level]
    try:
        bot, _ = User.objects.get_or_create(
            username=name,
            defaults={"is_bot": True, "bot_level": level, "password": make_password(None)},
        )
    except IntegrityError:
        bot = User.objects.get(username__iexact=name)
    if not bot.is_bot or bot.bot_level != level:
        raise ValueError(f"The account {bot.username!r} exists and is not the {level} bot.")
    return bot
