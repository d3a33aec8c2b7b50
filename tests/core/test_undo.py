"""Undo at a table (net.table.undo): a person's quiet moves of the turn they are in may be
taken back, a move that showed something hidden or let another seat act may not, bots'
moves lock the table except in practice, and the record keeps only the moves that stand."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from engines import ENGINE_IDS, IllegalMove, get_engine
from net import records
from net.table import undo
from net.table.link import LocalLink
from net.table.session import HostSession, SeatInfo


def chez(seed: int = 3) -> HostSession:
    return HostSession("chez_geek", [SeatInfo("You"), SeatInfo("B", "random"),
                                     SeatInfo("C", "random")], seed=seed)


def chez_to_a_quiet_move(session: HostSession | None = None) -> HostSession:
    """A Chez Geek table (seat 0 a person) played at random until seat 0 made a move that
    revealed nothing and kept its turn."""
    if session is None:
        session = chez()
        session.undo.enable([0])
    rng = random.Random(session.seed)
    while not session.over:
        seat = session.engine.to_act(session.state)[0]
        session.submit(seat, rng.choice(session.engine.legal_moves(session.state, seat)))
        if seat == 0 and session.undo.steps and session.undo.steps[-1].quiet:
            return session
    raise AssertionError("no quiet move in this game")


def test_a_quiet_move_is_taken_back_exactly() -> None:
    session = chez_to_a_quiet_move()
    before = session.undo.steps[-1].state
    number, log_len = session.state_no, len(session.log)
    moves = list(session.moves[:-1])
    assert session.undo.target(0) == number - 1
    assert session.undo.target(1) is None
    event = session.take_back(0)
    assert event == {"kind": "undo", "seat": 0, "to": number - 1, "n": number - 1}
    assert session.state is before and session.state_no == number - 1
    assert session.moves == moves
    assert session.log[-1] == event and len(session.log) <= log_len
    assert session.engine.to_act(session.state) == [0]
    # The record is the moves that stand: it replays to the very same table.
    again = HostSession.from_record(session.record())
    assert again.engine.view(again.state, 0) == session.engine.view(session.state, 0)


def test_an_undo_may_go_no_further_than_the_turn() -> None:
    session = chez_to_a_quiet_move()
    while session.undo.target(0) is not None:
        session.take_back(0)
    with pytest.raises(IllegalMove) as refused:
        session.take_back(0)
    assert refused.value.reason in (undo.REVEALED, undo.NOTHING)
    assert session.engine.to_act(session.state) == [0]


def test_a_move_that_turns_up_a_card_is_not_taken_back() -> None:
    # Schöne: taking the card turns up the next one; the turn stays, but it showed something.
    session = HostSession("schoene", [SeatInfo("You"), SeatInfo("B", "strong"),
                                      SeatInfo("C", "strong")], seed=4, options={"first": 0})
    session.undo.enable([0])
    session.submit(0, {"type": "take"})
    assert session.engine.to_act(session.state) == [0]
    state, number = session.state, session.state_no
    with pytest.raises(IllegalMove, match="showed something hidden"):
        session.take_back(0)
    assert session.state is state and session.state_no == number


def test_nobody_takes_back_a_move_that_passed_the_turn() -> None:
    session = HostSession("schoene", [SeatInfo("You"), SeatInfo("Ann"), SeatInfo("Bo")],
                          seed=4, options={"first": 0})
    session.undo.enable([0, 1, 2])
    session.submit(0, {"type": "pay"})
    with pytest.raises(IllegalMove, match="can't be taken back"):
        session.take_back(0)
    with pytest.raises(IllegalMove):
        session.take_back(1)  # and never somebody else's move


def test_a_move_the_table_made_for_a_person_is_never_taken_back() -> None:
    session = chez_to_a_quiet_move()
    session.take_back(0)
    legal = session.engine.legal_moves(session.state, 0)
    session.undo.by_table()  # as when a clock runs out
    session.submit(0, legal[0])
    with pytest.raises(IllegalMove):
        session.take_back(0)


async def test_practice_against_bots_goes_back_past_the_bots_without_a_new_deal() -> None:
    seats = [SeatInfo("You"), SeatInfo("B", "strong"), SeatInfo("C", "strong")]
    session = HostSession("schoene", seats, seed=8, options={"first": 0})
    link = LocalLink(session, [0], bot_delay=0)
    inbox: list[dict[str, Any]] = []
    link.set_listener(inbox.append)
    await link.start()
    assert session.undo.free
    mine = session.engine.view(session.state, 0)
    await link.send_move(0, {"type": "pay"}, 0)
    while 0 not in session.engine.to_act(session.state):  # the bots play their turns
        await asyncio.sleep(0)
    assert session.state_no > 1
    seen = session.engine.view(session.state, None)
    await link.undo(0, session.state_no)
    assert session.state_no == 0 and session.moves == []
    assert session.engine.view(session.state, 0) == mine
    assert inbox[-1]["type"] == "sync" and inbox[-1]["state_no"] == 0
    assert inbox[-1]["log"][-1]["kind"] == "undo"
    # Nothing re-dealt: the same move brings the very same table again.
    await link.send_move(0, {"type": "pay"}, 0)
    while session.engine.view(session.state, None) != seen:
        await asyncio.sleep(0)
    await link.close()


async def test_a_rated_table_against_bots_keeps_to_the_turn_and_the_record_follows(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLETOP_TUI_HOME", str(tmp_path))
    session = chez()
    recorder = records.LocalRecorder(session, [0], fixed_seed=False)
    link = LocalLink(session, [0], bot_delay=60)
    link.rated = True
    inbox: list[dict[str, Any]] = []
    link.set_listener(inbox.append)
    await link.start()
    assert not session.undo.free
    chez_to_a_quiet_move(session)
    await link.undo(0, session.state_no + 5)  # made on another state: refused
    assert inbox[-1]["type"] == "error"
    while session.undo.target(0) is not None:
        await link.undo(0, session.state_no)
        assert inbox[-1]["type"] == "sync"
    assert inbox[-1]["undo"] is False
    await link.undo(0, session.state_no)  # the start of the turn: the bots' moves stand
    assert inbox[-1]["type"] == "error"
    assert recorder.path is not None
    kept = records.load(recorder.path)
    assert kept.moves == [[s, m] for s, m in session.moves]
    await link.close()


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
async def test_practice_undo_anywhere_leaves_a_table_its_record_rebuilds(
        engine_id: str) -> None:
    """A person against bots taking moves back at random points of every game: each undo
    restores the very state before the person's last move, and the record always replays to
    the table as it stands."""
    eng = get_engine(engine_id)
    seats = [SeatInfo("You")] + [SeatInfo(f"B{i}", "random")
                                 for i in range(max(eng.min_players, 2) - 1)]
    # Windows wait for the person's own answer (no countdown: no waiting on the clock).
    options = {"window_seconds": 0} if "window_seconds" in eng.options else {}
    session = HostSession(engine_id, seats, seed=11, options=options)
    link = LocalLink(session, [0], bot_delay=0)
    link.set_listener(lambda message: None)
    await link.start()
    rng = random.Random(engine_id)
    mine: list[Any] = []  # the state before each move of the person's that stands
    for _ in range(250):
        await asyncio.sleep(0)
        if session.over:
            break
        if mine and rng.random() < 0.2 and session.undo.target(0) is not None:
            await link.undo(0, session.state_no)
            assert session.state is mine.pop()
            again = HostSession.from_record(session.record())
            assert eng.view(again.state, None) == eng.view(session.state, None)
            continue
        legal = eng.legal_moves(session.state, 0)
        if 0 in eng.to_act(session.state) and legal:
            mine.append(session.state)
            await link.send_move(0, rng.choice(legal), session.state_no)
            if mine[-1] is session.state:
                mine.pop()  # kept back in a window: not applied, nothing to take back
    await link.close()
