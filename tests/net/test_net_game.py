"""Whole games over a real relay on 127.0.0.1: a host and peers, bots moving through the
clients, and every frame a peer receives checked for other players' secrets."""

from __future__ import annotations

import asyncio
from typing import Any

from netsupport import TIMEOUT, Player, capture

from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay


async def open_table(relay: Relay, seed: int, names: tuple[str, ...] = ("Pia", "Per"),
                     seats: int = 3, fixed: bool = True,
                     **kwargs: Any) -> tuple[NetHost, Player, list[Player]]:
    """A host playing seat 0 at its own terminal and one RemoteLink per name, seated. The
    host deals from `seed` (a practice deal) unless not `fixed`: then the table makes the seed
    together and `seed` only steers the players' choices."""
    host = NetHost("schoene", seats, relay_url=relay.url, host_name="Hana",
                   bot_delay=0, seed=seed if fixed else None, **kwargs)
    code = await host.open()
    link = HostLink(host)
    me = Player(link, seed=seed)
    await link.start()
    peers = []
    for i, name in enumerate(names):
        peer = Player(RemoteLink(code, name, server=relay.url), seed=seed * 10 + i)
        await peer.link.connect()
        peers.append(peer)
    return host, me, peers


async def finish(*players: Player) -> None:
    async with asyncio.timeout(TIMEOUT):
        await asyncio.gather(*(p.done.wait() for p in players))


async def test_a_whole_game_ends_with_the_same_result_everywhere(relay: Relay) -> None:
    host, me, peers = await open_table(relay, seed=5, fixed=False)
    try:
        assert [p.link.seats for p in peers] == [[1], [2]]
        assert [s["kind"] for s in host.seat_list()] == ["host", "person", "person"]
        host.start()
        await finish(me, *peers)
        assert host.session is not None and host.session.over
        expected = host.session.result()
        assert me.result == expected
        for peer in peers:
            assert peer.result is not None
            assert peer.result["verify_note"] == "shuffles verified"
            assert peer.result["verified"] and not peer.result["fixed_seed"]
            assert isinstance(peer.link, RemoteLink)
            assert peer.link.deal.contribution in host.contributions  # the seed is everybody's
            assert {k: v for k, v in peer.result.items()
                    if not k.startswith("verif") and k != "fixed_seed"} == expected
            assert peer.moved > 0
        # Every player saw the same public story, in the same order.
        logs = [[e for m in p.messages if m["type"] == "update" for e in m["events"]]
                for p in peers]
        assert logs[0] == logs[1] == host.session.log[-len(logs[0]):]
    finally:
        await asyncio.gather(*(p.link.close() for p in peers))
        await host.close()


async def test_no_frame_a_peer_receives_holds_another_players_chips(relay: Relay) -> None:
    host, me, peers = await open_table(relay, seed=9)
    watcher = Player(RemoteLink(host.code, "Vic", server=relay.url, watch=True), play=False)
    await watcher.link.connect()
    frames: dict[str, list[bytes]] = {}
    for player in [*peers, watcher]:
        link = player.link
        assert isinstance(link, RemoteLink)
        frames[link.name] = capture(link)
    try:
        host.start()
        await finish(me, *peers, watcher)
    finally:
        await asyncio.gather(*(p.link.close() for p in [*peers, watcher]))
        await host.close()
    from net.wire.frames import decode

    tables = 0
    for name, raws in frames.items():
        seat = {"Pia": 1, "Per": 2, "Vic": None}[name]
        for raw in raws:
            frame = decode(raw, 1 << 20)
            if frame["t"] not in ("sync", "update"):
                continue
            tables += 1
            view = frame["view"]
            if frame["result"] is None:
                for other, player in enumerate(view["players"]):
                    if other != seat:
                        assert player["chips"] is None, (name, frame["state_no"], other)
                assert view["my_chips"] is None if seat is None else view["my_chips"] >= 0
                assert frame["reveal"] is None  # the seed stays secret until the end
            else:
                assert frame["reveal"]["seed"] == host.session.seed
    assert tables > 40
