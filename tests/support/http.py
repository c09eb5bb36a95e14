"""A small HTTP client for talking to a real server the way a browser without JavaScript does."""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from http.cookiejar import CookieJar


@dataclass
class Response:
    status: int
    #: Read by name whatever its case, as HTTP's header names are (uvicorn sends them
    #: lower-case).
    headers: Message
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Session:
    """Keeps cookies, sends the CSRF token with POSTs, and never follows redirects."""

    def __init__(self, base_url: str, headers: dict[str, str] | None = None):
        self.base_url = base_url.rstrip("/")
        self.headers = headers or {}
        self.cookies = CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect
        )

    def request(self, method: str, path: str, data: dict[str, str] | None = None) -> Response:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(
            self.base_url + path, data=body, method=method, headers=dict(self.headers)
        )
        if method == "POST":
            req.add_header("Referer", self.base_url + path)
            req.add_header("Content-Type", "application/x-www-form-urlencoded")
            token = self.cookie("csrftoken")
            if token:
                req.add_header("X-CSRFToken", token)
        try:
            with self._opener.open(req, timeout=30) as resp:
                return Response(resp.status, resp.headers, resp.read())
        except urllib.error.HTTPError as error:
            return Response(error.code, error.headers, error.read())

    def get(self, path: str) -> Response:
        return self.request("GET", path)

    def post(self, path: str, data: dict[str, str]) -> Response:
        """POST a form, first GETting the page for its CSRF cookie when there is none yet."""
        if not self.cookie("csrftoken"):
            self.get(path)
        token = self.cookie("csrftoken") or ""
        return self.request("POST", path, {"csrfmiddlewaretoken": token, **data})

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.cookies if c.name == name), None)


def links(html: str, rel: str) -> list[str]:
    """The href of every <link rel=...> in a page."""
    return re.findall(rf'<link rel="{rel}" href="([^"]+)"', html)
