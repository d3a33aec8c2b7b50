"""The interrupt banner: what is being played by whom, what you can answer with, and the window's
countdown. Every seat sees the same banner and the same countdown whether or not it holds an
answer; only the line about your own cards differs, and that is on your own screen only."""

from __future__ import annotations

import time
from typing import Any

from textual.content import Content
from textual.widgets import Static

from engines.base import Move
from tui.boards.base import Table, seat_name
from tui.boards.chez_geek.cards import CARDS, card_name
from tui.boards.chez_geek.events import item_words, said, why_words
from tui.boards.chez_geek.picker import hits_own_room
from tui.i18n import language, tr

BAR_CELLS = 10
ANSWERS = ("cancel", "tv")


class Countdown:
    """The window's clock as this screen counts it down between messages from the table: the
    host sends the seconds left with every change, and it stops while someone in the window
    is away (told by the players' presence)."""

    def __init__(self) -> None:
        self._source: dict[str, Any] | None = None
        self._left: float | None = None
        self._at = 0.0
        self._frozen: float | None = None

    def update(self, table: Table) -> None:
        clock = table.clock
        if clock is not self._source:
            self._source = clock
            self._left = None if clock is None else clock.get("left")
            self._at = time.monotonic()
            self._frozen = None
        stopped = self.stopped(table)
        if stopped and self._frozen is None:
            self._frozen = self._running()
        elif not stopped and self._frozen is not None:
            self._left, self._at, self._frozen = self._frozen, time.monotonic(), None

    @staticmethod
    def away(table: Table) -> list[int]:
        """People in the window who are away (the host's countdown waits for them)."""
        return [
            s for s in table.view.get("to_act", [])
            if s < len(table.players)
            and not table.players[s].get("connected", True)
            and not table.players[s].get("auto")
        ]

    def stopped(self, table: Table) -> bool:
        """Whether the countdown stands still: someone is away (the presence list says so at
        once) or the host said so."""
        return bool(self.away(table) or (table.clock or {}).get("paused"))

    def _running(self) -> float | None:
        if self._left is None:
            return None
        return max(0.0, float(self._left) - (time.monotonic() - self._at))

    def left(self) -> float | None:
        return self._frozen if self._frozen is not None else self._running()

    @property
    def total(self) -> float | None:
        return None if self._source is None else self._source.get("seconds")


def _bar(left: float, total: float) -> str:
    full = round(BAR_CELLS * left / total) if total else 0
    return "▰" * full + "▱" * (BAR_CELLS - full)


def answers(legal: list[Move]) -> list[Move]:
    return [m for m in legal if m.get("type") in ANSWERS]


def reactions(legal: list[Move]) -> list[Move]:
    return [m for m in legal if m.get("type") == "play"]


def worth_offering(move: Move, view: dict[str, Any]) -> bool:
    """Whether the banner names this answer: not one that only costs its player (a card
    thrown out of their own room) nor one that would do nothing (digging in a discard pile
    that holds nothing to take). `a` still lists them, last."""
    if hits_own_room(move, view):
        return False
    card = CARDS.get(move.get("card"))  # type: ignore[arg-type]
    return not (card is not None and card.effect("salvage") is not None and "take" not in move)


