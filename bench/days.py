"""Play over days at scale: a table's store holding `--games` games in progress (10,000 by
default) among `--players` players (1,000), each game a few moves in. Printed per store
(SQLite's file, and a PostgreSQL database: `--db URL`, else a temporary server when
PostgreSQL's programs are installed): the time to list one player's games (their own and
the open ones) and to apply one move (load, replay, check, append under the write lock, as
`net.days.table.play` does for every move), as medians and 95th percentiles over `--samples`
tries, and the store's size per game.

`python -m bench.days` (about a minute on two cores); `--games 1000` for a quick look.
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bench import print_table
from net.days import clock, table
from net.days.store import PLAYING, DaysStore, Game, Seat
from net.players.identity import Identity
from net.players.postgres import PostgresLadders
from net.players.sql import SqlLadders
from net.players.sqlite import SqliteLadders
from net.table import fairness

ENGINES = ("schoko", "zwergenamulett")
BATCH = 500


def _players(count: int) -> list[tuple[Identity, str]]:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return [(Identity(Ed25519PrivateKey.generate()), f"p{n}") for n in range(count)]


def _game(rng: random.Random, people: list[tuple[Identity, str]], moves: int,
          now: float) -> Game:
    engine = rng.choice(ENGINES)
    two = rng.sample(people, 2)
    game = Game(secrets.token_hex(8), engine, {}, rng.getrandbits(63), fairness.new_salt(), 3,
                two[0][0].fingerprint, True, PLAYING, 0, [], now, now, [])
    for number, (who, name) in enumerate(two):
        proof = who.prove(table.game_name(game), number, name)
        game.seats.append(Seat(number, name, proof["ident"], None, None, proof["key"],
                               proof["sig"], clock.first_bank(3), None, {}))
    session = table.session_of(game)
    for _ in range(moves):
        if session.over:
            break
        seat = session.engine.to_act(session.state)[0]
        session.submit(seat, rng.choice(session.engine.legal_moves(session.state, seat)))
    game.moves = [(seat, move, table.BY_PLAYER) for seat, move in session.moves]
    game.state_no, game.to_act = session.state_no, session.engine.to_act(session.state)
    if session.over:  # a game that ended in its first moves is one fewer in progress
        game.status = "over"
    return game


def fill(store: DaysStore, games: int, players: int, moves: int, seed: int = 7) -> list[Game]:
    rng = random.Random(seed)
    people = _players(players)
    for ident, name in people:
        store.db.rows("INSERT INTO days_players (ident, name, finished, vacation_year, "
                       "vacation_used, digest_sent) VALUES (?, ?, 0, 0, 0, 0)",
                       (ident.fingerprint, name))
    made: list[Game] = []
    now = time.time()
    while len(made) < games:
        batch = [_game(rng, people, moves, now) for _ in range(min(BATCH, games - len(made)))]
        with store.writing():
            for game in batch:
                store.insert(game)
                store.append_moves(game.id, 0, game.moves, now)
        made.extend(batch)
    return made


def _timed(work: Callable[[], object], samples: int) -> tuple[float, float]:
    took = []
    for _ in range(samples):
        start = time.perf_counter()
        work()
        took.append((time.perf_counter() - start) * 1000)
    took.sort()
    return statistics.median(took), took[int(0.95 * (len(took) - 1))]


def measure(name: str, store: DaysStore, games: list[Game], samples: int,
            size: Callable[[], int]) -> list[object]:
    rng = random.Random(11)
    idents = sorted({s.ident for g in games for s in g.seats if s.ident})
    listing = _timed(lambda: (store.games_of(rng.choice(idents)), store.listed()), samples)
    playing = [g for g in games if g.status == PLAYING]

    def one_move() -> None:
        game = store.load(rng.choice(playing).id)
        assert game is not None
        if game.status != PLAYING:
            return
        session = table.session_of(game)
        seat = game.to_act[0]
        move = session.engine.legal_moves(session.state, seat)[0]
        table.play(store, game.id, game.seats[seat].ident or "", seat, move, game.state_no,
                   time.time())

    move = _timed(one_move, samples)
    per_game = size() / max(1, len(games))
    return [name, len(games), f"{listing[0]:.2f}", f"{listing[1]:.2f}", f"{move[0]:.2f}",
            f"{move[1]:.2f}", f"{per_game / 1024:.1f}"]


@contextmanager
def postgres(url: str | None) -> Iterator[str | None]:
    """A database to measure: `url`, else a fresh one on a temporary server if this machine
    has PostgreSQL's programs, else None."""
    if url:
        yield url
        return
    try:
        from tests.net.pg_server import NoServer, Server
    except ImportError:
        yield None
        return
    try:
        server = Server()
        server.start()
    except NoServer as exc:
        print(f"PostgreSQL: skipped ({exc})")
        yield None
        return
    try:
        yield server.database()
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--moves", type=int, default=12, help="moves made in each game")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL to measure in")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.sqlite"
        lite = DaysStore(SqliteLadders(path))
        started = time.perf_counter()
        made = fill(lite, args.games, args.players, args.moves)
        print(f"SQLite: {len(made)} games filled in {time.perf_counter() - started:.0f} s")
        rows.append(measure("SQLite", lite, made, args.samples,
                            lambda: sum(p.stat().st_size for p in Path(folder).iterdir())))
        lite.close()
    with postgres(args.db) as url:
        if url is not None:
            db: SqlLadders = PostgresLadders(url)
            pg = DaysStore(db)
            started = time.perf_counter()
            made = fill(pg, args.games, args.players, args.moves)
            print(f"PostgreSQL: {len(made)} games filled in "
                  f"{time.perf_counter() - started:.0f} s")

            def pg_size() -> int:
                found = db.rows("SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c "
                                 "WHERE c.relkind = 'r' AND c.relname IN ('days_games', "
                                 "'days_seats', 'days_moves', 'days_players', 'days_notices')")
                return int(found[0][0] or 0)

            rows.append(measure("PostgreSQL", pg, made, args.samples, pg_size))
            pg.close()
    print_table(["store", "games", "list ms (median)", "list ms (p95)", "move ms (median)",
                 "move ms (p95)", "KiB per game"], rows)


if __name__ == "__main__":
    main()
