"""Oversized requests get a clean refusal from the real server, with nothing alarming logged."""

import http.client
import socket
from urllib.parse import urlparse

import pytest

from tests.support import servers

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(scope="module")
def web(server_env, server_logs):
    """One web process for the module: each test reads only the log it adds."""
    proc, url = servers.start_web(server_env, server_logs)
    yield proc, url
    proc.stop()


def post(url: str, path: str, body: bytes) -> int:
    address = urlparse(url)
    conn = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    try:
        conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        return conn.getresponse().status
    except (ConnectionResetError, BrokenPipeError):
        pytest.fail("the server dropped the connection instead of answering")
    finally:
        conn.close()


@pytest.mark.parametrize("path", ["/game/1/move", "/accounts/login/"])
def test_a_10_mb_post_is_refused_with_413_and_no_traceback(web, path):
    proc, url = web
    seen = len(proc.log())
    assert post(url, path, b"{" + b" " * (10 * 1024 * 1024) + b"}") == 413
    log = proc.log()[seen:]
    assert "Traceback" not in log and "RequestDataTooBig" not in log
    assert post(url, "/game/1/move", b"{}") in (403, 404)


def test_a_client_that_waits_for_continue_is_refused_before_it_sends_the_body(web):
    """curl and others ask first (``Expect: 100-continue``) before a large upload: they
    hear the 413 at once and never send the 10 MB."""
    _, url = web
    address = urlparse(url)
    with socket.create_connection((address.hostname, address.port), timeout=30) as sock:
        sock.sendall(
            b"POST /game/1/move HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 10485760\r\n"
            b"Expect: 100-continue\r\n\r\n"
        )
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:80]
