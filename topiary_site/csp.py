"""The Content-Security-Policy of every page: django-csp's middleware, plus two
per-request sources its static settings cannot say.

The policy itself is ``CONTENT_SECURITY_POLICY`` in settings. What this adds:

- ``connect-src``: the page's own websocket origin (``ws://`` or ``wss://`` and the
  host it was asked by). CSP Level 3 lets ``'self'`` match it, but Safari before 16
  (and Chrome before 71) does not, and there a page could not open its socket.
- ``img-src data:`` on the API's docs page only: Swagger UI's stylesheet draws its
  icons as ``data:`` images. No page of the site's own uses one.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost

#: The view whose page draws ``data:`` images (django-ninja's Swagger UI).
DATA_IMAGE_VIEWS = {"api:openapi-view"}


class ContentSecurityPolicy(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        update = dict(parts.update or {})
        try:
            host = request.get_host()
        except DisallowedHost:
            host = None  # the 400 answering it opens no socket
        if host:
            scheme = "wss" if request.is_secure() else "ws"
            update["connect-src"] = [*update.get("connect-src", ()), f"{scheme}://{host}"]
        match = getattr(request, "resolver_match", None)
        if match is not None and match.view_name in DATA_IMAGE_VIEWS:
            update["img-src"] = [*update.get("img-src", ()), "data:"]
        parts.update = update
        return parts
