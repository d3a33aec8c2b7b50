"""Leaving a rated local game drops nothing: from its first move, leaving it (Esc Esc, a
closed terminal, a killed app, a resume never taken) counts as last place with the penalty,
on the ladder and in the finished share; the game says so before its first move. A game
left before its first move, and an unrated one, cost nothing."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from tui_helpers import game_screen, local_link, settle

from net import records
from net.players import counted, identity, ladder, ratings
from net.table.session import HostSession, SeatInfo
from tui.app import local_app
from tui.screens.game import GameScreen


def notes(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(text) for kind, text in game_screen(app).entries if kind == "note"]


async def until(pilot, check):  # type: ignore[no-untyped-def]
    for _ in range(1000):
        await pilot.pause(0.01)
        if found := check():
            return found
    raise AssertionError(f"gave up waiting; the screen is {pilot.app.screen}")


def my_line(engine: str) -> tuple[int, int, int]:
    """(games, finished, games left) of this installation's player at `engine`."""
    me = identity.mine()
    assert me is not None
    store = ladder.open_store()
    try:
        summary = [s for s in store.summary(me.fingerprint) if s.engine == engine]
        history = store.history(me.fingerprint, engine)
    finally:
        store.close()
    if not summary:
        return 0, 0, 0
    return summary[0].games, summary[0].finished, sum(p.left for p in history)


async def test_esc_esc_after_the_first_move_is_a_loss_with_the_penalty() -> None:
    app = local_app("schoko", 1, 1, "strong", lang="en", bot_delay=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.screen.query("#board"))
        link = local_link(app)
        assert link.rated
        assert any("This game is rated" in n for n in notes(app))  # before any move
        assert not game_screen(app).latest.hints  # type: ignore[union-attr]
        before = len(notes(app))
        await pilot.press("h")  # no hint in a rated game: the expert does not play it
        await settle(pilot)
        assert not [n for n in notes(app)[before:] if "Hint" in n or "to win" in n]
        session = link.session
        if not session.moves:  # the person's first move, if the bot has not moved first
            seat = link.seats[0]
            await until(pilot, lambda: seat in session.engine.to_act(session.state))
            legal = session.engine.legal_moves(session.state, seat)
            await link.send_move(seat, legal[0], session.state_no)
        assert session.moves and not session.over
        await pilot.press("escape")
        await settle(pilot)
        assert "counts as lost" in notes(app)[-1]
        path = link.record_path
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, GameScreen))
    assert path is not None
    record = records.load(path)
    assert record.over and record.extra["abandoned"] is True and record.extra["left"] == [0]
    assert my_line("schoko") == (1, 0, 1)  # one game, none finished, left
    store = ladder.open_store()
    try:
        me, bot = sorted(store.ladder("schoko"), key=lambda s: s.ident.startswith("bot"))
    finally:
        store.close()
    alone = ratings.rate([ratings.Skill(), ratings.Skill()], [2, 1], [False, False])
    assert me.skill.mu == pytest.approx(alone[0].mu - ratings.LEFT_PENALTY)
    assert bot.skill == ratings.Skill()  # a result against a first game weighs nothing


async def test_leaving_before_the_first_move_costs_nothing() -> None:
    app = local_app("schoko", 1, 1, "strong", lang="en", bot_delay=30)  # the bot waits
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.screen.query("#board"))
        link = local_link(app)
        assert link.rated and not link.session.moves
        await pilot.press("escape")
        await settle(pilot)
        assert notes(app)[-1] == "Press Esc again to leave this game."
        path = link.record_path
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, GameScreen))
    assert path is not None and not records.load(path).over
    assert my_line("schoko") == (0, 0, 0)


def begun(seed: int, moves: int, *, drawn: bool = True) -> Path:
    """A rated local Scho K.O. game as a killed app leaves it: `moves` moves, no end."""
    me = identity.mine()
    assert me is not None
    session = HostSession("schoko", [SeatInfo("Ada"), SeatInfo("Bot", "strong")], seed)
    session.seats[0] = replace(session.seats[0], **me.prove(session.game_id, 0, "Ada"))
    recorder = records.LocalRecorder(session, [0], fixed_seed=not drawn)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = session.engine.to_act(session.state)[0]
        level = session.seats[seat].bot
        session.submit(seat, session.choose_for(seat, level) if level
                       else rng.choice(session.engine.legal_moves(session.state, seat)))
    assert recorder.path is not None and not session.over
    return recorder.path


def test_a_killed_app_whose_game_is_never_taken_up_counts_as_left_a_day_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = begun(5, 3)
    store = ladder.open_store()
    try:
        assert ladder.catch_up(store) == 0  # it may still be taken up
        assert ladder.count(store, path).refused.code == "pending"  # type: ignore[union-attr]
        monkeypatch.setattr(counted, "RESUME_SECONDS", 0.0)  # a day later
        assert ladder.catch_up(store) == 1  # looked at again, not forgotten as unfinished
    finally:
        store.close()
    assert my_line("schoko") == (1, 0, 1)


def test_cutting_the_abandoned_end_off_a_record_does_not_drop_the_loss(
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = begun(6, 4)
    session = HostSession.from_record({**records.load(path).header,
                                       "moves": records.load(path).moves})
    recorder = records.LocalRecorder(session, [0], path)
    assert recorder.abandon(session)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["abandoned"] is True
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")  # the end line cut off
    monkeypatch.setattr(counted, "RESUME_SECONDS", 0.0)
    store = ladder.open_store()
    try:
        assert ladder.catch_up(store) == 1
    finally:
        store.close()
    assert my_line("schoko") == (1, 0, 1)


def test_an_unrated_game_left_stays_open_and_costs_nothing() -> None:
    path = begun(7, 3, drawn=False)  # a practice deal
    assert not counted.is_rated(records.load(path))
    assert counted.is_rated(records.load(begun(8, 0)))
    store = ladder.open_store()
    try:
        assert ladder.count(store, path).refused.code == "practice"  # type: ignore[union-attr]
    finally:
        store.close()
