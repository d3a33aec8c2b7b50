"""What a player set once and expects to find again: theme, language, their name, the bots'
level, the timers they host with and the turn bell.

Kept as JSON in the user's config directory (`platformdirs`; `TABLETOP_TUI_CONFIG` overrides
it for tests and portable installs). A damaged or unreadable file never stops the app: the
defaults are used and the next change writes a good file.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

APP = "tabletop-tui"
BELL_MODES = ("network", "always", "off")  # ring on your turn: in networked games, always, never


@dataclass
class Prefs:
    theme: str | None = None  # None: the default theme
    language: str | None = None  # None: from the environment (LANG)
    name: str = ""  # empty: the login name / "You"
    bot_level: str = "strong"
    timer: int | None = None  # turn timer of hosted games, seconds
    takeover: int | None = 120  # seconds before a bot takes an away seat
    bell: str = "network"

    def valid(self) -> bool:
        return (
            self.bell in BELL_MODES
            and isinstance(self.name, str)
            and isinstance(self.bot_level, str)
            and all(v is None or (type(v) is int and v > 0) for v in (self.timer, self.takeover))
        )


def config_path() -> Path:
    base = os.environ.get("TABLETOP_TUI_CONFIG") or platformdirs.user_config_dir(APP)
    return Path(base) / "settings.json"


def load() -> Prefs:
    """The saved preferences; defaults for anything missing, unknown or damaged."""
    try:
        raw = json.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Prefs()
    if not isinstance(raw, dict):
        return Prefs()
    known = {f.name for f in fields(Prefs)}
    prefs = Prefs()
    for name, value in raw.items():
        if name in known:
            candidate = Prefs(**{**asdict(prefs), name: value})
            if candidate.valid():
                prefs = candidate
    return prefs


def save(prefs: Prefs) -> None:
    """Write atomically; a read-only config directory costs the setting, never the game."""
    path = config_path()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(prefs), indent=2), encoding="utf-8")
        os.replace(tmp, path)


def update(**changes: Any) -> Prefs:
    """Load, change, save: one setting changed from anywhere keeps all the others."""
    prefs = load()
    for name, value in changes.items():
        setattr(prefs, name, value)
    save(prefs)
    return prefs
