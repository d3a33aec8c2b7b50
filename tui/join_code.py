"""Where `tabletop-tui join` gets its code, so that the code need not be on the command line:
the process list (`ps`, /proc/PID/cmdline) shows every command line to every user of the
machine, while a process's environment and its terminal are its own user's.

In order: the argument (then taken out of the process title), the environment variable
`TABLETOP_TUI_CODE`, else a prompt. The prompt is on the terminal before the app starts, not
the app's Join form: `join` joins before its screen opens, so a wrong code or a full table
stays one line and exit code 2, and `join --bot` (no screen at all) reads its code the same
way, from a terminal or from one line of stdin (`tabletop-tui join --bot strong < code`).

The title is rewritten with setproctitle rather than by starting the program again without
the code: one process and one start-up, and no command line to rebuild from the parsed
arguments (which would have to follow every option). The code shows for the moment between
the start and that call; the variable and the prompt avoid even that.
"""

from __future__ import annotations

import os
import sys

from net.wire import codes

PROMPT = "Join code (e.g. K7QX-9MPA-B3CD): "
HIDDEN = "[code hidden]"


def hide(typed: str) -> None:
    """Show this process's command line with the code as `typed` taken out."""
    import setproctitle

    setproctitle.setproctitle(" ".join(HIDDEN if arg == typed else arg for arg in sys.orig_argv))


def from_environment() -> str | None:
    """The code in `TABLETOP_TUI_CODE`, in normal form, if it is set; BadCode if it is none.
    It is taken out of the environment, so nothing this process starts inherits it."""
    text = os.environ.pop(codes.CODE_ENV, "").strip()
    if not text:
        return None
    try:
        return codes.normalise_join(text)
    except codes.BadCode as exc:
        raise codes.BadCode(f"{codes.CODE_ENV}: {exc}") from None


def prompted() -> str:
    """The code typed at a prompt on the terminal (asked again while it cannot be a code), or
    the first line of stdin when that is no terminal; BadCode if none comes."""
    ask = sys.stdin.isatty()
    while True:
        if ask:
            print(PROMPT, end="", file=sys.stderr, flush=True)
        line = sys.stdin.readline()
        if not line:
            if ask:
                print(file=sys.stderr)
            raise codes.BadCode(f"no join code: give it after `join`, in {codes.CODE_ENV}, "
                                "or type it when asked")
        try:
            return codes.normalise_join(line.strip())
        except codes.BadCode as exc:
            if not ask:
                raise
            print(f"tabletop-tui: {exc}", file=sys.stderr, flush=True)
