"""The middle of a trick-taking table: the cards of the trick in play order, each under the
name of whoever played it, the card that takes the trick marked, and an empty place for every
player still to come (the first of them marked: that is whose turn it is).

The same widget shows the trick just completed (faded, its winner marked), because in trick
games people want to see what fell before the next card covers it. Games pass `Face`s, so
the widget knows nothing about any deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from tui.widgets.cardrow import CardRow, Face, Slot
from tui.widgets.scale import Scalable


@dataclass(frozen=True)
class Play:
    """One card in a trick and who played it."""

    who: str
    face: Face


class TrickArea(Vertical, Scalable):
    """A title line over a row of played cards and empty places. At a higher step
    (`tui.widgets.scale`) the cards grow and the title stands a line apart."""

    DEFAULT_CSS = """
    TrickArea { height: auto; width: 1fr; align-horizontal: center; }
    TrickArea > .trick-title { width: 1fr; height: 1; text-align: center; }
    TrickArea.-scale-1 > .trick-title { margin-bottom: 1; }
    """

    def __init__(self, *, scale: int = 0, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.title = Static("", classes="trick-title")
        self.row = CardRow(captions=True, notes=True)
        self.set_scale(scale)

    def rescaled(self) -> None:
        self.row.set_scale(self.scale)
        self.refresh(layout=True)

    def compose(self) -> ComposeResult:
        yield self.title
        yield self.row

    def show(
        self,
        plays: Sequence[Play],
        *,
        title: Content | str = "",
        waiting: Sequence[str] = (),
        winner: int | None = None,
        winner_note: str = "",
        next_note: str = "",
        faded: bool = False,
    ) -> None:
        """`plays` in play order; `winner` indexes `plays`; `waiting` names the players still
        to play, in order (the first one gets `next_note`); `faded` for a finished trick."""
        slots = [
            Slot(
                play.face,
                above=play.who,
                below=winner_note if index == winner else "",
                strong=index == winner,
            )
            for index, play in enumerate(plays)
        ]
        slots += [
            Slot(None, above=who, below=next_note if index == 0 else "", strong=index == 0)
            for index, who in enumerate(waiting)
        ]
        self.title.update(title)
        self.row.show(slots)
        self.row.set_class(faded, "-faded")
