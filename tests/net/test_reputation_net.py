"""Reputation at a public table, over real sockets on 127.0.0.1: a guest proves the key its hello
names on that very channel, the lobby shows the table's word (finished share, rating) beside a
proven person only, and a host's minimum finished share keeps out whoever left too many games,
but not a newcomer. The attackers name someone else's key, or replay a signature seen on
another channel: they get no word and no seat past a minimum."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from netsupport import TIMEOUT, Player, Raw, someone
from test_promises import Watching, cid_of, until

from net.host.authority import NetHost
from net.peer.joining import JoinError
from net.peer.remote import RemoteLink
from net.players import identity, ladder
from net.players.identity import Identity
from net.relay.server import Relay
from net.wire import resume
from net.wire.channel import CRYPTO, Channel
from net.wire.frames import encode


async def hosting(relay: Relay, minimum: float | None = None, seats: int = 4) -> NetHost:
    host = NetHost("schoene", seats, relay_url=relay.url, host_name="Hana", bot_delay=0)
    host.set_min_finished(minimum)
    await host.open()
    return host


async def guest(host: NetHost, relay: Relay, name: str, who: Identity | None) -> RemoteLink:
    link = RemoteLink(host.code, name, server=relay.url)
    link.deal.identity = who
    await link.connect()
    return link


def signed_by(who: Identity, room: str) -> Any:
    """A hello's identity fields, honestly signed on the channel they go in."""
    return lambda channel: {"identity": who.public,
                            "identity_sig": who.sign_hello(room, channel.binding)}


async def seat_of(host: NetHost, name: str) -> dict[str, Any]:
    """`name`'s seat map, once it is seated."""
    async with asyncio.timeout(TIMEOUT):
        while not (seats := [s for s in host.seat_list() if s["name"] == name]):
            await asyncio.sleep(0.02)
    return seats[0]


async def test_the_lobby_shows_the_tables_word_for_a_proven_guest_only(
    relay: Relay, table: dict[str, Identity],
) -> None:
    host = await hosting(relay)
    links = []
    try:
        links.append(await guest(host, relay, "Bea", table["Bea"]))
        links.append(await guest(host, relay, "Kay", None))  # a keyless player
        watcher = await Raw.join(relay, host.code, "Eve", watch=True)
        bea = await seat_of(host, "Bea")
        assert bea["finished"] == pytest.approx(0.92) and isinstance(bea["rating"], float)
        kay = await seat_of(host, "Kay")
        assert "finished" not in kay and "rating" not in kay
        # What every guest's lobby gets says the same.
        async with asyncio.timeout(TIMEOUT):
            while True:
                lobby = await watcher.recv("lobby")
                shown = {s["name"]: s for s in lobby["seats"]}
                if "Bea" in shown and "Kay" in shown:
                    break
        assert shown["Bea"]["finished"] == pytest.approx(0.92)
        assert "finished" not in shown["Kay"]
    finally:
        for link in links:
            await link.close()
        await host.close()


async def test_a_minimum_refuses_a_low_share_and_admits_a_newcomer_and_a_high_share(
    relay: Relay, table: dict[str, Identity],
) -> None:
    host = await hosting(relay, minimum=0.8)
    links = []
    try:
        with pytest.raises(JoinError) as refused:
            await guest(host, relay, "Lou", table["Lou"])
        assert refused.value.code == "refused"
        assert str(refused.value) == ("this table asks for at least 80% finished games; you "
                                      "have 64%")
        links.append(await guest(host, relay, "Neu", table["Neu"]))
        links.append(await guest(host, relay, "Bea", table["Bea"]))
        assert [link.seat for link in links] == [1, 2]
        assert "finished" not in await seat_of(host, "Neu")  # no counted games: nothing known
        with pytest.raises(JoinError) as keyless:
            await guest(host, relay, "Kay", None)
        assert "no proven identity" in str(keyless.value)
    finally:
        for link in links:
            await link.close()
        await host.close()


