"""EMAIL_URL: one variable for Django's SMTP settings."""

import pytest

from topiary_site.settings import email_from_url


def test_starttls_url_with_credentials():
    assert email_from_url("smtp://mailer:p%40ss@mail.example.org:587?tls=1") == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "mailer",
        "EMAIL_HOST_PASSWORD": "p@ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
        "EMAIL_TIMEOUT": 10,
    }


def test_implicit_tls_defaults_to_port_465():
    settings = email_from_url("smtps://relay.example.org?timeout=3")
    assert settings["EMAIL_PORT"] == 465 and settings["EMAIL_USE_SSL"]
    assert not settings["EMAIL_USE_TLS"] and settings["EMAIL_TIMEOUT"] == 3
    assert settings["EMAIL_HOST_USER"] == ""


def test_other_schemes_are_refused():
    with pytest.raises(ValueError, match="unsupported scheme 'http'"):
        email_from_url("http://mail.example.org")
