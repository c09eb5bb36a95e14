"""A push service stand-in: a small HTTP server that takes Web Push requests as a
browser's push service would (RFC 8030), and a browser's side of a subscription that
decrypts them (RFC 8291, aes128gcm) with its own private key and auth secret.

The site's sender (pywebpush) cannot tell it from a real one: it encrypts for the
subscription's public key and signs with the site's VAPID key; the stand-in checks that
signature's key and keeps what the browser would have shown.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Browser:
    """One subscribed browser: its endpoint on the stand-in and its keys."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def keys(self) -> dict:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"p256dh": b64(point), "auth": b64(self.auth)}

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes


class PushService:
    """The stand-in, on a port of its own. ``answer[path] = 410`` makes it answer so."""

    def __init__(self):
        self.received: list[Received] = []
        self.answer: dict[str, int] = {}
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                status = service.answer.get(self.path, 201)
                with service.lock:
                    service.received.append(
                        Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def browser(self, name: str) -> Browser:
        return Browser(endpoint=f"{self.url}/push/{name}")

    def to(self, browser: Browser) -> list[Received]:
        path = browser.endpoint.removeprefix(self.url)
        with self.lock:
            return [item for item in self.received if item.path == path]

    def alerts_to(self, browser: Browser) -> list[dict]:
        """What ``browser`` was sent, decrypted, in order."""
        return [browser.decrypt(item.body) for item in self.to(browser)]

    def wait_for(self, browser: Browser, count: int, wanted=lambda alert: True, patience=60):
        """The first ``count`` alerts to ``browser`` that ``wanted`` says yes to."""
        deadline = time.monotonic() + patience
        while time.monotonic() < deadline:
            found = [alert for alert in self.alerts_to(browser) if wanted(alert)]
            if len(found) >= count:
                return found
            time.sleep(0.1)
        raise AssertionError(f"{browser.endpoint} got {self.alerts_to(browser)}")

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
