"""The tournament arithmetic without a table: Swiss pairings by the Dutch rules, seating at
tables of several, Berger's round-robin, the arena's streaks, tie-breaks and duplicate scoring."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from net.tournament import arena, duplicate, roundrobin, swiss
from net.tournament.history import histories
from net.tournament.plan import next_round
from net.tournament.scoring import Outcome, standings

FIELD = [f"p{i}" for i in range(1, 10)]


def play(tables: list[swiss.Table], rng: random.Random) -> list[Outcome]:
    """Each table's places drawn at random (shared places now and then)."""
    out = []
    for table in tables:
        places = [rng.randint(1, len(table)) for _ in table]
        ranked = sorted(set(places))
        out.append(Outcome(table, tuple(1 + sum(places.count(r) for r in ranked if r < p)
                                        for p in places)))
    return out


def test_the_first_round_pairs_the_top_half_against_the_bottom_half_seats_alternating() -> None:
    players = [f"p{i}" for i in range(1, 9)]
    tables = next_round("swiss", 2, players, [])
    assert tables == [("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4")]


def test_an_odd_field_gives_the_lowest_the_strong_bot_and_never_the_same_player_twice() -> None:
    rng = random.Random(5)
    rounds: list[list[Outcome]] = []
    byes = []
    for _ in range(5):
        tables = next_round("swiss", 2, FIELD, rounds)
        bot = [t for t in tables if None in t]
        assert len(bot) == 1
        byes.append(next(p for p in bot[0] if p is not None))
        rounds.append(play(tables, rng))
    assert len(set(byes)) == 5
    assert byes[0] == "p9"  # everybody on 0: the lowest-ranked


def test_swiss_rounds_repeat_no_game_and_keep_seats_within_the_rules() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        rounds: list[list[Outcome]] = []
        for _ in range(5):
            tables = next_round("swiss", 2, FIELD, rounds)
            seated = [p for t in tables for p in t if p is not None]
            assert sorted(seated) == sorted(FIELD)
            rounds.append(play(tables, rng))
        met = Counter(frozenset(g.seats) for r in rounds for g in r if None not in g.seats)
        assert max(met.values()) == 1, seed
        for h in histories(FIELD, rounds).values():
            two = [s for s in h.seats]
            assert abs(h.first_balance()) <= 2
            assert all(len(set(two[i:i + 3])) > 1 for i in range(len(two) - 2)), two


def test_score_groups_meet_within_themselves_top_half_against_bottom() -> None:
    players = [f"p{i}" for i in range(1, 9)]
    first = [Outcome(t, (1, 2)) for t in next_round("swiss", 2, players, [])]
    # winners p1, p6, p3, p8 on 1 point; losers p5, p2, p7, p4 on 0.
    second = next_round("swiss", 2, players, [first])
    pairs = [frozenset(t) for t in second]
    assert frozenset({"p1", "p6"}) in pairs and frozenset({"p3", "p8"}) in pairs
    assert frozenset({"p2", "p5"}) in pairs and frozenset({"p4", "p7"}) in pairs
    # Seats: p1 sat first, p6 first too: the higher-ranked gets the alternation, so p6 sits second.
    assert ("p1", "p6") not in second or ("p6", "p1") not in second
    table = next(t for t in second if set(t) == {"p1", "p6"})
    assert table in (("p6", "p1"), ("p1", "p6"))


def test_a_repeat_is_avoided_by_transposing_the_bottom_half() -> None:
    players = ["a", "b", "c", "d"]
    rounds = [[Outcome(("a", "c"), (1, 1)), Outcome(("d", "b"), (1, 1))]]
    tables = next_round("swiss", 2, players, rounds)  # all on 0.5: a-c would repeat
    # S1 = a, b; S2 = c, d transposed to d, c.
    assert {frozenset(t) for t in tables} == {frozenset({"a", "d"}), frozenset({"b", "c"})}


def test_tables_of_four_seat_score_groups_and_repeat_meetings_as_little_as_possible() -> None:
    players = [f"p{i}" for i in range(1, 17)]
    rng = random.Random(3)
    rounds: list[list[Outcome]] = []
    for _ in range(3):
        tables = next_round("swiss", 4, players, rounds)
        assert all(len(t) == 4 and None not in t for t in tables)
        rounds.append(play(tables, rng))
    met = Counter(frozenset(pair) for r in rounds for g in r
                  for pair in itertools.combinations(g.players(), 2))
    assert max(met.values()) == 1
    again = [len(h.seats) - len(set(h.seats)) for h in histories(players, rounds).values()]
    assert max(again) <= 1 and sum(again) <= 4  # seats rotate as far as the tables allow


def test_a_field_that_does_not_fill_the_tables_leaves_seats_to_the_bot() -> None:
    players = [f"p{i}" for i in range(1, 11)]
    tables = next_round("swiss", 4, players, [])
    assert len(tables) == 3
    assert sorted(t.count(None) for t in tables) == [0, 1, 1]


