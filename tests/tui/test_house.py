"""The imports in `tui/` run one way: the CLI builds the app, the app opens screens, screens
draw boards and widgets. A screen that imported the app (or the CLI) would bring the circle
back that once made every change to one of them a change to all."""

from __future__ import annotations

import ast
from pathlib import Path

from house import circle

TUI = Path(__file__).resolve().parents[2] / "tui"


def imports_of(path: Path) -> set[str]:
    """Every tui module `path` imports, at the top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("tui")}


def module_of(path: Path) -> str:
    parts = path.relative_to(TUI.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


# Where an app starts: the command line, and the SSH table's fork server's warmed copy of it
# (tui.preload runs the command line's main in every forked session).
ENTRY_POINTS = ("tui.cli", "tui.preload")


def test_only_the_cli_builds_apps_and_nothing_imports_the_cli() -> None:
    for path in TUI.rglob("*.py"):
        name = module_of(path)
        imported = imports_of(path)
        if name not in ENTRY_POINTS:
            for entry in ENTRY_POINTS:
                assert entry not in imported, f"{name} imports {entry}"
        if name not in (*ENTRY_POINTS, "tui.app"):
            assert "tui.app" not in imported, f"{name} imports the app"


def test_the_tui_modules_import_each_other_without_a_circle() -> None:
    modules = {module_of(p): p for p in TUI.rglob("*.py")}
    graph = {
        name: {m for m in imports_of(path) if m in modules and m != name}
        for name, path in modules.items()
    }
    found = circle(graph)
    assert found is None, " -> ".join(found or [])
