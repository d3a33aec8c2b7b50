"""Try again: a reviewed decision's position, to be played once more by the player before the
review shows the better move.

The position is the seat's view at that decision, with everything it could not see drawn
afresh (`from_view`): the same cards in hand and on the table, other hands and the draw a new
guess, so trying again teaches the decision and not the deal. The board takes the player's
keys as at a table; once a move is chosen, the screen says how the expert's search rated it,
names the better move and why (tui.screens.review.why).
"""

from __future__ import annotations

import contextlib
import random
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from engines import coach
from engines.base import Move
from net import records
from net.records import review
from tui import boards
from tui.boards.base import GameBoard, Table, honest
from tui.i18n import register, tr
from tui.screens.base import KeySpec, TableScreen
from tui.screens.coach_words import why
from tui.widgets.footer import Footer
from tui.widgets.summary import never_offer


class TryAgainScreen(TableScreen[bool]):
    """Dismissed with whether the player made a move (then the review shows the better one)."""

    DEFAULT_CSS = """
    TryAgainScreen #try-top { height: auto; padding: 0 1; }
    TryAgainScreen #try-board-slot { height: 1fr; }
    TryAgainScreen #try-said { height: auto; max-height: 10; padding: 0 1; }
    """
    KEYS: ClassVar[tuple[KeySpec, ...]] = (("escape", "leave", "key.back", True),)

    def __init__(self, replay: records.Replay, seat: int, row: dict[str, Any]) -> None:
        self.replay = replay
        self.seat = seat
        self.row = row
        self.tried: Move | None = None
        self.said = ""
        self._board: GameBoard | None = None
        decision = review.decision_at(replay, seat, int(row["state"]))
        assert decision is not None
        self.decision = decision
        eng = replay.engine
        sampled = eng.from_view(decision.view, random.Random())  # type: ignore[attr-defined]
        self.table = Table(seat=seat, state_no=decision.state, view=eng.view(sampled, seat),
                           legal=eng.legal_moves(sampled, seat), players=replay.record.players,
                           hints=False)
        super().__init__()

    def compose(self) -> ComposeResult:
        yield Static(Content(tr("try.title", n=self.decision.state)), id="try-top")
        yield Vertical(id="try-board-slot")
        yield Static(Content(self.said), id="try-said")
        yield Footer(compact=True)

    async def on_mount(self) -> None:
        never_offer(self)  # a round's summary would take the board's keys
        await self._build()

    async def _build(self) -> None:
        table = self.table if self.tried is None else self._after()
        board = boards.board_class(self.replay.engine.id)(table, id="try-board")
        await self.query_one("#try-board-slot", Vertical).mount(board)
        self._board = board
        if self.tried is None:
            board.focus()

    def _after(self) -> Table:
        """The position with nothing left to play (the move was made)."""
        t = self.table
        return Table(seat=t.seat, state_no=t.state_no, view=t.view, legal=[],
                     players=t.players, hints=False)

    def on_game_board_hint(self, message: GameBoard.Hint) -> None:
        """A board's own line (press again to confirm): shown under the board."""
        message.stop()
        self._say(message.text)

    def on_game_board_move_chosen(self, message: GameBoard.MoveChosen) -> None:
        message.stop()
        if self.tried is not None:
            return
        self.tried = message.move
        if self._board is not None:
            self._board.show(self._after())
        self._say(tr("try.thinking"))
        eng = self.replay.engine
        judgement = coach.from_row(self.row)
        if judgement.choice(message.move) is not None:
            self._judged(judgement, judgement)
            return
        app = self.app
        decision = self.decision
        iterations = judgement.iterations or coach.budget(eng, coach.REVIEW)

        def think() -> None:  # the expert never weighed this move: it does now
            found = coach.judge(eng, decision.view, decision.legal, message.move, iterations,
                                random.Random(decision.state))
            with contextlib.suppress(RuntimeError):
                app.call_from_thread(self._judged, found or judgement, judgement)

        self.run_worker(think, thread=True, group="try", exclusive=True)

    def _judged(self, tried: coach.Judgement, original: coach.Judgement) -> None:
        """Say how the try fared, then the better move and why."""
        if not self.is_mounted or self._board is None:
            return
        describe = self._board.describe_move
        mine = tried.choice(self.tried)
        lines = []
        best = tried.choice(tried.best)
        if mine is not None and best is not None:
            grade = coach.GOOD if mine is best else coach.graded(best, mine)
            lines.append(tr("try.yours", move=describe(self.tried), win=honest(mine.win),
                            grade=tr(f"review.grade.{grade}")))
        lines.append(tr("try.then", move=describe(original.move),
                        grade=tr(f"review.grade.{original.grade}")))
        lines.append(why(original, describe))
        self._say("\n".join(lines))

    def _say(self, text: str) -> None:
        self.said = text
        self.query_one("#try-said", Static).update(Content(text))

    def action_leave(self) -> None:
        self.dismiss(self.tried is not None)

    async def retranslate(self) -> None:
        await super().retranslate()
        await self._build()


register(
    {
        "en": {
            "try.title": "Try again: the position of move {n}, the hidden cards dealt afresh. "
                         "What do you play?",
            "try.thinking": "The expert is weighing your move…",
            "try.yours": "You chose {move}: {win}% to win ({grade}).",
            "try.then": "In the game: {move} ({grade}).",
        },
        "de": {
            "try.title": "Nochmal: die Stellung von Zug {n}, verdeckte Karten neu verteilt. "
                         "Was spielst du?",
            "try.thinking": "Der Experte wägt deinen Zug ab…",
            "try.yours": "Du hast {move} gewählt: {win} % Gewinnchance ({grade}).",
            "try.then": "In der Partie: {move} ({grade}).",
        },
    }
)