def test_berger_tables_meet_everyone_once_with_even_seats() -> None:
    for n in (4, 6, 8, 10):
        rounds = roundrobin.berger(n)
        assert rounds[0][0] in ((1, n), (n, 1))
        met = Counter(frozenset(p) for r in rounds for p in r)
        assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
        firsts = Counter(a for r in rounds for a, _ in r)
        assert all(abs(firsts[i] - (n - 1) / 2) <= 0.5 for i in range(1, n + 1))
    assert roundrobin.berger(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_an_odd_round_robin_gives_each_player_one_game_against_the_bot() -> None:
    players = ["a", "b", "c", "d", "e"]
    bots = [next(p for t in roundrobin.pairings(players, r) if None in t for p in t if p)
            for r in range(1, roundrobin.rounds_for(5) + 1)]
    assert sorted(bots) == players
    with pytest.raises(ValueError, match="rounds 1 to 5"):
        roundrobin.pairings(players, 6)


def test_points_and_the_named_tie_breaks_by_hand() -> None:
    # a beats b, c beats d; then a beats c, d draws b.
    rounds = [[Outcome(("a", "b"), (1, 2)), Outcome(("c", "d"), (1, 2))],
              [Outcome(("c", "a"), (2, 1)), Outcome(("b", "d"), (1, 1))]]
    lines = {line.player: line for line in standings(rounds)}
    assert [lines[p].score for p in "abcd"] == [2.0, 0.5, 1.0, 0.5]
    assert lines["a"].buchholz == 0.5 + 1.0  # met b and c
    assert lines["a"].sonneborn_berger == 0.5 + 1.0  # beat both
    assert lines["b"].sonneborn_berger == 0.5 * 0.5  # half of d's score
    assert lines["d"].sonneborn_berger == 0.5 * 0.5
    assert lines["c"].sonneborn_berger == 0.5  # beat d
    assert (lines["b"].buchholz, lines["d"].buchholz) == (2.5, 1.5)
    ranked = standings(rounds)
    assert [line.player for line in ranked] == ["a", "c", "b", "d"]  # b ahead on Buchholz
    assert [line.rank for line in ranked] == [1, 2, 3, 4]
    level = standings([[Outcome(("a", "b"), (1, 1))]])
    assert [line.rank for line in level] == [1, 1]  # equal on everything: one rank


def test_a_table_of_four_scores_the_share_of_opponents_beaten() -> None:
    game = Outcome(("a", "b", "c", None), (2, 1, 2, 4), absent=frozenset({"c"}))
    assert [game.points(s) for s in range(4)] == [0.5, 1.0, 0.0, 0.0]


def test_an_arena_doubles_after_two_wins_until_a_game_is_not_won() -> None:
    a = arena.Arena(size=2, ends=100.0)
    for p in ("ann", "bob", "cy", "dee"):
        a.free(p)
    tables = a.pair(now=0.0)
    assert len(tables) == 2 and not a.waiting
    gains = []
    for opponent, places in (("bob", (1, 2)), ("cy", (1, 2)), ("dee", (1, 2)),
                             ("bob", (1, 1)), ("cy", (1, 2)), ("dee", (1, 2)),
                             ("bob", (1, 2))):
        gains.append(a.finish(Outcome(("ann", opponent), places))["ann"])
    assert gains == [2, 2, 4, 2, 2, 2, 4]
    assert a.runners["ann"].points == 18 and a.runners["ann"].wins == 6
    assert a.standings()[0].player == "ann"


def test_an_arena_pairs_the_free_closest_in_points_and_stops_at_its_time() -> None:
    a = arena.Arena(size=2, ends=10.0)
    a.runners.update({p: arena.Runner(p, points=pts) for p, pts in
                      (("w", 9.0), ("x", 8.0), ("y", 1.0), ("z", 0.0))})
    a.runners["w"].last = frozenset({"x"})
    for p in "wxyz":
        a.free(p)
    assert a.pair(now=10.0) == []
    assert a.pair(now=9.0) == [("w", "y"), ("x", "z")]  # w just played x
    a.free("q")
    assert a.pair(now=9.5) == [] and a.waiting == ["q"]


def test_three_player_arena_tables_score_by_place() -> None:
    game = Outcome(("a", "b", "c"), (1, 2, 3))
    assert [arena.place_points(game, s) for s in range(3)] == [2, 1, 0]
    tied = Outcome(("a", "b", "c"), (1, 1, 3))
    assert [arena.place_points(tied, s) for s in range(3)] == [1.5, 1.5, 0]


def test_a_duplicate_round_scores_each_seat_against_the_same_seat_elsewhere() -> None:
    games = [Outcome(("a", "b"), (1, 2)), Outcome(("c", "d"), (1, 2)),
             Outcome(("e", "f"), (2, 1))]
    scored = duplicate.rescore(games)
    points = {p: g.points(s) for g in scored for s, p in enumerate(g.seats)}
    assert points == {"a": 0.75, "c": 0.75, "e": 0.0, "b": 0.25, "d": 0.25, "f": 1.0}


def test_duplicate_seeds_are_the_rounds_and_a_table_from_another_seed_fails() -> None:
    seed = duplicate.new_round_seed()
    promise = duplicate.commit(seed)
    what = duplicate.label("t1", 2)
    table = duplicate.deal_seed(seed, what)
    assert table == duplicate.deal_seed(seed, what) and 0 <= table < 2 ** 63
    assert duplicate.check(promise, seed, what, table) is None
    assert duplicate.check(promise, seed, what, table ^ 1) == "seed"
    assert duplicate.check(promise, seed, duplicate.label("t1", 3), table) == "seed"
    other = duplicate.new_round_seed()
    assert duplicate.check(promise, other, what, duplicate.deal_seed(other, what)) == "commitment"
    assert duplicate.check(promise, None, what, table) == "malformed"
