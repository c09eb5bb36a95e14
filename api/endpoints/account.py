"""The caller's own account, and its upgrade to a BOT account."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from api import selectors
from api.endpoints.setup import _caller, _require, token_auth
from api.models import Scope
from api.schemas import ALWAYS, AccountOut, UserOut, answers
from api.services import bot_account_upgrade

router = Router()


@router.get("/account", auth=token_auth, tags=["account"], response=answers(AccountOut, ALWAYS))
def account(request: HttpRequest):
    """The token's account and the token's scopes."""
    caller = _caller(request)
    return {**selectors.user_json(caller.user), "scopes": caller.token.scopes}


@router.post(
    "/bot/account/upgrade",
    auth=token_auth,
    tags=["bot"],
    response=answers(UserOut, (401, 403, 409, 429)),
)
def bot_upgrade(request: HttpRequest):
    """Make this account a BOT account for good (needs ``bot:play``; only with no games)."""
    user = _require(request, Scope.BOT_PLAY)
    return selectors.user_json(bot_account_upgrade(user=user))
