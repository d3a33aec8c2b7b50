"""The host session and the local link: the one code path local and networked games share."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest

from engines import IllegalMove
from net.table.link import LocalLink
from net.table.session import HostSession, SeatInfo, StaleMove


def bots_table(n: int = 3, seed: int = 11, level: str = "strong") -> HostSession:
    return HostSession("schoene", [SeatInfo(f"Bot {i + 1}", level) for i in range(n)], seed)


def test_bots_play_a_whole_game_and_the_record_replays_it() -> None:
    session = bots_table()
    made = session.run_bots()
    assert session.over and made == len(session.moves) > 20
    replayed = HostSession.from_record(msgpack.unpackb(msgpack.packb(session.record())))
    assert replayed.result() == session.result()
    for seat in (0, 1, 2, None):
        assert replayed.sync(seat) == session.sync(seat)


def test_state_numbers_count_moves_and_events_are_numbered() -> None:
    session = bots_table()
    seen: list[tuple[int, dict[str, Any], list[dict[str, Any]]]] = []
    session.subscribe(lambda seat, move, events: seen.append((seat, move, events)))
    for _ in range(5):
        pending = session.pending_bot()
        assert pending is not None
        session.submit(*pending)
    assert session.state_no == 5 and len(seen) == 5
    assert all(e["n"] <= 5 for e in session.log) and session.log[-1]["n"] == 5


def test_a_stale_or_illegal_move_changes_nothing() -> None:
    session = HostSession("schoene", [SeatInfo("Ann"), SeatInfo("Ben"), SeatInfo("Cy")], 5,
                          {"first": 0})
    before = session.sync(0)
    with pytest.raises(StaleMove):
        session.submit(0, {"type": "pay"}, state_no=3)
    with pytest.raises(IllegalMove):
        session.submit(1, {"type": "pay"}, state_no=0)  # not Ben's turn
    with pytest.raises(IllegalMove):
        session.submit(7, {"type": "pay"})
    with pytest.raises(IllegalMove):
        session.submit(0, {"type": "dance"})
    assert session.sync(0) == before and session.moves == [] and session.log == []


def test_bot_choices_depend_only_on_seed_and_state() -> None:
    a, b = bots_table(seed=99), bots_table(seed=99)
    a.run_bots()
    b.run_bots()
    assert a.record() == b.record()
    with pytest.raises(ValueError, match="unknown bot level"):
        a.choose_for(0, "genius")


async def test_local_link_plays_a_person_against_bots() -> None:
    seats = [SeatInfo("You"), SeatInfo("Bot 1", "random"), SeatInfo("Bot 2", "strong")]
    session = HostSession("schoene", seats, seed=3, options={"first": 0})
    link = LocalLink(session, [0], bot_delay=0)
    inbox: list[dict[str, Any]] = []
    link.set_listener(inbox.append)
    await link.start()
    assert inbox[0]["type"] == "sync" and inbox[0]["seat"] == 0 and inbox[0]["log"] == []

    await link.send_move(0, {"type": "dance"}, 0)
    assert inbox[-1] == {"type": "error", "seat": 0, "message": inbox[-1]["message"]}
    assert session.state_no == 0

    await link.send_move(0, {"type": "pay"}, 0)
    assert inbox[-1]["type"] == "update" and inbox[-1]["state_no"] == 1

    await link.send_move(0, {"type": "pay"}, 0)  # made on a state that is gone
    assert [m["type"] for m in inbox[-2:]] == ["error", "sync"]

    while not session.over:  # the person takes whenever it is their turn; bots do the rest
        await asyncio.sleep(0)
        if 0 in session.engine.to_act(session.state):
            await link.send_move(0, {"type": "take"}, session.state_no)
    await link.close()
    last = inbox[-1]
    assert last["result"] == session.result() and last["view"]["over"]
    assert all(m["seat"] == 0 for m in inbox if "seat" in m)
    for message in inbox:
        assert msgpack.unpackb(msgpack.packb(message)) == message


async def test_local_link_refuses_a_seat_that_is_not_played_here() -> None:
    session = HostSession("schoene", [SeatInfo("You"), SeatInfo("A"), SeatInfo("B")], seed=1,
                          options={"first": 1})
    link = LocalLink(session, [0], bot_delay=0)
    inbox: list[dict[str, Any]] = []
    link.set_listener(inbox.append)
    await link.send_move(1, {"type": "pay"}, 0)
    assert inbox == [{"type": "error", "seat": 1, "message": "That seat is not yours"}]
    assert session.state_no == 0
