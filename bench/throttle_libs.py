"""Our login throttle (accounts/throttle.py) beside django-axes, on what a login costs.

``python bench/throttle_libs.py`` runs, in a child process per set-up, the real login page
(Django's test client, the site's password hasher) on PostgreSQL + Redis when
``DATABASE_URL``/``REDIS_URL`` are set, and on the embedded SQLite + local-memory cache
otherwise: ``--logins`` failed and successful logins, alternated between "ours" (the
site as it is) and "axes" (django-axes 8 with its database handler, locking out per
(username, address) as ours does; our throttle's calls made no-ops). Reported per login:
SQL queries, cache calls, wall and CPU time; then whether the limit locks out (the right
password too) per (username, address) only, and what axes wrote to its log and tables.
django-axes must be installed (``pip install django-axes``); it is not a requirement of
the site (docs/decisions/0020-libraries-measured-beside-ours.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def overlay_settings(with_axes: bool) -> None:
    """The site's settings, plus django-axes wired as its documentation says."""
    from django.conf import settings

    import topiary_site.settings as site

    names = {name: getattr(site, name) for name in dir(site) if name.isupper()}
    if with_axes:
        names["INSTALLED_APPS"] = [*names["INSTALLED_APPS"], "axes"]
        names["AUTHENTICATION_BACKENDS"] = [
            "axes.backends.AxesStandaloneBackend",
            *names["AUTHENTICATION_BACKENDS"],
        ]
        names["MIDDLEWARE"] = [*names["MIDDLEWARE"], "axes.middleware.AxesMiddleware"]
        names["AXES_FAILURE_LIMIT"] = names["LOGIN_FAILURE_LIMIT"]
        names["AXES_COOLOFF_TIME"] = names["LOGIN_FAILURE_WINDOW"] / 3600
        names["AXES_LOCKOUT_PARAMETERS"] = [["username", "ip_address"]]
        names["AXES_RESET_ON_SUCCESS"] = True
        names["AXES_USERNAME_CALLABLE"] = lambda request, credentials: (
            (credentials or {}).get("username") or request.POST.get("username", "")
        ).lower()
    settings.configure(**names)


class Counting:
    """Counts the calls made to the cache that accounts.throttle uses."""

    def __init__(self, cache):
        self.cache = cache
        self.calls = 0

    def __getattr__(self, name):
        attr = getattr(self.cache, name)
        if not callable(attr):
            return attr

        def counted(*args, **kwargs):
            self.calls += 1
            return attr(*args, **kwargs)

        return counted


def child(with_axes: bool, logins: int) -> dict:
    sys.path.insert(0, str(HERE.parent))
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 40)
    os.environ["DEBUG"] = "1"
    overlay_settings(with_axes)
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logging.getLogger().addHandler(Keep(logging.INFO))
    logging.getLogger().setLevel(logging.INFO)
    from accounts import services, throttle

    counting = throttle.cache = Counting(throttle.cache)
    if with_axes:
        # Axes instead of ours: the login form's calls to our throttle do nothing.
        throttle.login_blocked = lambda **_: False
        throttle.login_failure_record = throttle.login_failures_clear = lambda **_: None
    try:
        password = "hedge-maze-42"
        out: dict = {"axes": with_axes, "database": connection.vendor}
        for outcome in ("failed", "successful"):
            queries, calls, walls, cpus = [], [], [], []
            for index in range(logins):
                name = f"{outcome[0]}olive{index}"
                services.user_register(
                    username=name, email=f"{name}@example.com", password=password
                )
                client = Client(REMOTE_ADDR=f"10.1.{index // 250}.{index % 250 + 1}")
                given = password if outcome == "successful" else "wrong-guess"
                counting.calls = 0
                wall, cpu = time.perf_counter(), time.process_time()
                with CaptureQueriesContext(connection) as captured:
                    client.post("/accounts/login/", {"username": name, "password": given})
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
                queries.append(len(captured))
                calls.append(counting.calls)
                assert ("_auth_user_id" in client.session) == (outcome == "successful")
            out[outcome] = {
                "sql_queries": statistics.median(queries),
                "cache_calls": statistics.median(calls),
                "wall_ms": round(statistics.median(walls) * 1000, 2),
                "cpu_ms": round(statistics.median(cpus) * 1000, 2),
            }
        # Locked out after the limit, the right password too, per (username, address) only.
        from django.conf import settings

        services.user_register(username="mallory", email="m@example.com", password=password)
        guesser = Client(REMOTE_ADDR="10.9.9.9")
        for _ in range(settings.LOGIN_FAILURE_LIMIT):
            guesser.post("/accounts/login/", {"username": "MALLORY", "password": "wrong"})
        refused = guesser.post("/accounts/login/", {"username": "mallory", "password": password})
        elsewhere = Client(REMOTE_ADDR="10.9.9.10")
        elsewhere.post("/accounts/login/", {"username": "mallory", "password": password})
        out["locked_out_after_limit"] = "_auth_user_id" not in guesser.session
        out["lockout_status"] = refused.status_code
        out["elsewhere_still_logs_in"] = "_auth_user_id" in elsewhere.session
        axes_lines = [r.getMessage() for r in records if r.name.startswith("axes")]
        out["axes_log_lines"] = len(axes_lines)
        out["axes_log_lines_naming_the_user"] = sum(
            "olive" in line or "mallory" in line for line in axes_lines
        )
        out["axes_log_example"] = next((line for line in axes_lines if " by " in line), None)
        if with_axes:
            from axes.models import AccessAttempt, AccessLog

            out["axes_rows"] = {
                "AccessAttempt": AccessAttempt.objects.count(),
                "AccessLog": AccessLog.objects.count(),
            }
        return out
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logins", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", choices=["ours", "axes"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child == "axes", args.logins)))
        return
    sys.path.insert(0, str(HERE.parent))
    from bench.machine import describe

    print(json.dumps({"machine": describe()}), flush=True)
    for round_number in range(args.rounds):
        order = ("ours", "axes") if round_number % 2 == 0 else ("axes", "ours")
        for which in order:
            done = subprocess.run(
                [sys.executable, __file__, "--child", which, "--logins", str(args.logins)],
                capture_output=True,
                text=True,
                check=False,
            )
            lines = done.stdout.strip().splitlines()
            print(
                lines[-1]
                if done.returncode == 0 and lines
                else json.dumps({"error": done.stderr[-1500:]}),
                flush=True,
            )


if __name__ == "__main__":
    main()
