"""The record a host keeps of its game, and reading it back to take the room over again.

Besides the game itself (engine, options, players, seed and moves: enough to replay it) the
header holds what only the host knew: the room's code and host token, so the relay hands the
room back; each seat's token, so its person can reclaim it; and the fairness salt, so the seed
revealed at the end still matches the commitment the peers got at the start. That is what
lets `tabletop-tui host --resume` continue a game after a crash.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

from net import records
from net.host.seats import Seat
from net.records import store
from net.table.session import HostSession


def new_path(code: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return store.records_dir() / f"{stamp}-{code}.jsonl"


def header(session: HostSession, net: dict[str, Any]) -> dict[str, Any]:
    """The record's first line: the game without its moves, plus the host's `net` secrets."""
    return records.header(session, "host", code=net.get("code"), net=net)


def rewrite(writer: store.RecordWriter, head: dict[str, Any],
            session: HostSession) -> store.RecordWriter:
    """The record again with a new header (a new seat token was handed out); moves are kept."""
    writer.close()
    moves = [[seat, move] for seat, move in session.moves]
    with contextlib.suppress(OSError, ValueError):  # the game began when it began
        head = {**head, "started": store.read_record(writer.path)[0].get("started")}
    return store.RecordWriter(writer.path, head, moves)


def load(path: Path) -> tuple[dict[str, Any], list[list[Any]], dict[str, Any]]:
    """The header, the moves and the host's `net` part of an unfinished game's record."""
    head, moves, over = store.read_record(path)
    if over:
        raise ValueError("the last hosted game is already over; nothing to resume")
    return head, moves, head.get("net") or {}


def host_name(head: dict[str, Any], net: dict[str, Any]) -> str | None:
    """The name of the first seat played at the host's own terminal, if there was one."""
    local = net.get("local") or []
    return next((p["name"] for p, mine in zip(head["players"], local, strict=False) if mine),
                None)


def seats(head: dict[str, Any], net: dict[str, Any]) -> list[Seat]:
    """The seats as they were, with their tokens, nobody connected yet."""
    local = net.get("local") or []
    tokens = net.get("tokens") or [""] * len(head["players"])
    spare = net.get("spare") or [[] for _ in head["players"]]
    return [Seat(name=player["name"], bot=player["bot"], token=token or "",
                 spare=[str(t) for t in spare[i]] if i < len(spare) else [],
                 local=bool(local[i]) if i < len(local) else False)
            for i, (player, token) in enumerate(zip(head["players"], tokens, strict=True))]
