"""Hints at a networked table: off unless the host allows them in the lobby, and every seat
is told which (the board offers "h" only when allowed)."""

from __future__ import annotations

import pytest
from netsupport import Player
from test_ratings import open_room

from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay


@pytest.mark.parametrize("allowed", [False, True])
async def test_a_peer_is_told_whether_the_host_allows_hints(relay: Relay, allowed: bool) -> None:
    host = NetHost("schoene", 3, {}, relay_url=relay.url, host_name="Hana", bot_delay=0, seed=1)
    code = await host.open()
    host.add_bot(2, "strong")
    if allowed:
        host.set_hints(True)
    me = Player(HostLink(host), play=False)
    await me.link.start()
    peer = Player(RemoteLink(code, "Pia", server=relay.url), play=False)
    await peer.link.connect()
    try:
        host.start()
        table = await peer.wait_for(lambda m: m["type"] in ("sync", "update"))
        mine = await me.wait_for(lambda m: m["type"] in ("sync", "update"))
    finally:
        await peer.link.close()
        await host.close()
    assert table["hints"] is allowed
    assert mine["hints"] is allowed


async def test_a_rated_game_offers_no_hints_whatever_the_host_allowed(relay: Relay) -> None:
    # Three people, each with an identity of their own, on a dealt (not fixed) seed: the game
    # counts for a rating, so the host's switch in the lobby gives nobody the expert.
    host, me, peers = await open_room(relay)
    host.set_hints(True)
    for player in (me, *peers):
        player.play = False
    try:
        host.start()
        seen = [await p.wait_for(lambda m: m["type"] in ("sync", "update"))
                for p in (me, *peers)]
        assert host.rated
        assert [m["hints"] for m in seen] == [False, False, False]
        host.set_hints(True)  # switched on again mid-game: still none
        assert host.session is not None and not host.session.hints
    finally:
        for peer in peers:
            await peer.link.close()  # type: ignore[attr-defined]
        await host.close()
