"""The admin pages for push subscriptions, alerts, follows and blocks."""

from __future__ import annotations

import pytest

from accounts.models import Block, Follow
from alerts.models import Alert, PushSubscription

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

ENDPOINT = "https://push.example.net/send/sEcReT-EnDpOiNt-1234"
P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"
AUTH = "tBHItJI5svbpez7KI4CCXg"


@pytest.fixture
def staff_client(client, make_player):
    moderator = make_player("moderator")
    moderator.is_staff = moderator.is_superuser = True
    moderator.save()
    client.force_login(moderator)
    return client


def test_a_push_subscription_is_listed_and_deleted_but_its_secrets_never_shown(
    staff_client, make_player
):
    player = make_player("pushy")
    subscription = PushSubscription.objects.create(
        user=player, endpoint=ENDPOINT, p256dh=P256DH, auth=AUTH, label="Firefox on Linux"
    )
    pages = [
        staff_client.get("/admin/alerts/pushsubscription/"),
        staff_client.get(f"/admin/alerts/pushsubscription/{subscription.pk}/change/"),
        staff_client.get(f"/admin/alerts/pushsubscription/{subscription.pk}/delete/"),
    ]
    for page in pages:
        body = page.content.decode()
        assert page.status_code == 200
        assert "pushy" in body or "Push subscription" in body
        for secret in ("sEcReT-EnDpOiNt", P256DH, AUTH):
            assert secret not in body
    assert "pushy" in pages[0].content.decode()
    assert subscription.endpoint_digest in pages[1].content.decode()
    # Read-only: a forged change leaves the endpoint as it was; delete works.
    staff_client.post(
        f"/admin/alerts/pushsubscription/{subscription.pk}/change/",
        {"user": player.pk, "label": "x", "endpoint": "https://evil.example/"},
    )
    subscription.refresh_from_db()
    assert subscription.endpoint == ENDPOINT and subscription.label == "Firefox on Linux"
    staff_client.post(f"/admin/alerts/pushsubscription/{subscription.pk}/delete/", {"post": "yes"})
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_moderators_find_follows_blocks_and_alerts_by_player(staff_client, make_player):
    ann, bob, cat = make_player("ann"), make_player("bob"), make_player("cat")
    Follow.objects.create(follower=ann, followed=bob)
    Block.objects.create(blocker=cat, blocked=bob)
    Alert.objects.create(user=ann, event="turn", subject=7, ply=3)
    follows = staff_client.get("/admin/accounts/follow/", {"q": "ann"}).content.decode()
    assert "ann" in follows and "bob" in follows
    blocks = staff_client.get("/admin/accounts/block/", {"q": "cat"}).content.decode()
    assert "cat" in blocks and "bob" in blocks
    assert "ann" not in staff_client.get("/admin/accounts/block/", {"q": "cat"}).content.decode()
    alerts = staff_client.get("/admin/alerts/alert/", {"event__exact": "turn"}).content.decode()
    assert "ann" in alerts and "1 alert" in alerts
