"""Apps add websocket routes and beat jobs through their own modules, gathered by the site."""

import sys
import textwrap

import pytest

from topiary_site import beat, routing


@pytest.fixture
def apps(tmp_path, monkeypatch):
    """Write throwaway app packages: {"app": {"module": "source"}}; returns their names."""

    def make(packages: dict[str, dict[str, str]]) -> list[str]:
        for package, modules in packages.items():
            (tmp_path / package).mkdir()
            (tmp_path / package / "__init__.py").write_text("")
            for module, source in modules.items():
                (tmp_path / package / f"{module}.py").write_text(textwrap.dedent(source))
        return list(packages)

    monkeypatch.syspath_prepend(str(tmp_path))
    yield make
    for name in [m for m in sys.modules if m.startswith("gather_")]:
        del sys.modules[name]


def test_beat_gathers_each_apps_schedule_and_skips_apps_without_one(apps):
    names = apps(
        {
            "gather_a": {"schedule": "BEAT_SCHEDULE = {'a-tick': {'task': 'a.t', 'schedule': 60}}"},
            "gather_b": {},
            "gather_c": {"schedule": "BEAT_SCHEDULE = {'c-tick': {'task': 'c.t', 'schedule': 5}}"},
        }
    )
    assert beat.collect(names) == {
        "a-tick": {"task": "a.t", "schedule": 60},
        "c-tick": {"task": "c.t", "schedule": 5},
    }


def test_beat_refuses_one_entry_name_in_two_apps(apps):
    names = apps(
        {
            "gather_d": {"schedule": "BEAT_SCHEDULE = {'tick': {'task': 'd.t', 'schedule': 1}}"},
            "gather_e": {"schedule": "BEAT_SCHEDULE = {'tick': {'task': 'e.t', 'schedule': 1}}"},
        }
    )
    with pytest.raises(ValueError, match="'tick' is defined by both gather_d and gather_e"):
        beat.collect(names)


def test_routing_gathers_each_apps_websocket_routes_in_order(apps):
    names = apps(
        {
            "gather_f": {"routing": "websocket_urlpatterns = ['f1', 'f2']"},
            "gather_g": {},
            "gather_h": {"routing": "websocket_urlpatterns = ['h1']"},
        }
    )
    assert routing.collect(names) == ["f1", "f2", "h1"]


def test_the_site_serves_the_routes_and_jobs_of_its_apps():
    from django.conf import settings

    for app in settings.LOCAL_APPS:
        for route in routing.collect([app]):
            assert route in routing.websocket_urlpatterns
        for name in beat.collect([app]):
            assert name in settings.CELERY_BEAT_SCHEDULE
