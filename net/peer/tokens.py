"""The seat tokens this user was given, per join code: what gets a dropped or restarted
peer back into its seat without asking the host (net.peer.joining proves the host first)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from net import home


def _tokens_path() -> Path:
    return home.data_dir() / "tokens.json"


def load_token(code: str, name: str) -> tuple[str, str, str | None] | None:
    """(token, name, proof key) this user got for the room `code` under `name` (any name if
    empty). Keyed by name too, so two people sharing one account on a shared machine keep
    apart. The proof key lets the peer check the host before sending the token
    (net.wire.proofs)."""
    try:
        tokens = json.loads(_tokens_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entry = tokens.get(code) if isinstance(tokens, dict) else None
    if not (isinstance(entry, list) and len(entry) in (2, 3)
            and all(isinstance(x, str) for x in entry)):
        return None
    if name and entry[1].casefold() != name.casefold():
        return None
    return entry[0], entry[1], entry[2] if len(entry) == 3 else None


def save_token(code: str, token: str, name: str, proof_key: str | None = None) -> None:
    """Remember a seat's token for rejoining. Best effort: with no writable data directory
    the player can still ask the host for the seat back by name."""
    with contextlib.suppress(OSError):
        path = _tokens_path()
        try:
            tokens = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(tokens, dict):
                tokens = {}
        except (OSError, ValueError):
            tokens = {}
        tokens.pop(code, None)
        tokens[code] = [token, name] + ([proof_key] if proof_key else [])
        # Rooms are short-lived: keep the newest few dozen tokens only.
        home.write_private(path, json.dumps(dict(list(tokens.items())[-50:])))
