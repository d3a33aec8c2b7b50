"""Tournaments played for real: a director opens a room per table on a relay on 127.0.0.1,
headless clients take their reserved seats with their tokens and play with bots, and the
rounds add up in the tournament's store."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from net.director import Desk, Director
from net.entrant import Entry, Verdict
from net.peer.remote import JoinError, RemoteLink
from net.players.sqlite import SqliteLadders
from net.players.tournaments import OVER, Event, Tournaments
from net.relay.server import Relay
from net.tournament import arena


@pytest.fixture
def events(tmp_path: Path) -> Iterator[Tournaments]:
    store = SqliteLadders(tmp_path / "table.sqlite")
    try:
        yield Tournaments(store)
    finally:
        store.close()


def entries(events: Tournaments, tid: str, people: int, bots: int, relay: Relay,
            wait: float = 60.0) -> list[Entry]:
    """`people` headless clients and `bots` bot entrants, in entry order."""
    out = []
    for i in range(people):
        events.enter(tid, f"p{i + 1}", f"Player {i + 1}")
        out.append(Entry(events, tid, f"p{i + 1}", f"Player {i + 1}", server=relay.url,
                         wait=wait))
    for i in range(bots):
        events.enter(tid, f"b{i + 1}", f"Bot {i + 1}", bot="random")
    return out


async def play_all(entry: Entry, rounds: int) -> list[Verdict]:
    return [await entry.play_round(n) for n in range(1, rounds + 1)]


async def test_a_swiss_of_nine_over_three_rounds_pairs_without_repeats(
        events: Tournaments, relay: Relay) -> None:
    events.create(Event("friday", "schoko", "swiss", rounds=3, size=2, starts=time.time()))
    clients = entries(events, "friday", people=6, bots=3, relay=relay)
    director = Director(events, "friday", relay.url, show_up=30.0, ladders=events.db)
    verdicts = await asyncio.wait_for(
        asyncio.gather(director.run(), *(play_all(c, 3) for c in clients)), 240)
    assert events.event("friday").status == OVER
    for mine in verdicts[1:]:
        assert [v.ok for v in mine] == [True] * 3, mine  # every deal verified by its players
    tables = events.tables("friday")
    assert sorted({t.round for t in tables}) == [1, 2, 3]
    met = Counter(frozenset(t.seats) for t in tables if None not in t.seats)
    assert max(met.values()) == 1
    byes = [next(p for p in t.seats if p) for t in tables if None in t.seats]
    assert len(byes) == 3 and len(set(byes)) == 3  # one strong-bot game a round, a new player
    assert all(t.places is not None and not t.absent for t in tables)
    # Scored by the rules: a player's score is their share of games won, draws half.
    rows = events.standings("friday")
    assert len(rows) == 9 and rows[0]["rank"] == 1
    for row in rows:
        mine = [t for t in tables if row["player"] in t.seats]
        won = sum(t.outcome().points(t.seats.index(row["player"])) for t in mine)
        assert row["score"] == won and len(mine) == 3
    # 12 games between players, 1 point each, and what the byes took from the strong bot.
    assert sum(r["score"] for r in rows) == 12 + sum(
        t.outcome().points(t.seats.index(next(p for p in t.seats if p)))
        for t in tables if None in t.seats)
    assert {"buchholz", "sonneborn_berger"} <= set(rows[0])
    # Every game is a record that counts for the ratings, but where the rules refuse it:
    # a table of bots alone, or two of this test's clients, who share one identity key.
    for played in director.played:
        people = [p for p in played.row.seats if p and p.startswith("p")]
        expected = ("counted" if len(people) == 1 else
                    "only bots played it" if not people else "plays two seats")
        assert expected in played.counted, (played.row.seats, played.counted)


async def test_a_player_who_does_not_come_forfeits_the_round(
        events: Tournaments, relay: Relay) -> None:
    events.create(Event("quick", "schoko", "swiss", rounds=1, size=2, starts=time.time()))
    clients = entries(events, "quick", people=3, bots=1, relay=relay)
    director = Director(events, "quick", relay.url, show_up=2.0)
    # p3 never comes: the strong bot plays their seat, and the round is lost for them.
    await asyncio.wait_for(asyncio.gather(director.run(), *(c.play_round(1)
                                                            for c in clients[:2])), 120)
    table = next(t for t in events.tables("quick") if "p3" in t.seats)
    assert table.absent == ["p3"] and table.places is not None
    rows = {r["player"]: r for r in events.standings("quick")}
    assert rows["p3"]["score"] == 0.0 and rows["p3"]["rounds"] == [0.0]
    other = next(p for p in table.seats if p != "p3")
    assert rows[other]["score"] == table.outcome().points(table.seats.index(other))


async def duplicate_round(events: Tournaments, relay: Relay, tid: str,
                          organiser: type[Director]) -> dict[str, Verdict]:
    """One duplicate round of Schöne Sch#!?e for six clients at two tables; each client's
    verdict on its table's deal."""
    events.create(Event(tid, "schoene", "swiss", rounds=1, size=3, starts=time.time(),
                        duplicate=True))
    clients = entries(events, tid, people=6, bots=0, relay=relay)
    director = organiser(events, tid, relay.url, show_up=30.0)
    results = await asyncio.wait_for(
        asyncio.gather(director.run(), *(c.play_round(1) for c in clients)), 180)
    return dict(zip([c.player for c in clients], results[1:], strict=True))


