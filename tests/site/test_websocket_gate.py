"""Websockets pass the origin check and carry the session, through the real ASGI server."""

import socket
from urllib.parse import urlparse

import pytest

from accounts import services
from tests.support.http import Session

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "hedge-maze-42"


def handshake(base_url: str, path: str, origin: str | None, cookie: str = "") -> int:
    """Open a websocket handshake by hand; returns the server's HTTP status."""
    address = urlparse(base_url)
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {address.netloc}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin:
        lines.append(f"Origin: {origin}")
    if cookie:
        lines.append(f"Cookie: {cookie}")
    with socket.create_connection((address.hostname, address.port), timeout=15) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return int(sock.makefile("rb").readline().split()[1])


def test_a_foreign_or_missing_origin_is_refused_and_the_site_itself_is_let_in(asgi_server):
    services.user_register(username="alice", email="alice@example.com", password=PASSWORD)
    session = Session(asgi_server)
    session.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    cookie = f"sessionid={session.cookie('sessionid')}"

    assert handshake(asgi_server, "/ws/lobby/", "https://evil.example", cookie) == 403
    assert handshake(asgi_server, "/ws/lobby/", None, cookie) == 403
    assert handshake(asgi_server, "/ws/lobby/", asgi_server, cookie) == 101


def test_a_page_on_another_port_of_the_same_host_is_refused(asgi_server):
    services.user_register(username="bruno", email="bruno@example.com", password=PASSWORD)
    session = Session(asgi_server)
    session.post("/accounts/login/", {"username": "bruno", "password": PASSWORD})
    cookie = f"sessionid={session.cookie('sessionid')}"
    address = urlparse(asgi_server)
    other_port = address.port + 1 if address.port < 65535 else address.port - 1

    assert handshake(asgi_server, "/ws/lobby/", f"http://127.0.0.1:{other_port}", cookie) == 403
    assert handshake(asgi_server, "/ws/lobby/", "http://127.0.0.1", cookie) == 403
    assert handshake(asgi_server, "/ws/lobby/", f"http://localhost:{address.port}", cookie) == 403
    assert handshake(asgi_server, "/ws/lobby/", asgi_server, cookie) == 101
