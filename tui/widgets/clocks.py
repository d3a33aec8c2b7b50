"""Every seat's game clock in one line of the table's top bar, for every game alike.

The host counts the clocks (net.table.clocks) and every table message carries them: the seconds
each seat had left when it was sent, and whose clock runs. Between messages this line counts
the running clock down by itself, as the Chez Geek window banner's countdown does, so it ticks
without a message a second. A clock that ran out shows in the warning colour and with a "!"
(never in colour alone), one that took its extension a "+", the running one a "▶". Names
shorten (keeping a seat's number), then go, before a time does: at 80 columns six clocks must
fit beside whose turn it is.

Also here: a clock setting in words, for the lobbies ("3 min + 5 s a turn").
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable, Sequence
from typing import Any

from rich.cells import cell_len
from textual.content import Content
from textual.widgets import Static

from tui.i18n import register, tr

# How often the running clock is redrawn (it shows whole seconds).
TICK = 0.25
# Names shorten to these many characters until the line fits the top bar's share for it;
# then initials may take more of the bar, closer together, before the names go.
NAME_CUTS = (None, 8, 4, 1)
GAP, NARROW_GAP = "  ", " "
# Below this many seconds a running clock shows in the warning colour.
LOW = 10.0
# No clock shows more than this (a week): whatever a host sends, the line stays short.
MAX_SECONDS = 7 * 24 * 3600.0


def clock_time(seconds: float) -> str:
    """m:ss (h:mm:ss from an hour), whole seconds rounded up: 0:00 only once it ran out."""
    whole = int(-(-max(0.0, seconds) // 1))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def span(seconds: float) -> str:
    """A length of time in words: "3 min", "90 s", "2 min 30 s"."""
    whole = round(seconds)
    minutes, secs = divmod(whole, 60)
    if not minutes:
        return tr("clock.seconds", n=secs)
    if not secs:
        return tr("clock.minutes", n=minutes)
    return tr("clock.minutes_seconds", m=minutes, s=secs)


def setting_words(clock: dict[str, Any] | None) -> str:
    """A table's clock setting as the lobbies show it (None: no clock)."""
    if not clock:
        return tr("clock.preset.none")
    preset = str(clock.get("preset"))
    name = tr(f"clock.preset.{preset}")
    try:
        bank, increment = float(clock["bank"]), float(clock["increment"])
    except (KeyError, TypeError, ValueError):
        return name
    if preset == "move":
        return tr("clock.words.move", name=name, turn=span(increment))
    return tr("clock.words", name=name, bank=span(bank), increment=span(increment))


def _seats(clocks: dict[str, Any], key: str, count: int, default: Any) -> list[Any]:
    """A per-seat list of a clocks message, as long as the table, whatever the wire held."""
    value = clocks.get(key)
    items = list(value) if isinstance(value, list) else []
    return (items + [default] * count)[:count]


def short_name(name: str, cut: int | None) -> str:
    """`name` cut to `cut` characters (None: whole), keeping a number it ends with: "Bot 2"
    becomes "B2", so the bots' clocks still say whose they are."""
    if cut is None or cut == 0:
        return name if cut is None else ""
    number = re.search(r"\d+$", name)
    head = name[:cut].rstrip()
    if number and not head.endswith(number.group()):
        head += number.group()
    return head


def _running(clocks: dict[str, Any]) -> set[int]:
    value = clocks.get("running")
    return {s for s in value if type(s) is int} if isinstance(value, list) else set()


