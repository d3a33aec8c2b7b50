"""A stream of keys from the terminal's input thread never piles up in the app: the thread
waits while the app has a few of its events unhandled (tui.input_gate). An SSH session's app
once grew from 100 MiB to 952 MiB in five minutes of arrow keys, every one of them an event
waiting for an app whose output was blocked."""

from __future__ import annotations

import gc
import threading
import time

from textual import events
from textual.widgets import OptionList

from tui.app import TabletopApp
from tui.input_gate import MOST

KEYS = 2000


def keys_alive() -> int:
    """Key events this process holds (posted and not yet handled and dropped)."""
    gc.collect()
    return sum(isinstance(o, events.Key) for o in gc.get_objects())


def typist(app: TabletopApp, posted: list[int]) -> threading.Thread:
    """The terminal's input thread: arrow keys sent to the app as fast as it lets them, the
    way every Textual driver sends what it read (`Driver.send_message`)."""
    driver = app._driver
    assert driver is not None

    def run() -> None:
        for i in range(KEYS):
            driver.send_message(events.Key("down" if i % 2 else "up", None))
            posted[0] += 1

    return threading.Thread(target=run, daemon=True)


async def test_keys_from_the_input_thread_wait_while_the_app_is_blocked() -> None:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        before = keys_alive()
        posted = [0]
        thread = typist(app, posted)
        thread.start()
        # The app's loop is blocked (as by output its client does not read) while the
        # thread types; whatever the thread managed meanwhile is what waits.
        time.sleep(0.5)
        waiting = keys_alive() - before
        assert waiting <= MOST + 1, waiting
        assert posted[0] <= MOST + 1 and thread.is_alive()
        # Once the app runs again it handles them all, a few at a time, and nothing of them
        # is left; the menu is still there to take the next.
        for _ in range(600):
            if not thread.is_alive() and not len(app.input_gate):
                break
            await pilot.pause(0.05)
        assert posted[0] == KEYS and not len(app.input_gate)
        assert keys_alive() - before <= 1
        assert isinstance(app.focused, OptionList) and app.focused.id == "menu"


async def test_an_app_that_ends_never_leaves_its_input_thread_waiting() -> None:
    app = TabletopApp(lang="en")
    posted = [0]
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        thread = typist(app, posted)
        thread.start()
        time.sleep(0.2)  # the loop blocked: the thread waits at the gate
        assert posted[0] <= MOST + 1
        app.exit()
    thread.join(timeout=5)
    assert not thread.is_alive()
