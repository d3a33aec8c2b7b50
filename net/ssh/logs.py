"""The log of `serve --ssh`, for the operator of a public table: one line per session started
and ended (with its length, why it ended and how many are live), failed logins, refusals and
errors; never a password, a join code or anything a player typed.

A public server sees the same failure many times over (a scanner's logins, a flood of
refused connections, the event loop failing to accept while out of files): such lines come
at most `burst` times a minute for each kind (the same logger, level, message and error),
and the next one let through says how many were left out. The lines of a session's start and
end are every one kept (`EVERY`): they are what the operator counts, and the table's limits
already bound how often they come.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import TextIO

EVERY = {"every": True}  # `extra=` for a line that is never left out

Kind = tuple[str, int, str, str]


class Repeats(logging.Filter):
    """Lets through at most `burst` records of one kind per `window` seconds."""

    def __init__(self, burst: int = 5, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst = burst
        self.window = window
        self.clock = clock
        self._kinds: dict[Kind, list[float]] = {}  # [window start, records in it, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "every", False):
            return True
        error = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        kind = (record.name, record.levelno, str(record.msg), error)
        now = self.clock()
        seen = self._kinds.get(kind)
        if seen is None or now - seen[0] >= self.window:
            left_out = int(seen[2]) if seen is not None else 0
            self._kinds[kind] = [now, 1, 0]
            if len(self._kinds) > 1024:
                self._forget(now)
            if left_out:
                record.msg = f"{record.msg} (and {left_out} more like this, left out)"
            return True
        if seen[1] < self.burst:
            seen[1] += 1
            return True
        seen[2] += 1
        return False

    def _forget(self, now: float) -> None:
        for kind in [k for k, seen in self._kinds.items() if now - seen[0] >= self.window]:
            del self._kinds[kind]


def setup(stream: TextIO = sys.stderr) -> logging.Handler:
    """Log to `stream` with a time on each line, repeats held back, and asyncssh's own lines
    (one per packet at INFO) only from its warnings up."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(message)s"))
    handler.addFilter(Repeats())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    return handler
