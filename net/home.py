"""Where this user's tabletop-tui data lives: one directory (mode 0700) whose files only they
can read. Records hold secret seeds, a seat token is as good as a seat and a relay's secret
signs its rooms, so none of it may be readable by other users of a shared machine.
`TABLETOP_TUI_HOME` overrides the location (tests, portable installs)."""

from __future__ import annotations

import os
from pathlib import Path

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


def write_private(path: Path, text: str) -> None:
    """Replace `path` atomically with a file only this user can read."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)
