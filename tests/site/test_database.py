"""The site's PostgreSQL connections: statements the site runs again and again are
prepared by the server once per pooled connection."""

import pytest
from django.db import connection

from accounts.models import User

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's connections"),
]


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


def test_a_query_run_again_and_again_is_prepared_on_its_connection():
    User.objects.create(username="prepared")
    for _ in range(4):
        assert User.objects.filter(username="prepared").count() == 1
    assert not any("accounts_user" in statement for statement in prepared_statements())
    for _ in range(2):
        assert User.objects.filter(username="prepared").count() == 1
    assert any("accounts_user" in statement for statement in prepared_statements())
