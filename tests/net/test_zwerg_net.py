"""Das Zwergenamulett over a real relay on 127.0.0.1: a host, two peers, a bot and a watcher
play whole games, and every frame a peer receives is searched for cards it may not know.

The game's secret is unusual: won tricks stay hidden even from their owner. So a card id may
appear in a peer's frame only where the rules put it in the open: the peer's own hand (and the
moves and hints derived from it), the live trick, the trick just completed, and, with the
memory aid, the peer's own won cards. Anywhere else (events, the log, another seat's entry)
it would be a leak; after the game the reveal carries the whole record by design.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from netsupport import TIMEOUT, Player, capture, play_recorded

from engines import get_engine
from engines.zwergenamulett.rules import CARD_IDS
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from net.table.link import Message
from net.wire.frames import decode

GAME = "zwergenamulett"
ENGINE = get_engine(GAME)
CARDS = set(CARD_IDS)
# Where a seat's frame may name cards (view keys); `legal` (own moves) is allowed too.
OPEN_KEYS = {"hand", "trick", "trick_led", "last_trick", "my_won", "would_overtrump"}
# How often a test player calls "7 Zwerge!" when it may (often enough to see both outcomes).
CALL_RATE = 0.03


class ZwergPlayer(Player):
    """A `Player` that plays a random card on its turn and only now and then calls seven
    dwarves (the base player would call on every update, as the call is always legal)."""

    async def _move(self, message: Message) -> None:
        plays = [m for m in message["legal"] if m["type"] == "play"]
        if self.rng.random() < CALL_RATE:
            move = {"type": "claim_seven"}
        elif plays:
            move = self.rng.choice(plays)
        else:
            return
        self.moved += 1
        await self.link.send_move(message["seat"], move, message["state_no"])



def card_paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every string in `data` that is a card id."""
    if isinstance(data, str):
        return [path] if data in CARDS else []
    if isinstance(data, dict):
        return [p for k, v in data.items() for p in card_paths(v, (*path, k))]
    if isinstance(data, list | tuple):
        return [p for i, v in enumerate(data) for p in card_paths(v, (*path, i))]
    return []


class WonPiles:
    """Each seat's won cards this round, rebuilt from the tricks a peer saw completed (the
    memory aid must show exactly these, and only to their owner)."""

    def __init__(self) -> None:
        self.piles: dict[tuple[int, int], Counter[str]] = {}
        self.shown: dict[str, Any] | None = None

    def see(self, view: dict[str, Any]) -> None:
        last = view["last_trick"]
        if last is not None and last != self.shown:
            pile = self.piles.setdefault((last["round"], last["winner"]), Counter())
            pile.update(c["card"] for c in last["cards"])
        self.shown = last

    def of(self, round_no: int, seat: int) -> Counter[str]:
        return self.piles.get((round_no, seat), Counter())


def check_frame(
    frame: dict[str, Any], seat: int | None, states: dict[int, Any], piles: WonPiles
) -> None:
    """No card outside the open places, and the open places hold exactly the truth."""
    view = frame["view"]
    over = frame["result"] is not None
    for path in card_paths({k: v for k, v in frame.items() if not (over and k == "reveal")}):
        assert path[0] == "legal" or (path[0] == "view" and path[1] in OPEN_KEYS), path
    assert view == ENGINE.view(states[frame["state_no"]], seat)
    piles.see(view)
    if seat is None:
        assert view["hand"] == [] and view["my_won"] is None and frame["legal"] == []
        return
    hand = set(view["hand"])
    assert len(view["hand"]) == view["hand_sizes"][seat]
    assert all(m["card"] in hand for m in frame["legal"] if m["type"] == "play")
    assert set(view["would_overtrump"]) <= hand
    if view["memory_aid"] and not view["over"]:
        assert Counter(view["my_won"]) == piles.of(view["round"], seat)
    else:
        assert view["my_won"] is None or view["over"]


async def play_networked_game(relay: Relay, seed: int, options: dict[str, Any]) -> None:
    host = NetHost(GAME, 4, options, relay_url=relay.url, host_name="Hana", bot_delay=0, seed=seed)
    code = await host.open()
    host.add_bot(3, "strong")
    me = ZwergPlayer(HostLink(host), seed=seed)
    await me.link.start()
    peers = []
    for i, name in enumerate(("Pia", "Per")):
        peer = ZwergPlayer(RemoteLink(code, name, server=relay.url), seed=seed * 10 + i)
        await peer.link.connect()
        peers.append(peer)
    watcher = ZwergPlayer(RemoteLink(code, "Vic", server=relay.url, watch=True), play=False)
    await watcher.link.connect()
    frames = {}
    for player in [*peers, watcher]:
        assert isinstance(player.link, RemoteLink)
        frames[player.link.name] = capture(player.link)
    session, states = await play_recorded(host, [me, *peers, watcher], TIMEOUT * 3)

    assert session.over
    calls = [m for _, m in session.moves if m["type"] == "claim_seven"]
    assert calls, "nobody ever called: the test would not see a call's frames"
    seats = {"Pia": 1, "Per": 2, "Vic": None}
    tables = 0
    for name, raws in frames.items():
        piles = WonPiles()
        for raw in raws:
            frame = decode(raw, 1 << 20)
            if frame["t"] not in ("sync", "update"):
                continue
            tables += 1
            assert frame["seat"] == seats[name]
            check_frame(frame, seats[name], states, piles)
            if frame["result"] is None:
                assert frame["reveal"] is None
    assert tables > 100
    for peer in peers:
        assert peer.result is not None and peer.result["verified"], peer.result


@pytest.mark.parametrize("memory_aid", [False, True])
async def test_no_frame_to_a_peer_holds_another_hand_or_a_won_trick(
    relay: Relay, memory_aid: bool
) -> None:
    await play_networked_game(relay, seed=3, options={"memory_aid": memory_aid})
