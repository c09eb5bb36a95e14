"""Error messages are for people, in the request's language; codes are for programs and
never change with it."""

from __future__ import annotations

import pytest

from tests.api.conftest import Api

pytestmark = pytest.mark.django_db


def test_codes_stay_english_whatever_the_language(client, make_player, make_token):
    _, secret = make_token(make_player(), "read")
    for language in ("en", "de"):
        headers = {"HTTP_ACCEPT_LANGUAGE": language}
        missing = client.get("/api/games/999999", **headers)
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        anonymous = client.get("/api/account", **headers)
        assert anonymous.status_code == 401 and anonymous.json()["code"] == "unauthorized"
        refused = client.post(
            "/api/games/1/resign", HTTP_AUTHORIZATION=f"Bearer {secret}", **headers
        )
        assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"


def test_a_missing_scope_is_named_as_the_token_page_names_it(client, make_player, make_token):
    _, secret = make_token(make_player(), "read")
    refused = Api(client, secret).post("/games/1/resign")
    assert refused.json() == {
        "code": "missing_scope",
        "message": "this token lacks the 'play' scope",
    }
