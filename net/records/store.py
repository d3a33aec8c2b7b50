"""What networked play keeps on disk: the host's game records and the peers' seat tokens.

Everything lives in the user's own data directory (mode 0700, files 0600): a record holds the
secret seed and a token is as good as a seat, so neither may be readable by other users of a
shared machine. `TABLETOP_TUI_HOME` overrides the location (tests, portable installs).

A record is JSON lines, appended as the game goes so a crash loses at most the move being
written: the first line is the header (engine, options, seed, players, and the room details
needed to reopen it), every further line is one move `[seat, move]`, and a last line
`{"over": true}` marks a finished game.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

APP = "tabletop-tui"


def data_dir() -> Path:
    """The user's data directory for tabletop-tui, created private if missing."""
    override = os.environ.get("TABLETOP_TUI_HOME")
    if override:
        path = Path(override)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / APP
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _write_private(path: Path, text: str) -> None:
    """Replace `path` atomically with a file only this user can read."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


# -- seat tokens (peer side) -----------------------------------------------------------------
def _tokens_path() -> Path:
    return data_dir() / "tokens.json"


def load_token(code: str, name: str) -> tuple[str, str, str | None] | None:
    """(token, name, proof key) this user got for the room `code` under `name` (any name if
    empty). Keyed by name too, so two people sharing one account on a shared machine keep
    apart. The proof key lets the peer check the host before sending the token
    (net.relay.tokens)."""
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
        _write_private(path, json.dumps(dict(list(tokens.items())[-50:])))


# -- game records (host side) ----------------------------------------------------------------
def records_dir() -> Path:
    path = data_dir() / "games"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


class RecordWriter:
    """Appends one game's record as it is played (see the module docstring for the format)."""

    def __init__(self, path: Path, header: dict[str, Any], moves: list[list[Any]],
                 *, last: bool = True) -> None:
        """`last`: this is the game `host --resume` takes up (local and peer records are not)."""
        self.path = path
        lines = [json.dumps(header)] + [json.dumps(m) for m in moves]
        _write_private(path, "".join(f"{line}\n" for line in lines))
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