async def test_a_guest_naming_someone_elses_key_gets_no_word_and_no_seat_past_a_minimum(
    relay: Relay, table: dict[str, Identity],
) -> None:
    bea, eve = table["Bea"], someone()
    host = await hosting(relay)
    try:
        # Bea's key, signed with Eve's own: it proves nothing.
        impostor = await Raw.join(relay, host.code, "Bea", identity=lambda channel: {
            "identity": bea.public, "identity_sig": eve.sign_hello(host.room, channel.binding)})
        welcome = await impostor.recv("welcome")
        assert welcome["seat"] == 1
        notice = await impostor.recv("notice")
        assert "could not be proven" in notice["text"]
        seat = await seat_of(host, "Bea")
        assert "finished" not in seat and host.seats[1].identity == ""
        # Bea's key without any signature: the same.
        bare = await Raw.join(relay, host.code, "Bea2",
                              identity=lambda channel: {"identity": bea.public})
        await bare.recv("welcome")
        assert "finished" not in await seat_of(host, "Bea2")
    finally:
        await host.close()
    host = await hosting(relay, minimum=0.8)
    try:
        impostor = await Raw.join(relay, host.code, "Bea", identity=lambda channel: {
            "identity": bea.public, "identity_sig": eve.sign_hello(host.room, channel.binding)})
        error = await impostor.recv("error")
        assert error["code"] == "refused" and "no proven identity" in error["message"]
        assert [s["kind"] for s in host.seat_list()] == ["host", "empty", "empty", "empty"]
    finally:
        await host.close()


async def test_a_signature_from_another_channel_does_not_verify(
    relay: Relay, table: dict[str, Identity],
) -> None:
    """Eve saw (say, as a host Bea joined) Bea's identity_sig of one channel, and sends it on
    her own: it names another channel's binding, so she is no better off than with none."""
    bea = table["Bea"]
    host = await hosting(relay, minimum=0.8)
    seen: list[bytes] = []

    def capture(channel: Channel) -> dict[str, Any]:
        fields = signed_by(bea, host.room)(channel)
        seen.append(fields["identity_sig"])
        return fields

    try:
        honest = await Raw.join(relay, host.code, "Bea", identity=capture)
        assert (await honest.recv("welcome"))["seat"] == 1
        replayed = await Raw.join(relay, host.code, "Eve", identity=lambda channel: {
            "identity": bea.public, "identity_sig": seen[0]})
        error = await replayed.recv("error")
        assert error["code"] == "refused" and "no proven identity" in error["message"]
        assert (await seat_of(host, "Bea"))["finished"] == pytest.approx(0.92)
        assert [s["name"] for s in host.seat_list()][2:] == ["", ""]
    finally:
        await host.close()


@pytest.fixture
async def watching() -> AsyncIterator[Watching]:
    """A relay that can drop a guest and fake the host's return (test_promises)."""
    relay = Watching()
    await relay.start()
    yield relay
    await relay.stop()


async def test_a_guest_coming_back_by_resumption_proves_its_key_on_the_new_channel(
    watching: Watching, table: dict[str, Identity],
) -> None:
    """Dropped by the relay, and later told the host came back: each time the guest resumes
    on a new channel and signs that one's binding; the host takes it, so nobody is told their
    key could not be proven."""
    host = await hosting(watching, seats=3)
    players = [Player(RemoteLink(host.code, name, server=watching.url)) for name in ("Bea", "Neu")]
    try:
        for player in players:
            player.link.deal.identity = table[player.link.name]  # type: ignore[attr-defined]
            await player.link.connect()  # type: ignore[attr-defined]
        host.start()
        bea = players[0]
        await bea.wait_for(lambda m: m["type"] == "sync")
        await watching.member(host.room, cid_of(host, 1)).ws.close()  # the relay drops her
        await bea.wait_for(lambda m: m["type"] == "connection" and m["state"] == "connected")
        assert watching.firsts[-1]["t"] == "resume"
        before = len(watching.sent[cid_of(host, 1)])
        watching.push([watching.member(host.room, cid_of(host, 1))], encode("host_back"))
        await until(lambda: any(f["t"] == "rejoin"
                                for f in watching.sent[cid_of(host, 1)][before:]), "a rejoin")
        await host.uplink.flushed()
        await bea.wait_for(lambda m: m["type"] == "welcome" and len(
            [w for w in bea.messages if w["type"] == "welcome"]) == 3)
        assert not [m for m in bea.messages if m["type"] == "notice"
                    and "could not be proven" in m["text"]]
        assert host.door._identities[cid_of(host, 1)] == table["Bea"].public
    finally:
        for player in players:
            await player.link.close()  # type: ignore[attr-defined]
        await host.close()


