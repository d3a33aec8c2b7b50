"""The host's side of every key exchange, and the door every sealed frame comes through.

Each side of SPAKE2 costs about half a millisecond (net.wire.pake), so the host keeps its
work off a joiner's critical path: one exchange is always started ahead, in idle time (after
opening the room, and a moment after each join), so its message goes back at once, and the
host computes its own finish in a worker thread while the message travels and the peer
computes its finish. Sealed frames that arrive before the keys are ready wait, in order. A
peer whose first sealed frame (its hello) does not open typed a wrong code: it is refused, and
the wrong tries are counted (in the game record too, so a resumed room keeps the count).

Every wrong code is a guess at the secret, so after `FREE_WRONG` of them the room takes new
code-keyed exchanges only slowly: each further one waits twice as long after the last wrong
code as the one before (1 s, 2 s, 4 s, ...). A relay guessing through this room then gets
about 20 + log2(seconds it spends) tries of the 2**20 secrets (36 in a day), yet the room is
never shut: a new player with the right code gets in after a wait, and a seat owner never
needs the code at all. A peer that joined once comes back by resumption (net.wire.resume),
answered here too: cheap, and no guess at anything.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from itertools import count

from net.host.uplink import Uplink
from net.wire import codes, resume
from net.wire.channel import CRYPTO, WRONG_CODE, Channel, Crypto, Exchange, Refused
from net.wire.frames import Frame, ProtocolError

log = logging.getLogger("tabletop.host")

# Wrong codes a room takes at full speed: 20 tries find a 20-bit secret with a chance of 1 in
# 52,000. After them, each code-keyed exchange waits 2**(wrong - FREE_WRONG) s after the last.
FREE_WRONG = 20
# Seconds after an exchange before the next one is prepared: by then the joiner's hello has
# been answered, so the preparation competes with nobody's join.
PREPARE_AFTER = 0.2


class Keyring:
    """Runs exchanges for connection ids and opens their sealed frames in order; each opened
    payload goes to `deliver(cid, payload, seq)`, each wrong code to `wrong(cid)`."""

    def __init__(self, uplink: Uplink, deliver: Callable[[int, Frame, int], None],
                 wrong: Callable[[int], None], find: Callable[[str], bytes | None],
                 crypto: Crypto = CRYPTO, now: Callable[[], float] = time.monotonic) -> None:
        self.uplink = uplink
        self.crypto = crypto
        self.secret = codes.new_code(codes.SECRET_LENGTH)
        self.wrong_tries = 0
        self.resumed: dict[int, bytes] = {}  # cid -> the key its resumption proved
        self._deliver, self._wrong, self._find = deliver, wrong, find
        self.now = now  # the clock the waits after wrong codes go by (tests set it)
        self._last_wrong = float("-inf")
        self._ready: Exchange | None = None
        self._preparing = False
        self._waiting: dict[int, tuple[int, list[Frame]]] = {}  # cid -> (exchange no, frames)
        self._fresh: set[int] = set()  # channels that have opened nothing yet
        self._numbers = count()

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
        over = self.wrong_tries - FREE_WRONG
        if over < 0:
            return 0.0
        return max(0.0, self._last_wrong + 2.0**over - self.now())

    def answer(self, cid: int, theirs: bytes) -> None:
        """A peer's first message (in join): send ours back at once, finish ours in a worker
        thread meanwhile. Any old channel of `cid` is gone from here on."""
        self.forget(cid)
        if wait := self.slowed():
            # No name in a kick: its reason travels in the clear, through the relay.
            self.uplink.kick(cid, f"wrong join codes were tried in this room, so it takes new "
                                  f"players slowly: try again in {wait:.0f} s",
                             code="slow_down", retry_after=round(wait, 1))
            return
        exchange, self._ready = self._ready, None
        if exchange is None:
            exchange = self.crypto.host_exchange(self.uplink.code, self.secret)
        number = next(self._numbers)
        self._waiting[cid] = (number, [])
        self.uplink.post_plain([cid], "pake", msg=exchange.message)
        # Our finish waits until the message is written: a worker thread holding the
        # interpreter lock could otherwise hold up the writer for milliseconds.
        sent = self.uplink.flushed()
        loop = asyncio.get_running_loop()
        sent.add_done_callback(lambda _: loop.run_in_executor(None, exchange.finish, theirs)
                               .add_done_callback(lambda job: self._finished(cid, number, job)))
        loop.call_later(PREPARE_AFTER, self.prepare)

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
        its key back with fresh keys, or send it away if this room knows no such key."""
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
        self.resumed[cid] = key

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
            self._fresh.discard(cid)
            self.uplink.post([cid], "error", code=exc.code, message=exc.message,
                             seq=envelope["seq"])
            return True
        self._fresh.discard(cid)
        self._deliver(cid, payload, envelope["seq"])
        return True

    def _wrong_code(self, cid: int) -> None:
        self.wrong_tries += 1
        self._last_wrong = self.now()
        self.forget(cid)
        log.warning("connection %d used a wrong join code (%d so far; %d at full speed)", cid,
                    self.wrong_tries, FREE_WRONG)
        self.uplink.kick(cid, WRONG_CODE, code="wrong_code")
        self._wrong(cid)

    def forget(self, cid: int) -> None:
        self._waiting.pop(cid, None)
        self._fresh.discard(cid)
        self.resumed.pop(cid, None)
        self.uplink.channels.pop(cid, None)

    def forget_all(self) -> None:
        self._waiting.clear()
        self._fresh.clear()
        self.resumed.clear()
        self.uplink.channels.clear()

    def has(self, cid: int) -> bool:
        """Whether `cid` has a channel or one on its way."""
        return cid in self._waiting or cid in self.uplink.channels
