"""Hosting and joining without a screen: for servers, scripts and tests.

`host --headless` prints the join code as the first line of stdout (so a script can read it),
runs the room until the game ends, then prints the result. `join CODE --bot LEVEL` plays one
seat with a bot and prints the same result, plus the fair-shuffle verdict; a deal that was not
verified ends it with exit status 3 (UNVERIFIED), so a script cannot miss it. Progress and
problems go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
from typing import Any

from engines import get_engine
from net.host.hosting import HostPlan, open_room
from net.peer.remote import JoinError, RemoteLink
from net.table.link import Message
from net.wire import codes

# `join --bot`'s exit status when the game ran to its end but the deal was NOT verified.
UNVERIFIED = 3


def _say(text: str) -> None:
    print(f"tabletop-tui: {text}", file=sys.stderr, flush=True)


def result_line(result: dict[str, Any], players: list[dict[str, Any]]) -> str:
    """One line both ends print identically: scores and winners by seat and name."""
    names = [p.get("name", f"seat {i}") for i, p in enumerate(players)]
    winners = ", ".join(names[w] for w in result["winners"])
    scores = json.dumps(result["scores"])
    return f"result: scores {scores} winners [{winners}]"


async def _host(args: argparse.Namespace, options: dict[str, Any]) -> int:
    seats = 0
    if not args.resume:
        eng = get_engine(args.game)
        seats = args.seats or max(eng.min_players, args.bots + 1)
        if args.bots >= seats:
            _say(f"{args.bots} bots leave no seat for a person at a table of {seats}")
            return 2
    try:
        plan = HostPlan(args.game, seats, options, server=args.server, lan=args.lan,
                        port=args.port, resume=args.resume, level=args.level, seed=args.seed,
                        bot_delay=0.0, clock=args.clock, out_of_time=args.out_of_time,
                        public=args.public, fill_after=args.bots_after,
                        min_finished=args.min_finished)
        room = await open_room(plan, say=_say)
    except (OSError, ValueError) as exc:
        _say(f"cannot host: {exc}")
        return 2
    host = room.host
    try:
        if not args.resume:
            for _ in range(args.bots):
                host.add_bot()
            host.autostart = True
        print(codes.display(host.code), flush=True)
        _say(f"room {codes.display(host.code)} open on {room.url}; waiting for players")
        await host.finished.wait()
        session = host.session
        if session is None or not session.over:
            _say("the room closed before the game ended")
            return 1
        print(result_line(session.result(), session.players()), flush=True)
        await asyncio.sleep(0.2)  # let the last frames reach the peers
        return 0
    finally:
        await room.close()


def run_host(args: argparse.Namespace, options: dict[str, Any]) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="tabletop-tui: %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_host(args, options))
    return 130


class PeerBot:
    """Plays a seat from what the peer is shown: the view and its legal moves, which is all
    the engine's bots ever look at (`Bot.decide`), so a peer bot is as strong as a local one."""

    def __init__(self, link: RemoteLink, level: str, seed: int) -> None:
        self.link, self.level = link, level
        self.rng = random.Random(seed)
        self.done = asyncio.Event()
        self.result: Message | None = None
        self._pending: asyncio.Task[None] | None = None

    def hear(self, message: Message) -> None:
        kind = message["type"]
        if kind in ("sync", "update"):
            if message["result"] is not None:
                self.result = message
                self.done.set()
            elif message["legal"] and self.link.seat in message["view"]["to_act"]:
                self._pending = asyncio.get_running_loop().create_task(self._move(message))
        elif kind == "error" and message.get("code") not in ("stale", None):
            _say(f"refused: {message['message']}")
        elif kind == "notice" and "verdict" in message:  # this peer's own check failed
            _say(message["text"])
        elif kind == "connection" and message["state"] == "closed":
            self.done.set()

    async def _move(self, message: Message) -> None:
        # In a worker thread: the expert searches for about a second, and the link must stay
        # live meanwhile.
        move = await asyncio.to_thread(self.choose, message)
        if move is not None:
            await self.link.send_move(message["seat"], move, message["state_no"])

    def choose(self, message: Message) -> dict[str, Any] | None:
        bot = get_engine(message["view"]["game"]).bots[self.level]
        return bot.decide(message["view"], message["legal"], self.rng)


async def _join(args: argparse.Namespace) -> int:
    try:
        link = RemoteLink(args.code, args.name or f"bot-{random.randrange(1000)}",
                          server=args.server, watch=args.watch)
    except codes.BadCode as exc:
        _say(str(exc))
        return 2
    bot = PeerBot(link, args.bot, seed=random.randrange(2**32))
    link.set_listener(bot.hear)
    try:
        await link.connect()
    except JoinError as exc:
        _say(f"cannot join {codes.display(link.code)}: {exc.message}")
        return 2
    try:
        _say(f"joined {codes.display(link.code)} in seat {link.seat}")
        await bot.done.wait()
        if bot.result is None:
            _say(f"the table closed: {link.close_reason}")
            return 1
        result = bot.result["result"]
        print(result_line(result, bot.result["players"]), flush=True)
        if not result.get("verified"):
            print(f"WARNING: this deal was NOT verified: {result.get('verify_note')}",
                  flush=True)
            return UNVERIFIED
        # "shuffles verified" (naming any seat whose part came too late), or the practice-deal
        # label when the host fixed the seed.
        print(result.get("verify_note"), flush=True)
        return 0
    finally:
        await link.close()


def run_join(args: argparse.Namespace) -> int:
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_join(args))
    return 130
