"""Open tables: a host lists its room at the relay for anyone to find, the relay shows it over
plain HTTP with a proven identity beside the host's name, keeps it in step with the lobby and
withdraws it when the game starts; bots fill a listed room after the host's wait; one address
cannot bury the list; a hostile relay's list is checked before it is believed; Quick play
picks the room closest to starting."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import msgpack
import pytest
from netsupport import TIMEOUT, Player
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.peer.tables import OpenTable, TablesError, best, open_tables
from net.players import identity, reputation
from net.players.counted import Outcome, SeatOutcome
from net.players.sqlite import SqliteLadders
from net.relay.server import Relay
from net.wire import codes, public
from net.wire.frames import encode


async def hosting(relay: Relay, game: str = "schoene", seats: int = 3, name: str = "Hana",
                  fill_after: float | None = None) -> NetHost:
    host = NetHost(game, seats, relay_url=relay.url, host_name=name, bot_delay=0)
    await host.open()
    host.billboard.set(True, fill_after)
    return host


async def listed(relay: Relay, game: str | None = None, count: int = 1) -> list[OpenTable]:
    """The relay's open tables once `count` rooms are listed."""
    async with asyncio.timeout(TIMEOUT):
        while len(found := await open_tables(relay.url, game)) != count:
            await asyncio.sleep(0.05)
    return found


def content_types(url: str) -> list[str]:
    """The Content-Type headers of an answer (off the loop: the relay runs on it)."""
    with urllib.request.urlopen(url) as answer:
        return answer.headers.get_all("Content-Type")


async def test_a_listed_room_shows_its_game_seats_and_proven_host_and_can_be_joined(
    relay: Relay,
) -> None:
    host = await hosting(relay)
    try:
        (table,) = await listed(relay)
        me = identity.mine()
        assert me is not None
        assert (table.code, table.game, table.seats, table.free) == (host.code, "schoene", 3, 2)
        assert table.host == "Hana" and table.identity == me.fingerprint
        assert table.rating is None and table.bots_in is None
        assert await open_tables(relay.url, "schoko") == []
        page = relay.url.replace("ws:", "http:") + "/tables"
        kinds = await asyncio.to_thread(content_types, page)
        assert kinds == ["application/json; charset=utf-8"]
        # The listed code is a join code like any other: a stranger takes a seat with it.
        pia = Player(RemoteLink(table.code, "Pia", server=relay.url))
        await pia.link.connect()
        async with asyncio.timeout(TIMEOUT):
            while (await open_tables(relay.url))[0].free != 1:
                await asyncio.sleep(0.05)
        local = Player(HostLink(host))
        await local.link.start()
        host.start()  # the game begins: the room is no longer waiting for anyone
        await listed(relay, count=0)
        await pia.done.wait()
        await pia.link.close()
    finally:
        await host.close()
    await listed(relay, count=0)


async def test_a_private_room_is_never_listed_and_a_public_one_can_be_taken_back(
    relay: Relay,
) -> None:
    private = NetHost("schoene", 3, relay_url=relay.url, host_name="Quiet")
    await private.open()
    host = await hosting(relay)
    try:
        (table,) = await listed(relay)
        assert table.host == "Hana"
        host.billboard.set(False)
        await listed(relay, count=0)
    finally:
        await host.close()
        await private.close()


async def test_bots_fill_a_listed_room_after_the_hosts_wait_and_the_game_is_played(
    relay: Relay,
) -> None:
    host = await hosting(relay, fill_after=0.5)
    try:
        (table,) = await listed(relay)
        assert table.bots_in is not None and table.bots_in <= 1
        local = Player(HostLink(host))
        await local.link.start()
        async with asyncio.timeout(TIMEOUT):
            await local.done.wait()
        assert [s.bot for s in host.seats] == [None, "strong", "strong"]
        assert any("bots take the free seats" in m.get("text", "") for m in local.of("notice"))
    finally:
        await host.close()


async def test_one_address_lists_three_rooms_at_most_and_the_fourth_stays_private(
    relay: Relay,
) -> None:
    hosts = [await hosting(relay, name=f"Host{i}") for i in range(4)]
    try:
        await listed(relay, count=3)
        fourth = hosts[3]
        async with asyncio.timeout(TIMEOUT):
            while fourth.billboard.public:
                await asyncio.sleep(0.05)
        assert not fourth.lobby.state()["public"]
        assert {t.host for t in await open_tables(relay.url)} == {"Host0", "Host1", "Host2"}
        # When one listed room closes, the address may list another.
        await hosts[0].close()
        fourth.billboard.set(True)
        assert {t.host for t in await listed(relay, count=3)} == {"Host1", "Host2", "Host3"}
    finally:
        for host in hosts[1:]:
            await host.close()


