"""What this user keeps of each seat they were given, per join code: the seat token, the
resumption key that brings them back without the code (net.wire.resume), the one-time ticket
that gets them past a full room, and the proof key that checks a host before the token goes
out (net.wire.proofs). In the private data directory: any of it is as good as the seat."""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from net import home


@dataclass
class Saved:
    token: str
    name: str
    proof_key: str | None = None
    key: str | None = None  # the resumption key, hex
    ticket: str | None = None


def _tokens_path() -> Path:
    return home.data_dir() / "tokens.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        tokens = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return tokens if isinstance(tokens, dict) else {}


def _entry(raw: object) -> Saved | None:
    """A saved entry; None for one that is damaged (or from another program)."""
    if isinstance(raw, list) and len(raw) in (2, 3) and all(isinstance(x, str) for x in raw):
        return Saved(*raw)  # as versions before the resumption keys wrote them
    if not isinstance(raw, dict):
        return None
    fields = {k: raw.get(k) for k in ("token", "name", "proof_key", "key", "ticket")}
    if not (isinstance(fields["token"], str) and isinstance(fields["name"], str)):
        return None
    if not all(v is None or isinstance(v, str) for v in fields.values()):
        return None
    return Saved(**fields)  # type: ignore[arg-type]


def load_token(code: str, name: str) -> Saved | None:
    """What this user keeps for the room `code` under `name` (any name if empty). Keyed by
    name too, so two people sharing one account on a shared machine keep apart."""
    try:
        path = _tokens_path()
    except OSError:  # no data directory to be had: nothing was kept
        return None
    saved = _entry(_read(path).get(code))
    if saved is None or (name and saved.name.casefold() != name.casefold()):
        return None
    return saved


def save_token(code: str, saved: Saved) -> None:
    """Remember a seat for coming back. Best effort: with no writable data directory the
    player can still ask the host for the seat back by name."""
    with contextlib.suppress(OSError):
        path = _tokens_path()
        tokens = _read(path)
        tokens.pop(code, None)
        tokens[code] = {k: v for k, v in asdict(saved).items() if v is not None}
        # Rooms are short-lived: keep the newest few dozen only.
        home.write_private(path, json.dumps(dict(list(tokens.items())[-50:])))