async def test_a_duplicate_round_deals_every_table_the_same_and_each_player_checks_it(
        events: Tournaments, relay: Relay) -> None:
    verdicts = await duplicate_round(events, relay, "dup", Director)
    assert all(v.ok for v in verdicts.values()), verdicts
    first, second = events.tables("dup")
    assert first.deal_seed == second.deal_seed
    (played,) = events.rounds("dup")
    assert played.commitment and played.seed  # committed with the pairings, then revealed
    # Each player is scored against the one who held the same seat of the deal elsewhere.
    points = {r["player"]: r["score"] for r in events.standings("dup")}
    for seat in range(3):
        assert points[first.seats[seat]] + points[second.seats[seat]] == 1.0


class Crooked(Director):
    """An organiser who deals the second table from a seed of their own choosing."""

    def table_seed(self, board: int, deal: int | None) -> int | None:
        return deal if board == 0 or deal is None else deal ^ 1


async def test_a_table_dealt_from_another_seed_fails_its_players_check(
        events: Tournaments, relay: Relay) -> None:
    verdicts = await duplicate_round(events, relay, "bent", Crooked)
    first, second = events.tables("bent")
    for player in first.seats:
        assert verdicts[player].ok, verdicts[player]
    for player in second.seats:
        assert not verdicts[player].ok
        assert "not dealt from the round's seed" in verdicts[player].text


async def test_an_arena_seats_whoever_is_free_until_its_time_is_up(
        events: Tournaments, relay: Relay) -> None:
    events.create(Event("blitz", "schoko", "arena", rounds=0, size=2, starts=time.time(),
                        length=6.0))
    clients = entries(events, "blitz", people=2, bots=2, relay=relay)
    director = Director(events, "blitz", relay.url, show_up=10.0)
    results = await asyncio.wait_for(
        asyncio.gather(director.run(), *(c.play_arena() for c in clients)), 120)
    event = events.event("blitz")
    assert event.status == OVER
    tables = events.tables("blitz")
    rounds = events.rounds("blitz")
    assert len(tables) >= 4 and all(r.started < event.starts + 6.0 for r in rounds)
    for client, verdicts in zip(clients, results[1:], strict=True):
        mine = [t for t in tables if client.player in t.seats]
        assert len(verdicts) == len(mine) >= 2 and all(v.ok for v in verdicts)
    # The standings are the arena's rules over the games in the order they were dealt.
    tally = arena.replay(2, [t.outcome() for t in tables])
    rows = events.standings("blitz")
    assert [(r["player"], r["score"]) for r in rows] == [
        (r.player, r.points) for r in tally.standings()]
    assert sum(r["games"] for r in rows) == 2 * len(tables)


async def test_a_round_robin_of_three_meets_everyone_once_and_the_bot_in_turn(
        events: Tournaments, relay: Relay) -> None:
    events.create(Event("rr", "schoko", "roundrobin", rounds=0, size=2, starts=time.time()))
    clients = entries(events, "rr", people=2, bots=1, relay=relay)
    director = Director(events, "rr", relay.url, show_up=30.0)
    results = await asyncio.wait_for(
        asyncio.gather(director.run(), *(c.play_event() for c in clients)), 180)
    assert [[v.ok for v in mine] for mine in results[1:]] == [[True] * 3] * 2
    tables = events.tables("rr")
    assert events.event("rr").rounds == 3 and len(tables) == 6
    people = [frozenset(t.seats) for t in tables if None not in t.seats]
    assert sorted(map(sorted, people)) == [["b1", "p1"], ["b1", "p2"], ["p1", "p2"]]
    assert sorted(next(p for p in t.seats if p) for t in tables if None in t.seats) == [
        "b1", "p1", "p2"]


