"""docker-compose.yml runs what the Procfile runs: no Docker here, so compare the two."""

import yaml

from tests.support.servers import ROOT, procfile_commands

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = {name for name, service in SERVICES.items() if "build" in service}


def compose_command(service: dict) -> str:
    """The shell command a service runs, with compose's "$$" escape undone."""
    shell, flag, script = service["command"]
    assert (shell, flag) == ("sh", "-c")
    assert script.startswith("exec "), "the process must replace the shell to receive signals"
    return script.removeprefix("exec ").replace("$$", "$")


def test_each_app_service_runs_its_procfile_command():
    procfile = procfile_commands()
    assert APP_SERVICES == set(procfile) == {"web", "worker", "bots", "beat"}
    for name in APP_SERVICES:
        assert compose_command(SERVICES[name]) == procfile[name], name


def test_databases_have_health_checks_and_the_apps_wait_for_them():
    for name in ("postgres", "redis"):
        assert SERVICES[name]["healthcheck"]["test"]
    for name in APP_SERVICES:
        depends = SERVICES[name]["depends_on"]
        assert depends["postgres"]["condition"] == "service_healthy"
        assert depends["redis"]["condition"] == "service_healthy"
    assert SERVICES["web"]["healthcheck"]["test"]


def test_apps_get_postgres_and_redis_urls_of_the_compose_services():
    for name in APP_SERVICES:
        environment = SERVICES[name]["environment"]
        assert "@postgres:5432/" in environment["DATABASE_URL"]
        assert environment["REDIS_URL"].startswith("redis://redis:6379/")
        assert environment["SECRET_KEY"].startswith("${SECRET_KEY:?")
