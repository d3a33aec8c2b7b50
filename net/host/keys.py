"""The host's side of every key exchange, and the door every sealed frame comes through.

Each side of SPAKE2 costs about half a millisecond (net.wire.pake), so the host keeps its
work off a joiner's critical path: one exchange is always started ahead, in idle time (after
opening the room, and a moment after each join), so its message goes back at once, and the
host computes its own finish in a worker thread while the message travels and the peer
computes its finish. Sealed frames that arrive before the keys are ready wait, in order. A
peer whose first sealed frame (its hello) does not open typed a wrong code: it is refused, and
the wrong tries are counted (in the game record too, so a resumed room keeps the count).

Every code-keyed exchange the host answers is a guess at the secret for whoever made it, so
the room answers them sparingly, counting each exchange under way as a wrong code until its
hello opens (a relay may forward any number of joins at once, under connection ids and
sources it invents):
- the room takes `FREE_WRONG` wrong codes at full speed, never more than `MAX_FLYING`
  exchanges under way at once; after them one exchange at a time, each waiting twice as long
  after the last wrong code as the one before (1 s, 2 s, 4 s, ...). A relay guessing through
  this room so gets 20 + log2(seconds it spends) tries of the 2**20 secrets at most (36 in
  a day), and the room is never shut: a player with the right code gets in after a wait,
  and a seat owner never needs the code at all;
- each *source* the relay names in a join's envelope (`src`: an honest relay's keyed name of
  the joiner's address group, net.relay.tokens) has the same rule of its own with
  `SOURCE_FREE` free tries, so a stranger guessing from one address slows that address, and
  stays far below the room's own count: newcomers from elsewhere are not held up. A join
  answered but never followed by its hello within `HELLO_DEADLINE` seconds is closed, and
  counts as a wrong code for its source (not for the room: it learnt nothing).
A join refused by these rules gets `slow_down` with the seconds to wait and why, before any
exchange: no guess is counted. A peer that joined once comes back by resumption
(net.wire.resume), answered here too: cheap, and no guess at anything.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import count

from net.host.uplink import Uplink
from net.wire import codes, resume
from net.wire.channel import CRYPTO, WRONG_CODE, Channel, Crypto, Exchange, Refused
from net.wire.frames import Frame, ProtocolError

log = logging.getLogger("tabletop.host")

# Wrong codes a room takes at full speed: 20 tries find a 20-bit secret with a chance of 1 in
# 52,000. After them, each code-keyed exchange waits 2**(wrong - FREE_WRONG) s after the last.
FREE_WRONG = 20
# ... and one source (an address group, as the relay names it), whose waits are its own.
SOURCE_FREE = 4
# Code-keyed exchanges a room has under way at once (answered, hello not yet opened).
MAX_FLYING = 8
# Seconds a join refused while exchanges are under way is asked to wait: they settle in
# milliseconds, or at the hello deadline.
BUSY_WAIT = 2.0
# Seconds an answered exchange or resumption has to say hello before its connection is closed
# (its place in the room, and at the relay, is freed).
HELLO_DEADLINE = 20.0
# Sources a room remembers (the least recently seen are forgotten first).
MAX_SOURCES = 4096
# Seconds after an exchange before the next one is prepared: by then the joiner's hello has
# been answered, so the preparation competes with nobody's join.
PREPARE_AFTER = 0.2
# What a connection that never said hello is told.
# Why a join is asked to wait.
BUSY = "this room is answering other joins just now (someone may be trying codes in it)"
SLOW_ROOM = "wrong join codes were tried in this room, so it takes new players slowly"
SLOW_SOURCE = ("wrong join codes were tried from your network in this room, so it takes new "
               "players from there slowly")
NO_HELLO = f"no hello within {HELLO_DEADLINE:g} s of the key exchange: connection closed"


@dataclass
class Backoff:
    """The wrong codes of a room, or of one source in it, and its exchanges under way: `free`
    at full speed (each one under way counted as wrong until its hello opens), then one at a
    time, each `2**(wrong - free)` seconds after the last wrong code."""

    free: int
    wrong: int = 0
    last: float = float("-inf")
    flying: int = 0

    def wait(self, now: float) -> float:
        """Seconds before one more exchange may be answered (0: now)."""
        if self.wrong + self.flying < self.free:
            return 0.0
        if self.flying:
            return BUSY_WAIT
        return max(0.0, self.last + 2.0 ** (self.wrong - self.free) - now)

    def busy(self) -> bool:
        """Whether it waits for exchanges under way rather than after wrong codes."""
        return self.flying > 0 and self.wrong + self.flying >= self.free

    def missed(self, now: float) -> None:
        self.wrong += 1
        self.last = now


@dataclass
class Flight:
    """A connection's exchange between the host's answer and its first sealed frame."""

    coded: bool  # keyed by the code (a guess), not a resumption
    source: Backoff | None  # the source it was counted under, if the relay named one
    timer: asyncio.TimerHandle


class Keyring:
    """Runs exchanges for connection ids and opens their sealed frames in order; each opened
    payload goes to `deliver(cid, payload, seq)`, each wrong code to `wrong(cid)`."""

    def __init__(self, uplink: Uplink, deliver: Callable[[int, Frame, int], None],
                 wrong: Callable[[int], None], find: Callable[[str], bytes | None],
                 crypto: Crypto = CRYPTO, now: Callable[[], float] = time.monotonic) -> None:
        self.uplink = uplink
        self.crypto = crypto
        self.secret = codes.new_code(codes.SECRET_LENGTH)
        self.room = Backoff(FREE_WRONG)
        self.sources: OrderedDict[str, Backoff] = OrderedDict()
        self.resumed: dict[int, bytes] = {}  # cid -> the key its resumption proved
        self._deliver, self._wrong, self._find = deliver, wrong, find
        self.now = now  # the clock the waits after wrong codes go by (tests set it)
        self._ready: Exchange | None = None
        self._preparing = False
        self._waiting: dict[int, tuple[int, list[Frame]]] = {}  # cid -> (exchange no, frames)
        self._fresh: set[int] = set()  # code-keyed channels that have opened nothing yet
        self._flying: dict[int, Flight] = {}  # cid -> its exchange, until its hello opens
        self._numbers = count()

    @property
    def wrong_tries(self) -> int:
        """Wrong codes tried in this room (kept in its record)."""
        return self.room.wrong

    @wrong_tries.setter
    def wrong_tries(self, value: int) -> None:
        self.room.wrong = value

    def prepare(self) -> None:
        """Start the next exchange in a worker thread, unless one is ready or on its way."""
        if self._ready is not None or self._preparing or not self.uplink.code:
            return
        self._preparing = True
        room, secret = self.uplink.code, self.secret
        job = asyncio.get_running_loop().run_in_executor(
            None, self.crypto.host_exchange, room, secret)

        def done(future: asyncio.Future[Exchange]) -> None:
            self._preparing = False
            fresh = room == self.uplink.code and secret == self.secret
            if fresh and not future.cancelled() and future.exception() is None:
                self._ready = future.result()

        job.add_done_callback(done)

    def slowed(self) -> float:
        """Seconds before the room takes the next code-keyed exchange (0: now)."""
        if self.room.flying >= MAX_FLYING:
            return BUSY_WAIT
        return self.room.wait(self.now())

    def _source(self, name: str | None) -> Backoff | None:
        """The count of the source the relay named (None: it named none)."""
        if name is None:
            return None
        found = self.sources.pop(name, None) or Backoff(SOURCE_FREE)
        self.sources[name] = found  # the most recently seen last
        while len(self.sources) > MAX_SOURCES:
            self.sources.popitem(last=False)
        return found

    def answer(self, cid: int, theirs: bytes, source: str | None = None) -> None:
        """A peer's first message (in join): send ours back at once, finish ours in a worker
        thread meanwhile, unless the room or the joiner's `source` must slow down. Any old
        channel of `cid` is gone from here on."""
        self.forget(cid)
        own = self._source(source)
        if self._slow_down(cid, own):
            return
        exchange, self._ready = self._ready, None
        if exchange is None:
            exchange = self.crypto.host_exchange(self.uplink.code, self.secret)
        number = next(self._numbers)
        self._waiting[cid] = (number, [])
        self._fly(cid, coded=True, source=own)
        self.uplink.post_plain([cid], "pake", msg=exchange.message)
        # Our finish waits until the message is written: a worker thread holding the
        # interpreter lock could otherwise hold up the writer for milliseconds.
        sent = self.uplink.flushed()
        loop = asyncio.get_running_loop()
        sent.add_done_callback(lambda _: loop.run_in_executor(None, exchange.finish, theirs)
                               .add_done_callback(lambda job: self._finished(cid, number, job)))
        loop.call_later(PREPARE_AFTER, self.prepare)

    def _slow_down(self, cid: int, own: Backoff | None) -> bool:
        """Refuse `cid`'s join before any exchange if the room or its source must wait, saying
        how long and why (no name in a kick: its reason travels in the clear)."""
        now = self.now()
        full = self.room.flying >= MAX_FLYING
        waits = [(BUSY_WAIT if full else self.room.wait(now),
                  BUSY if full or self.room.busy() else SLOW_ROOM)]
        if own is not None:
            waits.append((own.wait(now), BUSY if own.busy() else SLOW_SOURCE))
        wait, why = max(waits, key=lambda w: w[0])
        if not wait:
            return False
        self.uplink.kick(cid, f"{why}: try again in {wait:.0f} s", code="slow_down",
                         retry_after=round(wait, 1))
        return True

    def _fly(self, cid: int, coded: bool, source: Backoff | None = None) -> None:
        """`cid` has an exchange under way until its first sealed frame opens (or it is done
        with otherwise); closed if that does not come in time."""
        if coded:
            self.room.flying += 1
            if source is not None:
                source.flying += 1
        timer = asyncio.get_running_loop().call_later(HELLO_DEADLINE, self._late, cid)
        self._flying[cid] = Flight(coded, source, timer)

    def _land(self, cid: int, outcome: str) -> None:
        """`cid`'s exchange is done: "right" (its hello opened), "wrong" (a wrong code: the room
        and its source count it), "stall" (it never said hello: its source counts it) or
        "gone" (the room's connection to the relay was lost: nobody counts it)."""
        flight = self._flying.pop(cid, None)
        if flight is None:
            return
        flight.timer.cancel()
        if not flight.coded:
            return
        now = self.now()
        self.room.flying -= 1
        if outcome == "wrong":
            self.room.missed(now)
        if flight.source is not None:
            flight.source.flying -= 1
            if outcome in ("wrong", "stall"):
                flight.source.missed(now)

    def _late(self, cid: int) -> None:
        """No hello in time: the connection is closed, its place freed."""
        if cid in self._flying:
            log.warning("connection %d said no hello in time", cid)
            self.forget(cid)
            self.uplink.kick(cid, f"no hello within {HELLO_DEADLINE:g} s of the key exchange: "
                                  "connection closed", code="timeout")

    def _finished(self, cid: int, number: int, future: asyncio.Future[Channel]) -> None:
        waiting = self._waiting.get(cid)
        if waiting is None or waiting[0] != number or future.cancelled():
            return  # the connection left, or started another exchange meanwhile
        del self._waiting[cid]
        if (exc := future.exception()) is not None:
            log.warning("key exchange with connection %d failed: %s", cid, exc)
            self._wrong_code(cid)
            return
        self.uplink.channels[cid] = future.result()
        self._fresh.add(cid)
        for envelope in waiting[1]:
            if cid not in self.uplink.channels:
                break  # refused as a wrong code
            self.receive(cid, envelope)

    def resume(self, cid: int, frame: Frame) -> None:
        """A peer's resumption (a first `resume`, or `rejoin` on its open connection): prove
        its key back with fresh keys, or send it away if this room knows no such key. Until
        its hello opens, the new channel carries nothing of the table (the hello's `welcome`
        comes first, net.host.uplink)."""
        self.forget(cid)
        key = self._find(frame["rid"])
        if key is None:
            self.uplink.kick(cid, resume.UNKNOWN, code="unknown_resume")
            return
        try:
            fields, channel = resume.answer(self.uplink.code, key, frame["nonce"], frame["epub"])
        except ProtocolError as exc:
            self.uplink.kick(cid, exc.message, code="refused")
            return
        self.uplink.post_plain([cid], "resumed", **fields)
        self.uplink.channels[cid] = channel
        self.uplink.hushed.add(cid)
        self.resumed[cid] = key
        self._fly(cid, coded=False)

    def receive(self, cid: int, envelope: Frame) -> bool:
        """A "sealed" frame from `cid`: opened and delivered, queued until its keys are ready,
        or refused (False: no exchange yet)."""
        if (waiting := self._waiting.get(cid)) is not None:
            waiting[1].append(envelope)
            return True
        channel = self.uplink.channels.get(cid)
        if channel is None:
            return False
        try:
            payload = channel.open(envelope["n"], envelope["data"])
        except Refused as exc:
            if exc.code == "tampered" and cid in self.resumed and channel.expected == 0:
                self.forget(cid)  # it did not hold the key it named: no guess at the code
                self.uplink.kick(cid, resume.NOT_PROVEN, code="not_proven")
                return True
            if cid in self._fresh and exc.code == "tampered":
                self._wrong_code(cid)
                return True
            log.warning("refused a sealed frame from connection %d: %s", cid, exc.message)
            self.uplink.post([cid], "error", code=exc.code, message=exc.message,
                             seq=envelope["seq"])
            return True
        except ProtocolError as exc:  # authentic, but no payload: the peer's own mistake
            self._opened(cid)
            self.uplink.post([cid], "error", code=exc.code, message=exc.message,
                             seq=envelope["seq"])
            return True
        self._opened(cid)
        self._deliver(cid, payload, envelope["seq"])
        return True

    def _opened(self, cid: int) -> None:
        """A frame of `cid`'s new channel opened: its keys are right, its exchange done."""
        self._fresh.discard(cid)
        self._land(cid, "right")

    def _wrong_code(self, cid: int) -> None:
        self._land(cid, "wrong")
        self.forget(cid)
        log.warning("connection %d used a wrong join code (%d so far; %d at full speed)", cid,
                    self.wrong_tries, FREE_WRONG)
        self.uplink.kick(cid, WRONG_CODE, code="wrong_code")
        self._wrong(cid)

    def forget(self, cid: int) -> None:
        """`cid`'s channel and exchange are gone (an exchange under way without its hello
        counts against its source)."""
        self._land(cid, "stall")
        self._waiting.pop(cid, None)
        self._fresh.discard(cid)
        self.resumed.pop(cid, None)
        self.uplink.channels.pop(cid, None)
        self.uplink.hushed.discard(cid)

    def forget_all(self) -> None:
        """The room's connection to the relay was (re)opened: every channel is gone."""
        for cid in list(self._flying):
            self._land(cid, "gone")
        self._waiting.clear()
        self._fresh.clear()
        self.resumed.clear()
        self.uplink.channels.clear()
        self.uplink.hushed.clear()

    def has(self, cid: int) -> bool:
        """Whether `cid` has a channel or one on its way."""
        return cid in self._waiting or cid in self.uplink.channels
