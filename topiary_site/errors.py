"""Optional error reporting through Sentry's SDK: on only when ``SENTRY_DSN`` is set.

Events are scrubbed before they leave: no cookies (the session cookie is a login), no
request bodies (a move), no local variables (a game state holds every hidden tile), no
user's address.
"""

from __future__ import annotations

SCRUBBED = "[scrubbed]"
#: Names of values an event may carry that can hold hidden game data or credentials.
SECRET_KEYS = {"state", "view", "hands", "box", "garden", "moves", "csrftoken", "sessionid"}


def scrub(event: dict, hint: dict | None = None) -> dict:
    """Sentry ``before_send``: what may leave the server of an error event."""
    request = event.get("request")
    if isinstance(request, dict):
        request.pop("cookies", None)
        request.pop("data", None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            for name in list(headers):
                if name.lower() in {"cookie", "authorization", "x-csrftoken"}:
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
    return event


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
    )
