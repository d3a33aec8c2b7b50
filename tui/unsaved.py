"""A home the app cannot write (a read-only disk, a file where its data or settings directory
should be): the app says so in one line and plays on in a private scratch directory that goes
when it ends, rather than stopping on its first record, seat or setting. The saved settings
are read once more from where they were, so the player's name and theme are still theirs.
Commands that exist to write there (a table's server, pruning records) stop with exit 2."""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from net import home
from tui import prefs

# The directories this run could not write and plays on without (set by `play_unsaved`).
moved: list[Path] = []


def problems() -> dict[str, str]:
    """What cannot be written ("data", "settings") and why, in words for one line."""
    found = {}
    for what, path in (("data", home.data_path()), ("settings", prefs.config_path().parent)):
        if (why := home.cannot_write(path)) is not None:
            found[what] = f"cannot write the {what} directory {path} ({why})"
    return found


def play_unsaved() -> str | None:
    """Move each directory that cannot be written to a scratch directory for this run and
    return the line that says so; None if nothing needed moving."""
    found = problems()
    if not found:
        return None
    moved.extend([home.data_path()] if "data" in found else [])
    moved.extend([prefs.config_path().parent] if "settings" in found else [])
    scratch = Path(tempfile.mkdtemp(prefix="tabletop-tui-"))
    atexit.register(shutil.rmtree, scratch, True)
    if "data" in found:
        os.environ[home.HOME_ENV] = str(scratch / "data")
    if "settings" in found:
        settings = prefs.config_path()
        os.environ[prefs.CONFIG_ENV] = str(scratch / "settings")
        with contextlib.suppress(OSError):
            prefs.config_path().parent.mkdir(parents=True)
            shutil.copyfile(settings, prefs.config_path())
    kept = [*(["games", "seats", "ratings"] if "data" in found else []),
            *(["settings"] if "settings" in found else [])]
    unsaved = f"{', '.join(kept[:-1])} or {kept[-1]}" if len(kept) > 1 else kept[0]
    return f"{'; '.join(found.values())}: playing on without saving {unsaved}"
