"""Where a player sits, in the table's shared store: an SSH player whose node went away
connects again, lands on another node, and `resume` takes them back to their table
(tui.comeback keeps the same in the data directory, for a player of one machine).

Kept under the player's owner name, as their seats (net.peer.tokens, `shared_store`), as JSON
that holds nothing of one machine: a hosted game's record by its file name, which the node
that reads it looks up in its own records folder (net.records). The join code is kept sealed
(AES-GCM under a key derived from the player's identity, which every node of the table gives
one SSH key alike, net.players.identity): the store never holds a code in the clear, since
the code opens the room to anyone. A player without an identity (keyless, unrated) has no
key to seal a code with: their table as a guest stays in the node's own file.
"""

from __future__ import annotations

import contextlib
import json
import os
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from net.peer import tokens
from net.players import identity, ladder
from net.players.store import StoreError

FIELDS = ("code", "name", "server", "record")
_PURPOSE = b"tabletop-tui v1 place"
_NONCE = 12


def _key(owner: str) -> AESGCM | None:
    mine = identity.mine()
    return None if mine is None else AESGCM(mine.key_for(_PURPOSE + b" " + owner.encode()))


def seal(owner: str, code: str) -> str | None:
    """`code` sealed for `owner`'s sessions alone (hex); None: this player has no key."""
    key = _key(owner)
    if key is None:
        return None
    nonce = os.urandom(_NONCE)
    return (nonce + key.encrypt(nonce, code.encode(), owner.encode())).hex()


def unseal(owner: str, sealed: str) -> str | None:
    """The code `seal` sealed; None if it does not open (another key, damaged)."""
    key = _key(owner)
    if key is None:
        return None
    try:
        raw = bytes.fromhex(sealed)
        return key.decrypt(raw[:_NONCE], raw[_NONCE:], owner.encode()).decode()
    except (ValueError, InvalidTag):
        return None


def keep(place: dict[str, str | None] | None) -> bool:
    """Keep where this player sits (`FIELDS`; None: nowhere) in the table's store; False when
    this session keeps it elsewhere (no shared store, no key for a code, the store away)."""
    shared = tokens.shared_store()
    if shared is None:
        return False
    where, owner = shared
    text, sealed = None, True
    if place is not None:
        kept: dict[str, Any] = {k: place.get(k) for k in FIELDS if k != "code"}
        if place.get("code"):
            kept["sealed"] = seal(owner, str(place["code"]))
        sealed = kept.get("sealed", "") is not None
        text = json.dumps(kept) if sealed else None  # else nowhere: the file is the word
    with contextlib.suppress(StoreError):
        store = ladder.open_store(where)
        try:
            store.keep_place(owner, text)
        finally:
            store.close()
        return sealed
    return False


def load() -> dict[str, str | None] | None:
    """Where this player sits as the table's store has it; None if it has nothing (or cannot
    be asked): the data directory's file is then the word."""
    shared = tokens.shared_store()
    if shared is None:
        return None
    where, owner = shared
    text = None
    with contextlib.suppress(StoreError):
        store = ladder.open_store(where)
        try:
            text = store.place(owner)
        finally:
            store.close()
    try:
        raw = json.loads(text) if text is not None else None
    except ValueError:
        return None
    if not isinstance(raw, dict):
        return None
    place = {k: raw.get(k) if isinstance(raw.get(k), str) else None for k in FIELDS}
    sealed = raw.get("sealed")
    if isinstance(sealed, str):
        place["code"] = unseal(owner, sealed)
        if place["code"] is None:
            return None
    return place
