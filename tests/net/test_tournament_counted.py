"""A duplicate table's game counts for ratings on the table that ran the round, and only when
its deal follows from the round's revealed seed and the commitment that table published
before the game: real games over a relay on 127.0.0.1, counted into a store of their own;
the attacker edits the record, deals from another seed, or makes up a round of its own."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import test_tournament_play
from netsupport import TIMEOUT, Player

from net.director import Director
from net.entrant import Entry
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.deal import DealCheck
from net.players import identity, ladder
from net.players.sqlite import SqliteLadders
from net.players.tournaments import Event, Tournaments
from net.relay.server import Relay
from net.tournament import duplicate

TID = "cup"
events = test_tournament_play.events  # the fixture: a table's own store


def publish(events: Tournaments) -> tuple[str, int]:
    """The organiser's duplicate round 1, published with its pairings: (round seed, deal)."""
    events.create(Event(TID, "schoene", "swiss", rounds=1, size=3, starts=time.time(),
                        duplicate=True))
    round_seed = duplicate.new_round_seed()
    deal = duplicate.deal_seed(round_seed, duplicate.label(TID, 1))
    events.open_round(TID, 1, [], duplicate.commit(round_seed), deal)
    return round_seed, deal


async def table_game(relay: Relay, seed: int, round_seed: str) -> Path:
    """One table of round 1 dealt from `seed`, played to its end: a person at the host's
    keys (this data directory's identity, proven) and two bots; the host's record."""
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", bot_delay=0,
                   seed=seed)
    host.duplicate = {"tournament": TID, "round": 1,
                      "commitment": duplicate.commit(round_seed), "round_seed": round_seed}
    await host.open()
    link = HostLink(host)
    me = Player(link, seed=1)
    await link.start()
    try:
        host.start()
        async with asyncio.timeout(TIMEOUT):
            await me.done.wait()
    finally:
        await host.close()
    assert host.record_path is not None
    return host.record_path


def count(events: Tournaments, path: Path) -> ladder.Counted:
    return ladder.count(events.db, path)


async def test_an_honest_duplicate_tables_game_counts_on_the_tables_ladder(
        events: Tournaments, relay: Relay) -> None:
    round_seed, deal = publish(events)
    found = count(events, await table_game(relay, deal, round_seed))
    assert found.refused is None, found.refused
    mine = identity.mine()
    assert mine is not None
    assert mine.fingerprint in [c.ident for c in found.changes]


async def test_a_table_dealt_from_another_seed_does_not_count(
        events: Tournaments, relay: Relay) -> None:
    round_seed, deal = publish(events)
    found = count(events, await table_game(relay, deal ^ 1, round_seed))
    assert found.refused is not None and found.refused.code == "duplicate"
    assert "not dealt from the round's seed" in str(found.refused)
    assert not found.changes


async def test_a_round_seed_that_is_not_the_committed_one_does_not_count(
        events: Tournaments, relay: Relay) -> None:
    round_seed, deal = publish(events)
    path = await table_game(relay, deal, round_seed)
    text = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(text[0])
    head["net"]["duplicate"]["round_seed"] = duplicate.new_round_seed()  # swapped afterwards
    text[0] = json.dumps(head)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    found = count(events, path)
    assert found.refused is not None and found.refused.code == "duplicate"
    assert "does not match the commitment" in str(found.refused)


async def test_a_practice_deal_dressed_as_a_round_nobody_published_does_not_count(
        events: Tournaments, relay: Relay) -> None:
    publish(events)
    # A seed of the host's choosing, with a round seed and commitment made up to fit it:
    # the derivation checks out, but this table never published that commitment.
    made_up = duplicate.new_round_seed()
    deal = duplicate.deal_seed(made_up, duplicate.label(TID, 1))
    found = count(events, await table_game(relay, deal, made_up))
    assert found.refused is not None and found.refused.code == "unpublished"
    assert not found.changes


async def test_a_duplicate_tables_game_counts_nowhere_but_on_the_table_that_ran_it(
        events: Tournaments, relay: Relay, tmp_path: Path) -> None:
    round_seed, deal = publish(events)
    path = await table_game(relay, deal, round_seed)
    elsewhere = SqliteLadders(tmp_path / "mine.sqlite")  # a player's own ladder
    try:
        found = ladder.count(elsewhere, path)
    finally:
        elsewhere.close()
    assert found.refused is not None and found.refused.code == "unpublished"


async def test_a_directed_duplicate_rounds_games_count_for_every_player_on_the_table(
        events: Tournaments, relay: Relay) -> None:
    """Six people on their own machines (each their own key) at two tables of one duplicate
    round: every player checks the round's deal, and both games count on the table's ladder,
    each seat proven for its game (a fixed-seed table asks its guests for their proofs)."""
    events.create(Event(TID, "schoene", "swiss", rounds=1, size=3, starts=time.time(),
                        duplicate=True))
    clients = []
    for i in range(6):
        events.enter(TID, f"p{i}", f"Player {i}")
        clients.append(Entry(events, TID, f"p{i}", f"Player {i}", server=relay.url,
                             wait=60.0, key=identity.Identity(
                                 identity.Ed25519PrivateKey.generate())))
    director = Director(events, TID, relay.url, show_up=30.0, ladders=events.db)
    verdicts = await asyncio.wait_for(
        asyncio.gather(director.run(), *(c.play_round(1) for c in clients)), 180)
    assert all(v.ok for v in verdicts[1:]), verdicts
    assert [p.counted for p in director.played] == ["counted", "counted"]
    people = {c.key.fingerprint for c in clients if c.key is not None}
    rated = {s.ident for s in events.db.ladder("schoene")}
    assert people <= rated


def test_parts_beside_a_fixed_seed_pass_only_when_the_commit_said_it_was_fixed() -> None:
    """A duplicate table's commit says the seed is fixed before any part comes (its start then
    names no seed); a host that asks for parts without saying so and then fixes the seed is
    caught at the start, as any host that fixed a seed late."""
    lobby = [{"name": "Ann", "kind": "person"}, {"name": "Bot", "kind": "bot"}]
    players = [{"name": "Ann", "bot": None}, {"name": "Bot", "bot": "random"}]
    for announced, dealt, failed in ((True, None, None), (None, 6, "fixed_late")):
        said: list[dict[str, object]] = []
        check = DealCheck(said.append)
        part = check.committed({"commitment": "c" * 64, "seats": [0], "fixed": announced},
                               lobby, 0, "Ann")
        assert part is not None and part["proof"] is not None  # Ann's proof for this game
        assert check.contribution is not None
        check.started({"commitment": "c" * 64, "fixed_seed": dealt, "players": players,
                       "contributions": [check.contribution]}, 0)
        assert (check.doubt.code if check.doubt else None) == failed
