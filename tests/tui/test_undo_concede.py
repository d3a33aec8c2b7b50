"""Undo and concede by keys: `u` takes back a move (shown in the footer only when the table
allows it, and when it does not, the table says why), F8 concedes after asking, and a
conceded rated game is on the ladder as left."""

from __future__ import annotations

from test_rated_leaving import my_line, notes, until
from tui_helpers import game_screen, local_link, settle

from net import records
from net.table import undo
from tui.app import local_app
from tui.screens.game import GameScreen
from tui.screens.overlays import ConfirmScreen


def footer_offers_undo(app) -> bool:  # type: ignore[no-untyped-def]
    return any(b.binding.action == "undo" and b.binding.show and b.enabled
               for b in game_screen(app).active_bindings.values())


async def test_u_takes_back_a_move_and_the_bots_in_practice() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=8, options={"first": 0}, lang="en",
                    bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.screen.query("#board"))
        link = local_link(app)
        session = link.session
        assert not link.rated and session.undo.free
        assert not footer_offers_undo(app)  # nothing to take back yet
        mine = session.engine.view(session.state, 0)
        await pilot.press("space")  # pay a chip: the turn passes to the bots
        await until(pilot, lambda: 0 in session.engine.to_act(session.state)
                    and session.state_no > 1)
        await until(pilot, lambda: footer_offers_undo(app))
        await pilot.press("u")
        await until(pilot, lambda: session.state_no == 0)
        await settle(pilot)
        assert session.engine.view(session.state, 0) == mine
        assert game_screen(app).latest.state_no == 0  # type: ignore[union-attr]
        assert any("You took back a move" in line for line in game_screen(app).chat_lines
                   + [game_screen(app)._entry_text(e) for e in game_screen(app).entries])
        assert not footer_offers_undo(app)


async def test_u_after_a_card_was_turned_up_says_why_not() -> None:
    # A rated game: only the turn's quiet moves. Taking the card turns up the next one.
    app = local_app("schoene", 1, 2, "strong", lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.screen.query("#board"))
        link = local_link(app)
        session = link.session
        assert link.rated and not session.undo.free
        await until(pilot, lambda: 0 in session.engine.to_act(session.state))
        await settle(pilot)
        taken = session.state_no + 1
        await pilot.press("t")
        await until(pilot, lambda: session.state_no == taken)
        await settle(pilot)
        assert not footer_offers_undo(app)
        await pilot.press("u")
        await until(pilot, lambda: any(undo.REVEALED in n for n in notes(app)))
        assert session.state_no == taken and len(session.moves) == taken


async def test_f8_concedes_a_rated_game_as_a_loss_on_the_ladder() -> None:
    app = local_app("schoko", 1, 1, "strong", lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.screen.query("#board"))
        link = local_link(app)
        assert link.rated
        session = link.session
        if not session.moves:
            seat = link.seats[0]
            await until(pilot, lambda: seat in session.engine.to_act(session.state))
            legal = session.engine.legal_moves(session.state, seat)
            await link.send_move(seat, legal[0], session.state_no)
        await pilot.press("f8")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "counts as a loss" in str(app.screen.question)  # type: ignore[attr-defined]
        await pilot.press("n")  # asked first: no changes nothing
        await settle(pilot)
        assert isinstance(app.screen, GameScreen) and not session.over
        await pilot.press("f8")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        path = link.record_path
        await pilot.press("y")
        await until(pilot, lambda: not any(isinstance(s, GameScreen) for s in app.screen_stack))
    assert path is not None
    record = records.load(path)
    assert record.over and record.extra["abandoned"] is True and record.extra["left"] == [0]
    assert my_line("schoko") == (1, 0, 1)  # one game, none finished, left: last with penalty
