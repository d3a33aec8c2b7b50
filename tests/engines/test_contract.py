"""The engine contract (docs/ARCHITECTURE.md), checked the same way for every registered game.

Games are played by uniform random legal moves, the way a fuzzer would, and at every step the
views, moves and states are held to the contract. An engine whose module is not written yet is
skipped, not failed.
"""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from engines import ENGINE_IDS, IllegalMove, get_engine
from engines.base import Engine, check_stack

MAX_STEPS = 20_000
BASE_KEYS = {"game", "seat", "turn", "to_act", "over"}
GARBAGE_MOVES: list[Any] = [None, "take", 3, [], {}, {"type": 7}, {"type": "no-such-move"}]


def engine(engine_id: str) -> Engine:
    try:
        return get_engine(engine_id)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("engines."):
            pytest.skip(f"{engine_id} is not written yet")
        raise


def roundtrip(data: Any) -> Any:
    return msgpack.unpackb(msgpack.packb(data))


def snapshot(eng: Engine, state: Any, n: int) -> bytes:
    """Everything anyone can observe of a state."""
    views = [eng.view(state, s) for s in [*range(n), None]]
    legal = [eng.legal_moves(state, s) for s in range(n)]
    return msgpack.packb([views, legal, eng.to_act(state), eng.is_over(state)])


