"""Moves that nobody at a keyboard makes: bot seats, seats a bot plays while their person is
away, and people whose clock ran out (net.table.clocks).

This only decides what to play and when; the host applies the move, so every move of a game,
a person's or a bot's, goes through the one place that checks, records and broadcasts it.
"""

from __future__ import annotations

import asyncio

from engines.base import Move
from net.host.seats import Seat
from net.table.clocks import next_timeout
from net.table.session import HostSession
from net.table.windows import next_unmanned_answer


async def unmanned_move(
    session: HostSession,
    seats: list[Seat],
    state_no: int,
    *,
    level: str,
    bot_delay: float,
) -> tuple[int, Move, bool] | None:
    """The next move for a seat without a person at state `state_no`, once it is due:
    (seat, move, whether a person's time ran out). None if nobody is due, or if the table
    moved on meanwhile. Bot seats play at their own `bot` level; the rest at `level`."""
    if session.windows.open:  # an interrupt window runs on its own clock (net.table.windows)
        due = await next_unmanned_answer(session, seats, state_no, level)
        if due is not None or session.state_no != state_no:
            return due
        return await _out_of_time(session, state_no, bot_delay)  # an untimed window
    to_act = session.engine.to_act(session.state)
    robots = [s for s in to_act if seats[s].bot or seats[s].auto]
    people = [s for s in to_act if s not in robots]
    if robots:
        if bot_delay:
            await asyncio.sleep(bot_delay)
        for seat in robots:
            move = await asyncio.to_thread(session.choose_for, seat, seats[seat].bot or level)
            if session.state_no != state_no:
                return None
            if move is not None:
                return seat, move, False
    if people:
        return await _out_of_time(session, state_no, bot_delay)
    return None


async def _out_of_time(
    session: HostSession, state_no: int, bot_delay: float
) -> tuple[int, Move, bool] | None:
    due = await next_timeout(session, state_no, bot_delay)
    return None if due is None else (*due, True)
