"""The imports inside `net/` run one way, floor by floor, as they do between the top-level
packages (tui -> net -> engines): what both ends of a connection share at the bottom, then the
table without a network, the records, the relay, the host and the peer side by side (neither
knows the other) with the tables' own lines to a player (net.words), the SSH table, and the
web table (which reuses the SSH table's parts) and the headless runner side by side on top. A
part may name the class that owns it in annotations only (under `TYPE_CHECKING`): that is no
import at run time."""

from __future__ import annotations

import ast
from pathlib import Path

from house import circle

NET = Path(__file__).resolve().parents[2] / "net"

# Each package (or top-level module) of net/ and its floor; a module may import, at run time,
# only what stands on its own floor or below, and never a sibling package on its floor.
FLOORS = {
    "net.home": 0, "net.wire": 0,
    "net.table": 1, "net.tournament": 1,
    "net.records": 2, "net.discovery": 2,
    "net.relay": 3, "net.players": 3,
    "net.host": 4, "net.peer": 4, "net.words": 4, "net.puzzles": 4,
    "net.days": 5,
    "net.ssh": 6,
    "net.web": 7,
    "net.headless": 7, "net.entrant": 8, "net.director": 9,
}


def module_of(path: Path) -> str:
    parts = path.relative_to(NET.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(module: str) -> str:
    """The package (or top-level module) of net/ that `module` belongs to."""
    return ".".join(module.split(".")[:2])


def _type_checking_only(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


MODULES = {module_of(p): p for p in NET.rglob("*.py")}


def runtime_imports(path: Path) -> set[str]:
    """The net modules `path` imports when it runs (at the top or inside a function)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from net.records import store` imports the module store; `from net.records
            # import load` imports the package's face.
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {name for name in found if name.startswith("net.")}


def test_every_part_of_net_has_a_floor() -> None:
    parts = {part_of(m) for m in MODULES if m != "net"}
    assert parts == set(FLOORS), f"give these a floor: {sorted(parts ^ set(FLOORS))}"


def test_net_imports_run_down_the_floors_and_never_across_to_a_sibling() -> None:
    wrong = []
    for name, path in MODULES.items():
        if name == "net":
            continue
        mine = part_of(name)
        for target in runtime_imports(path):
            theirs = part_of(target)
            if theirs != mine and FLOORS[theirs] >= FLOORS[mine]:
                wrong.append(f"{name} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_net_imports_neither_the_tui_nor_anything_above_it() -> None:
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("tui", "bench", "tests")), name
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith(("tui", "bench")) for a in node.names), name


def test_the_net_modules_import_each_other_without_a_circle() -> None:
    graph = {name: {m for m in runtime_imports(path) if m != name}
             for name, path in MODULES.items()}
    found = circle(graph)
    assert found is None, " -> ".join(found or [])
