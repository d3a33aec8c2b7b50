"""A host that closes its room before the game's end: what it signs, and how the game stood.

Closing a room mid-game is the host's leaving: its own seats count as left (last, with the
penalty), and every other seat keeps the place the game gave it at the last state (the
engine's `standing` there, `stood`). The host tells its guests so in one last table message
whose reveal holds everything the end's reveal holds (the secret, the salt, the parts and the
record up to that state), so each guest checks the deal and replays the game itself: nothing
of the guests' places is the host's word. What the host adds is its own confession, signed
with its identity key (`statement`): the state it closed at and the seats that left. A guest
cannot write that for the host (it holds no such key), so no guest can cut a finished game
short and make its host a leaver; and a host cannot name a guest who was at the table among
those who left (the guest refuses the reveal, `left_me`), so closing never costs a guest.
"""

from __future__ import annotations

from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from engines.base import Engine
from net.players.identity import Identity


def statement(game_id: str, state: int, left: list[int]) -> bytes:
    """What a closing host signs: the game, the state it closed at, who left (seat order)."""
    seats = ",".join(str(seat) for seat in sorted(left))
    return b"tabletop-tui v1 close %s state %d left %s" % (game_id.encode(), state,
                                                          seats.encode())


def sign(me: Identity, game_id: str, state: int, left: list[int]) -> str:
    """The host's signature (hex) on closing game `game_id` at `state` with `left` gone."""
    return me.private.sign(statement(game_id, state, left)).hex()


def signed(key: object, sig: object, game_id: str, state: int, left: list[int]) -> bool:
    """Whether `sig` (hex) by the key `key` (hex) signs closing `game_id` at `state`."""
    if not (isinstance(key, str) and isinstance(sig, str)):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
            bytes.fromhex(sig), statement(game_id, state, left))
    except (ValueError, InvalidSignature):
        return False
    return True


def well_formed(closed: object) -> bool:
    """Whether `closed` has the shape a close carries: `{state, seat, sig}`."""
    return (isinstance(closed, dict) and type(closed.get("state")) is int
            and type(closed.get("seat")) is int and isinstance(closed.get("sig"), str))


def check(closed: object, players: list[dict[str, Any]], game_id: str | None,
          moves: int, left: list[int]) -> bool:
    """Whether `closed` is a close its signer may have made of this game: made at the state
    the record reaches (`moves`), by a person's seat among those that `left`, signed by that
    seat's key for this game."""
    if not (well_formed(closed) and isinstance(closed, dict) and game_id):
        return False
    seat, state = closed["seat"], closed["state"]
    if state != moves or seat not in left or not 0 <= seat < len(players):
        return False
    entry = players[seat]
    if not isinstance(entry, dict) or entry.get("bot"):
        return False
    return signed(entry.get("key"), closed["sig"], game_id, state, left)


def stood(engine: Engine, state: Any) -> list[int]:
    """Each seat's place as the game stood at `state` (not over): by the engine's standing
    alone, equal standings sharing a place; nobody has won yet."""
    return engine.places({**engine.result(state), "winners": []})
