"""Stacked Chez Geek deals and waiting on the board, shared by the Chez Geek table tests."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import MAX_STEPS, wait_for_board

from engines import get_engine
from net import records
from net.table.session import HostSession, SeatInfo
from tui.boards.chez_geek import Board

GAME = "chez_geek"
ENGINE = get_engine(GAME)
DECK: list[str] = [cid for cid, card in ENGINE.cards.items() for _ in range(card.copies)]
# The jobs of a game of three or more (Slacker and Drummer are for two, or left out).
JOBS = ["hiwi", "web_designer", "arbeitsdrohne", "versuchskaninchen", "support_hotline",
        "zeitarbeiter", "kellner"]
HARMLESS = ["bier", "pizza", "nachos", "gullys", "ultra_slims"]


def stack(*top: str) -> list[str]:
    """The whole deck with `top` first (seat 0's hand, seat 1's hand, then the draw pile)."""
    rest = Counter(DECK)
    rest.subtract(Counter(top))
    assert min(rest.values()) >= 0, "a card is stacked more often than the deck has it"
    return [*top, *sorted(rest.elements())]


def text_of(widget: Static) -> str:
    return str(widget.render())


async def board_of(pilot: Pilot[None]) -> Board:
    board = await wait_for_board(pilot)
    assert isinstance(board, Board)
    return board


async def until(pilot: Pilot[None], check: Any, what: str) -> Board:
    """Pause until `check(board)` holds for the board on show."""
    for _ in range(MAX_STEPS):
        await pilot.pause()
        found = pilot.app.screen.query(Board)
        if found and check(found.first()):
            return found.first()
    raise AssertionError(f"never: {what}")


def played_record(players: int, seed: int, moves: int, options: dict[str, Any] | None = None
                  ) -> Path:
    """A game the strong bot played from every seat for `moves` moves (and on until seat 0
    may move), saved as a local record with seat 0 at this keyboard: a table in full swing."""
    seats = [SeatInfo("You")] + [SeatInfo(f"Bot {i}", bot="strong") for i in range(1, players)]
    session = HostSession(GAME, seats, seed, {"window_seconds": 0, **(options or {})})
    rng = random.Random(seed)
    bot = ENGINE.bots["strong"]
    made = 0
    while not session.over and (made < moves or 0 not in ENGINE.to_act(session.state)):
        seat = ENGINE.to_act(session.state)[0]
        session.submit(seat, bot.choose(ENGINE, session.state, seat, rng) or {"type": "pass"})
        made += 1
    path = records.LocalRecorder(session, [0]).path
    assert path is not None
    return path
