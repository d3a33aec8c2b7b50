"""Past games over the network: a peer keeps its own record of a finished game, made from the
host's seed reveal, and it replays to exactly the states the host's record does; while the
game runs a peer's record names the game but holds no seed (it cannot know it yet), and the
host's record of an unfinished game shows only the host's own seat."""

from __future__ import annotations

import asyncio

import pytest
from netsupport import TIMEOUT, Player

from net import records
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay

ENGINE = "schoko"  # two seats, a few dozen moves


async def test_a_peers_record_replays_identically_to_the_hosts(relay: Relay) -> None:
    host = NetHost(ENGINE, 2, relay_url=relay.url, host_name="Hana", bot_delay=0)
    code = await host.open()
    link = HostLink(host)
    me = Player(link, seed=3)
    await link.start()
    peer = Player(RemoteLink(code, "Pia", server=relay.url), seed=4)
    try:
        await peer.link.connect()
        host.start()
        # Mid-game the host's record holds the seed, so it replays from the host's seat only;
        # the peer has written nothing (the seed comes with the reveal at the end).
        await peer.wait_for(lambda m: m["type"] == "update" and m["state_no"] >= 2)
        assert host.record_path is not None
        running = records.load(host.record_path)
        if not running.over:
            assert running.kind == "host" and running.viewers() == [0]
        assert running.code == host.room
        assert isinstance(peer.link, RemoteLink) and peer.link.record_path is not None
        begun = records.load(peer.link.record_path)
        assert begun.kind == "peer" and begun.header["seed"] is None and not begun.over
        assert begun.code == host.room and [p["name"] for p in begun.players] == ["Hana", "Pia"]
        with pytest.raises(records.RecordError, match="reveals the deal only at the end"):
            records.Replay(begun)
        async with asyncio.timeout(TIMEOUT):
            await asyncio.gather(me.done.wait(), peer.done.wait())
        assert peer.result is not None and peer.result["verified"]
        assert peer.link.record_path == begun.path  # the same file, now complete
        ours, theirs = records.load(host.record_path), records.load(peer.link.record_path)
    finally:
        await peer.link.close()
        await host.close()
    assert theirs.kind == "peer" and theirs.own_seats() == [1]
    assert theirs.code == host.room  # records name the room, not its secret
    assert theirs.over and ours.over
    assert "net" not in theirs.header and "secret" not in str(theirs.header)
    # The end line: this peer's verdict, who had left, and the reveal's parts of the seed,
    # so the deal can be checked again from the record (docs/records.md).
    assert theirs.extra == {
        "verified": True, "verify_note": "shuffles verified", "verify_code": "verified",
        "left": [], "away": False,
        "fairness": {"secret": host.dealer.secret, "salt": host.dealer.salt,
                     "contributions": host.contributions}}
    assert theirs.result == ours.result == host.session.result()  # type: ignore[union-attr]
    a, b = records.Replay(ours), records.Replay(theirs)
    assert len(a) == len(b) == len(host.session.moves) + 1  # type: ignore[union-attr]
    for n in range(len(a)):
        for seat in (0, 1, None):
            assert a.view(n, seat) == b.view(n, seat)
        assert a.events[n] == b.events[n]
    assert a.result == b.result == host.session.result()  # type: ignore[union-attr]
    # Both are in this machine's list (host and peer shared it here), newest first.
    kinds = sorted(e.record.kind for e in records.listing() if e.record is not None)
    assert kinds == ["host", "peer"]
    assert records.winners(theirs) == a.result["winners"]  # type: ignore[index]
