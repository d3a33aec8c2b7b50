"""What a player set once and expects to find again: theme, language, their name, the bots'
level, the clock and takeover time they host with, the wait before bots fill a public room
(the host form remembers it; Quick play opens rooms with it) and the turn bell.

Kept as JSON in the user's config directory (`platformdirs`; `TABLETOP_TUI_CONFIG` overrides
it for tests and portable installs). A damaged or unreadable file never stops the app: the
defaults are used and the next change writes a good file. An SSH player at a table whose
machines share a database (net.players.postgres) has them kept there too, under the same owner
as their seats (net.peer.tokens), so they are the same through any machine of the table; the
file stands in while the database cannot be reached.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

from net.host.billboard import MAX_FILL_AFTER
from net.peer import tokens
from net.players import ladder
from net.players.store import StoreError
from net.table.clocks import PRESETS

APP = "tabletop-tui"
BELL_MODES = ("network", "always", "off")  # ring on your turn: in networked games, always, never
CLOCKS = PRESETS  # the clocks a host may start its rooms with


@dataclass
class Prefs:
    theme: str | None = None  # None: the default theme
    language: str | None = None  # None: from the environment (LANG)
    name: str = ""  # empty: the login name / "You"
    bot_level: str = "strong"
    clock: str = "none"  # the clock of hosted games: one of CLOCKS
    takeover: int | None = 120  # seconds before a bot takes an away seat
    bell: str = "network"
    fill_after: int | None = 60  # a public room's wait before bots fill it (Quick play's)
    relay: str = ""  # the relay Open tables asks, as last typed (empty: this machine's)

    def valid(self) -> bool:
        return (
            self.bell in BELL_MODES
            and isinstance(self.name, str)
            and isinstance(self.relay, str)
            and isinstance(self.bot_level, str)
            and self.clock in CLOCKS
            and (self.takeover is None or (type(self.takeover) is int and self.takeover > 0))
            and (self.fill_after is None or (type(self.fill_after) is int
                                             and 0 <= self.fill_after <= MAX_FILL_AFTER))
        )


CONFIG_ENV = "TABLETOP_TUI_CONFIG"


def config_path() -> Path:
    base = os.environ.get(CONFIG_ENV) or platformdirs.user_config_dir(APP)
    return Path(base) / "settings.json"


def _text() -> str:
    """The saved settings as JSON text: the table's database's, else the file's."""
    if (shared := tokens.shared_store()) is not None:
        with contextlib.suppress(StoreError):
            store = ladder.open_store(shared[0])
            try:
                if (kept := store.settings(shared[1])) is not None:
                    return kept
            finally:
                store.close()
    return config_path().read_text(encoding="utf-8")


def load() -> Prefs:
    """The saved preferences; defaults for anything missing, unknown or damaged."""
    try:
        raw = json.loads(_text())
    except (OSError, ValueError):
        return Prefs()
    if not isinstance(raw, dict):
        return Prefs()
    known = {f.name for f in fields(Prefs)}
    if raw.get("timer") and "clock" not in raw:  # a turn timer of old: a clock for every turn
        raw["clock"] = "move"
    prefs = Prefs()
    for name, value in raw.items():
        if name in known:
            candidate = Prefs(**{**asdict(prefs), name: value})
            if candidate.valid():
                prefs = candidate
    return prefs


def save(prefs: Prefs) -> None:
    """Write atomically; a read-only config directory (or a database away) costs the setting,
    never the game."""
    text = json.dumps(asdict(prefs), indent=2)
    path = config_path()
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    if (shared := tokens.shared_store()) is not None:
        with contextlib.suppress(StoreError):
            store = ladder.open_store(shared[0])
            try:
                store.keep_settings(shared[1], text)
            finally:
                store.close()


def update(**changes: Any) -> Prefs:
    """Load, change, save: one setting changed from anywhere keeps all the others."""
    prefs = load()
    for name, value in changes.items():
        setattr(prefs, name, value)
    save(prefs)
    return prefs