async def open_raw(relay: Relay) -> tuple[Any, str]:
    code = codes.new_code()
    ws = await connect(relay.url + codes.room_path(code))
    await ws.send(encode("open", seq=1, code=code, host_token=None))
    assert msgpack.unpackb(await ws.recv(), raw=False)["t"] == "opened"
    return ws, code


async def test_a_listing_under_someone_elses_identity_or_with_bad_fields_is_refused(
    relay: Relay,
) -> None:
    me = identity.mine()
    assert me is not None
    ws, code = await open_raw(relay)
    fine = {"game": "schoene", "seats": 3, "free": 2, "secret": "B3CD", "name": "Hana"}
    # A signature made for another room (copied from wherever) proves nothing here.
    stolen = me.list_room(codes.new_code(), "Hana")
    wrong = [
        ({"key": me.public, "sig": stolen}, "'sig' does not list this room"),
        ({"key": me.public, "sig": None}, "'sig' does not list this room"),
        ({"name": "Ha\u0000na"}, "printable"),
        ({"name": ""}, "printable"),
        ({"free": 4}, "'free' 0 to 'seats'"),
        ({"secret": "B3C"}, "last 4 symbols"),
        ({"secret": "b3cd"}, "last 4 symbols"),
        ({"game": "Schöne Sch#!?e"}, "lower-case word"),
        ({"fill_after": 1e9}, "between 0 and"),
    ]
    try:
        for seq, (change, reason) in enumerate(wrong, start=2):
            await ws.send(encode("list", seq=seq, **{**fine, **change}))
            answer = msgpack.unpackb(await ws.recv(), raw=False)
            assert answer["code"] == "bad_field" and reason in answer["message"], change
            assert not answer["fatal"]
        # Bytes that are not UTF-8 where a name goes: refused before anything is read.
        bad = msgpack.packb({"v": 5, "t": "list", "seq": 50, **fine}, use_bin_type=True)
        bad = bad.replace(msgpack.packb("Hana"), b"\xa4H\xffna")
        await ws.send(bad)
        assert msgpack.unpackb(await ws.recv(), raw=False)["code"] == "malformed"
        assert await open_tables(relay.url) == []
        # The holder of the key lists under it.
        signed = {"key": me.public, "sig": me.list_room(code, "Hana")}
        await ws.send(encode("list", seq=60, **fine, **signed))
        (table,) = await listed(relay)
        assert table.identity == public.fingerprint(me.public)
        await ws.send(encode("unlist", seq=61))
        await listed(relay, count=0)
    finally:
        await ws.close()


async def test_a_listing_goes_when_its_host_does(relay: Relay) -> None:
    ws, _code = await open_raw(relay)
    await ws.send(encode("list", seq=2, game="schoene", seats=3, free=2, secret="B3CD",
                         name="Gone"))
    await listed(relay)
    await ws.close()
    await listed(relay, count=0)


def answering(body: bytes, status: int = 200) -> Any:
    def answer(connection: ServerConnection, request: Request) -> Response:
        response = connection.respond(status, "")
        del response.headers["Content-Length"]  # a multidict: setting would add a second
        response.headers["Content-Length"] = str(len(body))
        return Response(response.status_code, response.reason_phrase, response.headers, body)

    return answer


async def test_a_hostile_relays_list_is_checked_before_it_is_believed() -> None:
    good = {"code": "K7QX-9MPA-B3CD", "game": "schoene", "seats": 3, "free": 1, "host": "Ok",
            "identity": None, "rating": None, "finished": 0.9, "waiting": 5, "bots_in": None,
            "min_finished": None}
    rows = [good,
            {**good, "code": "K7QX-9MPA"},  # a room code without its secret
            {**good, "free": 9},  # more free seats than seats
            {**good, "seats": "3"},
            {**good, "finished": 7},
            {**good, "host": ["a"]},
            "not a row", None]
    cases = [
        (json.dumps({"tables": rows}).encode(), 200, None),
        (b"\xff\xfe not json", 200, "no list of open tables"),
        (json.dumps({"tables": {"a": 1}}).encode(), 200, "no list of open tables"),
        (b"x" * (2 * 1024 * 1024), 200, "no list of open tables"),
        (b"", 404, "answered 404"),
    ]
    for body, status, error in cases:
        async with serve(lambda ws: ws.close(), "127.0.0.1", 0,
                         process_request=answering(body, status)) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            url = f"ws://127.0.0.1:{port}"
            if error is None:
                (only,) = await open_tables(url)
                assert only.code == "K7QX9MPAB3CD" and only.finished == 0.9
            else:
                with pytest.raises(TablesError, match=error):
                    await open_tables(url)
    with pytest.raises(TablesError, match="cannot reach the relay"):
        await open_tables("ws://127.0.0.1:1")


