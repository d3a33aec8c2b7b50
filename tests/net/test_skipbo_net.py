"""Skip-Bo Breakers over a real relay on 127.0.0.1: a host, two peers, a bot and a watcher play
a whole game, and every frame a peer receives is held against the engine: its view is the
engine's view of that seat, a view that stays the same whatever the other hands hold, its legal
moves use only its own tiles, and its events are the same for every recipient."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from netsupport import TIMEOUT, Player, capture, play_recorded

from engines import get_engine
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from net.wire.frames import decode

GAME = "skipbo_breakers"
ENGINE = get_engine(GAME)



def check_frame(frame: dict[str, Any], seat: int | None, states: dict[int, Any]) -> None:
    state = states[frame["state_no"]]
    view = frame["view"]
    assert view == ENGINE.view(state, seat)
    if seat is None:
        assert view["hand"] == [] and frame["legal"] == []
        return
    # Nothing in the view depends on the tiles this seat cannot see.
    other = ENGINE.determinize(state, seat, random.Random(frame["state_no"]))
    assert ENGINE.view(other, seat) == view
    assert len(view["hand"]) == view["tiles_left"][seat]
    hand = Counter(view["hand"])
    for move in frame["legal"]:
        if move["type"] == "play":
            assert not Counter(move["tiles"]) - hand


async def test_a_networked_game_shows_every_peer_only_its_own_tiles(relay: Relay) -> None:
    options = {"points_to_win": 25}
    host = NetHost(GAME, 4, options, relay_url=relay.url, host_name="Hana", bot_delay=0, seed=5)
    code = await host.open()
    host.add_bot(3, "strong")
    me = Player(HostLink(host), seed=5)
    await me.link.start()
    peers = []
    for i, name in enumerate(("Pia", "Per")):
        peer = Player(RemoteLink(code, name, server=relay.url), seed=50 + i)
        await peer.link.connect()
        peers.append(peer)
    watcher = Player(RemoteLink(code, "Vic", server=relay.url, watch=True), play=False)
    await watcher.link.connect()
    frames = {}
    for player in [*peers, watcher]:
        assert isinstance(player.link, RemoteLink)
        frames[player.link.name] = capture(player.link)
    session, states = await play_recorded(host, [me, *peers, watcher], TIMEOUT * 6)

    assert session.over
    result = session.result()
    assert max(result["scores"]) >= 25
    plays = [m for _, m in session.moves if m["type"] == "play"]
    assert any("SB" in m["tiles"] for m in plays), "no joker was played: a weak test game"
    seats = {"Pia": 1, "Per": 2, "Vic": None}
    events_seen: dict[str, list[dict[str, Any]]] = {}
    tables = 0
    for name, raws in frames.items():
        events_seen[name] = []
        for raw in raws:
            frame = decode(raw, 1 << 20)
            if frame["t"] not in ("sync", "update"):
                continue
            tables += 1
            assert frame["seat"] == seats[name]
            check_frame(frame, seats[name], states)
            if frame["result"] is None:
                assert frame["reveal"] is None
            if frame["t"] == "update":
                events_seen[name].extend(frame["events"])
    assert tables > 100
    # Events are public: every recipient, player or watcher, gets the very same ones.
    assert events_seen["Pia"] == events_seen["Per"] == events_seen["Vic"]
    assert any(e["kind"] == "hand_end" for e in events_seen["Vic"])
    for peer in peers:
        assert peer.result is not None and peer.result["verified"], peer.result
