"""Status lines, the top bar and the boards' lines fit the window from 80 to 120 columns: each
one wraps or is made to fit, none is cut off at its edge, in German (longer than English),
for a player with the longest name a form takes."""

from __future__ import annotations

import pytest
from textual.screen import Screen
from textual.widgets import Static
from tui_helpers import game_screen, settle, wait_for_board

from engines import ENGINE_IDS, get_engine
from tui.app import local_app
from tui.screens.base import MAX_NAME
from tui.widgets.topline import fit_parts

LONG_NAME = "Maximiliane von Hohenzollern-Sigmaringen"[:MAX_NAME]
# Keys that make moves in one game or another (the others ignore them).
KEYS = ("space", "t", "w", "enter", "e", "p", "space", "enter")


def cut_lines(screen: Screen[object]) -> list[str]:
    """The lines on show that need more rows than they have (so the rest is cut off)."""
    cut = []
    for line in screen.query(Static):
        box = line.content_region
        if not line.display or box.width <= 0 or line.styles.overflow_y in ("auto", "scroll"):
            continue
        if line.get_content_height(box.size, screen.size, box.width) > box.height:
            cut.append(f"#{line.id} {box.width}×{box.height}: {line.render()}")
    return cut


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
async def test_no_line_on_the_table_is_cut_from_80_to_120_columns(engine_id: str) -> None:
    bots = 1 if get_engine(engine_id).max_players == 2 else 2
    app = local_app(engine_id, 1, bots, "random", seed=5, options={}, lang="de", bot_delay=0,
                    names=[LONG_NAME])
    async with app.run_test(size=(120, 24)) as pilot:
        await wait_for_board(pilot)
        for width in (120, 100, 80):
            await pilot.resize_terminal(width, 24)
            for key in KEYS:
                await pilot.press(key)
                await settle(pilot, 2)
                screen = game_screen(app)
                assert not cut_lines(screen), (width, key, cut_lines(screen))


def test_a_line_of_parts_fits_by_narrowing_then_dropping_then_shortening() -> None:
    parts = ["Das Zwergenamulett", "Raum K7QX-9MPA-B3CD", "Du bist dran", "Bot 2 spielt aus"]
    assert fit_parts(parts, 120) == "  ·  ".join(parts)
    assert fit_parts(parts, 76) == " · ".join(parts)
    assert fit_parts(parts, 60, droppable=[0]) == " · ".join(parts[1:])
    short = fit_parts(parts, 40, droppable=[0])
    assert len(short) == 40 and short.endswith("…") and short.startswith("Raum K7QX")
