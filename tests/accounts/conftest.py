import ipaddress
import uuid

import pytest
from django.test import Client


def fresh_address() -> str:
    """An address no other test uses, so login throttling counters never leak between tests."""
    return str(ipaddress.IPv6Address(uuid.uuid4().int))


@pytest.fixture
def client():
    return Client(REMOTE_ADDR=fresh_address())


@pytest.fixture
def csrf_client():
    """A client that, like a browser, gets no CSRF exemption."""
    return Client(enforce_csrf_checks=True, REMOTE_ADDR=fresh_address())


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Real hashing is slow by design; these tests are about accounts, not PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
