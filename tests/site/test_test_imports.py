"""No test module imports another (issue 42): what tests share lives in ``tests/support/``
(one module per kind of helper) or in a conftest.py, so a test module can be read, moved
or deleted on its own, and pytest never collects one module's tests from another's name."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imported_test_modules(text: str, package: str) -> set[str]:
    """The test modules (``test_*``) that ``text``, a module of ``package``, imports
    anywhere (at module level or inside a function, absolute or relative)."""
    found = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                above = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*above, base] if base else above)
            # ``from tests.games import test_services`` names the module as an alias.
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        found |= {name for name in names if name.rpartition(".")[2].startswith("test_")}
    return found


def test_no_test_module_imports_another():
    imports = {}
    for path in sorted(TESTS.rglob("*.py")):
        package = ".".join(path.relative_to(TESTS.parent).parent.parts)
        found = imported_test_modules(path.read_text(), package)
        if found:
            imports[str(path.relative_to(TESTS.parent))] = sorted(found)
    assert imports == {}, "move what they share to tests/support/ or a conftest.py"


def test_the_rule_sees_every_way_of_importing_a_test_module():
    text = """
from tests.games.test_services import refused
import tests.api.test_tokens
from tests.games import test_privacy
from .test_close import live_game
from tests.games.conftest import live_game
from tests.support.streams import Stream

def later():
    from tests.site.test_operations import RedisServer
"""
    assert imported_test_modules(text, "tests.accounts") == {
        "tests.games.test_services",
        "tests.api.test_tokens",
        "tests.games.test_privacy",
        "tests.accounts.test_close",
        "tests.site.test_operations",
    }
