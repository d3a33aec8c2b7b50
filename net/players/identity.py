"""Who a player is, without an account: an Ed25519 key this installation makes on first start
and keeps private in its data directory. Its fingerprint names the player in records, ladders
and lobbies; its signatures make a game record say, checkably, who sat where.

A person proves who they are when they join a room, too: their hello signs a statement bound
to its very channel (the room and the channel's binding, which only its two ends can derive,
net.wire.channel), so nobody can name another player's key in a lobby to wear their reputation,
and a signature seen once is no good on any other channel.

A person proves who they are for one game by signing a statement that names that game (the
host's shuffle commitment, which every seat saw before the deal), their seat and their name.
Anyone holding the finished record can check every seat's signature, so a rating built from
records needs nobody's word (net.players.counted). Bots are named, not keyed (`bot:strong`).
An SSH player's data directory belongs to their SSH key, so their identity key does too; a
keyless SSH player (the table sets `UNRATED_ENV`) has none and plays unrated.

A table on several SSH nodes (`serve --ssh --secret-file FILE` on each) must give one SSH key
one identity whichever node the player lands on, with nothing to copy between the nodes: the
identity's seed is derived (HKDF-SHA256, `derived`) from the secret the table's machines share
and the player's SSH public key, and the node writes it into the player's data directory
before their app starts. This is the trust a player puts in any table's operator, said out
loud: whoever holds the table's secret can sign records as any of its players (as the
operator of a single machine, who can read every player's key file, always could). A player
who wants an identity nobody else holds plays from their own installation.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from net import home
from net.wire import public as listing
from net.wire.public import fingerprint

KEY_FILE = "identity_ed25519"
# Set for a session that must not have an identity (an SSH player without a key).
UNRATED_ENV = "TABLETOP_TUI_UNRATED"
BOT_PREFIX = "bot:"
# What keeps a derived identity's seed apart from anything else made of the same secret.
DERIVED_SALT = b"tabletop-tui v1 ssh player identity"


def bot(level: str) -> str:
    """A bot level's fixed identity."""
    return BOT_PREFIX + level


def statement(game_id: str, seat: int, name: str, public: bytes) -> bytes:
    """What a player signs for one game: the game, their seat, their name and their key."""
    return b"tabletop-tui v1 identity %s seat %d %s " % (
        game_id.encode(), seat, name.encode()) + public


def hello_statement(room: str, binding: bytes, public: bytes) -> bytes:
    """What a player signs in their hello: the room, their channel's binding and their key."""
    return b"tabletop-tui v1 hello %s " % room.encode() + binding + public


def hello_proven(public: object, signature: object, room: str, binding: bytes) -> bool:
    """Whether a hello's `identity` key is proven by its `identity_sig` on this channel."""
    if not (isinstance(public, bytes) and isinstance(signature, bytes) and len(public) == 32):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(
            signature, hello_statement(room, binding, public))
    except (ValueError, InvalidSignature):
        return False
    return True


@dataclass(frozen=True)
class Identity:
    private: Ed25519PrivateKey

    @property
    def public(self) -> bytes:
        return self.private.public_key().public_bytes(serialization.Encoding.Raw,
                                                      serialization.PublicFormat.Raw)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def key_for(self, purpose: bytes) -> bytes:
        """A 32-byte key for `purpose` that only holders of this identity derive (HKDF of its
        seed): what this player keeps sealed in a store others may read."""
        return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"tabletop-tui v1 key",
                    info=purpose).derive(_raw(self.private))

    def list_room(self, room: str, name: str) -> bytes:
        """The signature that lists room `room` under `name` at a public table."""
        return self.private.sign(listing.statement(room, name, self.public))

    def sign_hello(self, room: str, binding: bytes) -> bytes:
        """The signature proving this key in a hello on the channel of `binding`."""
        return self.private.sign(hello_statement(room, binding, self.public))

    def prove(self, game_id: str, seat: int, name: str) -> dict[str, str]:
        """The seat's identity as a record keeps it: fingerprint, key and signature (hex)."""
        signature = self.private.sign(statement(game_id, seat, name, self.public))
        return {"ident": self.fingerprint, "key": self.public.hex(), "sig": signature.hex()}


def derived(secret: bytes, subject: bytes) -> Identity:
    """The identity a table whose machines share `secret` gives the holder of the SSH public
    key `subject` (its wire form): the same on every machine, another for every key."""
    seed = HKDF(algorithm=hashes.SHA256(), length=32, salt=DERIVED_SALT,
                info=subject).derive(secret)
    return Identity(Ed25519PrivateKey.from_private_bytes(seed))


def keep(ident: Identity, folder: Path) -> None:
    """Make `ident` the identity of the data directory `folder` (OSError if it cannot be
    written); a file that holds it already is left alone."""
    path = folder / KEY_FILE
    text = _raw(ident.private).hex()
    with contextlib.suppress(OSError):
        if path.read_text(encoding="utf-8") == text:
            return
    home.write_private(path, text)


def _raw(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                             serialization.NoEncryption())


def mine() -> Identity | None:
    """This installation's identity, made on first use; None where it must have none (a
    keyless SSH player) or no private data directory can be had."""
    if os.environ.get(UNRATED_ENV):
        return None
    try:
        path = home.data_dir() / KEY_FILE
    except OSError:
        return None
    with contextlib.suppress(FileNotFoundError, ValueError):
        raw = path.read_bytes()
        return Identity(Ed25519PrivateKey.from_private_bytes(bytes.fromhex(raw.decode())))
    key = Ed25519PrivateKey.generate()
    try:
        home.write_private(path, _raw(key).hex())
    except OSError:
        return None
    return Identity(key)


def proven(entry: dict[str, Any], game_id: str | None, seat: int) -> str | None:
    """The identity a record's player `entry` proves for seat `seat` of game `game_id`: its
    fingerprint if the signature checks, a bot's fixed identity, else None (unproven)."""
    if entry.get("bot"):
        return bot(str(entry["bot"]))
    key, sig, name = entry.get("key"), entry.get("sig"), entry.get("name")
    if not (game_id and isinstance(key, str) and isinstance(sig, str) and isinstance(name, str)):
        return None
    try:
        public = bytes.fromhex(key)
        Ed25519PublicKey.from_public_bytes(public).verify(
            bytes.fromhex(sig), statement(game_id, seat, name, public))
    except (ValueError, InvalidSignature):
        return None
    fp = fingerprint(public)
    return fp if entry.get("ident") in (None, fp) else None
