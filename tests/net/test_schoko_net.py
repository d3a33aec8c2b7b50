"""Scho K.O. over a real relay on 127.0.0.1: the host and a peer (and a watcher) play a whole
game, every frame a peer receives is checked against the engine and searched for the other
hand, and a forged placement is refused with the engine's reason, changing nothing.

Tile ids are public once laid (the view's `tiles`, the result's final table, the placement
events), so a tile id may appear in a frame only there, in the seat's own hand and in its own
legal moves. Anywhere else it would leak the other hand or the pile; after the game the reveal
carries the record by design.
"""

from __future__ import annotations

from typing import Any

from netsupport import TIMEOUT, Player, capture, play_recorded

from engines import get_engine
from engines.schoko.engine import REASONS
from engines.schoko.tiles import TILE_IDS
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from net.wire.frames import decode

GAME = "schoko"
ENGINE = get_engine(GAME)
TILES = set(TILE_IDS)



def tile_paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every string in `data` that is a tile id."""
    if isinstance(data, str):
        return [path] if data in TILES else []
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in tile_paths(v, (*path, k))]
    if isinstance(data, list | tuple):
        return [p for i, v in enumerate(data) for p in tile_paths(v, (*path, i))]
    return []


def open_place(path: tuple[Any, ...]) -> bool:
    """Where a frame may name a tile: own hand and moves, the laid tiles (in the view and, as
    the final table, in the result), placement events."""
    if path[0] == "legal":
        return True
    if path[0] in ("view", "result") and path[1] == "tiles":
        return path[-1] == "tile"
    if path[0] == "view":
        return path[1] == "hand"
    return path[0] == "events" and path[-1] == "tile"


def check_frame(frame: dict[str, Any], seat: int | None, states: dict[int, Any]) -> None:
    view = frame["view"]
    over = frame["result"] is not None
    shown = {k: v for k, v in frame.items() if not (over and k == "reveal")}
    for path in tile_paths(shown):
        assert open_place(path), path
    state = states[frame["state_no"]]
    assert view == ENGINE.view(state, seat)
    if seat is None:
        assert view["hand"] == [] and frame["legal"] == []
        return
    assert len(view["hand"]) == view["hand_sizes"][seat]
    assert all(m["tile"] in view["hand"] for m in frame["legal"] if m["type"] == "place")
    assert frame["legal"] == ENGINE.legal_moves(state, seat)


class SchokoPlayer(Player):
    """A random player that, the first time it places, first sends a forged placement (a tile
    it does not hold, then a spot the rules refuse) and remembers what the host said."""

    forged = False

    async def _move(self, message: dict[str, Any]) -> None:
        legal = message["legal"]
        if not self.forged and legal[0]["type"] == "place" and len(message["view"]["tiles"]) > 1:
            self.forged = True
            hand = message["view"]["hand"]
            missing = next(t for t in TILE_IDS if t not in hand)
            seat, no = message["seat"], message["state_no"]
            bad = {**legal[0], "tile": missing}
            await self.link.send_move(seat, bad, no)
            far = {**legal[0], "x": 40, "y": 40}
            await self.link.send_move(seat, far, no)
        await super()._move(message)


async def test_a_networked_game_shows_each_seat_only_its_own_hand(relay: Relay) -> None:
    host = NetHost(GAME, 2, {}, relay_url=relay.url, host_name="Hana", bot_delay=0, seed=5)
    code = await host.open()
    me = Player(HostLink(host), seed=1)
    await me.link.start()
    peer = SchokoPlayer(RemoteLink(code, "Pia", server=relay.url), seed=2)
    await peer.link.connect()
    watcher = Player(RemoteLink(code, "Vic", server=relay.url, watch=True), play=False)
    await watcher.link.connect()
    assert isinstance(peer.link, RemoteLink) and isinstance(watcher.link, RemoteLink)
    frames = {"Pia": capture(peer.link), "Vic": capture(watcher.link)}
    session, states = await play_recorded(host, [me, peer, watcher], TIMEOUT * 3)

    assert session.over
    assert len(ENGINE.view(session.state, None)["tiles"]) == 32
    seats = {"Pia": 1, "Vic": None}
    tables = 0
    for name, raws in frames.items():
        for raw in raws:
            frame = decode(raw, 1 << 20)
            if frame["t"] not in ("sync", "update"):
                continue
            tables += 1
            assert frame["seat"] == seats[name]
            check_frame(frame, seats[name], states)
    assert tables > 40
    # The forged moves came back as errors with the engine's own words, and were not played.
    errors = [m["message"] for m in peer.of("error")]
    assert any("in your hand" in e for e in errors), errors
    assert REASONS["apart"] in errors, errors
    assert all(m.get("x") != 40 for _, m in session.moves)
    assert peer.result is not None and peer.result["verified"], peer.result
    assert peer.result["scores"] == ENGINE.result(session.state)["scores"]
