"""Two-factor codes computed from a device's secret, as an authenticator app does."""

from __future__ import annotations

import time

from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice


def code_for(device: TOTPDevice, steps_ahead: int = 0) -> str:
    """What the authenticator app shows now (or ``steps_ahead`` periods later)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time() + steps_ahead * device.step
    return f"{totp.token():0{device.digits}d}"
