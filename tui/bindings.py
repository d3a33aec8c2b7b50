"""Key bindings whose labels follow the language, laid over a node's class bindings.

Screens, boards and the app rebuild their bindings when the language changes. Replacing a
node's whole `BindingsMap` would also drop what Textual binds on the class (Tab and Shift+Tab
on every screen), and with it all keyboard navigation: players over SSH have no mouse.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode


def bindings_over(node: DOMNode, bindings: Iterable[Binding]) -> BindingsMap:
    """`node`'s class bindings, with `bindings` replacing any class binding of the same key."""
    own = BindingsMap(bindings)
    inherited = type(node)._merged_bindings or BindingsMap()
    keys = {
        key: list(found)
        for key, found in inherited.key_to_bindings.items()
        if key not in own.key_to_bindings
    }
    keys.update(own.key_to_bindings)
    return BindingsMap.from_keys(keys)
