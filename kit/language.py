"""The language a visitor's request or socket asks for before anyone is signed in: the
``django_language`` cookie the footer's switcher sets, else the browser's
``Accept-Language``, else English (docs/I18N.md). A signed-in player's own setting
comes first; it lives with their account (``accounts.i18n``)."""

from __future__ import annotations

from django.conf import settings
from django.utils import translation

SUPPORTED = frozenset(code for code, _ in settings.LANGUAGES)


def spoken(language: str) -> str:
    """``language`` if the site speaks it, else "" (a setting saved before a language went)."""
    return language if language in SUPPORTED else ""


def visitor_language(scope) -> str:
    """The language of an ASGI ``scope`` (its ``cookies`` and ``headers``) from its cookie,
    else its ``Accept-Language``."""
    headers = dict(scope.get("headers") or ())
    cookies = scope.get("cookies") or {}
    cookie = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    if cookie in SUPPORTED:
        return cookie
    return browser_language(headers.get(b"accept-language", b"").decode("latin-1"))


def browser_language(accept: str) -> str:
    """The first language of an ``Accept-Language`` header the site speaks, else English."""
    for code, _quality in translation.trans_real.parse_accept_lang_header(accept):
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