def test_both_ends_derive_one_binding_per_channel_and_only_they_can() -> None:
    """After SPAKE2 and after a resumption alike, host and peer hold the same binding, every
    channel its own; a signature over one does not verify over another."""
    peer, host = CRYPTO.peer_exchange("K7QX9MPA", "B3CD"), CRYPTO.host_exchange("K7QX9MPA", "B3CD")
    theirs, mine = peer.finish(host.message), host.finish(peer.message)
    assert theirs.binding == mine.binding and len(mine.binding) == 32
    again = CRYPTO.peer_exchange("K7QX9MPA", "B3CD")
    other = CRYPTO.host_exchange("K7QX9MPA", "B3CD").finish(again.message)
    assert other.binding != mine.binding
    key = resume.seat_key(mine.secret, "K7QX9MPA", 1)
    coming = resume.Resumption("K7QX9MPA", key)
    fields, resumed_host = resume.answer("K7QX9MPA", key, coming.nonce, coming.public)
    resumed_peer = coming.finish(fields["epub"], fields["proof"])
    assert resumed_peer.binding == resumed_host.binding
    assert resumed_host.binding not in (mine.binding, key, mine.secret)
    bea = someone()
    sig = bea.sign_hello("K7QX9MPA", mine.binding)
    assert identity.hello_proven(bea.public, sig, "K7QX9MPA", mine.binding)
    assert not identity.hello_proven(bea.public, sig, "K7QX9MPA", other.binding)
    assert not identity.hello_proven(bea.public, sig, "Z7QX9MPA", mine.binding)
    assert not identity.hello_proven(someone().public, sig, "K7QX9MPA", mine.binding)


def test_a_minimum_needs_a_tables_ladder(relay: Relay) -> None:
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana")
    with pytest.raises(ValueError, match="table"):
        host.set_min_finished(0.8)
    assert host.min_finished is None


def test_the_host_command_takes_a_minimum_in_percent() -> None:
    from tui import cli

    args = cli.build_parser().parse_args(["host", "schoene", "--min-finished", "80"])
    assert args.min_finished == 0.8
    for bad in ("150", "-5", "eighty", "80.5"):
        with pytest.raises(SystemExit):
            cli.build_parser().parse_args(["host", "schoene", "--min-finished", bad])


async def test_a_headless_host_lists_its_minimum_at_a_table_and_says_why_not_at_home(
    relay: Relay, table: dict[str, Identity], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_net_cli import outcome, spawn
    from test_open_tables import listed

    host = await spawn("host", "schoene", "--headless", "--seats", "3", "--public",
                       "--min-finished", "75", "--server", relay.url)
    try:
        (found,) = await listed(relay)
        assert found.min_finished == 0.75
    finally:
        host.terminate()
        await host.wait()
    monkeypatch.delenv(ladder.TABLE_ENV)
    at_home = await spawn("host", "schoene", "--headless", "--seats", "3", "--min-finished",
                          "75", "--server", relay.url)
    rc, _, err = await outcome(at_home)
    assert rc == 2 and "needs a public table's ladder" in err
