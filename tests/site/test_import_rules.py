"""The project's import rules, read from the source (every import, at module level or
inside a function): no module imports itself back through others, and no package
imports one above it. From the bottom up: the engine (no Django), the kit (what every
app uses), the apps in settings.LOCAL_APPS order, and the project package
``topiary_site`` (settings, urls, asgi, the Celery app), which may import anything. An
app reads settings through ``django.conf`` and adds to the whole from its
``AppConfig.ready``, never by being imported from the root's modules below."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
#: Every package read, from the bottom up: each may import only itself and those before it.
LAYERS = ["engine", "kit", *settings.LOCAL_APPS, "topiary_site"]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for package in LAYERS:
        # A Cython module (.pyx) is a module too; its Python-level imports are read as
        # Python's (``cimport`` lines are C-level and skipped).
        for path in [*(ROOT / package).rglob("*.py"), *(ROOT / package).rglob("*.pyx")]:
            if "migrations" not in path.parts:
                found[_module_name(path)] = path
    return found


def _python_text(path: Path) -> str:
    """The text ``ast`` can read: for a Cython module, its plain import lines only."""
    text = path.read_text()
    if path.suffix != ".pyx":
        return text
    return "\n".join(
        line
        for line in text.splitlines()
        if line.startswith(("import ", "from ")) and " cimport " not in line
    )


def _imports(module: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``module`` imports anywhere in its text."""
    imported = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(_python_text(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from games import live`` imports the module games.live.
            names = [f"{base}.{alias.name}" for alias in node.names] + [base]
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                imported.add(name)
    return imported


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {module: _imports(module, path, known) for module, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def _arrows_back_up(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module in a package above the importer's (``LAYERS``)."""
    rank = {package: level for level, package in enumerate(LAYERS)}
    return sorted(
        f"{module} imports {other}"
        for module, imports in graph.items()
        for other in imports
        if rank[other.split(".")[0]] > rank[module.split(".")[0]]
    )


def test_no_module_imports_itself_back_through_others():
    assert _cycles(_graph()) == []


def test_no_package_imports_one_above_it():
    """The kit imports no app and not the root; an app imports the kit and apps below it,
    never the root; the engine imports none of them."""
    assert _arrows_back_up(_graph()) == []


def test_the_ranking_sees_each_kind_of_arrow_back_up():
    planted = {
        "kit.socket_db": {"accounts.selectors"},
        "kit.metrics": {"topiary_site.settings"},
        "chat.sockets": {"topiary_site.urls", "kit.socket_db", "accounts.sockets"},
        "accounts.i18n": {"games.models"},
        "engine.bots": {"kit.wire"},
        "topiary_site.asgi": {"accounts.sockets", "kit.limits", "games.routing"},
    }
    assert _arrows_back_up(planted) == [
        "accounts.i18n imports games.models",
        "chat.sockets imports topiary_site.urls",
        "engine.bots imports kit.wire",
        "kit.metrics imports topiary_site.settings",
        "kit.socket_db imports accounts.selectors",
    ]


def test_the_rules_see_imports_inside_functions():
    """The checks above would miss the circles they exist for if they read only the top."""
    graph = _graph()
    # tournaments.services.pairings imports games.services inside a function (game creation).
    assert "games.services" in graph["tournaments.services.pairings"]
    assert "games.frames" in graph["games.services.writer"]
