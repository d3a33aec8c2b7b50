"""The hint's own line, under the table at every size: what "h" found, or why a key does
nothing now. It wraps rather than cuts (at 80 columns the top bar cut it; wider, it went
into the log, where it scrolled away among the moves), shows only while it has something
to say, and goes once the table moves on."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

# Rows the line may take at most (three are enough for a hint and its runner-up at 45
# columns); the table gives them up while it shows.
MAX_ROWS = 3


class HintLine(Static):
    """A line for the person at this terminal only. `said` keeps every text it showed, in
    order (what tests and screen readers want)."""

    DEFAULT_CSS = f"""
    HintLine {{
        height: auto; max-height: {MAX_ROWS}; width: 1fr; padding: 0 1; display: none;
        background: $panel; color: $accent; text-style: bold;
    }}
    HintLine.-on {{ display: block; }}
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.said: list[str] = []
        self.text = ""

    def say(self, text: str) -> None:
        self.said.append(text)
        self.text = text
        self.update(Content(text))
        self.add_class("-on")

    def clear(self) -> None:
        """The table moved on: what the line said was about the table before."""
        if self.text:
            self.text = ""
            self.update(Content(""))
            self.remove_class("-on")
