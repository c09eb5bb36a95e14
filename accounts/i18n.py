"""Which language a page or a socket speaks: the player's own first (docs/I18N.md).

The order, for pages and sockets alike: the signed-in player's saved language, else
the ``django_language`` cookie the footer's switcher sets (signed out too), else the
browser's ``Accept-Language``, else English. URLs carry no language.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.http import HttpResponseNotAllowed
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from accounts import selectors as account_selectors
from accounts import services as account_services
from kit.language import SUPPORTED, spoken, visitor_language
from kit.socket_db import db


def _script_catalogue_version() -> str:
    """Changes whenever a compiled script catalogue does, so browsers that keep
    /jsi18n/ for a day fetch the new texts after a deploy."""
    digest = hashlib.sha256()
    for path in sorted(Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/djangojs.mo")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


SCRIPT_CATALOGUE_VERSION = _script_catalogue_version()


def script_catalogue(request) -> dict:
    """Context processor: base.html asks for /jsi18n/ with the language and this version
    in the address, so a browser's cached copy is never another language's."""
    return {"script_catalogue_version": SCRIPT_CATALOGUE_VERSION}


def player_language(user) -> str:
    """The language a signed-in player chose in their settings, or "" for none."""
    if user is None or not user.is_authenticated:
        return ""
    return spoken(account_selectors.preferences_of(user=user).language)


class PlayerLanguageMiddleware:
    """After ``LocaleMiddleware`` and authentication: a signed-in player's own choice wins
    over the cookie and the browser."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = player_language(getattr(request, "user", None))
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)


def set_language(request):
    """The footer's switcher: Django's ``set_language`` (cookie, safe redirect back), and
    for a signed-in player the choice is saved in their settings too."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if language in SUPPORTED and request.user.is_authenticated:
        account_services.preferences_save(user=request.user, changes={"language": language})
    return response


def socket_language(scope) -> str:
    """The language for one socket, chosen once at connect in the order pages use; the
    player's own is read with their sign-in (``socket_db``) when the scope has it."""
    if "player_language" in scope:
        language = spoken(scope["player_language"])
    else:
        language = player_language(scope.get("user"))
    return language or visitor_language(scope)


async def _language_at_connect(scope) -> str:
    """``socket_language``; a signed-in player's setting, unless their sign-in read it
    too, is read on the socket database threads (a visitor's language needs no database)."""
    user = scope.get("user")
    if "player_language" not in scope and user is not None and user.is_authenticated:
        return await db(socket_language)(scope)
    return socket_language(scope)


class SocketLanguage:
    """A consumer (mixed in before Channels' class) that speaks its socket's language.

    The language is chosen once, as the socket connects, and is active while the consumer
    handles each message and event: its refusals, errors and any frame it builds for
    itself alone are said in it. Translation follows the context, not the thread, and
    ``socket_db.db`` runs each call in a copy of the caller's context, so the work done
    on the database threads speaks it too. A frame built once for a whole group (a
    game's move, sent to every viewer) is built elsewhere and carries codes and the
    engine's English, which each page turns into its reader's words.
    """

    #: The socket's language (a code of ``settings.LANGUAGES``), None until it connects.
    language: str | None = None

    async def dispatch(self, message):
        if self.language is None:
            self.language = await _language_at_connect(self.scope)
        with translation.override(self.language):
            await super().dispatch(message)
