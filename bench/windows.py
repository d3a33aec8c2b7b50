"""Chez Geek at a local table, as a player who presses no key in a window lives it:
`python -m bench.windows` prints how long the bots' turns take, split by whether that player
could have answered anything during the turn (a window then waits for them), with the app's
own pacing (its bot delay and the default window countdown). It asserts nothing.

The player's own turns are played at once by the strong bot; in windows the player never
answers, so a window closes on its glance when they hold nothing that fits, and on its
countdown when they do. Aim (issue 22): a three-player bot turn nobody can answer under 8 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from net.table.link import LocalLink, Message
from net.table.session import HostSession, SeatInfo
from net.table.windows import can_answer
from tui.app import BOT_DELAY

GAME = "chez_geek"


async def turns(seed: int, players: int, wanted: int) -> list[tuple[float, bool, int]]:
    """(seconds, whether seat 0 could answer anything meanwhile, windows) for each bot
    turn."""
    seats = [SeatInfo("You"), *(SeatInfo(f"Bot {i}", "strong") for i in range(1, players))]
    session = HostSession(GAME, seats, seed)
    link = LocalLink(session, [0], bot_delay=BOT_DELAY)
    done = asyncio.Event()
    measured: list[tuple[float, bool, int]] = []
    turn = {"seat": -1, "since": time.monotonic(), "answerable": False, "windows": 0}

    def hear(message: Message) -> None:
        if message["type"] not in ("sync", "update"):
            return
        view = message["view"]
        if message["result"] is not None or len(measured) >= wanted:
            done.set()
            return
        if view["turn"] != turn["seat"]:
            if turn["seat"] > 0:
                measured.append((time.monotonic() - turn["since"], bool(turn["answerable"]),
                                 int(turn["windows"])))
            turn.update(seat=view["turn"], since=time.monotonic(), answerable=False, windows=0)
        clock = message["clock"]
        if clock is not None and clock["window"] != turn.get("window"):
            turn.update(window=clock["window"], windows=int(turn["windows"]) + 1)
        if view["window"] is not None and 0 in view["to_act"] and can_answer(session, 0):
            turn["answerable"] = True
        if view["turn"] == 0 and view["window"] is None and message["legal"]:
            move = session.choose_for(0, "strong")
            if move is not None:
                asyncio.get_running_loop().create_task(
                    link.send_move(0, move, message["state_no"]))

    link.set_listener(hear)
    await link.start()
    try:
        await asyncio.wait_for(done.wait(), 1800)
    finally:
        await link.close()
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=12, help="bot turns to time per game")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    quiet: list[tuple[float, int]] = []
    waited: list[tuple[float, int]] = []
    for seed in range(1, args.games + 1):
        for seconds, answerable, windows in asyncio.run(turns(seed, args.players, args.turns)):
            (waited if answerable else quiet).append((seconds, windows))
    print(f"Chez Geek, {args.players} players, one person who presses no key, bot delay "
          f"{BOT_DELAY:g} s, default window countdown")
    for label, values in (("bot turns nobody could answer", quiet),
                          ("bot turns the person could answer", waited)):
        if values:
            seconds = [s for s, _ in values]
            windows = [w for _, w in values]
            print(f"  {label}: {len(values)}, median {statistics.median(seconds):.1f} s, "
                  f"max {max(seconds):.1f} s; windows a turn: median "
                  f"{statistics.median(windows):g}, max {max(windows)}")
        else:
            print(f"  {label}: none in this sample")


if __name__ == "__main__":
    main()
