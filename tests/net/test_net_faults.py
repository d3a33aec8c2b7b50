"""Things going wrong at a networked table: dropped peers, silent players, crashed hosts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from netsupport import Player
from test_net_game import finish, open_table

from net import records
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.deal import DealCheck
from net.peer.remote import RemoteLink
from net.records import store
from net.relay.server import Relay
from net.table.clocks import per_move
from net.table.link import Message


def table(message: Message) -> bool:
    return message["type"] in ("sync", "update")


def to_act(seat: int) -> Any:
    return lambda m: table(m) and m["result"] is None and seat in m["view"]["to_act"]


async def close_all(host: NetHost, *players: Player) -> None:
    await asyncio.gather(*(p.link.close() for p in players))
    await host.close()


async def test_a_dropped_peer_gets_its_seat_back_with_a_fresh_sync(relay: Relay) -> None:
    host, me, (pia, per) = await open_table(relay, seed=3)
    try:
        pia.play = False
        host.start()
        await pia.wait_for(to_act(1))
        heard = len(pia.messages)
        pia.play = True
        assert isinstance(pia.link, RemoteLink)
        await pia.link.drop()
        await me.wait_for(lambda m: m["type"] == "presence" and not m["players"][1]["connected"])
        sync = await pia.wait_for(lambda m: m["type"] == "sync" and m is not None
                                  and pia.messages.index(m) >= heard)
        assert sync["seat"] == 1 and pia.link.seats == [1]
        assert any(m["type"] == "connection" and m["state"] == "reconnecting"
                   for m in pia.messages[heard:])
        await finish(me, pia, per)
        assert pia.result is not None and pia.result["verified"]
        assert pia.result["scores"] == host.session.result()["scores"]
    finally:
        await close_all(host, pia, per)


async def test_a_player_who_lost_the_token_rejoins_with_code_and_name(relay: Relay) -> None:
    host, me, (pia, per) = await open_table(relay, seed=4)
    # The host's terminal says yes to the reclaim (a TUI host asks its person; see
    # test_net_security for a no and for headless hosts).
    host.attended = True
    host.add_listener(lambda m: host.answer_reclaim(m["cid"], True)
                      if m["type"] == "reclaim" else None)
    try:
        pia.play = False
        host.start()
        await pia.wait_for(to_act(1))
        await pia.link.close()
        await me.wait_for(lambda m: m["type"] == "presence" and not m["players"][1]["connected"])
        again = Player(RemoteLink(host.code, "PIA", server=relay.url, remember=False), seed=8)
        await again.link.connect()
        sync = await again.wait_for(table)
        assert sync["type"] == "sync" and sync["seat"] == 1 and again.link.seats == [1]
        assert sync["log"] == host.session.log
        # Anyone could know a name: the old token is not handed out (a new one is; the old
        # one still works for its owner), and everyone is told.
        assert isinstance(pia.link, RemoteLink) and again.link.token != pia.link.token
        assert host.seats[1].holds(pia.link.token) and host.seats[1].holds(again.link.token)
        await me.wait_for(lambda m: m["type"] == "notice" and "by name" in m["text"])
        await finish(me, again, per)
    finally:
        await close_all(host, pia, per)


async def test_a_bot_takes_over_a_seat_whose_player_does_not_come_back(relay: Relay) -> None:
    host, me, (pia, per) = await open_table(relay, seed=6, takeover=0.05)
    try:
        pia.play = False
        host.start()
        await pia.wait_for(to_act(1))
        await pia.link.close()
        await finish(me, per)
        notices = [m["text"] for m in me.of("notice")]
        assert any("Pia did not come back" in text for text in notices)
        assert host.session is not None and host.session.over
    finally:
        await close_all(host, pia, per)


async def test_when_a_clock_runs_out_the_strong_bot_moves_and_every_table_shows_it(
    relay: Relay,
) -> None:
    host, me, (pia, per) = await open_table(relay, seed=2, clock=per_move(0.3))
    try:
        pia.play = False
        host.start()
        await finish(me, pia, per)
        assert pia.moved == 0
        session = host.session
        assert session is not None
        pias = [n for n, (seat, _) in enumerate(session.moves) if seat == 1]
        assert pias and session.clocks.marks() == [[1, pias[0]]]
        for player in (me, pia, per):  # every screen sees every clock, Pia's ran out
            clocks = player.last_table()["clocks"]
            assert clocks["timeouts"] == [0, len(pias), 0] and clocks["preset"] == "move"
        # The host's record, and each peer's own, say when Pia's time first ran out.
        host_record = records.load(store.last_record())
        assert host_record.header["out_of_time"] == [[1, pias[0]]]
        for peer in (pia, per):
            assert isinstance(peer.link, RemoteLink) and peer.link.record_path is not None
            kept = records.load(peer.link.record_path)
            assert kept.over and kept.header["out_of_time"] == [[1, pias[0]]]
            assert kept.header["clock"] == per_move(0.3).public()
    finally:
        await close_all(host, pia, per)


async def test_a_players_one_extension_is_told_to_everyone(relay: Relay) -> None:
    host, me, (pia, per) = await open_table(relay, seed=2, clock=per_move(60.0))
    try:
        pia.play = False
        host.start()
        mine = await pia.wait_for(to_act(1))
        await pia.link.extend(1, mine["state_no"])
        told = await per.wait_for(lambda m: table(m) and m["clocks"]["extended"][1])
        assert told["clocks"]["left"][1] > 60.0  # more than the bank: the extension is on top
        assert told["clocks"]["extended"] == [False, True, False]
        clocks = host.session.clocks.clocks
        before = clocks.left_of(1, host.session.clocks.now())
        await pia.link.extend(1, mine["state_no"])  # a second one: nothing changes
        await pia.link.echo()  # the host has read it
        assert clocks.left_of(1, host.session.clocks.now()) <= before
        pia.play = True
        await pia.link.send_move(1, mine["legal"][0], mine["state_no"])
        await finish(me, pia, per)
    finally:
        await close_all(host, pia, per)


def crash(host: NetHost) -> None:
    """Kill a host the hard way: no goodbye frame, the socket just dies."""
    for task in list(host._tasks):
        task.cancel()
    assert host.uplink.ws is not None
    host.uplink.ws.transport.abort()


async def test_a_crashed_host_resumes_from_its_record_and_peers_rejoin(relay: Relay) -> None:
    host, _me, (pia, per) = await open_table(relay, seed=13)
    resumed: NetHost | None = None
    try:
        pia.play = False
        host.set_hints(True)
        host.start()
        await pia.wait_for(to_act(1))
        made = host.session.state_no
        assert made > 0
        crash(host)
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "host_away")
        path = store.last_record()
        assert path is not None
        resumed = NetHost.resume(path, relay.url, bot_delay=0)
        assert resumed.session is not None and resumed.session.state_no == made
        assert resumed.code == host.code and resumed.commitment == host.commitment
        assert resumed.hints and resumed.session.hints  # the lobby's hint switch is kept
        mine = HostLink(resumed)
        me2 = Player(mine, seed=99)
        pia.play = True
        await resumed.open()
        await mine.start()
        await resumed.begin_resumed()
        await finish(me2, pia, per)
        for peer in (pia, per):
            assert peer.result is not None and peer.result["verified"], peer.result
            assert peer.result["scores"] == resumed.session.result()["scores"]
        assert [s["connected"] for s in resumed.seat_list()] == [True, True, True]
    finally:
        await close_all(resumed or host, pia, per)


async def test_a_host_that_cannot_write_its_record_plays_on_and_says_so(
    relay: Relay, private_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = private_dirs / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("TABLETOP_TUI_HOME", str(blocked / "home"))  # can never be created
    host, me, (pia, per) = await open_table(relay, seed=6)
    try:
        host.start()
        await finish(me, pia, per)
        assert host.record_path is None
        assert pia.result is not None and pia.result["scores"] == host.session.result()["scores"]
        notices = [m["text"] for m in pia.messages if m["type"] == "notice"]
        assert any("record cannot be written" in text for text in notices), notices
    finally:
        await close_all(host, pia, per)


async def test_a_player_back_in_a_new_process_checks_the_deal_to_its_end(relay: Relay) -> None:
    """A browser tab reloaded or an SSH session back after a drop is a new process: it goes on
    with the part of the seed and the commitment its predecessor kept with the seat, so the
    game is verified (and rated) for it as for a player who never left."""
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", bot_delay=0)
    code = await host.open()
    me = Player(HostLink(host), seed=12)
    await me.link.start()
    pia = Player(RemoteLink(code, "Pia", server=relay.url), seed=13)
    per = Player(RemoteLink(code, "Per", server=relay.url, remember=False), seed=14)  # elsewhere
    for peer in (pia, per):
        await peer.link.connect()
    try:
        pia.play = False
        host.start()
        await pia.wait_for(to_act(1))
        assert isinstance(pia.link, RemoteLink) and pia.link.deal.contribution is not None
        given = pia.link.deal.contribution
        await pia.link.close()  # the process ends: nothing of it lives on but what it kept
        await me.wait_for(lambda m: m["type"] == "presence" and not m["players"][1]["connected"])
        again = Player(RemoteLink(host.code, "Pia", server=relay.url), seed=8)
        assert isinstance(again.link, RemoteLink)
        await again.link.connect()
        assert again.link.seats == [1] and again.link.deal.contribution == given
        await finish(me, again, per)
        assert again.result is not None
        assert again.result["verify_note"] == "shuffles verified", again.result
        assert again.result["verified"]
        kept = [e for e in records.listing() if e.path.name.endswith("-peer.jsonl")]
        assert len(kept) == 1 and kept[0].path == again.link.record_path  # one game, one entry
    finally:
        await close_all(host, pia, per, again)


def test_a_deal_kept_by_an_earlier_process_is_dropped_when_the_host_has_dealt_again() -> None:
    """Away across a rematch: the welcome names another deal (or none, in the lobby). The kept
    one is over; holding on to it would cry 'recommitted' at the next honest commit."""
    said: list[dict[str, Any]] = []
    table = [{"name": "Hana", "kind": "host"}, {"name": "Pia", "kind": "person"}]
    earlier = DealCheck(said.append)
    earlier.committed({"commitment": "c1", "seats": [1]}, table, 1, "Pia")
    kept = earlier.kept()
    for welcome in ("c1", None, "c2"):
        later = DealCheck(said.append)
        later.carry(kept)
        later.welcomed(welcome)
        assert (later.contribution == earlier.contribution) is (welcome == "c1")
        if welcome is None:
            later.committed({"commitment": "c2", "seats": [1]}, table, 1, "Pia")
            assert later.doubt is None and later.commitment == "c2"
    assert not said  # nothing was doubted
    broken = DealCheck(said.append)
    broken.carry({**kept, "contribution": [1, 42]})  # not a part: nothing is carried
    assert broken.commitment is None and not broken.carried


def test_the_same_commit_again_gets_the_same_part_and_another_one_is_refused() -> None:
    """A host asks a seat that came back for its part again: the same commit, the same part
    (a new one would give the host a second seed to choose from). Another commit in the same
    deal is a fresh draw: refused. Another deal's number begins a deal afresh."""
    said: list[dict[str, Any]] = []
    table = [{"name": "Hana", "kind": "host"}, {"name": "Pia", "kind": "person"}]
    check = DealCheck(said.append)
    check.follow(1)
    first = check.committed({"commitment": "c1", "seats": [1]}, table, 1, "Pia")
    again = check.committed({"commitment": "c1", "seats": [1]}, table, 1, "Pia")
    assert first is not None and again == first and check.doubt is None and not said
    assert not check.other_deal(1) and not check.other_deal(None) and check.other_deal(2)
    assert check.committed({"commitment": "c2", "seats": [1]}, table, 1, "Pia") is None
    assert check.doubt is not None and check.doubt.code == "recommitted"
    assert [n["verdict"]["code"] for n in said] == ["recommitted"]


async def test_a_move_made_while_the_link_finds_its_room_again_is_played_once_back(
        relay: Relay) -> None:
    """Pia moves while her connection is being renewed (dropped, or between the hello of a
    rejoin and its welcome): the host would refuse the move or never see it, so her link keeps
    it and sends it once she is welcomed back; nothing she did is lost."""
    host, _me, (pia, per) = await open_table(relay, seed=3)
    try:
        pia.play = False
        host.start()
        turn = await pia.wait_for(to_act(1))
        link = pia.link
        assert isinstance(link, RemoteLink)
        await link.drop()
        assert not link.in_room
        move = turn["legal"][0]
        await link.send_move(1, move, turn["state_no"])  # before the link is back
        await pia.wait_for(lambda m: m["type"] == "notice" and "once you are back" in m["text"])
        assert host.session is not None
        await pia.wait_for(lambda m: table(m) and m["state_no"] > turn["state_no"])
        assert list(host.session.moves[turn["state_no"]]) == [1, move]  # her move, as she made it
        assert not [m for m in pia.messages if m["type"] == "error"]
    finally:
        await close_all(host, pia, per)
