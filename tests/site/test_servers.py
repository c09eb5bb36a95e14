"""The site as it really starts: the Procfile's web process, embedded and in production."""

import re
import secrets

from accounts.management.commands.seed_demo import DEMO_PASSWORD
from tests.site.conftest import clean_env, manage
from tests.support import servers
from tests.support.http import Session, links

SITE_CSS = (servers.ROOT / "static" / "css" / "site.css").read_bytes()


def test_embedded_default_serves_the_site_like_make_run(tmp_path):
    """What ``make run`` does, with nothing configured: migrate, seed, serve, log in."""
    embedded = {"SQLITE_PATH": str(tmp_path / "site.sqlite3")}
    for command in (["migrate", "--noinput"], ["seed_demo"]):
        result = manage(*command, env=clean_env(**embedded))
        assert result.returncode == 0, result.stderr
    # Blank values override whatever this test process has in its own environment.
    env = {**embedded, "DATABASE_URL": "", "REDIS_URL": "", "SECRET_KEY": "", "DEBUG": ""}
    web, url = servers.start_web(env, tmp_path)
    try:
        session = Session(url)
        home = session.get("/")
        assert home.status == 200
        assert "<h1>Topiary Online</h1>" in home.text
        stylesheet = session.get(links(home.text, "stylesheet")[0])
        assert stylesheet.status == 200
        assert stylesheet.headers["Content-Type"].startswith("text/css")
        assert stylesheet.body == SITE_CSS
        login = session.post("/accounts/login/", {"username": "alice", "password": DEMO_PASSWORD})
        assert (login.status, login.headers["Location"]) == (302, "/")
        profile = session.get("/@/alice/")
        assert '<h1><span class="player">alice</span></h1>' in profile.text
        assert "Log out" in profile.text
        bot = session.get("/@/StrongBot/")
        assert ">BOT</span>" in bot.text
    finally:
        web.stop()


def test_production_serves_collected_static_files_under_asgi(
    server_env, server_logs, production_env, tmp_path
):
    static_root = tmp_path / "static"
    env = {
        **server_env,
        "DEBUG": "0",
        "SECRET_KEY": production_env["SECRET_KEY"],
        "ALLOWED_HOSTS": "127.0.0.1",
        "STATIC_ROOT": str(static_root),
    }
    collected = manage("collectstatic", "--noinput", env=clean_env(**env))
    assert collected.returncode == 0, collected.stderr
    web, url = servers.start_web(env, server_logs)
    try:
        plain = Session(url).get("/")
        assert plain.status == 301
        assert plain.headers["Location"].startswith("https://127.0.0.1")

        # As behind the TLS-terminating proxy production runs behind.
        session = Session(url, headers={"X-Forwarded-Proto": "https"})
        home = session.get("/")
        assert home.status == 200
        assert "Strict-Transport-Security" in home.headers
        (stylesheet_url,) = links(home.text, "stylesheet")
        assert re.fullmatch(r"/static/css/site\.[0-9a-f]{12}\.css", stylesheet_url)
        stylesheet = session.get(stylesheet_url)
        assert stylesheet.status == 200
        assert stylesheet.headers["Content-Type"].startswith("text/css")
        assert "immutable" in stylesheet.headers["Cache-Control"]
        assert stylesheet.body == SITE_CSS
        assert session.get("/static/css/not-collected.css").status == 404

        # The API's docs page: Swagger UI from the collected files, under the policy.
        docs = session.get("/api/docs")
        assert docs.status == 200
        assert "default-src 'self'" in docs.headers["Content-Security-Policy"]
        assets = re.findall(r'(?:src|href)="(/static/ninja/[^"]+)"', docs.text)
        assert len(assets) >= 3, docs.text
        assert all(session.get(asset).status == 200 for asset in assets), assets
    finally:
        web.stop()


def test_behind_the_proxy_a_client_is_known_by_its_forwarded_address(server_env, server_logs):
    """The server trusts the proxy's X-Forwarded-For (from 127.0.0.1 here, from any peer in
    docker-compose), so a per-address limit counts each client, not the proxy."""
    web, url = servers.start_web({**server_env, "REGISTRATION_LIMIT": "1"}, server_logs)
    # Two addresses of the documentation range, new to the registration counts.
    first = 1 + 2 * secrets.randbelow(120)
    one, other = f"198.51.100.{first}", f"198.51.100.{first + 1}"

    def register(address: str, name: str) -> int:
        session = Session(url, headers={"X-Forwarded-For": address})
        form = {"email": f"{name}@example.com", "password": "a long pass phrase 7"}
        form |= {"username": name, "password_confirm": form["password"]}
        return session.post("/accounts/register/", form).status

    try:
        tag = secrets.token_hex(3)
        assert register(one, f"fwd{tag}a") == 302
        assert register(one, f"fwd{tag}b") == 429
        assert register(other, f"fwd{tag}c") == 302
    finally:
        web.stop()
