"""The end of a round, shown over the table: without it the scores flash by in the log while
the next round is already dealt. It opens by itself once per round and again on `s`."""

from __future__ import annotations

from typing import Any, ClassVar
from weakref import WeakKeyDictionary

from textual.app import ComposeResult
from textual.binding import Binding
from textual.color import Color
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tui.boards.base import GameBoard, seat_name, seat_names
from tui.boards.zwergenamulett.faces import GOLD
from tui.i18n import count_key, tr, you_key

# Summaries already shown on a game screen (round number), so a board made afresh for another
# seat in hot-seat play does not pop the same summary up again.
_SUMMARY_SHOWN: WeakKeyDictionary[Screen[Any], int] = WeakKeyDictionary()


class RoundSummary(ModalScreen[None]):
    """How a round ended, over the table: every player's points with the amulet bonus and who
    took gold, or how the "7 Zwerge!" call went."""

    DEFAULT_CSS = """
    RoundSummary { align: center middle; }
    RoundSummary > #summary-box {
        width: auto; max-width: 90%; height: auto; max-height: 90%;
        border: heavy $accent; background: $felt; padding: 1 2;
    }
    RoundSummary #summary-title { text-style: bold; color: $accent; width: auto; }
    RoundSummary #summary-body { width: auto; max-width: 100%; margin: 1 0; }
    RoundSummary #summary-hint { color: $text-muted; width: auto; max-width: 100%; }
    """

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter,escape,space,s", "close", show=False),
    ]

    def __init__(self, summary: dict[str, Any], names: list[str]) -> None:
        super().__init__()
        self.summary = summary
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-box"):
            yield Static(tr("zwerg.summary.title", round=self.summary["round"]), id="summary-title")
            yield Static(summary_text(self.summary, self.names), id="summary-body")
            yield Static(tr("zwerg.summary.hint"), id="summary-hint")

    def on_mount(self) -> None:
        # The app stylesheet gives every Screen an opaque background, which beats this
        # class's CSS; an inline style lets the table show through, dimmed.
        backdrop = Color.parse(self.app.theme_variables.get("background", "black"))
        self.styles.background = backdrop.with_alpha(0.6)

    def on_click(self) -> None:
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


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
    """Open the round's summary over `board`'s screen if that screen has not shown it yet;
    close any open one when the game is over, since the results screen comes next and the
    game screen later leaves by popping the top screen."""
    view = board.table.view
    if not board.is_mounted:
        return
    if view["over"]:
        if isinstance(board.app.screen, RoundSummary):
            board.app.screen.dismiss()
        return
    summary = view["round_summary"]
    if summary is None:
        return
    screen = board.screen
    if _SUMMARY_SHOWN.get(screen, 0) >= summary["round"]:
        return
    _SUMMARY_SHOWN[screen] = summary["round"]
    board.app.push_screen(RoundSummary(summary, board.table.names))
