"""Where this player sits, so that an app which ended without their leaving takes them back
there when it starts again (`tabletop-tui back`): a browser tab reloaded or closed, an SSH
connection that dropped. Those apps are hung up on (SIGHUP), never asked, so what they were
doing is still written here; a player who leaves a table by a key (Esc, quit) clears it, and
`back` takes it once (the way back writes it again when it gets there).

One private file in the data directory, for a guest their room (their seat token comes back
with it, net.peer.tokens) and for a host the record of the game being hosted (resumed as
`host --resume` does), named by its file name in the data directory's records. An app that
crashed while hosting keeps it: its guests wait for the resume its last line offers. An SSH
player at a table whose machines share a database has it kept there too (net.peer.places),
so `resume` finds it through any machine; that is read first, the file where it says nothing.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from net import home
from net.peer import places
from net.records.store import records_dir

FILE = "last_table.json"


@dataclass(frozen=True)
class Seat:
    """A table this player has not left: a guest's room (`code`, under `name`, at `server`)
    or the record of a game they host (`record`)."""

    code: str | None = None
    name: str = ""
    server: str | None = None
    record: str | None = None


def _path() -> Path:
    return home.data_dir() / FILE


def _keep(seat: Seat | None) -> None:
    """Best effort: a table nobody can take the player back to is only a longer way back."""
    places.keep(None if seat is None else asdict(seat))
    with contextlib.suppress(OSError):
        path = _path()
        if seat is None:
            path.unlink(missing_ok=True)
        else:
            home.write_private(path, json.dumps(asdict(seat)))


def seated(code: str, name: str, server: str | None) -> None:
    """The player took a seat in the room `code` as `name`."""
    _keep(Seat(code=code, name=name, server=server))


def hosting(record: Path) -> None:
    """The player hosts the game kept in `record` (in the records folder), which is under
    way."""
    _keep(Seat(record=record.name))


def left() -> None:
    """The player left their table themselves."""
    _keep(None)


def seat() -> Seat | None:
    """The table this player has not left, if any."""
    raw: Any = places.load()
    if raw is None:
        try:
            raw = json.loads(_path().read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
    if not isinstance(raw, dict):
        return None
    fields = {k: raw.get(k) for k in ("code", "server", "record")}
    if not all(v is None or isinstance(v, str) for v in fields.values()):
        return None
    name = raw.get("name")
    found = Seat(name=name if isinstance(name, str) else "", **fields)
    return found if found.code or found.record else None


def record_path(seat: Seat) -> Path | None:
    """The record of the game `seat` hosts, in this machine's records folder (an entry of
    an older version names the whole path)."""
    if seat.record is None:
        return None
    named = Path(seat.record)
    return named if named.is_absolute() else records_dir() / named.name
