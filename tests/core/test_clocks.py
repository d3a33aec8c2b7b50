"""The game clocks (net.table.clocks) on a made-up time: bank, increment and its cap, the one
extension, whose clock runs, and what the table plays for a seat whose time ran out."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from engines import ENGINE_IDS, get_engine
from engines.base import Move
from net import records
from net.table import clocks
from net.table.clocks import Clocks, ClockSetting, next_timeout
from net.table.link import LocalLink
from net.table.session import HostSession, SeatInfo

SETTING = ClockSetting("normal", bank=60.0, increment=10.0, extension=30.0)


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_turn_costs_its_time_and_earns_the_increment_when_it_ends() -> None:
    c = Clocks(SETTING, 3, now=0.0)
    c.follow([0], now=0.0)
    assert c.deadline() == (60.0, 0)
    c.follow([1], now=25.0, mover=0)  # seat 0 took 25 s, then its turn ended
    assert c.left == [45.0, 60.0, 60.0]
    assert c.left_of(1, 31.0) == 54.0 and c.deadline() == (85.0, 1)
    c.follow([1], now=40.0, mover=1)  # a move that keeps the turn: no increment yet
    assert c.left[1] == 45.0
    c.follow([2], now=41.0, mover=1)
    assert c.left[1] == 54.0


def test_the_increment_never_takes_a_clock_above_its_bank() -> None:
    c = Clocks(SETTING, 2, now=0.0)
    c.follow([0], now=0.0)
    c.follow([1], now=4.0, mover=0)  # 56 s left + 10 would be 66: capped at the bank
    assert c.left[0] == 60.0
    c.follow([0], now=5.0, mover=1)
    c.follow([1], now=20.0, mover=0)  # 45 + 10
    assert c.left[0] == 55.0


def test_one_extension_a_game_while_the_clock_runs_even_above_the_bank() -> None:
    c = Clocks(SETTING, 2, now=0.0)
    c.follow([0], now=0.0)
    assert not c.extend(1, now=1.0)  # not thinking now
    assert c.extend(0, now=5.0)
    assert c.left[0] == 85.0 and c.extended == [True, False]
    assert not c.extend(0, now=6.0)  # once a game
    c.follow([1], now=10.0, mover=0)  # 80 s left: above the bank, and the increment keeps it
    assert c.left[0] == 80.0
    assert c.public(10.0)["extended"] == [True, False]


def test_a_window_holds_every_clock_and_the_interrupted_turn_goes_on_after_it() -> None:
    c = Clocks(SETTING, 3, now=0.0)
    c.follow([0], now=0.0)
    c.follow([], now=10.0, mover=0, held=True)  # seat 0's card opens a window
    assert c.deadline() is None
    c.follow([], now=30.0, mover=1, held=True)  # an answer in the window: nobody's time
    assert c.left == [50.0, 60.0, 60.0]
    c.follow([0], now=31.0, mover=2)  # the window closes; seat 0's turn goes on, no increment
    assert c.left == [50.0, 60.0, 60.0]
    c.follow([1], now=36.0, mover=0)  # its turn ends: now it earns the increment
    assert c.left[0] == 55.0


def test_a_window_that_ends_the_turn_pays_the_increment_when_it_closes() -> None:
    c = Clocks(SETTING, 2, now=0.0)
    c.follow([0], now=0.0)
    c.follow([], now=20.0, mover=0, held=True)
    c.follow([1], now=25.0, mover=1)  # the window closed and seat 1's turn began
    assert c.left[0] == 50.0


def table(people: int = 3, setting: ClockSetting = SETTING, engine: str = "schoene",
          now: FakeTime | None = None) -> HostSession:
    seats = [SeatInfo(f"P{i}") for i in range(people)]
    session = HostSession(engine, seats, 5, {"first": 0}, setting)
    if now is not None:
        session.clocks.now = now
        session.clocks.clocks = Clocks(setting, people, now())
        session.clocks.follow()
    return session


def test_a_session_runs_the_clock_of_the_seat_to_act_and_says_so_to_everyone() -> None:
    time = FakeTime()
    session = table(now=time)
    assert session.clocks.deadline() == (1060.0, 0)
    time.now += 12.0
    session.submit(0, {"type": "pay"})
    public = session.clocks.public()
    assert public is not None
    assert public["running"] == [1] and public["left"] == [58.0, 60.0, 60.0]
    assert public["bank"] == 60.0 and public["preset"] == "normal"


def test_out_of_time_the_strong_bot_moves_and_the_seat_is_marked_once() -> None:
    time = FakeTime()
    session = table(now=time)
    time.now += 61.0
    clock = session.clocks
    move = clock.timeout_move(0)
    assert move == session.choose_for(0, "strong")
    clock.ran_out(0, move)
    session.submit(0, move)
    assert clock.out_of_time == {0: 0} and clock.marks() == [[0, 0]]
    # It plays on with what the increment gave it; a second time-out keeps the first mark.
    assert clock.clocks is not None and clock.clocks.left[0] == 10.0
    clock.ran_out(0, move)
    assert clock.marks() == [[0, 0]] and clock.public()["timeouts"] == [2, 0, 0]


def test_a_table_that_skips_plays_the_games_skip_move_where_there_is_one() -> None:
    skipping = clocks.per_move(5.0, "skip")
    session = table(2, skipping, "skipbo_breakers")
    lead = session.clocks.timeout_move(0)  # the lead may not pass: the bot plays for them
    assert lead is not None and lead["type"] == "play"
    session.submit(0, lead)
    assert session.clocks.timeout_move(1) == {"type": "pass"}


def test_skipping_is_offered_only_where_a_game_has_a_way_to_skip() -> None:
    skippers = [g for g in ENGINE_IDS if clocks.can_skip(get_engine(g))]
    assert skippers == ["skipbo_breakers", "chez_geek"]
    with pytest.raises(ValueError, match="no way to skip"):
        clocks.preset("zwergenamulett", "fast", 4, "skip")


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
def test_every_game_has_presets_from_fast_to_slow_and_an_estimate(engine_id: str) -> None:
    seats = get_engine(engine_id).min_players
    made = {name: clocks.preset(engine_id, name, seats) for name in clocks.PRESETS}
    assert made["none"] is None
    fast, normal, slow = made["fast"], made["normal"], made["slow"]
    assert fast is not None and normal is not None and slow is not None
    for setting in (fast, normal, slow):
        assert setting.bank >= setting.increment > 0 and setting.extension > 0
    assert fast.increment < normal.increment < slow.increment
    assert fast.bank <= normal.bank <= slow.bank
    move = made["move"]
    assert move is not None and move.bank == move.increment  # every turn gets the same time
    minutes = [clocks.estimate_minutes(engine_id, seats, 0, n) for n in ("fast", "normal", "slow")]
    assert 1 <= minutes[0] <= minutes[1] <= minutes[2]
    assert clocks.estimate_minutes(engine_id, 1, seats - 1) <= minutes[1]  # bots are quick


def test_a_clock_setting_from_a_record_or_a_frame_is_checked() -> None:
    assert ClockSetting.from_public(SETTING.public()) == SETTING
    assert ClockSetting.from_public(None) is None
    for bad in ({"preset": "fast"}, {**SETTING.public(), "bank": -1},
                {**SETTING.public(), "out_of_time": "nap"}, {**SETTING.public(), "bank": "x"},
                [1, 2]):
        with pytest.raises(ValueError):
            ClockSetting.from_public(bad)


def test_a_record_keeps_the_clock_and_who_ran_out_and_a_replay_takes_them_back() -> None:
    session = table()
    session.clocks.ran_out(1, {"type": "take"})
    record = session.record()
    assert record["clock"] == SETTING.public() and record["out_of_time"] == [[1, 0]]
    again = HostSession.from_record(record)
    assert again.clocks.setting == SETTING and again.clocks.marks() == [[1, 0]]
    plain = HostSession("schoene", [SeatInfo("a"), SeatInfo("b"), SeatInfo("c")], 5)
    assert "clock" not in plain.record() and plain.clocks.public() is None


async def test_waiting_for_a_timeout_gives_way_to_an_extension(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deadline is looked at again after the wait: an extension that came in meanwhile
    moves it, and the table waits on before it plays for the seat."""
    time = FakeTime()
    session = table(now=time)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        time.now += seconds
        if len(slept) == 1:
            time.now -= 1.0  # the extension comes a second before the deadline
            assert session.clocks.extend(0)
            time.now += 1.0

    monkeypatch.setattr(clocks.asyncio, "sleep", sleep)
    due = await next_timeout(session, 0)
    assert slept == [60.0, 30.0]
    assert due == (0, session.choose_for(0, "strong")) and session.clocks.out_of_time == {0: 0}


