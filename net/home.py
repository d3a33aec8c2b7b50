"""Where this user's tabletop-tui data lives: one directory (mode 0700) whose files only they
can read. Records hold secret seeds, a seat token is as good as a seat and a relay's secret
signs its rooms, so none of it may be readable by other users of a shared machine.
`TABLETOP_TUI_HOME` overrides the location (tests, portable installs)."""

from __future__ import annotations

import os
from pathlib import Path

APP = "tabletop-tui"


HOME_ENV = "TABLETOP_TUI_HOME"


def data_path() -> Path:
    """Where the user's data directory is (it may not exist yet)."""
    override = os.environ.get(HOME_ENV)
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP


def data_dir() -> Path:
    """The user's data directory for tabletop-tui, created private if missing."""
    path = data_path()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def cannot_write(path: Path) -> str | None:
    """Why a file cannot be written in the directory `path` (made if missing), or None: a
    file where the directory should be, a read-only disk, no permission."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        probe = path / f".probe.{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def write_private(path: Path, text: str) -> None:
    """Replace `path` atomically with a file only this user can read."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
