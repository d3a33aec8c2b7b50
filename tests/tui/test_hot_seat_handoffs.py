"""Hot-seat: the "pass the keyboard" screen comes only when the person at the keys changes.
A window the other person cannot answer (they hold only a pass) is let go for them at once,
so a player's own turn goes on without a handoff at every phase (it once asked 34 times in
94 seconds)."""

from __future__ import annotations

from chez_helpers import GAME, HARMLESS, JOBS, stack
from test_chez_table import SECOND_HAND
from textual.pilot import Pilot
from tui_helpers import MAX_STEPS, local_link

from tui.app import local_app
from tui.boards.chez_geek import Board
from tui.screens.handoff import HandoffScreen

# Neither person holds a card that answers another's play: every window is only a pass.
OPTIONS = {"stack": stack(*HARMLESS, *SECOND_HAND), "first": 0, "dice": [6] * 40,
           "jobs": ["slacker", "drummer", *JOBS], "two_player_jobs_dealt": True}


async def play_a_turn(pilot: Pilot[None], handoffs: list[str]) -> None:
    """Seat 0's person ends each phase with `e` (discarding with Enter where the hand is too
    full) until the turn passes; each handoff screen's name goes to `handoffs`."""
    session = local_link(pilot.app).session
    for _ in range(MAX_STEPS):
        await pilot.pause()
        screen = pilot.app.screen
        if session.engine.view(session.state, None)["turn"] != 0:
            return
        if isinstance(screen, HandoffScreen):
            handoffs.append(screen.player)
            await pilot.press("enter")
            continue
        found = screen.query(Board)
        if not found:
            continue
        board = found.first()
        legal = {move["type"] for move in board.table.legal}
        if legal & {"end_phase", "end_turn", "end_removals"}:
            await pilot.press("e")
        elif "discard" in legal:
            await pilot.press("enter")
    raise AssertionError("the turn never ended")


async def test_a_players_own_turn_asks_for_no_handoff_until_the_other_moves() -> None:
    app = local_app(GAME, 2, 0, seed=3, options=OPTIONS, lang="en", bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        handoffs: list[str] = []
        await play_a_turn(pilot, handoffs)
        # The first look at the table, then nothing until Player 2 takes over.
        assert handoffs == ["Player 1"], handoffs
        session = local_link(app).session
        phases = [move["type"] for seat, move in session.moves if seat == 0]
        assert phases.count("end_phase") >= 2  # several phases went by without a handoff
        for _ in range(MAX_STEPS):
            if isinstance(pilot.app.screen, HandoffScreen):
                break
            await pilot.pause()
        assert pilot.app.screen.player == "Player 2"
