"""The Chez Geek floor engine (bench/floor_chez.py) plays the real game: each floor game is
replayed through the engine with the floor's deal and dice fixed by the test options, and every
floor move must be made by the seat the engine's random player would move for, be legal, and be
a pick among exactly as many moves as the engine offers (so the floor's uniform pick is the
random player's). The games must end alike, and between them reach every kind of move."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bench.floor import FLOORS
from bench.floor_chez import Game, engine_move
from engines import get_engine
from engines.chez_geek.deck import CARDS
from engines.chez_geek.engine import FIELDS

ENG = get_engine("chez_geek")
# Twelve games at each table size, and two rare moments of random games: Schönsaufen played,
# and a hand over the size after the Arbeitsdrohne lost the job.
GAMES = [(n, seed) for n in range(2, 7) for seed in range(12)] + [(4, 16), (2, 74)]
# Every kind of event the engine reports (its module docstring): the games reach every rule.
EVENTS = {
    "turn", "draw", "reshuffle", "roll", "income", "phase", "play", "let_go", "cancelled",
    "enter", "not_home", "failed", "take_fixed", "loud_nookie", "remove_attempt", "move", "eat",
    "discard", "bonus_pool", "salvage", "job", "win",
}  # fmt: skip
# Every anytime card but the cancels (which answer as "cancel" moves).
PLAYABLE = {cid for cid, c in CARDS.items() if c.type == "anytime" and not c.effect("cancel")}


def replay(n: int, seed: int, seen: Counter[str]) -> None:
    game = Game(n, seed, random.Random(1000 * n + seed), [])
    moves = game.play()
    options = {"stack": list(game.stack), "jobs": list(game.job_order), "first": game.first}
    state = ENG.new_game(n, seed, {**options, "dice": list(game.dice)})
    assert game.rec is not None and moves == len(game.rec)
    for i, (seat, op, count) in enumerate(game.rec):
        where = f"{n} players, seed {seed}, move {i}: {op}"
        assert not ENG.is_over(state), where
        assert ENG.to_act(state)[0] == seat, where
        legal = ENG.legal_moves(state, seat)
        move = engine_move(op)
        assert move in legal, where
        assert len(legal) == count, where
        after = ENG.apply(state, seat, move)
        seen[move["type"]] += 1
        if move["type"] == "play":
            seen["play " + move["card"]] += 1
        if move["type"] == "choose":  # a hand card over the hand size, or a room card to lose
            seen["choose from " + ("hand" if isinstance(move["card"], str) else "room")] += 1
        for event in ENG.events(state, seat, move, after):
            seen["event " + event["kind"]] += 1
            if event["kind"] == "cancelled":
                seen["cancelled " + event["item"]["kind"]] += 1
        state = after
    assert ENG.is_over(state)
    result = ENG.result(state)
    assert result["scores"] == game.slack
    assert result["winners"] == list(game.winners)
    assert result["turns"] == game.turn_no
    assert state.rolls == len(game.dice)  # the engine rolled exactly the floor's dice
    view: dict[str, Any] = ENG.view(state, None)
    assert [p["job"] for p in view["players"]] == game.jobs
    assert [
        [(e["ref"], e["card"], e["value"], e["tokens"]) for e in p["room"]] for p in view["players"]
    ] == [[tuple(e) for e in room] for room in game.rooms]
    # The floor stops at the win; the engine still discards the anytime card that won.
    assert view["discard_pile"] in (game.discard, [*game.discard, move.get("card")])
    assert [p["hand_count"] for p in view["players"]] == [len(h) for h in game.hands]


def test_floor_games_replay_move_for_move_through_the_engine() -> None:
    seen: Counter[str] = Counter()
    for n, seed in GAMES:
        replay(n, seed, seen)
    assert set(FIELDS) <= set(seen), set(FIELDS) - set(seen)  # every kind of move the engine has
    assert {"play " + cid for cid in PLAYABLE} <= set(seen)
    assert {"choose from hand", "choose from room"} <= set(seen)
    assert {"event " + kind for kind in EVENTS} <= set(seen)
    assert {"cancelled " + kind for kind in ("person", "activity", "trip", "tv")} <= set(seen)


def test_floor_is_registered_and_deterministic() -> None:
    floor = FLOORS["chez_geek"]
    assert floor(4, 3, random.Random(5)) == floor(4, 3, random.Random(5)) > 0
