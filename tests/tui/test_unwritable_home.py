"""A home the app cannot write (here a file where its data and settings directories should
be): the app says so in one line and plays on without saving; a command that exists to write
there stops with that line and exit 2. Never a traceback."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tui_helpers import local_link, open_lobby, settle, wait_for_board

from tui import unsaved
from tui.app import TabletopApp
from tui.screens.menu import MenuScreen

ROOT = Path(__file__).resolve().parents[2]
WAIT = 60.0  # seconds a started app gets to draw its menu or to end


@pytest.fixture
def blocked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A plain file where the data and the settings directories should be made."""
    wall = tmp_path / "a-file"
    wall.write_text("not a directory")
    monkeypatch.setenv("TABLETOP_TUI_HOME", str(wall / "home"))
    monkeypatch.setenv("TABLETOP_TUI_CONFIG", str(wall / "settings"))
    monkeypatch.setattr(unsaved, "moved", [])
    return wall


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tui.cli", *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=WAIT, check=False)


@pytest.mark.usefixtures("blocked")
def test_a_command_that_writes_there_stops_with_one_line_and_exit_2() -> None:
    for argv in (["records"], ["serve", "--port", "0"]):
        done = cli(*argv)
        assert done.returncode == 2, done
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert "cannot write the data directory" in done.stderr
        assert "a-file/home (Not a directory)" in done.stderr


def test_the_app_starts_says_why_and_quits_cleanly(blocked: Path) -> None:
    """The real app on a terminal of its own: its menu, one line, ctrl+q, exit 0."""
    ours, theirs = os.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"}
    proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "--lang", "en"], stdin=theirs,
                            stdout=theirs, stderr=theirs, cwd=ROOT, env=env)
    os.close(theirs)
    seen = b""
    try:
        deadline = time.monotonic() + WAIT
        while b"Play a local game" not in seen and time.monotonic() < deadline:
            if select.select([ours], [], [], 0.5)[0]:
                seen += os.read(ours, 65536)
        assert b"Play a local game" in seen, seen[-2000:]
        os.write(ours, b"\x11")  # ctrl+q
        assert proc.wait(WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(ours)
    text = seen.decode("utf-8", "replace")
    assert "Traceback" not in text
    assert "cannot write the data directory" in text and "playing on without saving" in text
    assert blocked.read_text() == "not a directory"


async def test_a_game_is_played_by_keys_and_a_setting_changed_without_saving(
    blocked: Path,
) -> None:
    line = unsaved.play_unsaved()
    assert line is not None and "settings directory" in line
    app = TabletopApp(lang="en")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert any("Nothing is saved this time" in str(note.message)
                   for note in app._notifications)
        await pilot.press("f2")  # a theme change wants to be saved
        await open_lobby(pilot, "schoene")
        await pilot.press("f5")
        board = await wait_for_board(pilot)
        for _ in range(200):
            if board.table.view.get("turn") == 0:
                break
            await pilot.pause(0.05)
        before = local_link(app).session.state_no
        await pilot.press("space")  # pay a chip (or take, if out of chips)
        await settle(pilot)
        assert local_link(app).session.state_no > before  # the move was played
        await pilot.press("escape", "escape")
        for _ in range(100):
            if isinstance(app.screen, MenuScreen):
                break
            await pilot.pause(0.05)
        assert isinstance(app.screen, MenuScreen)
    assert blocked.read_text() == "not a directory"
