"""Hints at a networked table: off unless the host allows them in the lobby, and every seat
is told which (the board offers "h" only when allowed)."""

from __future__ import annotations

import pytest
from netsupport import Player

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
