"""The browser page for personal API tokens (session-authenticated, as every page)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts import services as account_services
from api import selectors, services
from api.models import Scope

# A new token's secret rides in the session from the POST to the page it redirects to,
# which shows it once and drops it: a reload neither makes a second token nor shows it again.
NEW_SECRET = "api_token_new_secret"


@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request: HttpRequest) -> HttpResponse:
    """List tokens; make one (after the password; its secret shown once) or revoke one."""
    errors = {}
    if request.method == "POST":
        try:
            account_services.password_confirm(
                user=request.user,
                password=request.POST.get("password", ""),
                address=request.META.get("REMOTE_ADDR", ""),
            )
            _token, secret = services.token_create(
                user=request.user,
                name=request.POST.get("name", ""),
                scopes=request.POST.getlist("scopes"),
                expires_on=request.POST.get("expires_on", ""),
            )
        except ValidationError as refusal:
            errors["password"] = refusal.message_dict["password"][0]
        except services.TokenError as refusal:
            errors["token"] = refusal.message
        else:
            request.session[NEW_SECRET] = secret
            return redirect("tokens:tokens")
    response = render(
        request,
        "api/tokens.html",
        {
            "tokens": selectors.tokens_of(request.user),
            "scopes": Scope.choices,
            "secret": request.session.pop(NEW_SECRET, None),
            "errors": errors,
            # A refused form comes back as it was sent, less the password.
            "posted": request.POST,
            "chosen_scopes": request.POST.getlist("scopes"),
            "today": timezone.now().date(),
        },
        status=400 if errors else 200,
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
