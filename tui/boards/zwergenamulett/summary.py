"""The end of a round, shown over the table: without it the scores flash by in the log while
the next round is already dealt. It opens by itself once per round and again on `s`."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from tui.boards.base import GameBoard, seat_name, seat_names
from tui.boards.zwergenamulett.faces import GOLD
from tui.i18n import count_key, tr, you_key
from tui.widgets.summary import SummaryScreen, offer_once


class RoundSummary(SummaryScreen):
    """How a round ended, over the table: every player's points with the amulet bonus and who
    took gold, or how the "7 Zwerge!" call went."""

    def __init__(self, summary: dict[str, Any], names: list[str]) -> None:
        super().__init__(
            tr("zwerg.summary.title", round=summary["round"]),
            summary_text(summary, names),
            tr("zwerg.summary.hint"),
        )
        self.summary = summary


def summary_text(summary: dict[str, Any], names: list[str]) -> Content:
    """The body of a round summary: a points table after a played-out round, a sentence after
    a call; then who took gold and who paid a chip back."""
    lines: list[Content] = []
    gold_to: list[int] = list(summary.get("gold_to") or [])
    if summary.get("ended_by") == "claim":
        key = (
            "zwerg.summary.claim_true"
            if summary.get("claim_success")
            else "zwerg.summary.claim_false"
        )
        claimant = seat_name(names, summary.get("claimant"))
        key = you_key(key, claimant) if summary.get("claim_success") else key
        lines.append(Content(tr(key, name=claimant, dwarves=summary.get("claim_dwarves"))))
    else:
        points: list[int] = summary.get("points") or []
        cards: list[int] = summary.get("card_points") or []
        bonus: list[int] = summary.get("amulet_bonus") or []
        width = max([len(n) for n in names] + [len(tr("zwerg.summary.player"))])
        head = (
            f"{tr('zwerg.summary.player'):<{width}}  {tr('zwerg.summary.cards'):>6}"
            f"  {tr('zwerg.summary.amulet'):>7}  {tr('zwerg.summary.total'):>6}"
        )
        lines.append(Content.styled(head, "$text-muted"))
        winners = set(summary.get("winners") or [])
        for seat, total in enumerate(points):
            extra = f"+{bonus[seat]}" if seat < len(bonus) and bonus[seat] else "—"
            row = (
                f"{seat_name(names, seat):<{width}}  {cards[seat] if seat < len(cards) else '?':>6}"
                f"  {extra:>7}  {total:>6}"
            )
            style = "bold $accent" if seat in winners else ""
            mark = (f"  {GOLD} +1", "bold $chip") if seat in gold_to else ("", "")
            lines.append(Content.assemble((row, style), mark))
    lines.append(Content(""))
    if gold_to:
        who = seat_names(names, gold_to)
        lines.append(Content(tr(count_key("zwerg.summary.gold_to", len(gold_to)), names=who)))
    else:
        lines.append(Content(tr("zwerg.summary.no_gold")))
    if summary.get("gold_back") is not None:
        back = seat_name(names, summary["gold_back"])
        lines.append(Content(tr("zwerg.summary.gold_back", name=back)))
    return Content("\n").join(lines)


def offer_summary(board: GameBoard) -> None:
    """The round's summary over `board`'s screen, once per round (see `offer_once`)."""
    view = board.table.view
    summary = view["round_summary"]
    offer_once(
        board,
        None if summary is None else summary["round"],
        bool(view["over"]),
        lambda: RoundSummary(summary, board.table.names),
    )
