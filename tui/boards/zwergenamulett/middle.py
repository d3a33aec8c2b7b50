"""The middle of the Zwergenamulett table. Between tricks it keeps the trick just completed
(faded, its taker starred), as a real trick lies there until somebody gathers it; during a
trick it shows who played what, who is taking it, and the empty places still to be filled."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from tui.boards.base import Table
from tui.boards.zwergenamulett.faces import FACES, face_name
from tui.i18n import tr, you_key
from tui.widgets.trick import Play, TrickArea


def show_trick(area: TrickArea, table: Table) -> None:
    view = table.view
    if not view["trick"] and view["last_trick"] is not None:
        _show_last_trick(area, table)
        return
    count = view["num_players"]
    trick: list[dict[str, Any]] = view["trick"]
    plays, winner = _plays(table, trick, view["trick_winner"])
    leader = view["leader"]
    waiting: list[str] = []
    if leader is not None and not view["over"]:
        waiting = [table.name((leader + i) % count) for i in range(len(trick), count)]
    if view["over"]:
        title = Content.styled(tr("game.over"), "bold $accent")
    elif trick:
        title = Content.assemble(
            tr("zwerg.led", card=face_name(view["trick_led"])),
            " · ",
            (_said("zwerg.taking", table.name(view["trick_winner"])), "bold $accent"),
        )
    else:
        title = Content(_said("zwerg.leads", table.name(leader)))
    area.show(
        plays,
        title=title,
        waiting=waiting,
        winner=winner,
        winner_note=tr("zwerg.takes"),
        next_note=tr("zwerg.next"),
    )


def _show_last_trick(area: TrickArea, table: Table) -> None:
    view = table.view
    last = view["last_trick"]
    plays, winner = _plays(table, last["cards"], last["winner"])
    key = "zwerg.last_trick" if last["round"] == view["round"] else "zwerg.last_trick_of"
    area.show(
        plays,
        title=Content.styled(
            _said(key, table.name(last["winner"]), round=last["round"]), "$text-muted"
        ),
        winner=winner,
        winner_note=tr("zwerg.took"),
        faded=True,
    )


def _said(key: str, name: str, **fields: object) -> str:
    """A sentence about `name`, in the second person when that is the player at the keys."""
    return tr(you_key(key, name), name=name, **fields)


def _plays(
    table: Table, cards: list[dict[str, Any]], taker: int | None
) -> tuple[list[Play], int | None]:
    """The cards in play order under their players' names, and which of them takes."""
    plays = [Play(table.name(c["seat"]), FACES[c["card"]]) for c in cards]
    return plays, next((i for i, c in enumerate(cards) if c["seat"] == taker), None)
