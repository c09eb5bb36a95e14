"""Error reports (Sentry's SDK) are off by default and scrubbed when on."""

import json

from kit import errors
from tests.site.conftest import clean_env, manage, probe


def test_error_reporting_is_off_without_a_dsn():
    result = manage(
        "shell", "-c", "import sentry_sdk; print(sentry_sdk.is_initialized())", env=clean_env()
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "False"


def test_error_reporting_starts_with_a_dsn():
    dsn = "https://public@errors.example.org/1"
    result = manage(
        "shell",
        "-c",
        "import sentry_sdk; c = sentry_sdk.get_client();"
        " print(sentry_sdk.is_initialized(), c.options['send_default_pii'],"
        " c.options['before_send'].__module__, c.options['before_breadcrumb'].__module__)",
        env=clean_env(SENTRY_DSN=dsn),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-4:] == ["True", "False", *["kit.errors"] * 2]


def test_a_report_loses_cookies_bodies_local_variables_and_game_data():
    event = {
        "request": {
            "url": "https://topiary.example.org/game/7/move",
            "cookies": {"sessionid": "secret-session"},
            "data": {"move": "R3"},
            "headers": {"Cookie": "sessionid=secret-session", "User-Agent": "test"},
        },
        "exception": {
            "values": [
                {"stacktrace": {"frames": [{"function": "play", "vars": {"state": "hands R3"}}]}}
            ]
        },
        "extra": {"state": {"hands": [["R3"]]}, "game_id": 7},
        "user": {"id": 5, "email": "ann@example.com", "ip_address": "10.0.0.1"},
    }
    scrubbed = errors.scrub(event)
    text = repr(scrubbed)
    assert "secret-session" not in text and "R3" not in text
    assert "ann@example.com" not in text and "10.0.0.1" not in text
    assert scrubbed["request"]["url"] == "https://topiary.example.org/game/7/move"
    assert scrubbed["request"]["headers"]["User-Agent"] == "test"
    assert scrubbed["extra"]["game_id"] == 7
    assert scrubbed["user"] == {"id": 5}


RESET_PATH = "/accounts/password/reset/OTg3NjU0MzIx/cz8q1x-4e1f0c2a9b7d6e5f4a3b/"
CONFIRM_PATH = "/account/email/confirm/q3vV7mZ2LkPwXyT9eRb0sNcHdJfGuAiO1Ek4lMn6pQo/"
ADDRESS = "olive.grove@old-garden.example"
SECRETS = (
    "OTg3NjU0MzIx",
    "cz8q1x-4e1f0c2a9b7d6e5f4a3b",
    "q3vV7mZ2LkPwXyT9eRb0sNcHdJfGuAiO1Ek4lMn6pQo",
)


def test_a_report_masks_links_addresses_and_tokens_wherever_they_are():
    host = "https://topiary.example.org"
    event = {
        "request": {
            "url": host + CONFIRM_PATH,
            "query_string": "token=query-secret&next=/",
            "headers": {
                "Referer": host + RESET_PATH,
                "Authorization": "Bearer tpy_secret",
                "User-Agent": "test",
            },
        },
        "logentry": {"message": "Bad Request: %s", "params": [CONFIRM_PATH]},
        "exception": {"values": [{"type": "ValueError", "value": f"no account for {ADDRESS}"}]},
        "breadcrumbs": {
            "values": [
                {"category": "topiary.requests", "message": f"GET {RESET_PATH} 302"},
                {"category": "httplib", "data": {"url": host + CONFIRM_PATH}},
                {"category": "mail", "message": f"to {ADDRESS.replace('@', '%40')}"},
            ]
        },
        "transaction": "/account/email/confirm/{token}/",
    }
    scrubbed = errors.scrub(event)
    text = repr(scrubbed)
    for secret in (*SECRETS, ADDRESS, "query-secret", "tpy_secret", "olive.grove"):
        assert secret not in text
    assert scrubbed["request"]["url"] == host + "/account/email/confirm/<token>/"
    referer = scrubbed["request"]["headers"]["Referer"]
    assert referer == host + "/accounts/password/reset/<uidb64>/<token>/"
    assert scrubbed["request"]["query_string"] == "token=[scrubbed]&next=/"
    assert scrubbed["exception"]["values"][0]["value"] == "no account for [email]"
    assert scrubbed["breadcrumbs"]["values"][0]["message"].startswith("GET /accounts/password/")
    assert scrubbed["request"]["headers"]["User-Agent"] == "test"


SENT_BY_THE_SDK = """
import json, logging
import django
django.setup()
import sentry_sdk
from sentry_sdk.transport import Transport

sent = []


class Keep(Transport):
    def capture_envelope(self, envelope):
        sent.extend(item.payload.json for item in envelope.items)


client = sentry_sdk.get_client()
client.transport = Keep(client.options)
logging.getLogger("topiary.requests").info("GET %s 302", RESET_PATH)
sentry_sdk.add_breadcrumb(category="httplib", data={"url": "https://h.example" + CONFIRM_PATH})
try:
    raise ValueError("no account for " + ADDRESS)
except ValueError:
    sentry_sdk.capture_exception()
sentry_sdk.flush()
print(json.dumps(sent))
"""


def test_the_sdk_sends_breadcrumbs_and_errors_scrubbed():
    """The real SDK, wired by the settings, keeps a log line and a request as breadcrumbs and
    sends an error: what it would send holds no link, token or address."""
    code = f"RESET_PATH, CONFIRM_PATH, ADDRESS = {RESET_PATH!r}, {CONFIRM_PATH!r}, {ADDRESS!r}\n"
    sent = probe(code + SENT_BY_THE_SDK, SENTRY_DSN="https://public@errors.example.org/1")
    (event,) = [item for item in sent if item.get("exception")]
    text = json.dumps(event)
    for secret in (*SECRETS, ADDRESS):
        assert secret not in text
    crumbs = [
        crumb.get("message") or crumb["data"]["url"] for crumb in event["breadcrumbs"]["values"]
    ]
    assert "GET /accounts/password/reset/<uidb64>/<token>/ 302" in crumbs
    assert "https://h.example/account/email/confirm/<token>/" in crumbs
    assert event["exception"]["values"][0]["value"] == "no account for [email]"
