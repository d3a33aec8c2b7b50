"""The middle of the table: the set to beat, drawn as tiles, under a line saying whose it is,
and the trick so far (who played what, who passed). Between tricks the trick just taken stays
on show, faded, as it lies on a real table until somebody gathers it."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from tui.boards.base import Table
from tui.boards.skipbo_breakers.tiles import chips, face, set_words
from tui.i18n import tr, you_key
from tui.widgets.cardrow import CardRow, Slot


class TrickView(Vertical):
    DEFAULT_CSS = """
    TrickView { height: auto; width: 1fr; }
    TrickView > #trick-title { height: 1; width: 1fr; text-align: center; }
    TrickView > #trick-plays { height: auto; width: 1fr; text-align: center; }
    TrickView.-roomy > #trick-plays { height: auto; max-height: 8; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="trick-title")
        yield CardRow(id="trick-tiles")
        yield Static(id="trick-plays")

    def show(self, table: Table, width: int, roomy: bool) -> None:
        view = table.view
        self.set_class(roomy, "-roomy")
        trick: list[dict[str, Any]] = view["trick"]
        last = view["last_trick"]
        faded = not trick and last is not None
        if faded:
            trick = last["trick"]
            name = table.name(last["winner"])
            title = Content.styled(tr(you_key("sbb.last_trick", name), name=name), "dim")
        elif view["table"] is not None:
            top = view["table"]
            words = set_words(top["set"], top["rank"], top["tiles"], top["values"])
            name = table.name(top["seat"])
            title = Content.styled(tr(you_key("sbb.on_table", name), name=name, set=words), "bold")
        elif view["over"]:
            title = Content.styled(tr("game.over"), "bold $accent")
        else:
            name = table.name(view["leader"])
            title = Content(tr(you_key("sbb.leads", name), name=name))
        plays = [e for e in trick if not e["pass"]]
        tiles = plays[-1]["tiles"] if plays else []
        row = self.query_one("#trick-tiles", CardRow)
        row.show([Slot(face(t)) for t in tiles])
        row.set_class(faded, "-faded")
        self.query_one("#trick-title", Static).update(title)
        self.query_one("#trick-plays", Static).update(_entries(table, trick, width, roomy, faded))


def _entries(
    table: Table, trick: list[dict[str, Any]], width: int, roomy: bool, faded: bool
) -> Content:
    """The trick in play order: one line per play in a roomy window, else the latest plays
    that fit on one line."""
    parts = []
    for entry in trick:
        name = Content.styled(table.name(entry["seat"]), "bold")
        if entry["pass"]:
            parts.append(Content.assemble(name, " ", (tr("sbb.trick_passed"), "$text-muted")))
        else:
            parts.append(Content.assemble(name, " ", chips(entry["tiles"])))
    if roomy:
        text = Content("\n").join(parts)
    else:
        room = max(width - 4, 20)
        kept: list[Content] = []
        for part in reversed(parts):
            if sum(len(p.plain) + 3 for p in kept) + len(part.plain) > room:
                break
            kept.insert(0, part)
        text = Content(" · ").join(kept)
    return text.stylize("dim") if faded else text
