"""The alerts' pages: settings (browsers and e-mails), the service worker, unsubscribing."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from alerts import selectors, services, vapid
from alerts.forms import EmailAlertsForm

#: The service worker, read once: served from the site's root so that its scope is the
#: whole site (a worker's scope cannot be above its own address).
_WORKER: bytes | None = None


@cache_control(no_cache=True)
def service_worker(request):
    global _WORKER
    if _WORKER is None:
        with open(finders.find("alerts/sw.js"), "rb") as source:
            _WORKER = source.read()
    return HttpResponse(_WORKER, content_type="text/javascript; charset=utf-8")


@login_required
@require_http_methods(["GET", "POST"])
def alerts_settings(request):
    """Browsers that get pushes, and which alerts go by e-mail."""
    current = selectors.settings_of(user=request.user)
    form = EmailAlertsForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid():
        services.settings_update(user=request.user, changes=form.cleaned_data)
        messages.success(request, _("Your e-mail alerts are saved."))
        return redirect("alerts:settings")
    context = {
        "form": form,
        "subscriptions": selectors.subscriptions_of(user=request.user),
        "push_config": {"publicKey": vapid.public_key()},
        "has_email": bool(request.user.email),
    }
    return render(request, "alerts/settings.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def push_subscribe(request):
    """Keep this browser's push subscription (JSON: ``subscription``, ``label``)."""
    try:
        posted = json.loads(request.body or b"{}")
        subscription = services.subscription_add(
            user=request.user,
            subscription=posted.get("subscription"),
            label=str(posted.get("label") or ""),
        )
    except (ValueError, AttributeError):
        return JsonResponse({"ok": False, "error": _("Send a JSON object.")}, status=400)
    except ValidationError as error:
        return JsonResponse({"ok": False, "error": error.messages[0]}, status=400)
    return JsonResponse({"ok": True, "id": subscription.pk})


@login_required
@require_POST
def push_remove(request, subscription_id: int):
    if services.subscription_remove(user=request.user, subscription_id=subscription_id):
        messages.success(request, _("That browser gets no more alerts."))
    return redirect("alerts:settings")


@login_required
@require_POST
def push_test(request):
    if not selectors.subscriptions_of(user=request.user):
        messages.error(request, _("Turn alerts on in a browser first."))
    else:
        services.test_alert_send(user=request.user)
        messages.success(request, _("A test alert is on its way to each of your browsers."))
    return redirect("alerts:settings")


# A mail program's one-click unsubscribe (RFC 8058) posts without a CSRF token; the
# signed token in the address is the proof, and it only turns e-mails off.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET: a page with one button (a link opened by a mail scanner changes nothing);
    POST: the e-mails the token names are turned off."""
    done = request.method == "POST"
    try:
        if done:
            services.unsubscribe(token=token)
        else:
            services.unsubscribe_check(token=token)
    except ValidationError as error:
        return render(request, "alerts/unsubscribe.html", {"error": error.messages[0]}, status=400)
    return render(request, "alerts/unsubscribe.html", {"done": done, "token": token})