def test_quick_play_takes_the_room_closest_to_starting_that_will_have_the_player() -> None:
    def room(code: str, free: int, waiting: int, game: str = "schoene",
             min_finished: float | None = None) -> OpenTable:
        return OpenTable(code, game, 4, free, "h", None, None, None, waiting, None,
                         min_finished)

    tables = [room("A", 3, 100), room("B", 1, 10), room("C", 1, 50), room("D", 0, 500),
              room("E", 1, 900, "schoko"), room("F", 1, 800, min_finished=0.9)]
    assert best(tables, "schoene").code == "F"  # nobody's record holds against a newcomer
    assert best(tables, "schoene", finished=0.5).code == "C"  # F asks more than 0.5
    assert best(tables, "schoko", finished=0.5).code == "E"
    assert best(tables, "zwergenamulett") is None


async def test_the_tables_command_lists_them_for_people_and_scripts(relay: Relay) -> None:
    host = await hosting(relay, fill_after=600)
    try:
        await listed(relay)
        env = {**os.environ, "TABLETOP_TUI_SERVER": relay.url}

        def run(*args: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "tui.cli", "tables", *args],
                                  capture_output=True, text=True, env=env, timeout=60)

        people, scripts, none = await asyncio.gather(
            asyncio.to_thread(run), asyncio.to_thread(run, "--json"),
            asyncio.to_thread(run, "schoko"))
        assert host.display_code in people.stdout and "2/3 free  Hana" in people.stdout
        assert "bots in" in people.stdout
        row = json.loads(scripts.stdout)
        assert row["code"] == host.code and row["free"] == 2
        assert none.stdout.strip() == "no open tables of schoko"
        gone = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "tui.cli", "tables", "--server",
                             "127.0.0.1:1"], capture_output=True, text=True, timeout=60)
        assert gone.returncode == 2 and "cannot reach the relay" in gone.stderr  # README's
        missing = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-m", "tui.cli", "replay", "/no/such/file"],
            capture_output=True, text=True, timeout=60)
        assert missing.returncode == 2
        assert missing.stderr == "tabletop-tui: cannot read /no/such/file: No such file or " \
                                 "directory\n"
    finally:
        await host.close()


async def test_a_table_with_a_ladder_shows_the_hosts_rating_and_finished_share(
    tmp_path: Path,
) -> None:
    """The word beside a host's name comes from the table's own ladder, for the proven key
    only; the relay asks the store once a minute per player, whoever refreshes the list."""
    me = identity.mine()
    assert me is not None
    store = SqliteLadders(tmp_path / "ladder.sqlite")
    try:
        for n, left in enumerate((False, False, False, True)):  # one game of four left early
            seats = (SeatOutcome(me.fingerprint, "Hana", 1 + left, left),
                     SeatOutcome("bot:strong", "bot:strong", 2 - left, False))
            store.add_game(Outcome(f"game{n}", "schoene", float(n), seats))
        expected = {"rating": store.summary(me.fingerprint)[0].skill.rating, "finished": 0.75}
    finally:
        store.close()
    asked: list[str] = []
    word = reputation.TableWord(tmp_path / "ladder.sqlite")
    relay = Relay(reputation=lambda ident, game: asked.append(ident) or word(ident, game))
    await relay.start("127.0.0.1", 0)
    host = await hosting(relay)
    try:
        (table,) = await listed(relay)
        assert (table.rating, table.finished) == (expected["rating"], expected["finished"])
        (other,) = await open_tables(relay.url, "schoene")
        assert other.rating == table.rating and len(asked) == 2
        assert len(word.kept) == 1  # the second look was answered from what was kept
        assert word(me.fingerprint, "schoko") == {"rating": None, "finished": 0.75}
    finally:
        await host.close()
        await relay.stop()
