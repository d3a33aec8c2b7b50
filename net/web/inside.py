"""What a tab's app knows of the web table it runs at (net.web.server sets it in the app's
environment): that it runs in a browser, where its stdout is the packet stream of
textual-serve's protocol. Nothing else may write there, so its stderr (a warning, a crash's
last line; the traceback goes to the table's log, net.ssh.inside) goes nowhere.

Read by the app at start, so it imports nothing beyond the standard library.
"""

from __future__ import annotations

import os

WEB_ENV = "TABLETOP_TUI_WEB"


def in_browser() -> bool:
    return os.environ.get(WEB_ENV) == "1"


def quiet_stderr() -> None:
    """Point the process's stderr at /dev/null (it shares the socket of its stdout)."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    os.close(null)
