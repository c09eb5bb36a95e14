"""Names a reader could take for another's (Unicode TR39 skeletons, 0/O, 1/l/I, case)
are refused wherever a name is chosen, and the database refuses them even in a race."""

import io
import threading

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from accounts import services
from accounts.models import User
from accounts.validators import username_skeleton

pytestmark = pytest.mark.django_db

PASSWORD = "hedge-maze-42"


def register(username: str, email: str = "") -> User:
    return services.user_register(username=username, email=email, password=PASSWORD)


def refusal(username: str) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        register(username)
    return caught.value.message_dict["username"]


@pytest.mark.parametrize(
    "username", ["StrongB0t", "Str0ngBot", "STRONGBOT", "StrongBot2", "RandornBot", "Rand0mB0t10"]
)
def test_house_bot_lookalikes_are_reserved_before_the_bots_exist(username):
    assert refusal(username)[0].startswith("That username is reserved")
    assert not User.objects.exists()


def test_a_name_a_reader_tells_apart_is_free():
    # 3 is no E to TR39, and "_" no gap.
    assert register("Gr33dyBot").username == "Gr33dyBot"
    assert register("Strong_Bot").username == "Strong_Bot"


@pytest.mark.parametrize("username", ["Admin", "adm1n", "ADMlN", "T0PIARY", "toplary"])
def test_staff_names_and_their_lookalikes_are_reserved(username):
    assert refusal(username)[0].startswith("That username is reserved")


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [
        ("Hedge0", "HedgeO"),  # zero and O
        ("hedgeo", "HEDGE0"),  # and across case
        ("Ivy1", "lvyl"),  # 1, l and I
        ("ivy_1", "IVY_l"),
        ("marigold", "rnarigold"),  # m and rn
        ("Mallow", "rnallow"),
    ],
)
def test_a_name_like_an_existing_players_is_refused_with_its_name(existing, lookalike):
    register(existing)
    assert refusal(lookalike) == [
        f"That username looks too much like {existing}, the name of another account: "
        "players could take one for the other. Choose another."
    ]
    assert list(User.objects.values_list("username", flat=True)) == [existing]


def test_a_name_like_a_bot_or_staff_account_is_refused():
    User.objects.create_user(username="HedgeBot", is_bot=True, bot_level=User.OUTSIDE_BOT_LEVEL)
    User.objects.create_user(username="Willow", is_staff=True)
    assert "HedgeBot" in refusal("HedgeB0t")[0]
    assert "Willow" in refusal("WiIlow")[0]
    assert register("Willow_Bot").username == "Willow_Bot"


def test_the_database_refuses_a_lookalike_whatever_the_path():
    User.objects.create_user(username="Hedge0")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="HEDGEO")
    renamed = User.objects.create_user(username="Yew")
    renamed.username = "hedgeo"
    with pytest.raises(IntegrityError), transaction.atomic():
        renamed.save()


def test_the_register_page_says_why(client):
    register("Rowan1")
    response = client.post(
        "/accounts/register/",
        {"username": "RowanI", "password": PASSWORD, "password_confirm": PASSWORD},
    )
    assert response.status_code == 200
    assert "looks too much like Rowan1" in response.text
    assert not User.objects.filter(username="RowanI").exists()


def test_the_admin_refuses_a_lookalike_new_name_or_rename(admin_client):
    User.objects.create_user(username="Box0")
    yew = User.objects.create_user(username="Yew")
    created = admin_client.post(
        "/admin/accounts/user/add/",
        {"username": "BoxO", "password1": "", "password2": "", "usable_password": "false"},
    )
    assert "looks too much like Box0" in created.text
    assert not User.objects.filter(username="BoxO").exists()
    change = f"/admin/accounts/user/{yew.pk}/change/"
    fields = {"username": "BoxO", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    renamed = admin_client.post(change, fields)
    assert "looks too much like Box0" in renamed.text
    yew.refresh_from_db()
    assert yew.username == "Yew"
    # A save that keeps the name is no rename: nothing to refuse.
    kept = admin_client.post(change, {**fields, "username": "Yew"})
    assert kept.status_code == 302


def test_seed_demo_will_not_create_a_bot_whose_name_a_person_already_looks_like():
    User.objects.create_user(username="StrongB0t")
    with pytest.raises(ValueError, match="'StrongB0t' looks like the strong bot's name"):
        call_command("seed_demo", "--bots-only", stdout=io.StringIO())
    assert not User.objects.filter(is_bot=True, bot_level="strong").exists()


def test_the_migration_gives_the_oldest_of_lookalike_names_the_key():
    executor = MigrationExecutor(connection)
    before = executor.loader.graph.node_map[("accounts", "0006_username_skeleton")].parents
    executor.migrate([parent.key for parent in before])
    old_apps = executor.loader.project_state([p.key for p in before]).apps
    OldUser = old_apps.get_model("accounts", "User")
    bot = OldUser.objects.create(username="StrongBot", is_bot=True, bot_level="strong")
    person = OldUser.objects.create(username="StrongB0t")
    other = OldUser.objects.create(username="Bramble")

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    keys = dict(User.objects.values_list("pk", "username_skeleton"))
    assert keys == {bot.pk: "strongbot", person.pk: None, other.pk: username_skeleton("Bramble")}
    # The younger name keeps working: saving it is no rename.
    younger = User.objects.get(pk=person.pk)
    younger.first_name = "Still here"
    younger.save()
    assert "Bramble" in refusal("Bramb1e")[0]


@pytest.mark.django_db(transaction=True)
def test_two_registrations_at_once_on_two_connections_one_wins(monkeypatch):
    """Both check before either inserts (a barrier holds them), as two requests could."""
    barrier = threading.Barrier(2, timeout=10)
    looks = services._username_errors
    waited = threading.local()

    def check_then_wait(username, **kwargs):
        errors = looks(username, **kwargs)
        # Only the first check waits; the re-check after a refused insert goes straight on.
        if not getattr(waited, "once", False):
            waited.once = True
            barrier.wait()
        return errors

    monkeypatch.setattr(services, "_username_errors", check_then_wait)
    outcomes = {}

    def attempt(username):
        try:
            outcomes[username] = register(username).username
        except ValidationError as error:
            outcomes[username] = error.message_dict["username"][0]
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(name,)) for name in ("Sage0", "SageO")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(20)
    assert User.objects.count() == 1
    winner = User.objects.get().username
    loser = "SageO" if winner == "Sage0" else "Sage0"
    assert outcomes[winner] == winner
    assert outcomes[loser].startswith(f"That username looks too much like {winner}")
