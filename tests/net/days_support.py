"""Helpers for the tests of play over days: a store opened where the test says, players with
identities of their own, a fake clock, and games driven to their end by seeded choices."""

from __future__ import annotations

import random
from typing import Any

from engines.chez_geek.deck import CARDS, DECK
from net.days import table
from net.days.store import PLAYING, DaysStore, Game
from net.players import ladder
from net.players.sql import SqlLadders

DAY = 86400.0
START = 1_800_000_000.0  # a fixed moment, so the tests' calendars never depend on today


def days_store(where: str) -> DaysStore:
    opened = ladder.open_store(where)
    assert isinstance(opened, SqlLadders)
    return DaysStore(opened)


class FakeClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def people_move(store: DaysStore, game: Game, now: float, rng: random.Random,
                who: dict[str, Any]) -> Game:
    """One person's move (a seeded choice of their legal moves) through the table."""
    session = table.session_of(game)
    seat = next(s for s in game.to_act if game.seats[s].ident in who)
    move = rng.choice(session.engine.legal_moves(session.state, seat))
    return table.play(store, game.id, game.seats[seat].ident or "", seat, move, game.state_no,
                      now)


def play_out(store: DaysStore, game: Game, now: float, who: dict[str, Any],
             seed: int = 1) -> Game:
    rng = random.Random(seed)
    while game.status == PLAYING:
        now += 3600
        game = people_move(store, game, now, rng, who)
    return game


def nookie_options() -> dict[str, Any]:
    """Chez Geek for two: seat 0 holds Campus Nookie, seat 1 Brain Fart (which cancels an
    activity); seat 0 starts."""
    deck = list(DECK.life)
    nookie, cancel = "schaeferstuendchen_uni", "hirnfurz"
    deck.remove(nookie)
    deck.remove(cancel)
    things = [c for c in deck if CARDS[c].type == "thing" and not CARDS[c].effects][:8]
    for card in things:
        deck.remove(card)
    return {"stack": [nookie, *things[:4], cancel, *things[4:], *deck], "first": 0}


def two_seated(store: DaysStore, engine: str, ann: Any, bob: Any, now: float = START,
               **options: Any) -> Game:
    """A game of two opened by Ann (seat 0), Bob taking the open seat 1: under way."""
    game = table.open_game(store, engine, [table.SeatPlan("me"), table.SeatPlan("open")], ann,
                           "Ann", now, **options)
    return table.take_seat(store, game.id, 1, bob, "Bob", now)
