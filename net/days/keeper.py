"""The table's keeper of games over days: what happens while nobody is at the keys.

Every `serve` node runs one (`DaysKeeper.run`); each round (`tick`) it
- lets the table move where a turn's time ran out (the strong bot takes the seat for good,
  net.days.table) and where bots are due;
- POSTs each player's webhook once for every turn that became theirs;
- tells the others of a game when a player goes on vacation (their webhook, once);
- e-mails a player one last warning before a turn's time runs out, and a digest of the games
  waiting for them at most once a day;
every notice in the language the player set them in (net.days.words).
Several nodes may run keepers on one store: every notice is claimed in the store before it is
sent (`DaysStore.claim`), so each goes out once. Time comes from `now` (a fake clock in tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engines import get_engine
from net.days import clock
from net.days.notices import Smtp, post
from net.days.store import PLAYING, DaysStore, Game, Player
from net.days.table import sweep
from net.days.words import counted, days, line
from net.players import ladder
from net.players.store import StoreError

TICK_SECONDS = 60.0
WAITING_SQL = (
    "SELECT g.id, g.engine, g.state_no, g.to_act, s.seat, s.ident, p.webhook, p.lang "
    "FROM days_games g "
    "JOIN days_seats s ON s.game = g.id JOIN days_players p ON p.ident = s.ident "
    "WHERE g.status = ? AND p.webhook IS NOT NULL AND s.timed_out IS NULL AND NOT EXISTS "
    "(SELECT 1 FROM days_notices n WHERE n.game = g.id AND n.ident = s.ident "
    "AND n.kind = 'turn' AND n.state_no = g.state_no)")


@dataclass
class Tick:
    """What one round did (for the log and the tests)."""

    moved: list[str] = field(default_factory=list)  # games where the table moved
    hooks: int = 0
    mails: int = 0


def when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))


class DaysKeeper:
    def __init__(self, where: str | None = None, *, now: Callable[[], float] = time.time,
                 smtp: Smtp | None = None, private_hooks: bool = False) -> None:
        self.where = where
        self.now = now
        self.smtp = smtp
        self.private_hooks = private_hooks

    def open(self) -> DaysStore:
        store = ladder.open_store(self.where)
        return DaysStore(store)  # type: ignore[arg-type]

    async def run(self, every: float = TICK_SECONDS) -> None:
        """Tick until cancelled; a store that fails now is tried again next round."""
        while True:
            with contextlib.suppress(StoreError, OSError):
                await asyncio.to_thread(self.tick)
            await asyncio.sleep(every)

    def tick(self) -> Tick:
        done = Tick()
        store = self.open()
        try:
            now = self.now()
            for game_id in store.due(now):
                if sweep(store, game_id, now) is not None:
                    done.moved.append(game_id)
            done.hooks += self._turns(store, now) + self._aways(store, now)
            if self.smtp is not None:
                done.mails += self._warnings(store, now) + self._digests(store, now)
        finally:
            store.close()
        return done

    def _hook(self, url: str, title: str, text: str) -> bool:
        return post(url, title, text, self.private_hooks)

    def _turns(self, store: DaysStore, now: float) -> int:
        sent = 0
        for game_id, engine, state_no, to_act, seat, ident, hook, lang in store.rows(
                WAITING_SQL, (PLAYING,)):
            if seat in json.loads(to_act) and store.claim(game_id, ident, "turn", state_no, now):
                sent += self._hook(hook, "tabletop-tui", line(
                    "turn", lang or "en", title=get_engine(engine).title, game=game_id,
                    move=state_no + 1))
        return sent

    def _aways(self, store: DaysStore, now: float) -> int:
        sent = 0
        for player in store.all_players():
            if not player.away.at(now) or player.away.start is None:
                continue
            for listing in store.games_of(player.ident):
                for _name, other, _bot in listing.seats:
                    if other is None or other == player.ident:
                        continue
                    them = store.player(other)
                    if them is None or not them.webhook:
                        continue
                    if store.claim(listing.id, other, f"away {player.ident}",
                                   int(player.away.start), now):
                        sent += self._hook(them.webhook, "tabletop-tui", line(
                            "away", them.lang, name=player.name,
                            until=when(player.away.end or now), game=listing.id))
        return sent

    def _warnings(self, store: DaysStore, now: float) -> int:
        assert self.smtp is not None
        sent = 0
        for game_id in store.due_share(now, 1 - clock.WARN_SHARE):
            game = store.load(game_id, with_moves=False)
            if game is None:
                continue
            for number in game.to_act:
                seat = game.seats[number]
                player = store.player(seat.ident) if seat.ident else None
                if player is None or not player.email or seat.timed_out is not None:
                    continue
                left = clock.left(seat.bank, game.turn_since, now, player.away)
                if 0 < left <= clock.WARN_SHARE * game.days * clock.DAY and store.claim(
                        game.id, player.ident, "warn", game.state_no, now):
                    sent += self.smtp.send(player.email, line("warn_subject", player.lang),
                                           _warning(game, left, player.lang))
        return sent

    def _digests(self, store: DaysStore, now: float) -> int:
        assert self.smtp is not None
        sent = 0
        for player in store.all_players():
            if not player.email or player.digest_sent > now - clock.DAY:
                continue
            waiting = [g for g in store.games_of(player.ident) if g.my_turn]
            if not waiting:
                continue
            claimed = store.rows("UPDATE days_players SET digest_sent = ? WHERE ident = ? "
                                 "AND digest_sent = ? RETURNING ident",
                                 (now, player.ident, player.digest_sent))
            if claimed:
                sent += self.smtp.send(player.email,
                                       counted("digest_subject", len(waiting), player.lang),
                                       _digest(player, waiting, now))
        return sent


def _warning(game: Game, left: float, lang: str) -> str:
    hours = max(1, round(left / 3600))
    return line("warn", lang, title=get_engine(game.engine).title, game=game.id,
                hours=hours) + "\n"


def _digest(player: Player, waiting: list, now: float) -> str:
    lang = player.lang
    lines = [line("digest_hello", lang, name=player.name), "",
             counted("digest_count", len(waiting), lang)]
    for listing in waiting:
        lines.append(line("digest_game", lang, title=get_engine(listing.engine).title,
                          game=listing.id,
                          days=days((now - listing.turn_since) / clock.DAY, lang)))
    return "\n".join([*lines, ""])
