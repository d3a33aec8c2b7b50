"""End-to-end encryption, seen from the relay: a relay that records every byte it reads and
writes, over a whole networked game of each game, holds no card, name, token or chat line.

What the relay may learn is who is in which room: the room code, connection ids, frame sizes
and the routing fields of join (watch, seat id). Everything a peer or the host said is sealed
(net.wire.channel); these tests look for it in the recorded bytes, after a positive control
shows the recorder did see the room's clear envelope.
"""

from __future__ import annotations

import asyncio
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from netsupport import TIMEOUT, Player
from websockets.asyncio.server import ServerConnection

from engines import ENGINE_IDS, get_engine
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Limits, Relay
from net.table.link import Message
from net.wire.frames import unpack
from tui.i18n import _STRINGS

# Per game: seats, lobby options that keep a game short, and the i18n prefix of its board.
GAMES: dict[str, tuple[int, dict[str, Any], str]] = {
    "schoene": (3, {}, "schoene."),
    "zwergenamulett": (3, {}, "zwerg."),
    "skipbo_breakers": (3, {"points_to_win": 25}, "sbb."),
    "schoko": (2, {}, "schoko."),
    "chez_geek": (3, {"window_seconds": 0}, "cg."),
}
CHAT = ("meet you at the usual table, Pia", "Zwergenschatz unter dem Tisch versteckt")
NAMES = ("Hanalei", "Pialuisa")


class RecordingRelay(Relay):
    """The real relay, keeping every message it reads and every byte it writes."""

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(limits)
        self.read: list[bytes] = []
        self.written: list[bytes] = []

    async def _handle(self, ws: ServerConnection) -> None:
        recv, write = ws.recv, ws.transport.write

        async def recording(*args: Any, **kwargs: Any) -> Any:
            data = await recv(*args, **kwargs)
            self.read.append(data if isinstance(data, bytes) else data.encode())
            return data

        def writing(data: Any) -> None:
            self.written.append(bytes(data))
            write(data)

        ws.recv = recording  # type: ignore[method-assign]
        ws.transport.write = writing  # type: ignore[method-assign]
        await super()._handle(ws)

    def everything(self) -> list[bytes]:
        return self.read + self.written

    def messages(self) -> list[bytes]:
        """Every message read, and every message in the websocket frames written (a server's
        frames are not masked: their payload is on the wire as it is)."""
        out = list(self.read)
        for chunk in self.written:
            at = 0
            while at + 2 <= len(chunk):
                size, at = chunk[at + 1] & 0x7F, at + 2
                if size >= 126:
                    wide = 2 if size == 126 else 8
                    size, at = int.from_bytes(chunk[at:at + wide], "big"), at + wide
                out.append(chunk[at:at + size])
                at += size
        return out


class BotPlayer(Player):
    """Plays its seat with the engine's strong bot, from what it is shown (games end soon)."""

    async def _move(self, message: Message) -> None:
        bot = get_engine(message["view"]["game"]).bots["strong"]
        move = bot.decide(message["view"], message["legal"], self.rng)
        self.moved += 1
        await self.link.send_move(message["seat"], move, message["state_no"])


def strings(data: Any) -> set[str]:
    """Every str (keys too) anywhere in a decoded payload."""
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return {s for k, v in data.items() for s in strings(k) | strings(v)}
    if isinstance(data, list | tuple):
        return {s for v in data for s in strings(v)}
    return set()


def clear_strings(raw: bytes) -> set[str]:
    """What the relay can read in one frame: every str outside a sealed frame's data (bin
    fields holding frames, as in "send" and "from", are read too)."""
    try:
        frame = unpack(raw)
    except Exception:
        return set()

    def walk(data: Any) -> set[str]:
        if isinstance(data, dict):
            if data.get("t") == "sealed":
                data = {k: v for k, v in data.items() if k != "data"}
            return {s for k, v in data.items() for s in {k} | walk(v)}
        if isinstance(data, list):
            return {s for v in data for s in walk(v)}
        if isinstance(data, bytes):
            return clear_strings(data)
        return {data} if isinstance(data, str) else set()

    return walk(frame)


