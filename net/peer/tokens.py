"""What this user keeps of each seat they were given, per join code: the seat token, the
resumption key that brings them back without the code (net.wire.resume), the one-time ticket
that gets them past a full room, and the proof key that checks a host before the token goes
out (net.wire.proofs). Any of it is as good as the seat.

Kept in one of two places (`Seats`): the private data directory's `tokens.json`, or, for a
player of an SSH table that runs on several machines sharing a database (`serve --ssh --db`),
that database (net.players.sql, `seat_tokens`), so a player whose connection dropped finds
their seat through whichever machine the balancer sends them to. The table names the owner
in `OWNER_ENV` (the player's SSH identity, net.ssh.access); each owner's rows are read by
owner and room only, never listed, and the room is a hash of the join code (the code itself
opens the room to anyone, so the database never holds it).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

from net import home
from net.players import ladder
from net.players.store import SeatRow, StoreError

# Set by an SSH table whose store is a shared database: whose seats this session keeps there.
OWNER_ENV = "TABLETOP_TUI_SEATS_OWNER"


@dataclass
class Saved:
    token: str
    name: str
    proof_key: str | None = None
    key: str | None = None  # the resumption key, hex
    ticket: str | None = None
    deal: str | None = None  # the deal as this player checked it so far, JSON (net.peer.deal)


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
    fields = {k: raw.get(k) for k in ("token", "name", "proof_key", "key", "ticket", "deal")}
    if not (isinstance(fields["token"], str) and isinstance(fields["name"], str)):
        return None
    if not all(v is None or isinstance(v, str) for v in fields.values()):
        return None
    return Saved(**fields)  # type: ignore[arg-type]


class Seats(Protocol):
    """Where this user's seats are kept. Both are best effort: a seat that cannot be kept can
    still be asked back from the host by name."""

    def load(self, code: str) -> Saved | None: ...

    def save(self, code: str, saved: Saved) -> None: ...


class FileSeats:
    """The data directory's `tokens.json`."""

    def load(self, code: str) -> Saved | None:
        try:
            path = _tokens_path()
        except OSError:  # no data directory to be had: nothing was kept
            return None
        return _entry(_read(path).get(code))

    def save(self, code: str, saved: Saved) -> None:
        with contextlib.suppress(OSError):
            path = _tokens_path()
            tokens = _read(path)
            tokens.pop(code, None)
            tokens[code] = {k: v for k, v in asdict(saved).items() if v is not None}
            # Rooms are short-lived: keep the newest few dozen only.
            home.write_private(path, json.dumps(dict(list(tokens.items())[-50:])))


class DatabaseSeats:
    """The `seat_tokens` of the table's shared database, `owner`'s rows only. While the
    database cannot be reached, the data directory's file keeps a seat (good for a return
    through the same machine)."""

    def __init__(self, where: str, owner: str) -> None:
        self.where, self.owner = where, owner

    def load(self, code: str) -> Saved | None:
        try:
            store = ladder.open_store(self.where)
            try:
                row = store.seat(self.owner, room_key(code))
            finally:
                store.close()
        except StoreError:
            return FileSeats().load(code)
        if row is None:
            return FileSeats().load(code)
        return Saved(token=row.token, name=row.name, proof_key=row.proof_key,
                     key=row.resume_key, ticket=row.ticket, deal=row.deal)

    def save(self, code: str, saved: Saved) -> None:
        try:
            store = ladder.open_store(self.where)
            try:
                store.keep_seat(self.owner, room_key(code), SeatRow(
                    saved.name, saved.token, saved.proof_key, saved.key, saved.ticket,
                    saved.deal))
            finally:
                store.close()
        except StoreError:
            FileSeats().save(code, saved)


def room_key(code: str) -> str:
    """How the database names a room's seat: a hash of the join code."""
    return hashlib.sha256(f"tabletop-tui seat {code}".encode()).hexdigest()


def shared_store() -> tuple[str, str] | None:
    """(the table's database, this player's owner name) when this session keeps what is the
    player's (seats, settings, where they sit) there: an SSH table's session whose store is a
    database; None elsewhere."""
    owner = os.environ.get(OWNER_ENV)
    if not owner:  # not at a table: never asks where a ladder lives (a home that cannot be)
        return None
    where = ladder.store_location()
    return (where, owner) if ladder.is_database(where) else None


def seats() -> Seats:
    """This session's seats: the table's database if it keeps them (`shared_store`), else
    the data directory's file."""
    shared = shared_store()
    return FileSeats() if shared is None else DatabaseSeats(*shared)


def load_token(code: str, name: str) -> Saved | None:
    """What this user keeps for the room `code` under `name` (any name if empty). Keyed by
    name too, so two people sharing one account on a shared machine keep apart."""
    saved = seats().load(code)
    if saved is None or (name and saved.name.casefold() != name.casefold()):
        return None
    return saved


def save_token(code: str, saved: Saved) -> None:
    """Remember a seat for coming back (best effort, see `Seats`)."""
    seats().save(code, saved)
