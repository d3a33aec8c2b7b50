"""The end of a hand, over the table (`tui.widgets.summary`): who went out, the tiles each
player was left with and the scores towards the goal. It opens by itself once per hand and
again on `s`."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from tui.boards.base import GameBoard, seat_name
from tui.i18n import tr, you_key
from tui.widgets.summary import SummaryScreen, offer_once


class HandSummary(SummaryScreen):
    def __init__(self, summary: dict[str, Any], names: list[str], goal: int) -> None:
        winner = seat_name(names, summary.get("winner"))
        title = tr(you_key("sbb.summary.title", winner), hand=summary.get("hand"), name=winner)
        super().__init__(title, summary_text(summary, names, goal), tr("sbb.summary.hint"))
        self.summary = summary


def summary_text(summary: dict[str, Any], names: list[str], goal: int) -> Content:
    """A line on the points, then a table of tiles left and scores (the winner marked)."""
    winner = summary.get("winner")
    name = seat_name(names, winner)
    lines = [
        Content(tr(you_key("sbb.summary.points", name), name=name, points=summary.get("points"))),
        Content(""),
    ]
    width = max([len(n) for n in names] + [len(tr("sbb.summary.player"))])
    left_head, score_head = tr("sbb.summary.left"), tr("sbb.summary.score")
    head = f"{tr('sbb.summary.player'):<{width}}  {left_head:>12}  {score_head:>8}"
    lines.append(Content.styled(head, "$text-muted"))
    left: list[int] = list(summary.get("tiles_left") or [])
    for seat, score in enumerate(summary.get("scores") or []):
        tiles = left[seat] if seat < len(left) else "?"
        row = f"{seat_name(names, seat):<{width}}  {tiles:>12}  {f'{score}/{goal}':>8}"
        lines.append(Content.styled(row, "bold $accent" if seat == winner else ""))
    return Content("\n").join(lines)


def offer_summary(board: GameBoard) -> None:
    """The last hand's summary over the table, once per hand (see `offer_once`)."""
    view = board.table.view
    summary = view["hand_summary"]

    def make() -> SummaryScreen:
        return HandSummary(summary or {}, board.table.names, view["points_to_win"])

    offer_once(board, None if summary is None else summary["hand"], view["over"], make)