class SeatClocks(Static):
    """The clocks of a table, or nothing (hidden) when it has none."""

    DEFAULT_CSS = """
    SeatClocks { width: auto; height: 1; padding: 0 1 0 0; display: none; }
    SeatClocks.-on { display: block; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clocks: dict[str, Any] | None = None
        self.names: list[str] = []
        self.you: int | None = None
        self.budget = 40  # cells this line should take; the screen sets it
        self.room = 60  # cells it may take rather than lose the names
        self.bots: set[int] = set()  # seats that show no clock
        self._at = time.monotonic()

    def on_mount(self) -> None:
        self.set_interval(TICK, self._tick)

    def show(self, clocks: dict[str, Any] | None, names: Sequence[str], you: int | None,
             bots: Iterable[int] = ()) -> None:
        """The clocks of the newest table message (the seconds left as it was sent). The
        `bots`' seats show none: a bot moves at its own pace and never runs out, and a clock
        that sat at its bank all game (its increment refilled it after every move) told
        nothing."""
        if clocks is not self.clocks:
            self._at = time.monotonic()
        self.clocks = clocks if isinstance(clocks, dict) else None
        self.names, self.you = list(names), you
        self.bots = set(bots)
        self.set_class(self.clocks is not None, "-on")
        self.refresh_line()

    def _tick(self) -> None:
        if self.clocks is not None and _running(self.clocks):
            self.refresh_line()

    def left(self) -> list[float]:
        """Every seat's seconds left now, the running ones counted down since the message."""
        clocks = self.clocks or {}
        running = _running(clocks)
        spent = time.monotonic() - self._at
        left = []
        for seat, value in enumerate(_seats(clocks, "left", len(self.names), 0.0)):
            number = isinstance(value, int | float) and math.isfinite(value)
            seconds = min(float(value), MAX_SECONDS) if number else 0.0
            left.append(max(0.0, seconds - spent) if seat in running else seconds)
        return left

    def line(self) -> Content:
        """The line that fits the budget: shorter names first, then initials in more room,
        then no names."""
        tries = [(cut, GAP, self.budget) for cut in NAME_CUTS] + [(1, NARROW_GAP, self.room)]
        for cut, gap, width in tries:
            parts = self._parts(cut)
            if cell_len(gap.join(p.plain for p in parts)) <= width:
                return Content(gap).join(parts)
        return Content(NARROW_GAP).join(self._parts(0))

    def _parts(self, cut: int | None) -> list[Content]:
        clocks = self.clocks or {}
        count = len(self.names)
        running = _running(clocks)
        extended = _seats(clocks, "extended", count, False)
        timeouts = _seats(clocks, "timeouts", count, 0)
        parts = []
        for seat, seconds in enumerate(self.left()):
            if seat in self.bots:
                continue
            name = short_name(self.names[seat], cut)
            runs = seat in running
            mark = "▶" if runs else ""
            out = isinstance(timeouts[seat], int) and timeouts[seat] > 0
            more = ("+" if extended[seat] is True else "") + ("!" if out else "")
            text = f"{mark}{name} {clock_time(seconds)}{more}" if name else \
                f"{mark}{clock_time(seconds)}{more}"
            if runs and seconds <= LOW:
                style = "bold $warning"
            elif runs:
                style = "bold $accent"
            elif out:
                style = "$warning"
            else:
                style = "$text-muted" if seat != self.you else ""
            parts.append(Content.styled(text, style))
        return parts

    def refresh_line(self) -> None:
        self.update(self.line() if self.clocks is not None else Content(""))

    def played_for(self, seat: int | None) -> bool:
        """Whether the bot plays `seat`'s turn now: its clock runs with no time left (it ran
        out, and the turn goes on: Chez Geek's phases, a trick's prompts)."""
        clocks = self.clocks
        if clocks is None or seat is None or not 0 <= seat < len(self.names):
            return False
        if seat not in _running(clocks):
            return False
        if clocks.get("out_of_time") == "skip":
            return False
        timeouts = _seats(clocks, "timeouts", len(self.names), 0)
        out = isinstance(timeouts[seat], int) and timeouts[seat] > 0
        return out and self.left()[seat] <= 0

    @property
    def width_needed(self) -> int:
        """Cells the line takes now (0 when hidden), for the rest of the top bar."""
        if self.clocks is None:
            return 0
        return cell_len(self.line().plain) + 1


register({
    "en": {
        "clock.bot_plays": "Out of time: the bot plays this turn for you",
        "clock.bot_plays.extend": "Out of time: the bot plays this turn for you (F7: more "
                                  "time, to play it yourself)",
        "clock.bots": "Bots have no clock: they move at their own pace and never run out.",
    },
    "de": {
        "clock.bot_plays": "Zeit abgelaufen: der Bot spielt diesen Zug für dich",
        "clock.bot_plays.extend": "Zeit abgelaufen: der Bot spielt diesen Zug für dich (F7: "
                                  "mehr Zeit, um selbst zu spielen)",
        "clock.bots": "Bots haben keine Uhr: sie ziehen in ihrem Tempo und nie zu spät.",
    },
})
