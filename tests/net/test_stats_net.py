"""End-of-game statistics at a networked table: before the end nobody's link hands out the
game (its record would show the deal); at the end the host's link gives its own and a peer's
the record the host revealed, and both make the same statistics as the host's file. A reveal
that does not replay to the result the table showed gives none."""

from __future__ import annotations

import asyncio

from netsupport import TIMEOUT, Player

from net import records
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay


async def test_host_and_peer_get_the_same_statistics_from_the_record(relay: Relay) -> None:
    host = NetHost("schoko", 2, relay_url=relay.url, host_name="Hana", bot_delay=0)
    code = await host.open()
    link = HostLink(host)
    me = Player(link, seed=3)
    await link.start()
    remote = RemoteLink(code, "Pia", server=relay.url)
    peer = Player(remote, seed=4)
    try:
        await remote.connect()
        host.start()
        await peer.wait_for(lambda m: m["type"] == "update" and m["state_no"] >= 2)
        assert link.finished_record() is None and remote.finished_record() is None
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(me.done.wait(), peer.done.wait())
        assert peer.result is not None and peer.result["verified"]
        assert host.session is not None and host.record_path is not None
        assert remote.finished_record() == link.finished_record() == host.session.record()
        ours = records.stats_of_game(link.finished_record(), me.result)
        theirs = records.stats_of_game(remote.finished_record(), peer.result)
        kept = records.stats_of_record(records.load(host.record_path))
    finally:
        await remote.close()
        await host.close()
    assert ours is not None and ours == theirs == kept
    assert [s.name for s in ours[0]][:2] == ["largest_group", "second_group"]
    assert [row[0].value for row in ours] == peer.result["scores"]
    forged = {**peer.result, "scores": [s + 1 for s in peer.result["scores"]]}
    assert records.stats_of_game(remote.finished_record(), forged) is None
