"""The shared flat: one room per player. Collapsed, a room is one line (job, the slack race as a
bar, hand size, the cards in it in short); expanded, it lists the job's values and perk, the
bonus pool, lasting cards and every card with its value and bonus tokens. A small window shows
rooms collapsed (a key or a click opens one); a large one shows them all open."""

from __future__ import annotations

from typing import Any

from textual.containers import VerticalScroll
from textual.content import Content
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from tui.boards.base import Table
from tui.boards.chez_geek.cards import CARDS, card_name, effects_line, job_line, job_name
from tui.i18n import tr


def slack_bar(slack: int, goal: int, cells: int) -> str:
    full = max(0, min(cells, round(cells * slack / goal))) if goal else 0
    return "█" * full + "░" * (cells - full)


def entry_text(entry: dict[str, Any]) -> str:
    """A card in a room: its name and slack, with its bonus tokens marked ("Bier 1+1")."""
    tokens = int(entry.get("tokens") or 0)
    value = f"{entry.get('value')}{tokens:+d}" if tokens else str(entry.get("value"))
    return f"{card_name(entry.get('card'))} {value}"


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


class RoomLine(Static):
    """One player's room; a click opens or closes it."""

    DEFAULT_CSS = """
    RoomLine { height: auto; width: 1fr; }
    RoomLine.-active { color: $active; }
    RoomLine.-you { text-style: bold; }
    """

    class Toggled(Message):
        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"room-{seat}")
        self.seat = seat

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Toggled(self.seat))


class Rooms(VerticalScroll, can_focus=False):
    """Every player's room, the seat at the keys first."""

    DEFAULT_CSS = """
    Rooms { height: 1fr; width: 1fr; min-height: 3; }
    """

    def __init__(self, table: Table, *, id: str | None = None) -> None:
        super().__init__(id=id)
        order = [] if table.seat is None else [table.seat]
        self.order = order + table.seats_from_me()
        self.chosen: set[int] | None = None  # rooms opened by hand; None: all that fit
        self.shown: set[int] = set()

    def compose(self) -> Any:
        for seat in self.order:
            yield RoomLine(seat)

    def toggle(self, seat: int) -> None:
        self.chosen = set(self.shown) ^ {seat}

    def cycle(self) -> None:
        """Each room alone in turn -> all open -> all closed -> the first alone again."""
        shown = self.shown
        if not shown:
            self.chosen = {self.order[0]}
        elif len(shown) == len(self.order):
            self.chosen = set()
        elif len(shown) == 1:
            index = self.order.index(next(iter(shown)))
            self.chosen = {self.order[index + 1]} if index + 1 < len(self.order) \
                else set(self.order)
        else:
            self.chosen = set()

    def draw(self, table: Table, width: int, roomy: bool) -> None:
        view = table.view
        opened = {s: self._lines(table, s, width, roomy, True) for s in self.order}
        if self.chosen is not None:
            self.shown = set(self.chosen)
        else:
            self.shown = self._fitting(view, opened)
        for seat in self.order:
            line = self.query_one(f"#room-{seat}", RoomLine)
            line.set_class(seat == view.get("turn") and not view.get("over"), "-active")
            line.set_class(seat == table.seat, "-you")
            lines = opened[seat] if seat in self.shown else self._lines(
                table, seat, width, roomy, False)
            line.update(Content("\n".join(lines)))

    def _fitting(self, view: dict[str, Any], opened: dict[int, list[str]]) -> set[int]:
        """Without a choice by hand, open as many rooms as fit: whose turn it is first, then
        the seat at the keys, then the others."""
        turn = view.get("turn")
        first = [s for s in self.order if s == turn] + [s for s in self.order if s != turn]
        room = self.size.height - len(self.order)
        shown: set[int] = set()
        for seat in first:
            extra = len(opened[seat]) - 1
            if extra <= room:
                shown.add(seat)
                room -= extra
        return shown

    def _lines(self, table: Table, seat: int, width: int, roomy: bool, opened: bool) -> list[str]:
        view = table.view
        player = view["players"][seat]
        name = table.name(seat)
        mark = "▶" if seat == view.get("turn") and not view.get("over") else " "
        fold = "▾" if opened else "▸"
        bar = slack_bar(player["slack"], player["goal"], 16 if roomy else 8)
        head = (
            f"{mark}{fold} {clip(name, 14 if not roomy else 24)} · {job_name(player['job'])} "
            f"{bar} {player['slack']}/{player['goal']} · "
            f"{tr('cg.room.hand', n=player['hand_count'])}"
        )
        room = player["room"]
        if not opened:
            cards = ", ".join(entry_text(e) for e in room) or tr("cg.room.empty")
            return [clip(f"{head} │ {cards}", width)]
        lines = [clip(head, width), clip("   " + job_line(player["job"]), width)]
        extras = []
        if player["bonus_pool"]:
            extras.append(tr("cg.room.pool", n=player["bonus_pool"]))
        if player["lasting"]:
            extras.append(tr("cg.room.lasting", cards=", ".join(
                card_name(c) for c in player["lasting"])))
        if seat == view.get("turn") and not view.get("over"):
            extras.append(tr("cg.room.turn_values", income=view.get("income"),
                             ft=view.get("free_time")))
        if extras:
            lines.append(clip("   " + " · ".join(extras), width))
        if not room:
            lines.append("   " + tr("cg.room.empty"))
        for entry in room:
            card = CARDS.get(entry.get("card"))
            what = effects_line(card.keywords) if card is not None and roomy else ""
            text = f"   • {entry_text(entry)}" + (f"  ({what})" if what else "")
            lines.append(clip(text, width))
        return lines
