"""The log wraps long lines without losing a character, beside the board (120 columns), over
it (F6 at 80 columns), and after the window is resized."""

from __future__ import annotations

from textual.pilot import Pilot
from tui_helpers import game_screen, settle, wait_for_board

from tui.app import local_app
from tui.screens.overlays import LogOverlay
from tui.widgets import EventLog


def seen(log: EventLog) -> str:
    """Everything the log shows, row after row, as far as its visible width reaches (what a
    player reads), without the spaces a wrap turns into line ends."""
    width = log.scrollable_content_region.width
    return "".join(strip.crop(0, width).text for strip in log.lines).replace(" ", "")


def written(log: EventLog) -> str:
    return "".join(log.texts).replace(" ", "")


# A name as long as a name may be, without a space: the log folds it at its width, so its
# first piece fills a whole row, up to the last column.
LONG_NAME = "Maximiliane-Hohenzollern-Sigmari"


def schoene_app():  # type: ignore[no-untyped-def]
    return local_app("schoene", 1, 2, "strong", seed=11, options={}, lang="en", bot_delay=0,
                     names=[LONG_NAME])


async def take_cards(pilot: Pilot[None]) -> None:
    """We take a dozen cards: the bots' lines and ours fill the log well past its height, so
    its scrollbar appears while lines are being written."""
    await wait_for_board(pilot)
    for _ in range(12):
        await pilot.press("t")
        await pilot.pause()
    await settle(pilot)


async def test_long_lines_wrap_whole_beside_the_board_over_it_and_after_resizes() -> None:
    app = schoene_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await take_cards(pilot)
        screen = game_screen(app)
        log = screen.query_one("#log", EventLog)
        assert log.max_scroll_y > 0  # it did overflow
        assert any(LONG_NAME in text for text in log.texts)
        assert seen(log) == written(log)
        # 80 columns: no room beside the board; the whole log opens over it.
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert screen.has_class("-narrow")
        await pilot.press("t")
        await pilot.press("f6")
        await settle(pilot)
        overlay = app.screen
        assert isinstance(overlay, LogOverlay)
        whole = overlay.query_one(EventLog)
        assert whole.max_scroll_y > 0
        assert seen(whole) == written(whole)
        await pilot.press("escape")
        # Back to 120 columns: the log beside the board again, lines written while it was
        # hidden included.
        await pilot.resize_terminal(120, 30)
        await settle(pilot)
        assert not screen.has_class("-narrow")
        assert seen(log) == written(log)
        widest = max(strip.cell_length for strip in log.lines)
        assert widest == log.scrollable_content_region.width  # wrapped to the width it has


async def test_a_wide_window_gives_the_log_room_and_the_board_what_it_needs() -> None:
    """At 160×50 a log of 32 columns wrapped nearly every line of Chez Geek's while the
    board had columns to spare: a wide window gives the log about a third, never the
    board's least width."""
    app = local_app("chez_geek", 1, 2, "random", seed=3, lang="de", bot_delay=0)
    async with app.run_test(size=(160, 50)) as pilot:
        board = await wait_for_board(pilot)
        screen = game_screen(app)
        side = screen.query_one("#side")
        assert side.region.width >= 48
        assert board.region.width >= type(board).MIN_SIZE[0]
        for size in ((120, 36), (110, 30)):
            await pilot.resize_terminal(*size)
            await settle(pilot)
            assert 32 <= side.region.width < 48
            assert board.region.width >= type(board).MIN_SIZE[0]
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert not side.display or side.region.width == 0
