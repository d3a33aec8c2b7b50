"""Driving the app the way a player does: look at the screen, press a key."""

from __future__ import annotations

from textual.pilot import Pilot

from engines import ENGINE_IDS
from net.table.link import LocalLink
from tui.app import TabletopApp
from tui.boards.base import GameBoard
from tui.screens.game import GameScreen

# Bounds for loops that wait on the app, so a broken build fails instead of hanging.
MAX_STEPS = 3000


def game_screen(app: TabletopApp) -> GameScreen:
    screens = [s for s in app.screen_stack if isinstance(s, GameScreen)]
    assert screens, f"no game screen in {app.screen_stack}"
    return screens[-1]


def local_link(app: TabletopApp) -> LocalLink:
    link = game_screen(app).link
    assert isinstance(link, LocalLink)
    return link


async def settle(pilot: Pilot[None], rounds: int = 3) -> None:
    for _ in range(rounds):
        await pilot.pause()


async def open_lobby(pilot: Pilot[None], game: str) -> None:
    """From the main menu to `game`'s local lobby, with the keyboard as a player would."""
    await settle(pilot)
    await pilot.press("enter")  # Play a local game
    await settle(pilot)
    await pilot.press(*["down"] * ENGINE_IDS.index(game), "enter")
    await settle(pilot)


async def wait_for_board(pilot: Pilot[None]) -> GameBoard:
    for _ in range(100):
        await pilot.pause()
        found = pilot.app.screen.query(GameBoard)
        if found:
            return found.first()
    raise AssertionError(f"no board on {pilot.app.screen}")


def choose_key(board: GameBoard) -> str:
    """A sensible Schöne move from what the board shows: take a card when its chips make up
    for enough of its value (or when out of chips), else pay."""
    view = board.table.view
    if view["my_chips"] == 0 or view["centre_chips"] * 3 >= view["centre"] - 10:
        return "t"
    return "space"
