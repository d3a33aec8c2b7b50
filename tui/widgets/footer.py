"""The key bar under every screen: Textual's footer, made afresh only when what it shows changes.

Textual remakes its footer whenever the screen's keys may have changed: three times as a screen
opens, twice for each Tab in a form, each time building and styling a widget per key. Over SSH
that is a tenth of a session's start and a lag on every focus change, for a bar that nearly
always shows the same keys again.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    _shown: tuple[Any, ...] | None = None  # what the bar was last made from

    def _showing(self) -> tuple[Any, ...] | None:
        """What the bar shows, as its `compose` reads it (None: not yet, the keys unknown)."""
        if not self._bindings_ready:
            return None
        return (
            self.show_command_palette,
            tuple(
                (binding.key, binding.action, binding.description, binding.group,
                 binding.key_display, binding.tooltip, enabled, tooltip)
                for key, (_node, binding, enabled, tooltip)
                in self.screen.active_bindings.items()
                if binding.show or key == self.app.COMMAND_PALETTE_BINDING
            ),
        )

    def compose(self) -> ComposeResult:
        self._shown = self._showing()
        yield from super().compose()

    async def recompose(self) -> None:
        if self.is_attached and self._showing() == self._shown:
            return
        await super().recompose()