def pick(eng: Engine, state: Any, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """The seat whose regular turn it is moves, when it has a move; else any seat that may."""
    turn = eng.view(state, None)["turn"]
    if turn is not None and (moves := eng.legal_moves(state, turn)):
        return turn, rng.choice(moves)
    seat = rng.choice([s for s in eng.to_act(state) if eng.legal_moves(state, s)])
    return seat, rng.choice(eng.legal_moves(state, seat))


def random_game(eng: Engine, n: int, seed: int) -> list[tuple[int, dict[str, Any]]]:
    rng = random.Random(seed)
    state = eng.new_game(n, seed)
    record = []
    while not eng.is_over(state):
        assert len(record) < MAX_STEPS, "a random game did not end"
        seat, move = pick(eng, state, rng)
        state = eng.apply(state, seat, move)
        record.append((seat, move))
    return record


def cases() -> list[Any]:
    return [pytest.param(i, id=i) for i in ENGINE_IDS]


@pytest.mark.parametrize("engine_id", cases())
def test_registry_entry(engine_id: str) -> None:
    eng = engine(engine_id)
    assert eng.id == engine_id and eng.title
    assert 1 <= eng.min_players <= eng.max_players
    assert {"random", "strong"} <= set(eng.bots)
    assert all(type(v) in (bool, int) for v in eng.options.values())
    assert set(eng.test_options) <= {"stack", "first", "dice", "jobs"}
    with pytest.raises(ValueError):
        eng.new_game(eng.max_players + 1, 0)
    with pytest.raises(ValueError):
        eng.new_game(eng.min_players, 0, {"no_such_option": True})


@pytest.mark.parametrize("engine_id", cases())
def test_every_step_keeps_the_contract(engine_id: str) -> None:
    eng = engine(engine_id)
    for n in sorted({eng.min_players, eng.max_players}):
        rng = random.Random(n)
        state = eng.new_game(n, seed=n)
        steps = 0
        while True:
            to_act = eng.to_act(state)
            assert to_act == sorted(set(to_act))
            assert eng.is_over(state) == (to_act == [])
            for seat in [*range(n), None]:
                view = eng.view(state, seat)
                assert set(view) >= BASE_KEYS
                assert view["game"] == engine_id and view["seat"] == seat
                assert view["to_act"] == to_act and view["over"] == eng.is_over(state)
                assert view["turn"] is None or view["turn"] in range(n)
                assert roundtrip(view) == view
                if seat is None:
                    continue
                legal = eng.legal_moves(state, seat)
                assert roundtrip(legal) == legal
                assert all(isinstance(m, dict) and isinstance(m["type"], str) for m in legal)
                assert bool(legal) == (seat in to_act)
            if eng.is_over(state):
                break
            seat, move = pick(eng, state, rng)
            before = snapshot(eng, state, n)
            after = eng.apply(state, seat, move)
            assert snapshot(eng, state, n) == before, "apply changed its input"
            events = eng.events(state, seat, move, after)
            assert roundtrip(events) == events and all("kind" in e for e in events)
            assert snapshot(eng, state, n) == before, "events changed its input"
            state = after
            steps += 1
            assert steps < MAX_STEPS
        result = eng.result(state)
        assert roundtrip(result) == result
        assert len(result["scores"]) == n and set(result["winners"]) <= set(range(n))
        # Places (the results list, the ratings): the winners first, sharing place 1; each
        # place counts the seats ahead of it.
        places = eng.places(result)
        assert [s for s in range(n) if places[s] == 1] == sorted(result["winners"])
        assert all(p == 1 + sum(o < p for o in places) for p in places)
        assert eng.view(state, None)["turn"] is None
        for seat in range(n):
            with pytest.raises(IllegalMove):
                eng.apply(state, seat, {"type": "take"})


@pytest.mark.parametrize("engine_id", cases())
def test_same_seed_and_moves_give_the_same_game(engine_id: str) -> None:
    eng = engine(engine_id)
    n = eng.min_players + 1 if eng.min_players < eng.max_players else eng.min_players
    record = random_game(eng, n, seed=42)
    replays = []
    for _ in range(2):
        state = eng.new_game(n, 42)
        seen = [eng.view(state, s) for s in range(n)]
        for seat, move in record:
            state = eng.apply(state, seat, move)
            seen.append([eng.view(state, s) for s in [*range(n), None]])
        replays.append((seen, eng.result(state)))
    assert replays[0] == replays[1]
    assert eng.view(eng.new_game(n, 42), 0) == eng.view(eng.new_game(n, 42), 0)


@pytest.mark.parametrize("engine_id", cases())
def test_illegal_moves_raise_and_change_nothing(engine_id: str) -> None:
    eng = engine(engine_id)
    n = eng.min_players
    rng = random.Random(7)
    state = eng.new_game(n, 7)
    for _ in range(40):
        if eng.is_over(state):
            break
        before = snapshot(eng, state, n)
        turn_seat, move = pick(eng, state, rng)
        for bad_seat in (-1, n, "0", None, True, 1.0):
            with pytest.raises(IllegalMove) as info:
                eng.apply(state, bad_seat, move)
            assert info.value.reason
        for seat in range(n):
            legal = eng.legal_moves(state, seat)
            others = [m for s in range(n) for m in eng.legal_moves(state, s) if m not in legal]
            for bad in [*GARBAGE_MOVES, *others]:
                with pytest.raises(IllegalMove) as info:
                    eng.apply(state, seat, bad)
                assert info.value.reason
        assert snapshot(eng, state, n) == before
        state = eng.apply(state, turn_seat, move)


@pytest.mark.parametrize("engine_id", cases())
def test_determinize_keeps_what_the_seat_knows(engine_id: str) -> None:
    eng = engine(engine_id)
    n = eng.max_players
    rng = random.Random(3)
    state = eng.new_game(n, 3)
    for _ in range(30):
        if eng.is_over(state):
            break
        before = snapshot(eng, state, n)
        for seat in range(n):
            sample = eng.determinize(state, seat, random.Random(seat))
            assert eng.view(sample, seat) == eng.view(state, seat)
            assert eng.legal_moves(sample, seat) == eng.legal_moves(state, seat)
        assert snapshot(eng, state, n) == before
        state = eng.apply(state, *pick(eng, state, rng))


@pytest.mark.parametrize("engine_id", cases())
def test_bots_decide_from_what_the_seat_is_shown(engine_id: str) -> None:
    """A bot playing a remote seat sees only the frames a peer receives; it must choose as it
    would with the whole state in hand, or a networked bot would be a weaker one."""
    eng = engine(engine_id)
    n = min(max(3, eng.min_players), eng.max_players)
    for level in ("random", "strong"):
        bot = eng.bots[level]
        state = eng.new_game(n, 21)
        steps = 0
        while not eng.is_over(state) and steps < 150:
            mover = None
            for seat in eng.to_act(state):
                seen = roundtrip([eng.view(state, seat), eng.legal_moves(state, seat)])
                remote = bot.decide(seen[0], seen[1], random.Random(steps))
                local = bot.choose(eng, state, seat, random.Random(steps))
                assert remote == local, f"{level} bot, seat {seat}, step {steps}"
                if local is not None and mover is None:
                    mover = (seat, local)
            assert mover is not None, "every bot let the moment pass"
            state = eng.apply(state, *mover)
            steps += 1


@pytest.mark.parametrize("engine_id", cases())
def test_a_legal_move_with_extra_fields_is_refused(engine_id: str) -> None:
    """Moves are recorded and sent to every peer at the end: padding must not get in."""
    eng = engine(engine_id)
    n = eng.min_players
    state = eng.new_game(n, 5)
    seat, move = pick(eng, state, random.Random(5))
    before = snapshot(eng, state, n)
    with pytest.raises(IllegalMove):
        eng.apply(state, seat, {**move, "junk": "x" * 1000})
    assert snapshot(eng, state, n) == before


@pytest.mark.parametrize("engine_id", cases())
def test_a_view_for_no_such_seat_is_an_error(engine_id: str) -> None:
    eng = engine(engine_id)
    state = eng.new_game(eng.min_players, 5)
    for seat in (-1, eng.min_players, "0", 1.0):
        with pytest.raises(ValueError, match="no seat"):
            eng.view(state, seat)


def test_a_stack_of_unhashable_things_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="card ids"):
        check_stack([[1]] * 3, [1, 2, 3])
