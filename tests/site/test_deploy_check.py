"""``manage.py check --deploy`` in a fresh process, as an operator would run it."""

from tests.site.conftest import clean_env, manage


def test_check_deploy_passes_with_production_settings(production_env):
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=production_env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stderr


def test_check_deploy_flags_the_embedded_development_defaults():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=clean_env())
    assert result.returncode != 0
    assert "security.W018" in result.stderr  # DEBUG on
    assert "security.W009" in result.stderr  # the published development key


def test_debug_off_without_a_secret_key_refuses_to_start():
    result = manage("check", env=clean_env(DEBUG="0"))
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off." in result.stderr
