"""Ratings from verified games only: real records (a local game, networked games over a relay
on 127.0.0.1) are counted into the ladder; a record altered by one move, a forged identity, a
practice deal are not; one game counts once however many records of it arrive, also from
several processes or connections at once; a player who left counts last; older stores
migrate. The store's tests run against both backends: SQLite's file and a real PostgreSQL
server's database (the `store_at` fixture)."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncssh
import psycopg
import pytest
from netsupport import TIMEOUT, Player, local_game
from ssh_support import OpenTable, code_on, connect
from test_ssh_play import play_by_taking

from engines import get_engine
from net import records
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.players import identity, ladder, ratings
from net.players.counted import Outcome, SeatOutcome
from net.players.postgres import PostgresLadders
from net.players.sql import MIGRATIONS, VERSION
from net.players.store import Change, SeatRow, StoreError
from net.relay.server import Relay
from net.table.clocks import per_move
from net.table.session import HostSession, SeatInfo
from tui import cli


def someone() -> identity.Identity:
    return identity.Identity(identity.Ed25519PrivateKey.generate())


def local_record(seed: int, me: identity.Identity | None = None, *, drawn: bool = True,
                 bots: tuple[str, ...] = ("strong", "random")) -> Path:
    """A local Schöne game as the app plays it (one person at the keys, proven; the record
    written as it goes), the person choosing at random."""
    me = me or identity.mine()
    assert me is not None
    return local_game("schoene", seed, me, drawn=drawn, bots=bots)


def counted(path: Path) -> ladder.Counted:
    store = ladder.open_store()
    try:
        return ladder.count(store, path)
    finally:
        store.close()


def refused(path: Path) -> str:
    found = counted(path)
    assert found.refused is not None and not found.changes
    return found.refused.code


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# -- local games --------------------------------------------------------------------------------
def test_a_local_game_moves_everybodys_rating_by_their_places(store_at: str) -> None:
    path = local_record(7)
    result = records.load(path).result
    assert result is not None
    places = get_engine("schoene").places(result)
    changes = counted(path).changes
    me = identity.mine()
    assert me is not None
    assert [c.ident for c in changes] == [me.fingerprint, "bot:strong", "bot:random"]
    assert [c.place for c in changes] == places
    for change in changes:  # a winner gains, the last loses
        if change.place == 1:
            assert change.after.mu > change.before.mu
        if change.place == max(places):
            assert change.after.mu < change.before.mu
    store = ladder.open_store()
    try:
        assert {s.ident for s in store.ladder("schoene")} == {c.ident for c in changes}
        mine, total = store.standing("schoene", me.fingerprint) or (None, 0)
        assert mine is not None and mine.games == 1 and total == 3
    finally:
        store.close()


def test_lower_points_win_schoene_so_its_places_turn_the_scores_around() -> None:
    eng = get_engine("schoene")
    result = {"scores": [30, 12, 12, 40], "winners": [1, 2]}
    assert eng.places(result) == [3, 1, 1, 4]
    chez = get_engine("chez_geek")  # each goal its own: 18 of 19 beats 20 of 23
    assert chez.places({"scores": [18, 20, 15], "winners": [2], "goals": [19, 23, 15]}) == [
        2, 3, 1]


def test_a_record_altered_by_one_move_is_not_rated() -> None:
    path = local_record(3)
    text = lines(path)
    head = json.loads(text[0])
    session = HostSession("schoene", [SeatInfo(p["name"], p.get("bot")) for p in head["players"]],
                          head["seed"])
    for number, line in enumerate(text[1:], 1):  # the person's first move, made otherwise
        seat, move = json.loads(line)
        if seat == 0:
            other = next(m for m in session.engine.legal_moves(session.state, 0) if m != move)
            text[number] = json.dumps([0, other])
            break
        session.submit(seat, move)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert refused(path) in ("damaged", "result")


def test_a_record_whose_end_claims_another_result_is_not_rated() -> None:
    path = local_record(4)
    text = lines(path)
    end = json.loads(text[-1])
    end["result"]["winners"] = [2]
    text[-1] = json.dumps(end)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert refused(path) == "result"


def test_a_forged_identity_is_not_rated() -> None:
    path = local_record(5)
    text = lines(path)
    head = json.loads(text[0])
    victim = someone()  # a strong player whose name the writer wants on this win
    head["players"][0].update(ident=victim.fingerprint, key=victim.public.hex())
    text[0] = json.dumps(head)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert refused(path) == "unproven"
    stolen = local_record(6, me=victim)  # a proof from another game, copied over
    head["players"][0]["sig"] = json.loads(lines(stolen)[0])["players"][0]["sig"]
    text[0] = json.dumps(head)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert refused(path) == "unproven"


def test_practice_deals_hot_seats_and_bots_alone_are_not_rated() -> None:
    assert refused(local_record(8, drawn=False)) == "practice"
    session = HostSession("schoene", [SeatInfo("Ada"), SeatInfo("Bo"), SeatInfo("C", "strong")],
                          9)
    recorder = records.LocalRecorder(session, [0, 1], fixed_seed=False)  # a shared keyboard
    rng = random.Random(1)
    while not session.over:
        seat = session.engine.to_act(session.state)[0]
        session.submit(seat, rng.choice(session.engine.legal_moves(session.state, seat)))
    assert recorder.path is not None
    assert refused(recorder.path) == "unproven"
    bots = HostSession("schoene", [SeatInfo(f"B{i}", "random") for i in range(3)], 2)
    recorder = records.LocalRecorder(bots, [], fixed_seed=False)
    bots.run_bots()
    assert recorder.path is not None
    assert refused(recorder.path) == "bots"


def test_an_unfinished_game_counts_once_it_is_finished(store_at: str) -> None:
    path = local_record(10)
    text = lines(path)
    path.write_text("\n".join(text[:-5]) + "\n", encoding="utf-8")  # as it was mid-game
    store = ladder.open_store()
    try:
        assert ladder.catch_up(store) == 0
        assert store.ladder("schoene") == []
        path.write_text("\n".join(text) + "\n", encoding="utf-8")  # resumed and finished
        assert ladder.catch_up(store) == 1
        assert len(store.ladder("schoene")) == 3
        assert ladder.catch_up(store) == 0  # looked at once
    finally:
        store.close()


# -- networked games ----------------------------------------------------------------------------
async def open_room(relay: Relay, names: tuple[str, ...] = ("Pia", "Per"), *,
                    fixed: bool = False, player: type[Player] = Player,
                    **kwargs: object) -> tuple[NetHost, Player, list[Player]]:
    """A host (seat 0, this data directory's identity) and one peer per name, each peer with
    an identity of its own (as on their own machines), at a table of three."""
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana",
                   bot_delay=0, seed=4 if fixed else None, **kwargs)  # type: ignore[arg-type]
    code = await host.open()
    link = HostLink(host)
    me = Player(link, seed=1)
    await link.start()
    peers = []
    for i, name in enumerate(names):
        remote = RemoteLink(code, name, server=relay.url)
        remote.deal.identity = someone()
        peers.append(player(remote, seed=10 + i))
        await remote.connect()
    return host, me, peers


async def play_out(host: NetHost, *players: Player) -> None:
    try:
        host.start()
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(*(p.done.wait() for p in players))
    finally:
        for p in players:
            if isinstance(p.link, RemoteLink):
                await p.link.close()
        await host.close()


async def test_a_networked_game_counts_once_from_the_host_and_every_peer(relay: Relay,
                                                                       store_at: str) -> None:
    host, me, peers = await open_room(relay)
    await play_out(host, me, *peers)
    paths = [host.record_path, *(p.link.record_path for p in peers)]  # type: ignore[attr-defined]
    assert all(paths) and len(set(paths)) == 3
    store = ladder.open_store()
    try:
        assert ladder.catch_up(store) == 3  # three records, each of the same game
        assert [s.games for s in store.ladder("schoene")] == [1, 1, 1]  # counted once
    finally:
        store.close()
    found = [counted(path) for path in paths]  # type: ignore[arg-type]
    assert all(f.refused is None for f in found), [f.refused for f in found]
    assert found[0].changes == found[1].changes == found[2].changes
    mine = identity.mine()
    assert mine is not None
    guests = [p.link.deal.identity.fingerprint for p in peers]  # type: ignore[attr-defined]
    assert [c.ident for c in found[0].changes] == [mine.fingerprint, *guests]


async def test_a_practice_deal_over_the_network_is_not_rated(relay: Relay) -> None:
    host, me, peers = await open_room(relay, fixed=True)
    await play_out(host, me, *peers)
    assert refused(host.record_path) == "practice"  # type: ignore[arg-type]
    assert refused(peers[0].link.record_path) == "practice"  # type: ignore[attr-defined]


async def test_a_host_that_forges_a_seat_gets_no_rating_from_any_record(relay: Relay) -> None:
    from test_identity import Impostor

    host, me, peers = await open_room(relay)
    host.dealer = Impostor(host)
    await play_out(host, me, *peers)
    for path in (host.record_path, peers[0].link.record_path):  # type: ignore[attr-defined]
        assert refused(path) == "unproven"


async def test_a_host_record_whose_seed_does_not_follow_is_not_rated(relay: Relay) -> None:
    host, me, peers = await open_room(relay, ("Pia",))
    await play_out(host, me, *peers)
    path = host.record_path
    assert path is not None
    text = lines(path)
    head = json.loads(text[0])
    head["net"]["contributions"] = []  # the guest's part left out after the fact
    text[0] = json.dumps(head)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert refused(path) == "unverified"


class Quitter(Player):
    """A guest who walks away from the table after a few moves."""

    async def _move(self, message: dict[str, object]) -> None:
        if self.moved >= 2:
            await self.link.close()
            return
        await super()._move(message)  # type: ignore[arg-type]


async def test_a_guest_who_left_counts_last_with_a_penalty(relay: Relay) -> None:
    host, me, (pia,) = await open_room(relay, ("Pia",))
    quitter = Quitter(RemoteLink(host.code, "Per", server=relay.url), seed=3)
    quitter.link.deal.identity = someone()  # type: ignore[attr-defined]
    await quitter.link.connect()  # type: ignore[attr-defined]
    host.lobby.set_takeover(0)  # a bot plays for whoever leaves, at once
    await play_out(host, me, pia)
    assert host.dealer.left == [2]
    end = lines(host.record_path)[-1]  # type: ignore[arg-type]
    assert json.loads(end)["left"] == [2]
    pia_path = pia.link.record_path  # type: ignore[attr-defined]
    assert json.loads(lines(pia_path)[-1])["left"] == [2]  # the reveal told the guests
    changes = counted(pia_path).changes
    assert changes == counted(host.record_path).changes  # type: ignore[arg-type]
    gone = changes[2]
    assert gone.left and gone.place == 3
    assert gone.ident == quitter.link.deal.identity.fingerprint  # type: ignore[attr-defined]
    # Last, and a little more: below what last place alone would have cost (against two
    # players new to the ladder, whose results weigh nothing yet, only the penalty is left).
    others = [c.place for c in changes[:2]]
    alone = ratings.rate([c.before for c in changes], [*others, max(others) + 1], [False] * 3)
    share = ratings.weight([(0, False, 0), (0, False, 0)])
    expected = ratings.damped(gone.before, replace(alone[2], mu=alone[2].mu), share, False)
    assert gone.after.mu == pytest.approx(expected.mu - ratings.LEFT_PENALTY)


async def test_a_host_that_says_its_guests_left_is_refused_by_each_of_them(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A modified host names both guests in the reveal's `left` although they played to the
    end: each of them says the deal was NOT verified, and why, and its own record counts for
    nobody (least of all against its own player)."""
    from net.host import play
    from net.table.fairness import REASONS

    monkeypatch.setattr(play, "left_seats", lambda dealt, seats: [
        i for i, (p, s) in enumerate(zip(dealt, seats, strict=True))
        if not p.get("bot") and not s.local])
    host, me, peers = await open_room(relay)
    await play_out(host, me, *peers)
    assert host.dealer.left == [1, 2]  # the lie
    for peer in peers:
        result = peer.result
        assert result is not None and not result["verified"]
        assert result["verify_code"] == "left_me"
        assert result["verify_note"] == REASONS["left_me"]
        path = peer.link.record_path  # type: ignore[attr-defined]
        end = json.loads(lines(path)[-1])
        assert end["left"] == [1, 2] and end["away"] is False and not end["verified"]
        assert refused(path) == "unverified"


async def test_a_peers_record_makes_its_own_player_a_leaver_only_on_its_own_word(
    relay: Relay,
) -> None:
    """A peer's record whose `left` names the peer's own seat counts only when the peer itself
    wrote that it was away at the end: never on the host's word alone."""
    host, me, (pia,) = await open_room(relay, ("Pia",))
    await play_out(host, me, pia)
    path = pia.link.record_path  # type: ignore[attr-defined]
    text = lines(path)
    end = json.loads(text[-1])
    assert end["away"] is False and end["left"] == []
    for away, found in ((False, "left_self"), (True, None)):
        text[-1] = json.dumps({**end, "left": [1], "away": away})
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        if found is not None:
            assert refused(path) == found
        else:
            changes = counted(path).changes
            assert changes[1].left and changes[1].place == 3


async def test_a_guest_back_after_the_end_keeps_the_hosts_word_that_it_left(
    relay: Relay,
) -> None:
    """Per walks away, a bot plays his seat to the end, and he comes back afterwards: he
    learns the end from a sync, so he takes the host's `left` (the deal verified), and his
    own record says he was away and counts him last."""
    host, me, (pia,) = await open_room(relay, ("Pia",))
    quitter = Quitter(RemoteLink(host.code, "Per", server=relay.url), seed=3)
    quitter.link.deal.identity = someone()  # type: ignore[attr-defined]
    await quitter.link.connect()  # type: ignore[attr-defined]
    host.lobby.set_takeover(0)
    per: Player | None = None
    try:
        host.start()
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(me.done.wait(), pia.done.wait())
        assert host.dealer.left == [2]
        per = Player(RemoteLink(host.code, "Per", server=relay.url), seed=4)  # his next app
        await per.link.connect()  # type: ignore[attr-defined]
        async with asyncio.timeout(TIMEOUT):
            await per.done.wait()
        assert per.result is not None and per.result["verify_code"] == "verified"
        path = per.link.record_path  # type: ignore[attr-defined]
        end = json.loads(lines(path)[-1])
        assert end["left"] == [2] and end["away"] is True
        assert counted(path).changes[2].left
    finally:
        for guest in (pia, per):
            if guest is not None:
                await guest.link.close()  # type: ignore[attr-defined]
        await host.close()


def test_a_left_seat_must_be_a_persons() -> None:
    path = local_record(11)
    text = lines(path)
    end = json.loads(text[-1])
    end["left"] = [1]  # a bot's seat
    text[-1] = json.dumps(end)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert refused(path) == "left"


# -- the store ----------------------------------------------------------------------------------
def outcome_of(key: str, idents: tuple[str, ...]) -> Outcome:
    return Outcome(key, "schoene", 0.0,
                   tuple(SeatOutcome(i, i, place, False) for place, i in enumerate(idents, 1)))


# One process of a table's sessions: adds its games (as a session would, one by one).
WRITER = """
import sys
from pathlib import Path
from typing import Any
from net.players import ladder
from net.players.counted import Outcome, SeatOutcome
store = ladder.open_store(sys.argv[1])
for key in sys.argv[2:]:
    idents = (f"id:{key}-0", f"id:{key}-1", "id:everyone")
    store.add_game(Outcome(key, "schoene", 0.0, tuple(
        SeatOutcome(ident, ident, place, False) for place, ident in enumerate(idents, 1))))
store.close()
"""


def test_writers_in_several_processes_count_each_game_once(store_at: str) -> None:
    shared = [f"s{n}" for n in range(8)]  # every process has these records too
    jobs = [shared[w:] + shared[:w] + [f"w{w}-{n}" for n in range(4)] for w in range(4)]
    root = str(Path(__file__).resolve().parents[2])
    workers = [subprocess.Popen([sys.executable, "-c", WRITER, store_at, *keys], cwd=root)
               for keys in jobs]
    assert [worker.wait(60) for worker in workers] == [0] * len(workers)
    store = ladder.open_store(store_at)
    try:
        games = 8 + 4 * 4
        everyone = store.standing("schoene", "id:everyone")
        assert everyone is not None and everyone[0].games == games
        assert store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == games
        assert store.db.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == 3 * games
        # Each game started from the ratings the one before left: the chain is unbroken.
        history = store.history("id:everyone", "schoene")
        befores = store.db.execute(
            "SELECT s.mu_before FROM seats s JOIN games g ON g.key = s.game "
            "WHERE s.ident = 'id:everyone' ORDER BY g.seq").fetchall()
        assert [b for (b,) in befores[1:]] == [p.after.mu for p in history[:-1]]
    finally:
        store.close()


def test_two_writers_recording_the_same_games_at_once_count_each_once(store_at: str) -> None:
    games = [outcome_of(f"g{n}", ("id:A", "id:B", f"id:{n}")) for n in range(12)]
    start = threading.Barrier(2)
    found: list[list[list[Change]]] = [[], []]
    errors: list[BaseException] = []

    def writer(me: int) -> None:  # its own connection, as another node's session has
        try:
            start.wait(TIMEOUT)  # both open (and migrate) the new store at once, too
            store = ladder.open_store(store_at)
            try:
                for game in games:
                    start.wait(TIMEOUT)
                    found[me].append(store.add_game(game))
            finally:
                store.close()
        except BaseException as exc:
            errors.append(exc)
            start.abort()

    threads = [threading.Thread(target=writer, args=(me,)) for me in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 3)
    assert errors == []
    assert found[0] == found[1] and len(found[0]) == len(games)
    store = ladder.open_store(store_at)
    try:
        line = store.standing("schoene", "id:A")
        assert line is not None and line[0].games == len(games)
        assert [p.key for p in store.history("id:B", "schoene")] == [g.key for g in games]
    finally:
        store.close()


def plain_connection(where: str) -> Any:
    """A connection to the store at `where` without tabletop-tui (autocommitting)."""
    if ladder.is_database(where):
        return psycopg.connect(where, autocommit=True)
    return sqlite3.connect(where, isolation_level=None)


def test_an_older_store_is_migrated_when_opened_and_a_newer_one_refused(store_at: str) -> None:
    old = plain_connection(store_at)  # a store as version 1 of the schema left it
    old.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, "
                "applied DOUBLE PRECISION NOT NULL)")
    for statement in MIGRATIONS[0]:
        old.execute(statement)
    old.execute("INSERT INTO migrations VALUES (1, 0)")
    old.execute("INSERT INTO players VALUES ('id:A', 'Ada', 0)")
    old.execute("INSERT INTO ratings VALUES ('schoene', 'id:A', 27.5, 8.0, 1)")
    old.close()
    store = ladder.open_store(store_at)
    try:
        assert store.version() == VERSION > 1
        assert [(s.ident, s.skill.mu) for s in store.ladder("schoene")] == [("id:A", 27.5)]
        store.note("a record", "1:2", "counted")  # what version 2 added
        assert store.seen("a record", "1:2") and not store.seen("a record", "1:3")
        seat = SeatRow("Ada", "token", None, "ab", None)  # and version 3
        store.keep_seat("key-a", "room", seat)
        assert store.seat("key-a", "room") == seat
        store.keep_settings("key-a", '{"theme": "night"}')  # and version 4
        assert store.settings("key-a") == '{"theme": "night"}' and store.settings("b") is None
        store.db.execute(f"INSERT INTO migrations VALUES ({VERSION + 1}, 0)")
    finally:
        store.close()
    with pytest.raises(StoreError, match="newer tabletop-tui"):
        ladder.open_store(store_at)