async def test_a_stranger_with_the_code_cannot_take_a_reserved_seat(
        events: Tournaments, relay: Relay) -> None:
    """Someone who learnt a table's join code (a player showed it around) finds every seat
    taken: each is reserved for its player's token; the player still sits down."""
    events.create(Event("lock", "schoko", "swiss", rounds=1, size=2, starts=time.time()))
    (ann,) = entries(events, "lock", people=1, bots=1, relay=relay)
    director = Director(events, "lock", relay.url, show_up=30.0)
    running = asyncio.get_running_loop().create_task(director.run())
    code, _, _ = await ann.seat(1)
    stranger = RemoteLink(code, "Player 1", server=relay.url, remember=False)
    with pytest.raises(JoinError) as refused:
        await stranger.connect()
    assert refused.value.code == "table_full"
    await stranger.close()
    verdict = await asyncio.wait_for(ann.play_round(1), 60)
    await asyncio.wait_for(running, 60)
    assert verdict.ok
    (table,) = events.tables("lock")
    assert table.absent == [] and "p1" in table.seats


async def test_the_starting_ranks_follow_the_tables_ladder(
        events: Tournaments, relay: Relay) -> None:
    """The Dutch system pairs the top half against the bottom half by rating: the strong bot,
    rated on the table's ladder, is ranked first whatever the order of entry."""
    events.db.rows("INSERT INTO ratings (engine, ident, mu, sigma, games) "
                    "VALUES ('schoko', 'bot:strong', 30.0, 2.0, 40)")
    events.db.rows("INSERT INTO players (ident, name, seen) VALUES ('bot:strong', 'Strong', 1)")
    events.create(Event("seeded", "schoko", "swiss", rounds=1, size=2, starts=time.time()))
    for name, level in (("b1", "random"), ("b2", "random"), ("b3", "strong"), ("b4", "random")):
        events.enter("seeded", name, name.upper(), bot=level)
    director = Director(events, "seeded", relay.url, ladders=events.db)
    await asyncio.wait_for(director.run(), 120)
    assert [e.player for e in events.entrants("seeded")] == ["b3", "b1", "b2", "b4"]
    assert [t.seats for t in events.tables("seeded")] == [["b3", "b2"], ["b4", "b1"]]


async def test_a_player_who_drops_out_mid_game_does_not_hold_the_round_up(
        events: Tournaments, relay: Relay) -> None:
    events.create(Event("drop", "schoko", "swiss", rounds=1, size=2, starts=time.time()))
    (ann,) = entries(events, "drop", people=1, bots=1, relay=relay)
    director = Director(events, "drop", relay.url, takeover=0.5)
    running = asyncio.get_running_loop().create_task(director.run())
    code, token, proof_key = await ann.seat(1)
    link = RemoteLink(code, ann.name, server=relay.url, token=token, proof_key=proof_key,
                      remember=False)
    started = asyncio.Event()
    link.set_listener(lambda m: started.set() if m["type"] in ("sync", "update") and m.get(
        "view") else None)
    await link.connect()
    await asyncio.wait_for(started.wait(), 30)
    await link.close()  # gone for good: the bot plays Ann's seat to the end
    await asyncio.wait_for(running, 60)
    (table,) = events.tables("drop")
    assert table.places is not None and table.absent == []  # she came: no forfeit
    assert events.event("drop").status == "over"


async def test_the_desk_directs_each_tournament_once_its_time_comes(
        events: Tournaments, relay: Relay) -> None:
    now = time.time()
    for tid, starts in (("early", now - 5), ("now", now), ("later", now + 3600)):
        events.create(Event(tid, "schoko", "swiss", rounds=1, size=2, starts=starts))
        for i in range(2):
            events.enter(tid, f"b{i}", f"Bot {i}", bot="random")
    desk = Desk(events, relay.url, every=0.1)
    await asyncio.wait_for(desk.run(rounds=3), 30)
    assert sorted(desk.running) == ["early", "now"]  # each started once, the later one not
    await asyncio.wait_for(desk.finish(), 60)
    assert [events.event(t).status for t in ("early", "now", "later")] == [OVER, OVER, "open"]
