"""Error reports (Sentry's SDK) are off by default and scrubbed when on."""

from tests.site.conftest import clean_env, manage
from topiary_site import errors


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
        " c.options['before_send'].__module__)",
        env=clean_env(SENTRY_DSN=dsn),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-3:] == ["True", "False", "topiary_site.errors"]


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
