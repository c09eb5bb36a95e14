"""Every log line is scrubbed whoever wrote it: a fresh process with production's JSON
format logs what Django, uvicorn and our code may log, and no secret comes out."""

import json
import subprocess
import sys

from django.conf import settings

from tests.site.conftest import clean_env
from tests.support.servers import ROOT

UID, TOKEN = "OTg3NjU0MzIx", "cz8q1x-4e1f0c2a9b7d6e5f4a3b"
CONFIRM = "q3vV7mZ2LkPwXyT9eRb0sNcHdJfGuAiO1Ek4lMn6pQo"
ADDRESS = "olive.grove@old-garden.example"
SESSION = "k2x9v4w7q1z8m3n6b5c0p2r7t4y9u1i3"

LOGGED = f"""
import logging
import django
django.setup()
from django.test import RequestFactory

request = RequestFactory().get("/account/email/confirm/{CONFIRM}/")
logging.getLogger("django.request").warning(
    "Bad Request: %s", request.path, extra={{"status_code": 400, "request": request}}
)
reset = "/accounts/password/reset/{UID}/{TOKEN}/"
logging.getLogger("topiary.requests").info("GET %s 302", reset[:-1], extra={{"path": reset}})
logging.getLogger("uvicorn.error").warning("headers: Authorization: Bearer tpy_{CONFIRM}")
logging.getLogger("django.security.csrf").warning(
    "Forbidden (Referer checking failed - https://x.example/account/email/confirm/{CONFIRM}/ "
    "does not match any trusted origins.): /accounts/login/"
)
logging.getLogger("games").info(
    "cookie sessionid={SESSION}; csrftoken=abc", extra={{"to": ["{ADDRESS}"]}}
)
try:
    raise ValueError("no account for {ADDRESS}")
except ValueError:
    logging.getLogger("accounts").exception("mail failed")
"""


def test_every_handler_runs_the_scrubber():
    handlers = settings.LOGGING["handlers"]
    assert handlers
    assert all("scrub" in handler.get("filters", []) for handler in handlers.values())


def test_json_lines_hold_no_link_token_address_or_session_id():
    result = subprocess.run(
        [sys.executable, "-c", LOGGED],
        cwd=ROOT,
        env=clean_env(DJANGO_SETTINGS_MODULE="topiary_site.settings", LOG_FORMAT="json"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines()]
    assert len(lines) == 6
    for secret in (UID, TOKEN, CONFIRM, ADDRESS, SESSION, "olive.grove"):
        assert secret not in result.stderr
    by_logger = {line["logger"]: line for line in lines}
    assert by_logger["django.request"]["message"] == "Bad Request: /account/email/confirm/<token>/"
    assert by_logger["django.request"]["status_code"] == 400
    assert "/account/email/confirm/<token>/" in by_logger["django.request"]["request"]
    assert by_logger["topiary.requests"]["path"] == "/accounts/password/reset/<uidb64>/<token>/"
    assert by_logger["uvicorn.error"]["message"] == "headers: Authorization: Bearer [scrubbed]"
    assert by_logger["games"]["to"] == ["[email]"]
    assert "sessionid=[scrubbed]" in by_logger["games"]["message"]
    assert "ValueError: no account for [email]" in by_logger["accounts"]["exc_info"]
