"""ASGI entry point: HTTP through Django, websockets through Channels with
origin validation and session authentication. In the embedded default (no
``REDIS_URL``) the process serving this application also runs the tasks and
beat's schedule (``topiary_site.embedded``)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "topiary_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from accounts.sockets import socket_auth_stack  # noqa: E402
from kit import heap  # noqa: E402
from kit.limits import HttpLimits  # noqa: E402
from kit.origin import SameOriginValidator  # noqa: E402
from topiary_site import embedded  # noqa: E402
from topiary_site.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": HttpLimits(django_asgi_app),
        "websocket": SameOriginValidator(socket_auth_stack(URLRouter(websocket_urlpatterns))),
    }
)

if settings.EMBEDDED_RUNNER:
    application = embedded.LoopSeen(application, embedded.start())

# Last: everything the web server keeps for its lifetime is loaded by now.
heap.settle()
