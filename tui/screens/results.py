"""The end of a game: everybody's holdings and score, best first, winners marked, the table
as it ended where the game lies on the table, and the way on (a rematch with the same seats
and options, or the menu)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Footer, Static

from engines import get_engine
from tui import boards
from tui.i18n import tr, you_key
from tui.screens.base import KeySpec, TableScreen
from tui.screens.verdict import verify_line


def ranking(engine_id: str, result: dict[str, Any]) -> list[int]:
    """Seats in the order the results list them: by the engine's places, the winners first
    (the screen's heading names them, so the list must not put another seat above them),
    then the others by their standing (stable, so ties keep seat order)."""
    places = get_engine(engine_id).places(result)
    return sorted(range(len(places)), key=lambda s: places[s])


class ResultsScreen(TableScreen[str]):
    """Dismissed with "rematch" or "menu"."""

    KEYS: ClassVar[tuple[KeySpec, ...]] = (
        ("r", "rematch", "results.rematch", True),
        ("escape,m", "menu", "results.menu", True),
    )

    def __init__(
        self, engine_id: str, result: dict[str, Any], names: list[str], *, can_rematch: bool
    ) -> None:
        super().__init__()
        self.engine_id = engine_id
        self.result = result
        self.names = names
        self.can_rematch = can_rematch

    def compose(self) -> ComposeResult:
        board = boards.board_class(self.engine_id)
        scores: list[int] = self.result["scores"]
        winners: list[int] = self.result["winners"]
        with Vertical(id="results-box"):
            yield Static(tr("results.title"), id="results-title")
            won = ", ".join(self.names[s] for s in winners)
            key = "results.won.many" if len(winners) > 1 else you_key("results.won", won)
            yield Static(Content(tr(key, names=won)), id="results-won")
            if "verified" in self.result:  # networked games: the fair-shuffle check
                line, warns = verify_line(self.result)
                yield Static(
                    Content(line), id="results-verified", classes="-warning" if warns else ""
                )
            final = board.result_table(self.result)
            with Vertical(id="results-main", classes="" if final is None else "-with-table"):
                with VerticalScroll(id="results-rows"):
                    for place, seat in enumerate(ranking(self.engine_id, self.result), start=1):
                        winner = seat in winners
                        with Horizontal(classes="result-row -winner" if winner else "result-row"):
                            yield Static(f"{place}.", classes="place")
                            mark = f"★ {tr('results.winner')}" if winner else ""
                            yield Static(Content(f"{self.names[seat]}\n{mark}"), classes="who")
                            detail = board.result_detail(self.result, seat)
                            if detail is not None:
                                yield detail
                            yield Static(
                                f"{scores[seat]}\n{tr(board.SCORE_LABEL)}",
                                classes="score",
                                id=f"score-{seat}",
                            )
                if final is not None:
                    yield final
            with Horizontal(id="results-buttons"):
                # Focusable buttons: Tab moves between them, Enter presses (no mouse over SSH).
                if self.can_rematch:
                    yield Button(
                        tr("results.rematch"), id="rematch", variant="success", compact=True
                    )
                yield Button(tr("results.menu"), id="menu", variant="primary", compact=True)
        yield Footer()

    def offer_rematch(self) -> None:
        """The host reopened the room after the screen was drawn: a rematch is on offer now."""
        self.can_rematch = True
        self.refresh(recompose=True)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.can_rematch if action == "rematch" else True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss("rematch" if event.button.id == "rematch" else "menu")

    def action_rematch(self) -> None:
        self.dismiss("rematch")

    def action_menu(self) -> None:
        self.dismiss("menu")
