"""Tournaments in the table's store, on both backends (SQLite's file and a PostgreSQL
server's database): the event, entries, rounds, seats, results, standings and the export."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from net.players import ladder
from net.players.tournaments import OPEN, OVER, RUNNING, Event, Tournaments


@pytest.fixture
def events(store_at: str) -> Iterator[Tournaments]:
    store = ladder.open_store(store_at)
    try:
        yield Tournaments(store)
    finally:
        store.close()


def test_an_event_is_created_once_and_bad_ones_change_nothing(events: Tournaments) -> None:
    events.create(Event("winter-open", "schoko", "swiss", rounds=5, size=2, starts=100.0))
    with pytest.raises(ValueError, match="already"):
        events.create(Event("winter-open", "schoene", "arena", rounds=0, size=4, starts=1.0))
    with pytest.raises(ValueError, match="small letters"):
        events.create(Event("Winter Open!", "schoko", "swiss", rounds=5, size=2, starts=1.0))
    with pytest.raises(ValueError, match="one of"):
        events.create(Event("knockout", "schoko", "elimination", rounds=5, size=2, starts=1.0))
    (event,) = events.events()
    assert (event.engine, event.kind, event.rounds, event.status) == ("schoko", "swiss", 5, OPEN)


def test_entries_keep_their_order_once_each_and_close_at_the_start(events: Tournaments) -> None:
    events.create(Event("t", "schoko", "swiss", rounds=3, size=2, starts=100.0))
    assert events.enter("t", "id:ann", "Ann").entry == 1
    assert events.enter("t", "id:bob", "Bob").entry == 2
    assert events.enter("t", "id:ann", "Ann again").entry == 1  # no second entry
    with pytest.raises(ValueError, match="no tournament"):
        events.enter("nope", "id:cy", "Cy")
    events.set_status("t", RUNNING)
    with pytest.raises(ValueError, match="entries are closed"):
        events.enter("t", "id:cy", "Cy")
    assert [(e.player, e.name) for e in events.entrants("t")] == [("id:ann", "Ann"),
                                                                  ("id:bob", "Bob")]


def test_rounds_tables_seats_and_results_add_up_to_standings_and_an_export(
        events: Tournaments) -> None:
    events.create(Event("t", "schoko", "swiss", rounds=1, size=2, starts=time.time()))
    for who in ("a", "b", "c"):
        events.enter("t", who, who.upper())
    events.open_round("t", 1, [("a", "b"), ("c", None)])
    events.give_seat("t", 1, "a", "ABCD-1234", "tok-a", "pk-a")
    assert events.seat_of("t", 1, "a") == ("ABCD-1234", "tok-a", "pk-a")
    assert events.seat_of("t", 1, "b") is None  # another's seat is not theirs to read
    events.table_done("t", 1, 0, [1, 2], [], "game-1")
    events.table_done("t", 1, 1, [2, 1], ["c"], "game-2")
    assert {r["score"] for r in events.standings("t")} == {0.0}  # the round is not over yet
    events.close_round("t", 1)
    events.set_status("t", OVER)
    rows = {r["player"]: r for r in events.standings("t")}
    assert (rows["a"]["score"], rows["b"]["score"], rows["c"]["score"]) == (1.0, 0.0, 0.0)
    assert rows["a"]["rank"] == 1 and rows["a"]["name"] == "A"
    exported = json.loads(json.dumps(events.export("t")))
    assert exported["tournament"]["status"] == OVER
    assert [t["seats"] for t in exported["tables"]] == [["a", "b"], ["c", None]]
    assert exported["tables"][1]["absent"] == ["c"]
    assert "tok-a" not in json.dumps(exported)  # seat secrets are never exported


def test_an_arena_adds_up_points_by_place_with_streaks(events: Tournaments) -> None:
    events.create(Event("arena", "schoko", "arena", rounds=0, size=2, starts=1.0, length=1800.0))
    for who in ("a", "b"):
        events.enter("arena", who, who.upper())
    for number in (1, 2, 3):
        events.open_round("arena", number, [("a", "b")])
        events.table_done("arena", number, 0, [1, 2], [], None)
        events.close_round("arena", number)
    rows = events.standings("arena")
    assert [(r["player"], r["score"], r["on_fire"]) for r in rows] == [("a", 8.0, True),
                                                                       ("b", 0.0, False)]


def test_a_season_adds_up_the_months_arenas_of_one_game(events: Tournaments) -> None:
    def arena(tid: str, engine: str, season: str | None, games: list[tuple[str, str]]) -> None:
        events.create(Event(tid, engine, "arena", rounds=0, size=2, starts=1.0, length=60.0,
                            season=season))
        for number, (winner, loser) in enumerate(games, 1):
            for who in (winner, loser):
                events.enter(tid, who, who.upper())
            events.open_round(tid, number, [(winner, loser)])
            events.table_done(tid, number, 0, [1, 2], [], None)
            events.close_round(tid, number)

    arena("dec-1", "schoko", "2026-12", [("a", "b"), ("a", "b"), ("a", "b")])  # a: 2+2+4
    arena("dec-2", "schoko", "2026-12", [("b", "c")])
    arena("nov", "schoko", "2026-11", [("c", "a")])  # another month
    arena("other", "schoene", "2026-12", [("c", "b")])  # another game
    arena("free", "schoko", None, [("c", "a")])  # in no season
    rows = events.season("schoko", "2026-12")
    assert [(r["player"], r["score"], r["wins"], r["arenas"]) for r in rows] == [
        ("a", 8.0, 3, 1), ("b", 2.0, 1, 2), ("c", 0.0, 0, 1)]
    assert events.season("schoko", "2027-01") == []


def test_a_duplicate_tables_seed_is_read_back_only_once_its_round_closed(
        events: Tournaments) -> None:
    """The screens and the export read tables through the store: mid-round, the deal seed
    (which gives every hand of the games under way) is not among what they get."""
    events.create(Event("d", "schoene", "swiss", rounds=1, size=2, starts=time.time(),
                        duplicate=True))
    events.open_round("d", 1, [("a", "b"), ("c", "e")], "promise", 12345)
    assert [t.deal_seed for t in events.tables("d")] == [None, None]
    assert "12345" not in json.dumps(events.export("d"))
    events.close_round("d", 1, "the round seed")
    assert [t.deal_seed for t in events.tables("d", 1)] == [12345, 12345]
