"""Issue 40's "done when": the password-reset and e-mail-change flows run against the real
web process writing production's JSON logs, then every log the servers and this process
wrote is searched for what was secret in them: none of it is there."""

from __future__ import annotations

import json
import logging
import re

import pytest
from django.utils.http import urlsafe_base64_encode

from tests.support import servers
from tests.support.http import Session
from tests.support.players import create_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

NEW_PASSWORD = "topiary-spiral-77"
OLD_ADDRESS = "olive.grove@old-garden.example"
NEW_ADDRESS = "olive.grove@new-garden.example"
#: An id whose reset ``uid`` (its base64) is long enough to search for on its own.
OLIVE_ID = 987654321
METRICS_TOKEN = "metrics-token-for-the-secrets-test"
API_SECRET = "tpy_NotARealTokenButShapedLikeOne0123456789abcdef"
QUERY_SECRET = "query-secret-4f9c2a7d"


@pytest.fixture(autouse=True)
def fast_password_hashing():
    """The server checks passwords with the real hashers, so these players store them so too."""


def link_in_mail(mail_dir, path_part: str) -> str:
    """The one link to ``path_part`` in the mails written so far."""
    found = {
        link
        for mail in mail_dir.iterdir()
        for link in re.findall(rf"http://\S+{re.escape(path_part)}\S*", mail.read_text())
    }
    assert len(found) == 1, found
    return found.pop()


def test_no_token_link_address_or_session_id_reaches_the_logs(
    server_env, server_logs, tmp_path, caplog
):
    caplog.set_level(logging.DEBUG)
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    env = {
        **server_env,
        "LOG_FORMAT": "json",
        "EMAIL_FILE_PATH": str(mail_dir),
        "METRICS_TOKEN": METRICS_TOKEN,
    }
    create_player("olive", OLD_ADDRESS, pk=OLIVE_ID)
    web, url = servers.start_web(env, server_logs)
    session_ids = set()
    try:
        browser = Session(url)

        # The password reset, from the request to the link used twice.
        assert browser.post("/accounts/password/reset/", {"email": OLD_ADDRESS}).status == 302
        reset_link = link_in_mail(mail_dir, "/accounts/password/reset/")
        reset_path = reset_link.removeprefix(url)
        uid, reset_token = reset_path.split("/")[-3:-1]
        assert uid == urlsafe_base64_encode(str(OLIVE_ID).encode())
        # A link pasted without its last slash is redirected; the redirect is logged too.
        assert browser.get(reset_path.rstrip("/")).status == 301
        opened = browser.get(reset_path)
        assert opened.status == 302
        form_path = opened.headers["Location"]
        assert browser.get(form_path).status == 200
        session_ids.add(browser.cookie("sessionid"))
        chosen = browser.post(
            form_path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
        )
        assert chosen.status == 302
        assert "does not work" in browser.get(reset_path).text

        # Signing in with the new password, then the address change, its link used twice.
        player = Session(url)
        signed_in = player.post("/accounts/login/", {"username": "olive", "password": NEW_PASSWORD})
        assert signed_in.status == 302
        session_ids.add(player.cookie("sessionid"))
        asked = player.post("/account/email/", {"email": NEW_ADDRESS, "password": NEW_PASSWORD})
        assert asked.status == 302
        confirm_link = link_in_mail(mail_dir, "/account/email/confirm/")
        confirm_path = confirm_link.removeprefix(url)
        change_token = confirm_path.split("/")[-2]
        confirmed = player.get(confirm_path)
        assert confirmed.status == 200 and NEW_ADDRESS in confirmed.text
        assert player.get(confirm_path).status == 400  # spent: Django logs "Bad Request"

        # Credentials in a header and in a query string.
        api = Session(url, headers={"Authorization": f"Bearer {API_SECRET}"})
        assert api.get("/api/account").status == 401
        assert browser.get(f"/?token={QUERY_SECRET}").status == 200

        metrics = Session(url, headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
        metrics_page = metrics.get("/metrics")
        assert metrics_page.status == 200
    finally:
        web.stop()

    session_ids.discard(None)
    assert len(session_ids) == 2
    secrets = {
        "the reset link": reset_link,
        "the reset path": reset_path,
        "the reset token": reset_token,
        "the reset uid": uid,
        "the confirmation link": confirm_link,
        "the confirmation token": change_token,
        "the old address": OLD_ADDRESS,
        "the new address": NEW_ADDRESS,
        "the API token": API_SECRET,
        "the query's token": QUERY_SECRET,
        **{f"session id {n}": value for n, value in enumerate(sorted(session_ids))},
    }
    logs = {path.name: path.read_text() for path in server_logs.glob("*.log")}
    logs["this test's own log"] = caplog.text
    logs["the metrics page"] = metrics_page.text
    found = [
        f"{what} in {where}"
        for what, secret in secrets.items()
        for where, text in logs.items()
        if secret in text
    ]
    assert found == []

    web_log = web.log()
    lines = [json.loads(line) for line in web_log.splitlines() if line.strip()]
    paths = {line.get("path") for line in lines if line.get("logger") == "topiary.requests"}
    # The flows were logged, each secret route as its route.
    assert "/accounts/password/reset/<uidb64>/<token>/" in paths
    assert "/account/email/confirm/<token>/" in paths
    assert any(
        line["logger"] == "django.request" and "/account/email/confirm/<token>/" in line["message"]
        for line in lines
    )