def card_names(engine_id: str, prefix: str) -> set[str]:
    """The names and words a game's board shows (English and German, the card names among
    them), as the literal pieces of its i18n strings; plus Chez Geek's deck, ids and names."""
    words: set[str] = set()
    for table in _STRINGS.values():
        for key, text in table.items():
            if key.startswith(prefix):
                words |= {piece.strip() for piece in re.split(r"\{[^}]*\}", text)}
    if engine_id == "chez_geek":
        deck = tomllib.loads(Path("engines/chez_geek/deck.toml").read_text())
        for kind in ("job", "card"):
            for card in deck.get(kind, []):
                words |= {card["id"], card.get("de", ""), card.get("en", "")}
    return {w for w in words if len(w) >= 6}


async def play(relay: RecordingRelay, engine_id: str, seed: int) -> tuple[NetHost, list[Any]]:
    """A whole game: the host's own seat, a peer and a watcher over the relay, bots in the
    other seats, chat both ways. Returns the host and every payload the peers opened."""
    seats, options, _ = GAMES[engine_id]
    host = NetHost(engine_id, seats, options, relay_url=relay.url, host_name=NAMES[0],
                   bot_delay=0, seed=seed, keep_record=False)
    code = await host.open()
    me = BotPlayer(HostLink(host), seed=seed)
    await me.link.start()
    peer = BotPlayer(RemoteLink(code, NAMES[1], server=relay.url, remember=False), seed=seed)
    watcher = Player(RemoteLink(code, "Vicomte", server=relay.url, watch=True, remember=False),
                     play=False)
    opened: list[Any] = []
    for player in (peer, watcher):
        link = player.link
        assert isinstance(link, RemoteLink)
        await link.connect()
        unseal = link.open_sealed

        def keep(frame: dict[str, Any], unseal: Any = unseal) -> dict[str, Any]:
            payload = unseal(frame)
            opened.append(payload)
            return payload

        link.open_sealed = keep  # type: ignore[method-assign]
    try:
        await peer.link.send_chat(CHAT[0])
        host.send_chat(CHAT[1])
        await peer.wait_for(lambda m: m["type"] == "chat" and m["text"] == CHAT[1])
        host.start()
        async with asyncio.timeout(TIMEOUT * 3):
            await asyncio.gather(me.done.wait(), peer.done.wait(), watcher.done.wait())
        assert peer.result is not None and peer.result["verified"]
    finally:
        await peer.link.close()
        await watcher.link.close()
        await host.close()
    opened.append({"token": peer.link.token, "proof_key": peer.link.proof_key})
    return host, opened


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
async def test_a_recording_relay_learns_nothing_of_a_whole_game(engine_id: str) -> None:
    assert set(GAMES) == set(ENGINE_IDS)  # a new game needs its line in GAMES
    relay = RecordingRelay(Limits(sweep_every=0.5))
    await relay.start()
    try:
        host, opened = await play(relay, engine_id, seed=random.Random(engine_id).randrange(99))
    finally:
        await relay.stop()
    recorded = relay.everything()
    blob = b"\x00".join(recorded)
    # Positive control: the recorder saw the room's clear envelope, and a lot of sealed frames.
    assert host.room.encode() in blob and blob.count(b"sealed") > 50
    assert host.code.encode() not in blob and host.keys.secret.encode() not in blob
    # Never in the clear: names, chat, tokens, and the game's cards and words.
    tokens = {str(p.get("token")) for p in opened} | {str(p.get("proof_key")) for p in opened}
    secret = {*NAMES, "Vicomte", *CHAT, *tokens, *card_names(engine_id, GAMES[engine_id][2])}
    secret.discard("None")
    found = sorted(s for s in secret if s.encode() in blob)
    assert not found, found
    # Nor any other string the peers were sent (card ids, view keys, events), unless the
    # relay's own clear frames carry it (frame types, field names, room code, seat ids).
    visible = "\x00".join(set().union(*(clear_strings(raw) for raw in relay.messages())))
    hidden = {s for payload in opened for s in strings(payload)
              if len(s) >= 6 and s not in visible}  # shorter ones turn up in ciphertext
    leaked = sorted(s for s in hidden if s.encode() in blob)
    assert not leaked, leaked
    assert len(hidden) > 20  # there was plenty to hide
