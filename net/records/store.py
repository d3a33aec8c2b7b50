"""Game records on disk, in the user's own data directory (net.home): a record holds the
secret seed, so no other user of a shared machine may read it.

A record is JSON lines, appended as the game goes so a crash loses at most the move being
written: the first line is the header (engine, options, seed, players, and the room details
needed to reopen it), every further line is one move `[seat, move]`, and a last line
`{"over": true}` marks a finished game.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from net import home


def records_dir() -> Path:
    path = home.data_dir() / "games"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


class RecordWriter:
    """Appends one game's record as it is played (see the module docstring for the format)."""

    def __init__(self, path: Path, header: dict[str, Any], moves: list[list[Any]],
                 *, last: bool = True) -> None:
        """`last`: this is the game `host --resume` takes up (local and peer records are not)."""
        self.path = path
        lines = [json.dumps(header)] + [json.dumps(m) for m in moves]
        home.write_private(path, "".join(f"{line}\n" for line in lines))
        if last:
            (path.parent / "last").write_text(path.name + "\n", encoding="utf-8")
        self._handle = open(path, "a", encoding="utf-8")  # noqa: SIM115 - held for the game

    def move(self, seat: int, move: dict[str, Any]) -> None:
        self._handle.write(json.dumps([seat, move]) + "\n")
        self._handle.flush()

    def finish(self, result: dict[str, Any] | None = None, **extra: Any) -> None:
        """The end line; `result` (and `extra`) let a list show the winner without a replay."""
        end = {"over": True, **({"result": result} if result is not None else {}), **extra}
        self._handle.write(json.dumps(end) + "\n")
        self.close()

    def close(self) -> None:
        if not self._handle.closed:
            self._handle.close()


def read_record(path: Path) -> tuple[dict[str, Any], list[list[Any]], bool]:
    """(header, moves, over) from a record file. A torn last line (crash mid-write) is
    ignored; anything else malformed is a ValueError naming the line."""
    header: dict[str, Any] | None = None
    moves: list[list[Any]] = []
    over = False
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        try:
            item = json.loads(line)
        except ValueError:
            if number == len(lines):
                break
            raise ValueError(f"{path}: line {number} is not JSON") from None
        if header is None:
            if not isinstance(item, dict) or "engine" not in item:
                raise ValueError(f"{path}: the first line is not a record header")
            header = item
        elif isinstance(item, dict) and item.get("over"):
            over = True
        elif isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict):
            moves.append(item)
        else:
            raise ValueError(f"{path}: line {number} is not a move")
    if header is None:
        raise ValueError(f"{path} is empty")
    return header, moves, over


def last_record() -> Path | None:
    """The record of the game this user hosted last, if there is one."""
    folder = records_dir()
    with contextlib.suppress(OSError):
        name = (folder / "last").read_text(encoding="utf-8").strip()
        if name and "/" not in name and (folder / name).is_file():
            return folder / name
    return None
