"""What a session's app knows of the SSH table it runs at, from the environment the session
gives it (net.ssh.session): the table's port, so advice names `ssh -t -p PORT HOST resume`
rather than a command an SSH player has no shell to run; whether the player came without a
key (then anyone who types their name is them); and where a crash's traceback goes, which is
the table's log and never the player's screen (it would show a stranger the server's paths).

Read by the app at start, so it imports nothing beyond the standard library.
"""

from __future__ import annotations

import os
from pathlib import Path

PORT_ENV = "TABLETOP_TUI_SSH_PORT"
KEYLESS_ENV = "TABLETOP_TUI_SSH_KEYLESS"
CRASH_ENV = "TABLETOP_TUI_SSH_CRASH"


def env_for(port: int, keyless: bool, crash_report: Path) -> dict[str, str]:
    """What a session adds to its app's environment."""
    env = {PORT_ENV: str(port), CRASH_ENV: str(crash_report)}
    if keyless:
        env[KEYLESS_ENV] = "1"
    return env


def port() -> int | None:
    """The SSH table's port, if this app is one of its sessions."""
    try:
        return int(os.environ[PORT_ENV])
    except (KeyError, ValueError):
        return None


def ssh_command(words: str) -> str | None:
    """How a player of this SSH table runs `words` (None outside a session). The server cannot
    know the name the player reached it by, so HOST stays a word for them to fill in."""
    number = port()
    return None if number is None else f"ssh -t -p {number} HOST {words}"


def keyless() -> bool:
    """Whether the player logged in without a key: a name is all that makes them them."""
    return os.environ.get(KEYLESS_ENV) == "1"


def crash_report() -> Path | None:
    """Where this session's app writes its traceback should it crash, for the table's log."""
    path = os.environ.get(CRASH_ENV)
    return Path(path) if path else None
