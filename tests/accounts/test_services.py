import pytest
from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts import services
from accounts.models import User

pytestmark = pytest.mark.django_db

GOOD_PASSWORD = "hedge-maze-42"


def register(**overrides) -> User:
    fields = {"username": "alice", "email": "alice@example.com", "password": GOOD_PASSWORD}
    return services.user_register(**{**fields, **overrides})


def errors_of(**overrides) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as caught:
        register(**overrides)
    return caught.value.message_dict


def test_registered_player_logs_in_with_any_case_of_their_name():
    user = register(username="Alice")
    assert not user.is_bot
    assert user.check_password(GOOD_PASSWORD)
    assert user.password != GOOD_PASSWORD
    assert authenticate(username="ALICE", password=GOOD_PASSWORD) == user
    assert authenticate(username="alice", password="wrong-password-1") is None


def test_username_taken_in_another_case_is_refused_and_nothing_created():
    register(username="Alice")
    errors = errors_of(username="aLiCe", email="other@example.com")
    assert errors == {"username": ["That username is taken."]}
    assert User.objects.count() == 1


def test_email_taken_in_another_case_is_refused():
    register()
    errors = errors_of(username="bob", email="ALICE@Example.COM")
    assert errors == {"email": ["An account with that email address already exists."]}
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("password", "expected"),
    [
        ("short1!", "This password is too short. It must contain at least 8 characters."),
        ("password", "This password is too common."),
        ("8374659120", "This password is entirely numeric."),
        ("alice_plays", "The password is too similar to the username."),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(password, expected):
    errors = errors_of(username="alice_plays", password=password)
    assert expected in errors["password"]
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("username", "reason"),
    [
        ("al", "A username has 3 to 20 characters."),
        ("a" * 21, "A username has 3 to 20 characters."),
        ("al ice", "A username uses only letters A-Z"),
        ("_alice", "A username uses only letters A-Z"),
        ("ålice", "A username uses only letters A-Z"),
        ("al<b>", "A username uses only letters A-Z"),
        ("strongbot", "That username is reserved"),
        ("GreedyBot12", "That username is reserved"),
    ],
)
def test_bad_usernames_are_refused_with_the_rule(username, reason):
    errors = errors_of(username=username)
    assert errors["username"][0].startswith(reason)
    assert not User.objects.exists()


@pytest.mark.parametrize("email", ["alice", "alice@", "alice@example..com", "a" * 250 + "@x.io"])
def test_bad_emails_are_refused(email):
    errors = errors_of(email=email)
    assert errors["email"]
    assert not User.objects.exists()


def test_every_problem_is_reported_at_once():
    errors = errors_of(username="x", email="nope", password="123")
    assert set(errors) == {"username", "email", "password"}


def test_database_refuses_names_and_emails_differing_only_in_case():
    """The constraint, not just the check, guards against two registrations racing."""
    User.objects.create_user(username="alice", email="alice@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="ALICE", email="other@example.com")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="bob", email="Alice@Example.com")
    # Accounts without an email (bots) do not collide with each other.
    User.objects.create_user(username="carol")
    User.objects.create_user(username="dave")


@pytest.mark.parametrize("level", list(User.BotLevel))
def test_bot_ensure_creates_each_level_once_and_it_cannot_log_in(level):
    bot = services.bot_ensure(level=level)
    assert bot.is_bot
    assert bot.bot_level == level
    assert bot.username == services.BOT_USERNAMES[level]
    assert not bot.has_usable_password()
    assert services.bot_ensure(level=level).pk == bot.pk
    assert User.objects.filter(is_bot=True).count() == 1


def test_bot_ensure_will_not_turn_a_person_into_a_bot():
    person = User.objects.create_user(username="GreedyBot", password=GOOD_PASSWORD)
    with pytest.raises(ValueError, match="not the greedy bot"):
        services.bot_ensure(level="greedy")
    person.refresh_from_db()
    assert not person.is_bot


def test_bot_ensure_refuses_an_unknown_level():
    with pytest.raises(ValueError):
        services.bot_ensure(level="grandmaster")
    assert not User.objects.exists()