class Banner(Static):
    """Two lines: what is going on, and what you can do about it (with the countdown)."""

    DEFAULT_CSS = """
    Banner { height: auto; min-height: 2; width: 1fr; padding: 0 1; background: $felt; }
    Banner.-window { background: $warning 25%; text-style: bold; }
    Banner.-prompt { background: $accent 25%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.clock = Countdown()
        self.table: Table | None = None
        self.hint = ""

    def on_mount(self) -> None:
        self.set_interval(0.2, self._tick)

    def _tick(self) -> None:
        if self.table is not None and self.table.clock is not None:
            self.refresh_text()

    def show(self, table: Table, hint: str) -> None:
        self.table = table
        self.hint = hint
        self.clock.update(table)
        self.refresh_text()

    def refresh_text(self) -> None:
        table = self.table
        if table is None:
            return
        view = table.view
        window = view.get("window")
        prompt = view.get("prompt")
        self.set_class(window is not None and prompt is None, "-window")
        self.set_class(prompt is not None, "-prompt")
        if prompt is not None:
            lines = self._prompt_lines(table, prompt)
        elif window is not None:
            timer = self._timer(table)
            lines = [self._what(table, window), timer + self._yours(table, window)]
        else:
            lines = [self.hint, ""]
        self.update(Content("\n".join(lines)))

    def _what(self, table: Table, window: dict[str, Any]) -> str:
        view = table.view
        names = table.names
        if window.get("kind") == "response":
            items = view.get("pending") or []
            index = window.get("item", -1)
            item = items[index] if isinstance(index, int) and -len(items) <= index < len(items) \
                else None
            return "⚡ " + item_words(item, names)
        after = window.get("after")
        if after is not None:
            return "⚡ " + said("cg.banner.resolved", seat_name(names, after))
        return "⚡ " + said("cg.banner.phase", seat_name(names, view.get("turn")),
                           phase=tr(f"cg.phase.{view.get('phase')}"))

    def _yours(self, table: Table, window: dict[str, Any]) -> str:
        seat = table.you
        if seat is None or seat not in table.view.get("to_act", []):
            return tr("cg.banner.waiting")
        if not table.legal:  # our pass is in: the table applies it when the window closes
            return tr("cg.banner.passed")
        if window.get("kind") == "response":
            mine = answers(table.legal)
            if not mine:
                return tr("cg.banner.no_answer")
            cards = ", ".join(dict.fromkeys(card_name(m.get("card")) for m in mine))
            return tr("cg.banner.answer", cards=cards)
        mine = reactions(table.legal)
        if not mine:
            return tr("cg.banner.no_answer")
        worth = [m for m in mine if worth_offering(m, table.view)]
        if not worth:
            return tr("cg.banner.nothing_worth")
        cards = ", ".join(dict.fromkeys(card_name(m.get("card")) for m in worth))
        return tr("cg.banner.react", cards=cards)

    def _timer(self, table: Table) -> str:
        if self.clock.stopped(table):
            names = [seat_name(table.names, s) for s in self.clock.away(table)]
            return "‖ " + tr("cg.banner.paused", names=", ".join(names) or "…") + " · "
        left, total = self.clock.left(), self.clock.total
        if left is None or not total:
            return ""
        return f"{_bar(left, float(total))} {left:.0f} s · " + self._answering(table)

    @staticmethod
    def _answering(table: Table) -> str:
        """Who holds the window while choosing an answer: everyone sees it (net.table.windows
        gives them the time, capped)."""
        seats = (table.clock or {}).get("answering") or []
        if not seats:
            return ""
        if seats == [table.you]:
            return tr("cg.banner.you_answering") + " · "
        names = ", ".join(seat_name(table.names, s) for s in seats if s != table.you)
        return tr("cg.banner.answering", names=names) + " · "

    def _prompt_lines(self, table: Table, prompt: dict[str, Any]) -> list[str]:
        names = table.names
        who = prompt.get("seat")
        kind = str(prompt.get("kind"))
        fields = {"card": card_name(prompt.get("card")), "n": prompt.get("result"),
                  "why": why_words(prompt.get("why"), language())}
        if who == table.you:
            return ["➤ " + tr(f"cg.prompt.{kind}", **fields), tr("cg.prompt.yours")]
        # Someone else chooses: what they face, in the third person ("Ada rolled 1"), never
        # the chooser's own "you rolled 1".
        name = seat_name(names, who)
        return [tr("cg.prompt.other", name=name),
                tr(f"cg.prompt.{kind}.other", name=name, **fields)]