def test_a_bot_level_in_several_seats_moves_once_per_game(store_at: str) -> None:
    store = ladder.open_store(store_at)
    try:
        store.add_game(outcome_of("g", ("id:A", "bot:strong", "bot:strong")))
        line = store.standing("schoene", "bot:strong")
        assert line is not None and line[0].games == 1
        changes = store.changes("g")
        assert changes[1].after == changes[2].after
        assert changes[1].before == ratings.Skill()
        # One game, one line, wherever the bot is counted: its best seat.
        (bot,) = store.summary("bot:strong")
        assert (bot.games, bot.wins, bot.mean_place, bot.finished) == (1, 0, 2.0, 1)
        assert len(store.history("bot:strong", "schoene")) == 1
        (met,) = store.opponents("id:A", "schoene")
        assert (met.ident, met.games, met.ahead) == ("bot:strong", 1, 1)
    finally:
        store.close()


# -- the players command ------------------------------------------------------------------------
def test_the_players_command_prints_the_ladder_and_json(capsys: pytest.CaptureFixture[str],
                                                        store_at: str) -> None:
    local_record(12)  # not counted yet: the command counts it first
    cli.main(["players"])
    out = capsys.readouterr().out
    me = identity.mine()
    assert me is not None
    assert "Schöne" in out and me.fingerprint in out and "Ada" in out and "bot:strong" in out
    cli.main(["players", "schoene", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["schoene"]
    assert {row["ident"] for row in data["schoene"]} == {me.fingerprint, "bot:strong",
                                                         "bot:random"}
    assert [row["place"] for row in data["schoene"]] == [1, 2, 3]
    assert all(set(row) >= {"ident", "name", "rating", "games", "mu", "sigma", "shown",
                            "provisional"} for row in data["schoene"])
    for row in data["schoene"]:  # the raw fields stay; the shown one is their display scale
        assert row["shown"] == round(1500 + 100 * (row["mu"] - 3 * row["sigma"]))
        assert row["provisional"] is not row["ident"].startswith("bot:")  # one game: a person
        line = next(line for line in out.splitlines() if row["ident"] in line)
        assert f" {row['shown']}{'?' if row['provisional'] else ''} " in line
    assert "each bot level is one entry" in out
    cli.main(["players", "chez_geek"])
    assert "no rated games yet" in capsys.readouterr().out


def test_players_and_serve_read_a_database_url_and_say_in_one_line_what_is_wrong(
    postgres: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = postgres.database()
    store = ladder.open_store(url)
    try:
        store.add_game(outcome_of("g", ("id:Ada", "id:Bo")))
    finally:
        store.close()
    local_record(13)  # the operator's own game: not the table's, so not counted into it
    cli.main(["players", "schoene", "--db", url])
    out = capsys.readouterr().out
    assert "id:Ada" in out and "bot:strong" not in out
    closed = f"postgresql://ada:secret@127.0.0.1:{postgres.port + 1}/none"  # nobody listens
    wrong = [(["players", "--db", closed], "cannot read the ladder: cannot reach the database "
              "postgresql://ada:***@127.0.0.1"),
             (["players", "--db", "ladder.sqlite"], "expected a PostgreSQL URL"),
             (["serve", "--db", url], "--db needs --ssh PORT"),
             (["serve", "--ssh", "0", "--db", closed], "cannot reach the database")]
    for argv, said in wrong:
        with pytest.raises(SystemExit) as stop:
            cli.main(argv)
        err = capsys.readouterr().err
        assert stop.value.code == 2 and said in err and err.count("\n") == 1, err
        assert "secret" not in err and "Traceback" not in err
    # A table's machine: the URL checked, then named to every session the SSH server starts.
    monkeypatch.setenv(ladder.TABLE_ENV, "")  # undone after the test, whatever serve sets
    monkeypatch.setenv(ladder.DB_ENV, url)
    args = cli.build_parser().parse_args(["serve", "--ssh", "0"])
    cli._table_database(args)
    assert ladder.store_location() == url
    store = ladder.open_store()
    try:
        assert isinstance(store, PostgresLadders) and store.name("id:Ada") == "id:Ada"
    finally:
        store.close()


async def test_the_games_of_an_ssh_tables_players_count_into_the_tables_store(
    open_table: OpenTable, relay: Relay, store_at: str,
) -> None:
    """Two players with keys host and join a game over SSH (with a bot): their sessions count
    it into the table's one store, the SQLite file or the database the table was given."""
    table = await open_table()
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ada", "bob")}
    ada = await connect(table.port, "ada", key=keys["ada"])
    bob = None
    try:
        await ada.wait_for("Host a game", "the menu")
        ada.press("down", "enter")
        await ada.wait_for(relay.url, "the host form")
        ada.press("f5")
        code = await ada.wait_for(lambda: code_on(ada), "the join code")
        ada.press("tab", "enter")  # + Bot in the first empty seat
        await ada.wait_for("Bot 2", "a bot in seat 2")
        bob = await connect(table.port, "bob", key=keys["bob"], command=f"join {code}")
        await ada.wait_for("bob", "bob in the host's lobby")
        ada.press("f5")
        await play_by_taking([ada, bob])
        for player in (ada, bob):
            await player.wait_for(lambda p=player: "rating " in p.text(), "the rating changes")
    finally:
        for player in (ada, bob):
            if player is not None:
                await player.close()
    store = ladder.open_store(store_at)
    try:
        names = sorted(s.name for s in store.ladder("schoene"))
        assert names == ["Bot 2", "ada", "bob"] and all(
            s.games == 1 for s in store.ladder("schoene"))
    finally:
        store.close()


def test_an_ssh_table_gives_its_sessions_its_own_ladder(private_dirs: Path) -> None:
    from net.ssh.access import Visitor
    from net.ssh.limits import SshLimits
    from net.ssh.server import SshConfig, SshTable

    table = SshTable(SshConfig(port=0, limits=SshLimits()), "ws://127.0.0.1:1")  # not started
    env = table.child_env(Visitor(addr="127.0.0.1", username="ada"), "xterm", {})
    assert env[ladder.TABLE_ENV] == str(private_dirs / "home" / ladder.STORE_FILE)
    assert env["TABLETOP_TUI_HOME"] != str(private_dirs / "home")  # the player's own records



async def test_a_guest_at_the_screen_sees_the_rating_change_once_the_record_is_saved(
    relay: Relay,
) -> None:
    """Pia joins a Scho K.O. table with the app (this data directory's identity) against the
    host's bot; the host plays no seat. She never touches a key: the turn timer's bot moves
    for her, to the end."""
    from textual.widgets import Static

    from tui.app import TabletopApp
    from tui.screens.join import JoinScreen
    from tui.screens.ratings import rating_of
    from tui.screens.results import ResultsScreen

    host = NetHost("schoko", 2, relay_url=relay.url, bot_delay=0, level="random")
    await host.open()
    host.set_clock(per_move(0.01))
    app = TabletopApp(lang="en", opening=lambda: JoinScreen(host.display_code, "Pia", relay.url,
                                                            auto=True))
    try:
        async with app.run_test(size=(100, 34)) as pilot:
            await until(pilot, lambda: host.seat_list()[0]["kind"] == "person")
            host.start()
            results = await until(
                pilot, lambda: isinstance(app.screen, ResultsScreen) and app.screen)
            await until(pilot, lambda: results.rated is not None)
            assert results.record_path is not None
            assert results.rated.refused is None, results.rated.refused
            mine = identity.mine()
            assert mine is not None
            pia = next(c for c in results.rated.changes if c.ident == mine.fingerprint)
            row = results.query_one(f"#rating-{pia.seat}", Static)
            shown = rating_of(pia.after.rating, 1, pia.ident)  # her first game: provisional
            assert shown.endswith("?") and not shown.startswith("-")
            assert row.has_class("-rated") and f"rating {shown}" in str(row.render())
    finally:
        await host.close()


async def until(pilot: Any, check: Any) -> Any:
    for _ in range(2000):
        await pilot.pause(0.01)
        if found := check():
            return found
    raise AssertionError(f"gave up waiting; the screen is {pilot.app.screen}")


def opened_at_once(where: Path, count: int) -> list[BaseException]:
    """What went wrong when `count` sessions opened the store at `where` at the same moment."""
    start = threading.Barrier(count)
    errors: list[BaseException] = []

    def opener() -> None:
        try:
            start.wait(TIMEOUT)
            ladder.open_store(str(where)).close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 3)
    return errors


def test_many_sessions_opening_a_new_ladder_file_at_once_all_get_it(tmp_path: Path) -> None:
    """A fresh table's first players open its new file together: switching it to WAL mode
    does not wait for a busy file by itself, and none of them may be refused."""
    for trial in range(10):
        assert opened_at_once(tmp_path / f"ladder-{trial}.sqlite", 6) == []
