"""The alerts settings page, keeping and removing a browser, the test alert, bad input,
and the secrets of alerts (push endpoints, unsubscribe tokens) kept out of log lines."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from alerts import services
from alerts.models import AlertSettings, PushSubscription
from kit.logs import scrub_text
from tests.support.push_service import Browser

pytestmark = pytest.mark.django_db


def posted(client, subscription, label="Firefox · Linux"):
    return client.post(
        reverse("alerts:push_subscribe"),
        json.dumps({"subscription": subscription, "label": label}),
        content_type="application/json",
    )


def test_a_browser_is_kept_listed_tested_and_removed(
    client, make_player, push_service, tasks_at_once
):
    bob = make_player()
    client.force_login(bob)
    browser = push_service.browser("views-1")
    subscription = {"endpoint": browser.endpoint, "keys": browser.keys}
    answer = posted(client, subscription)
    assert answer.status_code == 200 and answer.json()["ok"]
    assert posted(client, subscription).status_code == 200  # the same browser again: one row
    (row,) = PushSubscription.objects.filter(user=bob)
    page = client.get(reverse("alerts:settings")).content.decode()
    assert "Firefox · Linux" in page and row.endpoint_digest in page
    assert browser.endpoint not in page and browser.keys["auth"] not in page
    assert services.vapid.public_key() in page

    client.post(reverse("alerts:push_test"))
    (test,) = push_service.alerts_to(browser)
    assert test["title"] == "A test alert from Topiary Online"

    other = make_player()
    client.force_login(other)
    client.post(reverse("alerts:push_remove", args=[row.pk]))
    assert PushSubscription.objects.filter(pk=row.pk).exists()  # not theirs
    client.force_login(bob)
    client.post(reverse("alerts:push_remove", args=[row.pk]))
    assert not PushSubscription.objects.filter(pk=row.pk).exists()


@pytest.mark.parametrize(
    "subscription",
    [
        None,
        {"endpoint": "https://push.example/1"},
        {"endpoint": "https://push.example/1", "keys": {"p256dh": "short", "auth": "x"}},
        {"endpoint": "ftp://push.example/1", "keys": Browser("").keys},
    ],
)
def test_what_is_not_a_subscription_is_refused_and_nothing_kept(client, make_player, subscription):
    client.force_login(make_player())
    answer = posted(client, subscription)
    assert answer.status_code == 400 and answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_email_choices_are_saved_and_visitors_are_sent_to_sign_in(client, make_player):
    assert client.get(reverse("alerts:settings")).status_code == 302
    bob = make_player()
    client.force_login(bob)
    client.post(reverse("alerts:settings"), {"email_turns": "digest", "email_clocks": "on"})
    saved = AlertSettings.objects.get(user=bob)
    assert saved.email_turns == "digest" and saved.email_clocks and not saved.email_games
    assert client.post(reverse("alerts:settings"), {"email_turns": "hourly"}).status_code == 400
    assert AlertSettings.objects.get(user=bob).email_turns == "digest"


def test_the_service_worker_is_served_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert b"notificationclick" in answer.content


def test_push_endpoints_and_unsubscribe_tokens_never_reach_a_log_line(make_player):
    token = services.unsubscribe_token(make_player(), "email_turns")
    line = f'"POST /alerts/unsubscribe/{token}/ HTTP/1.1" 200'
    assert token not in scrub_text(line)
    assert "/alerts/unsubscribe/<token>/" in scrub_text(line)
    for endpoint in (
        "https://fcm.googleapis.com/fcm/send/dGhpcyBpcyBub3QgcmVhbA:APA91bHun4MxP5eg",
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmSecretPart",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB%2bSecret",
        "https://web.push.apple.com/QGuQyavXutnMrRaRa0xSecret",
    ):
        secret = endpoint.rsplit("/", 1)[-1][-8:]
        assert secret not in scrub_text(f"push to {endpoint} failed"), endpoint


def test_the_export_names_the_browsers_without_their_secrets_and_closing_forgets_them(
    make_player, push_service
):
    import io
    import zipfile

    from accounts.selectors import export_archive
    from accounts.services import account_close
    from tests.alerts.conftest import subscribe
    from tests.support.players import PASSWORD

    bob = make_player()
    browser = push_service.browser("export-1")
    subscribe(bob, browser)
    archive = zipfile.ZipFile(io.BytesIO(export_archive(user=bob)))
    exported = json.loads(archive.read("alerts.json"))
    assert exported["browsers"][0]["label"] == "Test browser"
    assert exported["email"]["email_turns"] == "off"
    text = archive.read("alerts.json").decode()
    assert browser.endpoint not in text and browser.keys["p256dh"] not in text
    account_close(user=bob, password=PASSWORD)
    assert not PushSubscription.objects.filter(user=bob).exists()


def test_only_the_browsers_push_services_and_twenty_browsers_are_taken(make_player, settings):
    settings.PUSH_ALLOW_HTTP = False
    bob = make_player()
    keys = Browser("").keys
    for endpoint in (
        "http://127.0.0.1:6379/",
        "https://intranet.example/admin",
        "https://fcm.googleapis.com.evil.example/fcm/send/x",
        "http://fcm.googleapis.com/fcm/send/x",
    ):
        with pytest.raises(ValidationError):
            services.subscription_add(user=bob, subscription={"endpoint": endpoint, "keys": keys})
    for n in range(services.MAX_BROWSERS):
        services.subscription_add(
            user=bob,
            subscription={"endpoint": f"https://fcm.googleapis.com/fcm/send/b{n}", "keys": keys},
        )
    services.subscription_add(  # one of them again: still twenty
        user=bob,
        subscription={"endpoint": "https://fcm.googleapis.com/fcm/send/b0", "keys": keys},
    )
    with pytest.raises(ValidationError):
        services.subscription_add(
            user=bob,
            subscription={
                "endpoint": "https://updates.push.services.mozilla.com/wpush/v2/x",
                "keys": keys,
            },
        )
    assert PushSubscription.objects.filter(user=bob).count() == services.MAX_BROWSERS
