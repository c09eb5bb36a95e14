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
    assert APP_SERVICES == set(procfile) == {"web", "worker", "bots", "mining", "beat"}
    for name in APP_SERVICES:
        assert compose_command(SERVICES[name]) == procfile[name], name


def test_mining_takes_only_the_cpu_the_others_leave():
    # nice orders processes inside one container only; between containers the weight does.
    assert SERVICES["mining"]["cpu_shares"] < 100
    assert all("cpu_shares" not in SERVICES[name] for name in APP_SERVICES - {"mining"})
    assert compose_command(SERVICES["mining"]).startswith("nice -n ${MINING_NICE:-19} ")


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


def test_a_tls_proxy_fronts_several_web_replicas():
    proxy = SERVICES["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert {"80:80", "443:443"} <= set(proxy["ports"])
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert proxy["environment"]["DOMAIN"].startswith("${DOMAIN:?")
    assert proxy["depends_on"]["web"]["condition"] == "service_healthy"
    web = SERVICES["web"]
    assert "ports" not in web, "only the proxy is reachable from outside"
    assert web["deploy"]["replicas"] == "${WEB_REPLICAS:-2}"
    # The proxy's X-Forwarded-For names the client only if the server trusts the proxy.
    assert "--proxy-headers" in compose_command(web)
    assert web["environment"]["FORWARDED_ALLOW_IPS"] == "*"
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "{$DOMAIN} {" in caddyfile
    assert "dynamic a web 8000" in caddyfile
    assert "health_uri /health/ready/" in caddyfile
    assert "respond /metrics* 404" in caddyfile


def test_health_checks_ask_the_health_endpoints():
    web_check = " ".join(SERVICES["web"]["healthcheck"]["test"])
    assert "http://127.0.0.1:8000/health/ready/" in web_check
    beat_check = SERVICES["beat"]["healthcheck"]["test"]
    assert beat_check[1:] == ["python", "manage.py", "health_check", "health_beat", "--no-http"]
    assert "inspect ping" in " ".join(SERVICES["worker"]["healthcheck"]["test"])


def test_apps_share_the_metrics_directory_and_need_a_metrics_token():
    for name in APP_SERVICES:
        service = SERVICES[name]
        directory = service["environment"]["PROMETHEUS_MULTIPROC_DIR"]
        assert f"metrics:{directory}" in service["volumes"]
        assert service["environment"]["METRICS_TOKEN"].startswith("${METRICS_TOKEN:?")
        assert service["environment"]["LOG_FORMAT"] == "${LOG_FORMAT:-json}"


def test_backups_run_the_tested_script_on_a_schedule():
    backup = SERVICES["backup"]
    assert backup["image"] == SERVICES["postgres"]["image"], "pg_dump of the server's version"
    assert "./deploy:/deploy:ro" in backup["volumes"]
    assert "sh /deploy/backup.sh" in compose_loop(backup)
    assert "@postgres:5432/" in backup["environment"]["DATABASE_URL"]
    assert backup["depends_on"]["postgres"]["condition"] == "service_healthy"


def compose_loop(service: dict) -> str:
    shell, flag, script = service["command"]
    assert (shell, flag) == ("sh", "-c")
    return script


def test_the_sample_dashboard_charts_metrics_the_site_exports():
    import json
    import re

    from prometheus_client.metrics import MetricWrapperBase

    from kit import metrics

    dashboard = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
    charted = set()
    for panel in dashboard["panels"]:
        for target in panel["targets"]:
            for name in re.findall(r"\btopiary_[a-z_]+", target["expr"]):
                charted.add(re.sub(r"_(total|bucket|count|sum)$", "", name))
    defined = {m._name for m in vars(metrics).values() if isinstance(m, MetricWrapperBase)}
    scraped = {"topiary_live_games", "topiary_task_queue_depth", "topiary_bot_turns_waiting"}
    assert len(charted) > 5
    assert charted <= defined | scraped, charted - defined - scraped
