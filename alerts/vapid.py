"""The site's VAPID key pair (RFC 8292): from settings, or made once and kept on disk.

A push service accepts a push only when it is signed with the key the browser was given
at subscription (``applicationServerKey``), so every process must use one pair, and a
new pair orphans every subscription: production sets ``TOPIARY_VAPID_PRIVATE_KEY`` and
``TOPIARY_VAPID_PUBLIC_KEY`` (README.md, "Web Push").
"""

from __future__ import annotations

import base64
import json
import os
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _public_of(private: str) -> str:
    key = Vapid.from_string(private).public_key
    point = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(point)


def pair_make() -> dict:
    """A new key pair: {"private": ..., "public": ...}, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = _b64(key.private_numbers().private_value.to_bytes(32, "big"))
    return {"private": private, "public": _public_of(private)}


def _pair_kept(path: Path) -> dict:
    """The pair in ``path``, made there first if missing (the first process to get there
    writes it; the others read what it wrote)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        made = path.with_name(f"{path.name}.{os.getpid()}")
        made.write_text(json.dumps(pair_make()))
        made.chmod(0o600)
        try:
            os.link(made, path)  # fails if another process linked its pair first
        except FileExistsError:
            pass
        finally:
            made.unlink()
    return json.loads(path.read_text())


@cache
def key_pair() -> tuple[str, str]:
    """(private, public), base64url: settings', or the pair kept in ``VAPID_KEY_FILE``."""
    if settings.VAPID_PRIVATE_KEY:
        return settings.VAPID_PRIVATE_KEY, (
            settings.VAPID_PUBLIC_KEY or _public_of(settings.VAPID_PRIVATE_KEY)
        )
    kept = _pair_kept(Path(settings.VAPID_KEY_FILE))
    return kept["private"], kept["public"]


def public_key() -> str:
    """What a browser is given as ``applicationServerKey``."""
    return key_pair()[1]


def signer() -> Vapid:
    return Vapid.from_string(key_pair()[0])
