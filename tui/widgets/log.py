"""The table's running commentary: one line per thing that happened, newest at the bottom.

Built on RichLog (one widget, cached lines) rather than a widget per line: a long game writes
hundreds of lines and a widget each made every redraw of the table slower."""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text
from textual.widgets import RichLog

MAX_LINES = 400


class EventLog(RichLog, can_focus=False):
    """Sentences, wrapped to the width. It never takes focus, so the board keeps the keys.
    `texts` holds the plain text (what tests and screen readers want). Notes (errors, the
    start of a game) stand out in the accent colour; colours follow theme switches."""

    # The scrollbar's column is kept free from the start: RichLog wraps a line once, when it
    # is written, so lines wrapped before the scrollbar appeared lost their last character
    # under it ("Bo" for "Bot"). A new width (a resized window) wraps every line afresh.
    DEFAULT_CSS = """
    EventLog {
        height: 1fr; background: $surface; padding: 0 1;
        scrollbar-size-vertical: 1; scrollbar-gutter: stable;
        overflow-x: hidden; overflow-y: auto;
    }
    """

    def __init__(
        self, *, lines: Iterable[str] = (), id: str | None = None, classes: str = ""
    ) -> None:
        super().__init__(wrap=True, min_width=16, max_lines=MAX_LINES, id=id, classes=classes)
        self.texts: list[str] = []
        self._kinds: list[bool] = []  # per line: is it a note?
        self._wrapped_at = 0  # the width the lines on show were wrapped to
        for text in lines:
            self.texts.append(text)
            self._kinds.append(False)

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._repaint, init=False)
        self._repaint()

    def on_resize(self) -> None:
        """Wrap again for a new width. (RichLog's own handler runs too, by itself: it writes
        what came before the size was known, at this width.)"""
        width = self.scrollable_content_region.width
        if width == self._wrapped_at:
            return
        known, self._wrapped_at = self._wrapped_at, width
        if known:
            self._repaint()

    def _style(self, note: bool) -> Style:
        colours = self.app.theme_variables
        if note:
            return Style(color=colours.get("accent"), bold=True)
        return Style(color=colours.get("foreground"))

    def _repaint(self) -> None:
        super().clear()
        for text, note in zip(self.texts, self._kinds, strict=True):
            self.write(Text(text, style=self._style(note)))

    def add(self, *texts: str, note: bool = False) -> None:
        for text in texts:
            self.texts.append(text)
            self._kinds.append(note)
            self.write(Text(text, style=self._style(note)))
        del self.texts[:-MAX_LINES], self._kinds[:-MAX_LINES]

    def insert(self, after: int, text: str) -> None:
        """`text` as a line with `after` lines after it (a chat line that arrived late, put
        where it was said); nothing if that is further back than the log keeps."""
        index = len(self.texts) - after
        if index < 0:
            return
        self.texts.insert(index, text)
        self._kinds.insert(index, False)
        self._repaint()

    def clear(self) -> EventLog:
        self.texts.clear()
        self._kinds.clear()
        super().clear()
        return self
