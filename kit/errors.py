"""Optional error reporting through Sentry's SDK: on only when ``SENTRY_DSN`` is set.

Events are scrubbed before they leave: no cookies (the session cookie is a login), no
credentials in headers, no request bodies (a move), no local variables (a game state
holds every hidden tile), no user's address; and every text left in an event or a
breadcrumb (the URL, the query string, a referrer, a log line, an exception's message,
a transaction's spans) goes through the log lines' own ``scrub_text``, so a reset or
confirmation link, an e-mail address or a token is masked here exactly as in the logs.
"""

from __future__ import annotations

from kit.logs import SCRUBBED, scrub_data

#: Names of values an event may carry that can hold hidden game data or credentials.
SECRET_KEYS = {"state", "view", "hands", "box", "garden", "moves", "csrftoken", "sessionid"}
#: Request headers that are credentials whole.
SECRET_HEADERS = {"cookie", "authorization", "x-csrftoken"}


def scrub(event: dict, hint: dict | None = None) -> dict:
    """Sentry ``before_send`` (and ``before_send_transaction``): what may leave the server."""
    request = event.get("request")
    if isinstance(request, dict):
        request.pop("cookies", None)
        request.pop("data", None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            for name in list(headers):
                if name.lower() in SECRET_HEADERS:
                    headers[name] = SCRUBBED
    for exception in (event.get("exception") or {}).get("values") or []:
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    extra = event.get("extra")
    if isinstance(extra, dict):
        for name in list(extra):
            if name in SECRET_KEYS:
                extra[name] = SCRUBBED
    user = event.get("user")
    if isinstance(user, dict):
        event["user"] = {"id": user["id"]} if "id" in user else {}
    return scrub_data(event)


def scrub_breadcrumb(crumb: dict, hint: dict | None = None) -> dict:
    """Sentry ``before_breadcrumb``: a log line or a request kept for a later event."""
    return scrub_data(crumb)


def init(dsn: str, environment: str, traces_sample_rate: float) -> None:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        traces_sample_rate=traces_sample_rate,
        before_send=scrub,
        before_send_transaction=scrub,
        before_breadcrumb=scrub_breadcrumb,
    )
