"""The middle of the Chez Geek table, where everyone looks: the cards being played (who plays
them, what they are) or the cards that just came into a room, the interrupt banner with its
countdown, and a line that keeps what the others played (a cancel, a reaction in your turn) in
sight until you press a key, since the log beside the table is not there at 80 columns."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from tui.boards.base import Table, seat_name
from tui.boards.chez_geek.banner import Banner
from tui.boards.chez_geek.cards import CARDS
from tui.boards.chez_geek.faces import hand_face, room_face
from tui.i18n import tr
from tui.widgets.cardrow import CardRow, Face, Slot
from tui.widgets.cards import BACK
from tui.widgets.scale import SIZES, Scalable

NEWS_MARK = "⚑ "
BANNER_ROWS = 2


def _card_face(cid: object) -> Any:
    card = CARDS.get(cid)  # type: ignore[arg-type]
    kind = card.type if card is not None else "thing"
    slack = card.slack_text() if card is not None else None
    return hand_face({"card": cid, "type": kind, "cost": card.cost if card else 0,
                      "slack": slack})


def table_cards(table: Table) -> list[Slot]:
    """What lies in the middle: the items being played, bottom first, the one being answered
    marked; else the card a player is rolling for; else, in the window after they resolved,
    the cards that just came in."""
    view = table.view
    names = table.names
    items = view.get("pending") or []
    window = view.get("window") or {}
    if items:
        top = window.get("item", len(items) - 1) if window.get("kind") == "response" else -1
        top = top % len(items) if isinstance(top, int) else -1
        return [
            Slot(_card_face(cid), above=seat_name(names, item.get("seat")),
                 below=tr(f"cg.middle.{item.get('kind')}", name=seat_name(names, item.get("to"))),
                 strong=index == top)
            for index, item in enumerate(items)
            for cid in item.get("cards") or []
        ]
    prompt = view.get("prompt") or {}
    if prompt.get("card") in CARDS:  # a card being rolled for
        result = prompt.get("result")
        below = tr("cg.middle.rolled", n=result) if result is not None else ""
        return [Slot(_card_face(prompt["card"]), above=seat_name(names, prompt.get("seat")),
                     below=below, strong=True)]
    refs = set(window.get("refs") or [])
    owner = window.get("owner")
    if not refs or not isinstance(owner, int) or not 0 <= owner < len(view["players"]):
        return []
    return [
        Slot(room_face(entry, CARDS[entry["card"]].type if entry["card"] in CARDS else "thing"),
             above=seat_name(names, owner), below=tr("cg.middle.in"))
        for entry in view["players"][owner]["room"]
        if entry.get("ref") in refs
    ]


def pile_cards(table: Table) -> list[Slot]:
    """With nothing in play, the piles on the table, each with its count: the draw pile face
    down, the discard pile's top card (an empty place while there is none), the jobs face
    down (a table at 160×50 was otherwise an empty middle early in every turn)."""
    view = table.view
    discard = view.get("discard_pile") or []
    top = Slot(_card_face(discard[-1]), above=tr("cg.pile.discard"),
               below=tr("cg.pile.count", n=len(discard))) if discard else Slot(
        None, above=tr("cg.pile.discard"), below=tr("cg.pile.count", n=0))
    return [_back(tr("cg.pile.draw"), view.get("draw_pile", 0)), top,
            _back(tr("cg.pile.jobs"), view.get("job_pile", 0))]


def _back(what: str, count: object) -> Slot:
    return Slot(Face(BACK * 3, ink="$card", paper="$card-back"), above=what,
                below=tr("cg.pile.count", n=count))


class Middle(Vertical, Scalable):
    """The cards in play, the banner and the news line. The cards in play are drawn at the
    table's step when the middle has the rows for them, else smaller, else not at all."""

    DEFAULT_CSS = """
    Middle { height: 1fr; min-height: 3; width: 1fr; align: center middle; }
    Middle > #pending { margin-bottom: 0; }
    Middle > #news { height: 1; width: 1fr; padding: 0 1; color: $warning; text-style: bold; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: tuple[Table, str, list[str]] | None = None

    def compose(self) -> ComposeResult:
        yield CardRow(captions=True, notes=True, id="pending")
        yield Banner(id="banner")
        yield Static(id="news")

    def draw(self, table: Table, hint: str, news: list[str]) -> None:
        self.shown = (table, hint, news)
        self._fill()

    def on_resize(self) -> None:
        """The rows the middle gets are known after the rooms around it are laid out."""
        self._fill()

    def rescaled(self) -> None:
        self._fill()

    def _fill(self) -> None:
        """The cards in play are drawn when the middle has the rows for them."""
        if self.shown is None:
            return
        table, hint, news = self.shown
        row = self.query_one("#pending", CardRow)
        room = self.size.height - BANNER_ROWS - 1
        steps = [step for step in range(self.scale + 1) if SIZES[step].rows + 2 <= room]
        slots = (table_cards(table) or pile_cards(table)) if steps else []
        if steps:
            row.set_scale(steps[-1])
        row.display = bool(slots)
        row.show(slots)
        self.query_one(Banner).show(table, hint)
        text = NEWS_MARK + " · ".join(news) if news else ""
        self.query_one("#news", Static).update(Content(text))
