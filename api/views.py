"""The browser page for personal API tokens (session-authenticated, as every page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from api import selectors, services
from api.models import Scope


@login_required
def tokens_page(request: HttpRequest) -> HttpResponse:
    """List, create (the secret shown on this one response only) and revoke tokens."""
    secret = None
    error = None
    if request.method == "POST":
        try:
            _token, secret = services.token_create(
                user=request.user,
                name=request.POST.get("name", ""),
                scopes=request.POST.getlist("scopes"),
            )
        except services.TokenError as refusal:
            error = refusal.message
    response = render(
        request,
        "api/tokens.html",
        {
            "tokens": selectors.tokens_of(request.user),
            "scopes": Scope.choices,
            "secret": secret,
            "error": error,
        },
        status=400 if error else 200,
    )
    # The page with the secret must not be kept by a browser's or a proxy's cache.
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = services.token_revoke(user=request.user, token_id=token_id)
        messages.success(
            request,
            _("Token %(name)s revoked: it no longer works.") % {"name": repr(token.name)},
        )
    except services.TokenError as refusal:
        messages.error(request, refusal.message)
    return redirect("tokens:tokens")
