"""Keeping the terminal's input from running ahead of the app.

Textual reads its terminal in a thread of its own, and that thread reads and posts every key
and mouse report as it comes, whether or not the app has handled the last ones. When the app
falls behind (its output blocked by a client that does not read, a slow board, a stream of
keys faster than it draws them) every unhandled event waits in memory, without end: an SSH
session sent arrow keys at the rate its table allows grew from 100 MiB to almost 1 GiB in five
minutes. The gate makes the input thread wait while MOST events are posted and not yet
handled: the terminal's own buffer then fills, and whoever writes to it (the SSH table, the
web table's bridge) waits in turn, as a pipe does.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

# Events the input thread may have posted that the app has not handled yet.
MOST = 32
# How often a waiting input thread looks whether the app is ending (nothing may then wait).
LOOK_EVERY = 0.1


class InputGate:
    """Counts the events another thread posted to the app; `enter` waits for room."""

    def __init__(self, ending: Callable[[], bool], most: int = MOST) -> None:
        self.ending = ending
        self.most = most
        self._pending: set[int] = set()
        self._room = threading.Condition()

    def __len__(self) -> int:
        return len(self._pending)

    def enter(self, event: object) -> None:
        """In the input thread: wait until the app has room for `event`, which it then owes
        a `leave`. An ending app is never waited for (its input thread must end too)."""
        with self._room:
            while len(self._pending) >= self.most and not self.ending():
                self._room.wait(LOOK_EVERY)
            self._pending.add(id(event))

    def leave(self, event: object) -> None:
        """The app has handled `event` (or will never): room for the next."""
        with self._room:
            if id(event) in self._pending:
                self._pending.discard(id(event))
                self._room.notify()