async def test_a_seat_already_out_of_time_is_played_at_a_bots_pace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    time = FakeTime()
    session = table(now=time)
    time.now += 100.0
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    monkeypatch.setattr(clocks.asyncio, "sleep", sleep)
    assert await next_timeout(session, 0, pace=0.6) is not None
    assert slept == [0.6]
    assert await next_timeout(session, 3, pace=0.6) is None  # the table moved on


async def play_away(session: HostSession, people: list[int]) -> list[dict[str, Any]]:
    """A local table whose people never press a key, to its end: every move of theirs is the
    table's, made when their clock runs out."""
    link = LocalLink(session, people, bot_delay=0)
    inbox: list[dict[str, Any]] = []
    done = asyncio.Event()

    def hear(message: dict[str, Any]) -> None:
        inbox.append(message)
        if message.get("result") is not None:
            done.set()

    link.set_listener(hear)
    records.LocalRecorder(session, people)
    await link.start()
    async with asyncio.timeout(30):
        await done.wait()
    await link.close()
    return inbox


async def test_a_person_out_of_time_at_a_local_table_gets_the_strong_bots_moves() -> None:
    seats = [SeatInfo("You"), SeatInfo("Bot 1", "random"), SeatInfo("Bot 2", "random")]
    session = HostSession("schoene", seats, 7, {"first": 0}, clocks.per_move(0.02))
    states = [session.state]
    session.subscribe(lambda *_: states.append(session.state))
    inbox = await play_away(session, [0])
    eng = session.engine
    mine = [(n, move) for n, (seat, move) in enumerate(session.moves) if seat == 0]
    assert mine and session.over
    for n, move in mine:  # each one the strong bot's choice on that state
        rng = random.Random(f"{session.seed}:{n}:0")
        assert move == eng.bots["strong"].choose(eng, states[n], 0, rng)
    last = inbox[-1]["clocks"]
    assert last["timeouts"][0] == len(mine) and last["timeouts"][1:] == [0, 0]
    assert session.clocks.marks() == [[0, 0]]
    kept = records.listing()[0].record
    assert kept is not None and kept.over and kept.header["out_of_time"] == [[0, 0]]
    assert kept.header["clock"]["preset"] == "move"


async def test_a_table_that_skips_lets_a_person_out_of_time_pass_where_the_game_allows() -> None:
    seats = [SeatInfo("You"), SeatInfo("Bot", "random")]
    session = HostSession("skipbo_breakers", seats, 3, {"first": 0, "points_to_win": 1},
                          clocks.per_move(0.02, "skip"))
    passes: list[bool] = []  # whether a pass was open to the person, at each time-out

    def watch(seat: int, move: Move, events: list[dict[str, Any]]) -> None:
        if seat == 0:
            assert (move == {"type": "pass"}) == passes[-1], move

    def before(original: Any) -> Any:
        def timeout_move(seat: int) -> Move | None:
            legal = session.engine.legal_moves(session.state, seat)
            passes.append({"type": "pass"} in legal)
            return original(seat)
        return timeout_move

    session.clocks.timeout_move = before(session.clocks.timeout_move)  # type: ignore[method-assign]
    session.subscribe(watch)
    await play_away(session, [0])
    assert True in passes and False in passes  # it passed, and it led with the bot's play
