"""What the tests of the house's layout share: finding a circle in an import graph."""

from __future__ import annotations


def circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports in `graph` (module -> the modules it imports), as the path round
    it, or None if there is none."""
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> list[str] | None:
        if name in trail:
            return [*trail[trail.index(name):], name]
        if name in done:
            return None
        for other in sorted(graph[name]):
            if found := visit(other, [*trail, name]):
                return found
        done.add(name)
        return None

    for name in sorted(graph):
        if found := visit(name, []):
            return found
    return None
