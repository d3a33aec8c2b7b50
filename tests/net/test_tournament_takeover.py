"""A tournament outlives its director: the director's process is killed (SIGKILL, as a crash
or a reboot would) with a game under way or with players still sitting down, and the table's
desk takes the event over once the director has been silent for its lease. The game goes on
from its host's record in the same room, with the moves made before the crash; a round that
dealt no card is withdrawn and paired again; one director directs an event at a time."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from net.director import Desk, Director
from net.entrant import Entry
from net.headless import PeerBot
from net.home import HOME_ENV
from net.peer.remote import RemoteLink
from net.players import ladder
from net.players.sqlite import SqliteLadders
from net.players.tournaments import OVER, RUNNING, Event, Tournaments
from net.records import store as record_files
from net.relay.server import Relay
from net.tournament import duplicate

LEASE = 1.0  # the desk's: the killed director is silent from the kill on


class Paced(PeerBot):
    """A player's bot that makes `allowed` moves, then waits (its person thinking) until
    `go()`: the game is mid-way when the director dies."""

    def __init__(self, link: RemoteLink, allowed: int) -> None:
        super().__init__(link, "random", seed=7)
        self.allowed = allowed
        self.held: dict[str, Any] | None = None

    def hear(self, message: dict[str, Any]) -> None:
        playing = message["type"] in ("sync", "update") and message["result"] is None
        if playing and message["legal"] and self.link.seat in message["view"]["to_act"]:
            if self.allowed <= 0:
                self.held = message
                return
            self.allowed -= 1
        super().hear(message)

    def go(self) -> None:
        self.allowed = 10_000
        if self.held is not None:
            held, self.held = self.held, None
            super().hear(held)


async def _director(tid: str, relay: Relay, home: Path, table: Path) -> asyncio.subprocess.Process:
    env = {**os.environ, HOME_ENV: str(home), ladder.TABLE_ENV: str(table)}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "tournament", "run", tid, "--server",
        relay.url.removeprefix("ws://"), "--show-up", "60", env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)


async def _until(check: Any, seconds: float = 60.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := check():
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {check}")


def _kill(director: asyncio.subprocess.Process) -> None:
    os.kill(director.pid, signal.SIGKILL)


async def _sit_and_think(events: Tournaments, tid: str, relay: Relay, allowed: int,
                         links: list[RemoteLink]) -> list[Paced]:
    """Both players take their seats of round (or arena table) 1 and play until one of them
    is thinking; their links go into `links` (closed by the test)."""
    seats = [await _until(lambda p=p: events.seat_of(tid, 1, p)) for p in ("p1", "p2")]
    bots = []
    for (code, token, proof_key), name in zip(seats, ("P1", "P2"), strict=True):
        link = RemoteLink(code, name, server=relay.url, token=token, proof_key=proof_key,
                          remember=False)
        bot = Paced(link, allowed=allowed)
        link.set_listener(bot.hear)
        await link.connect()
        links.append(link)
        bots.append(bot)
    await _until(lambda: any(b.held for b in bots))  # mid-game: somebody is thinking
    return bots


async def _taken_over(desk: Desk, tid: str, bots: list[Paced]) -> None:
    """`desk` takes `tid` over and the thinking players play their game to its end (the
    desk's director for `tid` goes on: `desk.running[tid]`)."""
    looking = asyncio.get_running_loop().create_task(desk.run())
    try:
        await _until(lambda: tid in desk.running, 30)
        for bot in bots:
            bot.go()
        await asyncio.wait_for(asyncio.gather(*(b.done.wait() for b in bots)), 120)
    finally:
        looking.cancel()


@pytest.fixture
def table(tmp_path: Path) -> Path:
    return tmp_path / "table.sqlite"


def _cup(table: Path, rounds: int = 2, dup: bool = False) -> Tournaments:
    events = Tournaments(SqliteLadders(table))
    events.create(Event("cup", "schoko", "swiss", rounds=rounds, size=2, starts=time.time(),
                        duplicate=dup))
    for player in ("p1", "p2"):
        events.enter("cup", player, player.upper())
    return events


@pytest.mark.parametrize("dup", [False, True], ids=["swiss", "duplicate"])
async def test_a_game_under_way_goes_on_from_its_record_when_the_desk_takes_over(
        relay: Relay, table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        dup: bool) -> None:
    """In a duplicate round the round seed lived only in the dead director's memory and its
    tables' records: the one that takes over reveals it from a record when the round closes,
    and it matches the commitment published with the pairings."""
    home = tmp_path / "director"
    monkeypatch.setenv(HOME_ENV, str(home))  # the desk's records are the dead director's
    events = _cup(table, dup=dup)
    director = await _director("cup", relay, home, table)
    links: list[RemoteLink] = []
    try:
        bots = await _sit_and_think(events, "cup", relay, 2, links)
        (record,) = record_files.records_dir().glob("*.jsonl")
        head, before, over = record_files.read_record(record)
        assert before and not over
        assert events.directed("cup") is not None
        _kill(director)
        await director.wait()

        desk = Desk(events, relay.url, every=0.1, lease=LEASE)
        assert desk.due(time.time()) == []  # the director said it directs it a moment ago
        await _taken_over(desk, "cup", bots)
        for bot in bots:  # each player's own check of the deal and the moves
            assert bot.result is not None and bot.result["result"]["verified"] is True
        rest = [Entry(events, "cup", p, p.upper(), server=relay.url, wait=60)
                for p in ("p1", "p2")]
        verdicts = await asyncio.wait_for(asyncio.gather(*(e.play_round(2) for e in rest)), 120)
        assert all(v.ok for v in verdicts), verdicts
        await asyncio.wait_for(desk.running["cup"], 60)
    finally:
        if director.returncode is None:
            _kill(director)
        for link in links:
            await link.close()
    # One game at table 1, the one dealt before the crash: the same commitment, the moves made
    # before the crash first, and it ended in the record the resumed host kept writing.
    head_after, after, over = record_files.read_record(record)
    assert over and after[:len(before)] == before and len(after) > len(before)
    first, second = events.tables("cup")
    assert first.places is not None and first.absent == []
    assert first.game == head["net"]["commitment"] == head_after["net"]["commitment"]
    assert second.places is not None
    assert events.event("cup").status == OVER and events.directed("cup") is None
    if dup:
        revealed = events.rounds("cup")[0]
        assert revealed.seed is not None and duplicate.commit(revealed.seed) == \
            revealed.commitment
        assert first.deal_seed == duplicate.deal_seed(revealed.seed, duplicate.label("cup", 1))
        assert head["net"]["duplicate"]["round"] == 1 == head_after["net"]["duplicate"]["round"]
    events.db.close()


async def test_a_desk_stopped_with_ctrl_c_leaves_its_games_to_the_next_one(
        relay: Relay, table: Path) -> None:
    """A desk shut down (its tasks cancelled, as ^C does) stopped directing and closed the
    rooms, which ended the games unfinished; now the rooms stay and the next desk resumes."""
    events = _cup(table, rounds=1)
    first = Desk(events, relay.url, every=0.1, lease=30.0)
    looking = asyncio.get_running_loop().create_task(first.run())
    links: list[RemoteLink] = []
    bots: list[Paced] = []
    try:
        bots = await _sit_and_think(events, "cup", relay, 2, links)
        (record,) = record_files.records_dir().glob("*.jsonl")
        _, before, _ = record_files.read_record(record)
        looking.cancel()
        first.running["cup"].cancel()
        with pytest.raises(asyncio.CancelledError):
            await first.running["cup"]
        assert events.directed("cup") is None  # it stopped: the next desk need not wait
        _, kept, over = record_files.read_record(record)
        assert not over and kept == before
        second = Desk(events, relay.url, every=0.1, lease=30.0)
        await _taken_over(second, "cup", bots)
        await asyncio.wait_for(second.running["cup"], 60)
    finally:
        for link in links:
            await link.close()
    for bot in bots:
        assert bot.result is not None and bot.result["result"]["verified"] is True
    _, after, over = record_files.read_record(record)
    assert over and after[:len(before)] == before
    (row,) = events.tables("cup")
    assert row.places is not None and events.event("cup").status == OVER
    events.db.close()


async def test_a_round_that_dealt_no_card_is_paired_again_and_its_players_follow_their_seats(
        relay: Relay, table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "director"
    monkeypatch.setenv(HOME_ENV, str(home))
    events = _cup(table, rounds=1)
    director = await _director("cup", relay, home, table)
    try:
        old = await _until(lambda: events.seat_of("cup", 1, "p1"))
        await _until(lambda: events.seat_of("cup", 1, "p2"))
        # Only the first player came before the director died: nothing was dealt.
        first = Entry(events, "cup", "p1", "P1", server=relay.url, wait=60)
        playing = asyncio.get_running_loop().create_task(first.play_round(1))
        await asyncio.sleep(1.0)
        _kill(director)
        await director.wait()
    finally:
        if director.returncode is None:
            _kill(director)
    assert not list(record_files.records_dir().glob("*.jsonl"))
    desk = Desk(events, relay.url, every=0.1, lease=LEASE)
    looking = asyncio.get_running_loop().create_task(desk.run())
    second = Entry(events, "cup", "p2", "P2", server=relay.url, wait=60)
    verdicts = await asyncio.wait_for(asyncio.gather(playing, second.play_round(1)), 120)
    assert all(v.ok for v in verdicts), verdicts
    await asyncio.wait_for(desk.running["cup"], 60)
    looking.cancel()
    new = events.seat_of("cup", 1, "p1")
    assert new is not None and new[0] != old[0]  # the table was opened again, elsewhere
    (row,) = events.tables("cup")
    assert row.places is not None and row.absent == []  # both came: nobody forfeits
    assert len(events.rounds("cup")) == 1 and events.event("cup").status == OVER
    events.db.close()


async def test_an_arena_taken_over_counts_the_game_under_way_and_goes_on_to_its_end(
        relay: Relay, table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "director"
    monkeypatch.setenv(HOME_ENV, str(home))
    events = Tournaments(SqliteLadders(table))
    starts = time.time()
    events.create(Event("blitz", "schoko", "arena", rounds=0, size=2, starts=starts,
                        length=20.0))
    for player in ("p1", "p2"):
        events.enter("blitz", player, player.upper())
    director = await _director("blitz", relay, home, table)
    links: list[RemoteLink] = []
    try:
        bots = await _sit_and_think(events, "blitz", relay, 1, links)
        (record,) = record_files.records_dir().glob("*.jsonl")
        head, _, _ = record_files.read_record(record)
        _kill(director)
        await director.wait()
        # Nobody sits down at the arena's later tables: the bot plays them, quickly.
        desk = Desk(events, relay.url, every=0.1, lease=LEASE, director={"show_up": 1.0})
        await _taken_over(desk, "blitz", bots)
        await asyncio.wait_for(desk.running["blitz"], 120)
    finally:
        if director.returncode is None:
            _kill(director)
        for link in links:
            await link.close()
    first = events.tables("blitz", 1)[0]
    assert first.places is not None and first.absent == []
    assert first.game == head["net"]["commitment"]
    assert all(r.finished is not None for r in events.rounds("blitz"))
    rows = {r["player"]: r for r in events.standings("blitz")}
    assert sum(r["games"] for r in rows.values()) == 2 * len(events.tables("blitz"))
    assert rows["p1"]["games"] >= 1 and rows["p2"]["games"] >= 1
    assert events.event("blitz").status == OVER
    events.db.close()


async def test_one_director_at_a_time(table: Path, relay: Relay) -> None:
    events = _cup(table, rounds=1)
    now = time.time()
    assert events.claim("cup", now, 30.0)
    assert not events.claim("cup", now + 10, 30.0)  # its director is alive
    events.set_status("cup", RUNNING)
    desk = Desk(events, relay.url, lease=30.0)
    assert desk.due(now + 10) == []
    with pytest.raises(ValueError, match=r"directed elsewhere; if that director stopped, it "
                                         r"can be taken over in (29|30) s"):
        await Director(events, "cup", relay.url, lease=30.0).run()
    assert [e.id for e in desk.due(now + 31)] == ["cup"]  # silent for its lease: it died
    assert events.claim("cup", now + 31, 30.0)
    events.directing("cup", None)  # stopped cleanly: anyone may take it at once
    assert events.claim("cup", now + 32, 30.0)
    events.db.close()
