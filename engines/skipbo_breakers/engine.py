"""Skip-Bo Breakers played through the engine contract: deals, tricks, going out, scoring.

Moves: ``{"type": "play", "tiles": [ids], "values": [numbers]}`` (ids are 1..15 and "SB";
``values[i]`` is the number ``tiles[i]`` stands for, 16 for every tile of an SB-Breaker) and
``{"type": "pass"}``. A play may list its tiles in any order.

View shape (``view(state, seat)``; ``seat=None`` is a spectator), all msgpack-safe::

    game, seat, turn, to_act, over   as the contract says
    num_players     int
    hand_no         int               1, 2, ... (a new deal each hand)
    points_to_win   int
    hand            [tile id]         own tiles, numbers rising, jokers last ([] for a spectator)
    tiles_left      [int]             tiles in each hand
    scores          [int]
    leader          int | None        who led the live trick
    table           {"seat", "set", "size", "rank", "tiles", "values"} | None
                                      the set to beat (None: the next play is a lead)
    trick           [{"seat", "pass", "tiles", "values", "set", "rank"}]
                                      the live trick in play order; a pass has "pass" true
                                      and None for the rest
    passes          int               passes in a row since the last play
    hand_winner     int | None        who went out first this hand
    played          [tile id]         tiles played this hand, sorted (everyone saw them)
    last_trick      {"winner", "trick": [...]} | None   the trick just taken, until the next play
    hand_summary    {"hand", "winner", "points", "tiles_left", "scores"} | None  previous hand
    first_draw      [[{"seat", "tile"}]] | None   the draws for the first lead (hand 1 only)
    winners         [int]

Events (``events(before, seat, move, after)``), in order:
    {"kind": "play", "seat", "tiles", "values", "set", "size", "rank"}
    {"kind": "pass", "seat"}
    {"kind": "out", "seat", "first": bool}          a player played their last tile
    {"kind": "trick", "seat", "tiles": int}         `seat` took the trick
    {"kind": "hand_end", "hand", "winner", "points", "tiles_left", "scores"}
    {"kind": "game_over", "winners"}
    {"kind": "hand_start", "hand", "leader"}

Beyond the contract: `offered` (the legal moves as plays, for random playouts that pick one and
need not build the rest) and `readings`, `set_of` and `beats`, with which a table judges tiles a
player has selected exactly as `apply` will, before anything is sent.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from operator import add, gt, sub
from typing import Any, ClassVar

from engines.base import (
    IllegalMove,
    Move,
    OneSeatAtATime,
    View,
    check_seat,
    check_stack,
    check_viewer,
    move_type,
    unseen,
)
from engines.search import gainers
from engines.skipbo_breakers import sets, stats
from engines.skipbo_breakers.rules import (
    ALONE_ENDS_AT_ONCE,
    BREAKER,
    DECK,
    HAND_SIZES,
    JOKER_ONLY_SETS,
    JOKER_TOP,
    LEADER_MAY_PASS,
    LONE_JOKER_SINGLE,
    NO_TILES,
    POINTS_TO_WIN,
    SB,
    SB_DRAWS_LOWEST,
    SB_RANK,
    NotASet,
    SetKey,
    beats,
    canonical,
    classify,
    counts_of,
    index_of,
    is_tile,
    tiles_of,
    why_not,
)
from engines.skipbo_breakers.sets import Play
from engines.stats import Played, Stat

MAX_POINTS_TO_WIN = 1000
_PASS_ENTRY: dict[str, Any] = dict.fromkeys(("tiles", "values", "set", "rank"), None)
_PASS_ENTRY["pass"] = True
# What random playouts ask again and again, remembered up to this many entries: offered plays
# per hand (leads; plays by kind and size; Breakers) and plays read from moves.
CACHE_LIMIT = 200_000
_LEADS: dict[tuple[int, ...], tuple[Play | None, ...]] = {}
_SHAPED: dict[tuple[tuple[int, ...], str, int], tuple[tuple[int, ...], tuple[Play, ...]]] = {}
_BREAKERS: dict[tuple[int, ...], tuple[tuple[tuple[int, int], Play], ...]] = {}
Read = tuple[tuple[Any, ...], tuple[int, ...], SetKey, tuple[int, ...]]
_READ: dict[tuple[Any, ...], Read] = {}
_PLAIN = {int, str}
# The live trick's entries: (seat, tiles, values, set key); a pass has None for the last three.
Entry = tuple[int, tuple[Any, ...] | None, tuple[int, ...] | None, SetKey | None]


class SState:
    """One moment of a game. Hands are tuples of counts (see rules.py) and every field is
    immutable or replaced whole, so a clone shares all of them and a move replaces what it
    changes: random playouts clone a state per move."""

    __slots__ = (
        "ev",
        "first_draw",
        "hand_no",
        "hand_winner",
        "hands",
        "last_trick",
        "leader",
        "n",
        "out",
        "passes",
        "played",
        "scores",
        "seed",
        "sizes",
        "summary",
        "table",
        "target",
        "top",
        "trick",
        "turn",
        "winners",
    )

    n: int
    seed: int
    target: int
    hand_no: int
    hands: tuple[tuple[int, ...], ...]
    sizes: tuple[int, ...]  # tiles in each hand
    out: tuple[int, ...]  # counts of the tiles dealt to nobody this hand
    played: tuple[int, ...]  # counts of the tiles played this hand
    scores: tuple[int, ...]
    turn: int | None  # None once the game is over
    leader: int
    table: SetKey | None  # the set to beat; None when the next play leads
    top: int  # who played it
    trick: tuple[Entry, ...]
    passes: int
    hand_winner: int | None
    last_trick: tuple[int, tuple[Entry, ...]] | None
    summary: dict[str, Any] | None  # never edited once set: views hand out copies
    first_draw: tuple[tuple[tuple[int, int | str], ...], ...] | None
    winners: tuple[int, ...]
    ev: tuple[tuple[Any, ...], ...]  # what the move that made this state did

    def clone(self) -> SState:
        c = SState.__new__(SState)
        c.ev = self.ev
        c.first_draw = self.first_draw
        c.hand_no = self.hand_no
        c.hand_winner = self.hand_winner
        c.hands = self.hands
        c.last_trick = self.last_trick
        c.leader = self.leader
        c.n = self.n
        c.out = self.out
        c.passes = self.passes
        c.played = self.played
        c.scores = self.scores
        c.seed = self.seed
        c.sizes = self.sizes
        c.summary = self.summary
        c.table = self.table
        c.target = self.target
        c.top = self.top
        c.trick = self.trick
        c.turn = self.turn
        c.winners = self.winners
        return c


def _deal(state: SState, tiles: list[int | str]) -> None:
    """Start a hand with `tiles` in dealing order (top first): seat 0 takes the first hand."""
    size = HAND_SIZES[state.n]
    state.hands = tuple(counts_of(tiles[i * size : (i + 1) * size]) for i in range(state.n))
    state.sizes = (size,) * state.n
    state.out = counts_of(tiles[state.n * size :])
    state.played = NO_TILES
    state.table = None
    state.trick = ()
    state.passes = 0
    state.hand_winner = None
    state.turn = state.top = state.leader


def _shuffled(seed: int, what: str) -> list[int | str]:
    tiles = list(DECK)
    random.Random(f"{seed}:{what}").shuffle(tiles)
    return tiles


def draw_for_lead(seed: int, n: int) -> tuple[int, tuple[tuple[tuple[int, int | str], ...], ...]]:
    """The first leader by drawn tile: everyone draws, the highest number leads, and tied
    players draw again. Returns the leader and every round of draws."""
    rng = random.Random(f"{seed}:first")
    contenders = list(range(n))
    rounds = []
    while True:
        bag = list(DECK)
        rng.shuffle(bag)
        draws = tuple(zip(contenders, bag, strict=False))
        rounds.append(draws)
        rank = {seat: _draw_rank(tile) for seat, tile in draws}
        best = max(rank.values())
        contenders = [seat for seat in contenders if rank[seat] == best]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


def _draw_rank(tile: int | str) -> int:
    if tile == SB:
        return 0 if SB_DRAWS_LOWEST else SB_RANK
    return tile  # type: ignore[return-value]


def _entry_view(entry: Entry) -> dict[str, Any]:
    seat, tiles, values, key = entry
    if key is None:
        return dict(_PASS_ENTRY, seat=seat)
    return {
        "seat": seat,
        "pass": False,
        "tiles": list(tiles or ()),
        "values": list(values or ()),
        "set": key[0],
        "rank": key[2],
    }


class SkipBoBreakersEngine(OneSeatAtATime):
    id = "skipbo_breakers"
    title = "Skip-Bo Breakers"
    min_players = 2
    max_players = 4
    options: ClassVar[dict[str, Any]] = {"points_to_win": POINTS_TO_WIN}
    test_options = ("stack", "first")
    # Clocks: a seat out of time passes on the trick when it may (not when it leads).
    skip_moves = ("pass",)
    clock_turns: ClassVar[dict[int, int]] = {2: 151, 3: 99, 4: 70}
    think_seconds = 6.0

    # -- setting up --------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        target = opts["points_to_win"]
        if not 1 <= target <= MAX_POINTS_TO_WIN:
            raise ValueError(f"points_to_win must be from 1 to {MAX_POINTS_TO_WIN}, not {target}")
        s = SState.__new__(SState)
        s.n = num_players
        s.seed = seed
        s.target = target
        s.hand_no = 1
        first = opts.get("first")
        if first is None:
            s.leader, s.first_draw = draw_for_lead(seed, num_players)
        elif type(first) is not int or not 0 <= first < num_players:
            raise ValueError(f"first must be a seat from 0 to {num_players - 1}, not {first!r}")
        else:
            s.leader, s.first_draw = first, None
        if "stack" in opts:
            stack = check_stack(opts["stack"], DECK)
            if not all(is_tile(t) for t in stack):
                raise ValueError('stack tile ids are the whole numbers 1 to 15 and "SB"')
        else:
            stack = _shuffled(seed, "hand 1")
        s.scores = (0,) * num_players
        s.last_trick = None
        s.summary = None
        s.winners = ()
        s.ev = ()
        _deal(s, stack)
        return s

    # -- reading -----------------------------------------------------------------------------
    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        if seat != state.turn or type(seat) is not int:
            return []
        return [as_move(option) for option in _offer(state.hands[seat], state.table)]

    def offered(self, state: Any, seat: int) -> tuple[Play | None, ...]:
        """The legal moves of `seat` in `legal_moves` order as plays (tiles, values), None
        standing for a pass; () when `seat` may not move. For random playouts, which pick one
        move and need not build the others; remembered per hand and table, since a hand
        meets several tables in a trick (`legal_moves` always works afresh, so its timing in
        bench.engines is the honest one)."""
        if seat != state.turn or type(seat) is not int:
            return ()
        return _offer_remembered(state.hands[seat], state.table)

    def readings(self, tiles: list[Any]) -> list[dict[str, Any]]:
        """Every set these tiles make, whatever their jokers stand for, highest first:
        [{"set", "size", "rank", "tiles", "values"}]. For a table judging a selection of tiles
        before it is sent, so it never judges differently from `apply`."""
        if not all(is_tile(t) for t in tiles):
            return []
        return [
            {"set": key[0], "size": key[1], "rank": key[2], "tiles": list(t), "values": list(v)}
            for key, (t, v) in sets.readings(tiles)
        ]

    def set_of(self, tiles: list[Any], values: list[int]) -> dict[str, Any] | None:
        """The set some tiles standing for `values` make ({"set", "size", "rank"}), or None."""
        try:
            key = classify(*canonical(tiles, values))
        except (NotASet, TypeError, ValueError):
            return None
        return {"set": key[0], "size": key[1], "rank": key[2]}

    def beats(self, new: dict[str, Any], table: dict[str, Any] | None) -> bool:
        """Whether a reading (or a view's table) may be played on the view's table."""
        key = (new["set"], new["size"], new["rank"])
        return beats(key, None if table is None else (table["set"], table["size"], table["rank"]))

    def view(self, state: Any, seat: int | None) -> View:
        s: SState = state
        check_viewer(s.n, seat)
        over = s.turn is None
        table = None
        if s.table is not None:
            _, tiles, values, _ = _last_play(s.trick)
            table = {
                "seat": s.top,
                "set": s.table[0],
                "size": s.table[1],
                "rank": s.table[2],
                "tiles": list(tiles or ()),
                "values": list(values or ()),
            }
        last = None
        if s.last_trick is not None:
            winner, entries = s.last_trick
            last = {"winner": winner, "trick": [_entry_view(e) for e in entries]}
        draw = None
        if s.first_draw is not None and s.hand_no == 1:
            draw = [[{"seat": p, "tile": t} for p, t in rnd] for rnd in s.first_draw]
        return {
            "game": self.id,
            "seat": seat,
            "turn": s.turn,
            "to_act": [] if over else [s.turn],
            "over": over,
            "num_players": s.n,
            "hand_no": s.hand_no,
            "points_to_win": s.target,
            "hand": [] if seat is None else tiles_of(s.hands[seat]),
            "tiles_left": list(s.sizes),
            "scores": list(s.scores),
            "leader": None if over else s.leader,
            "table": table,
            "trick": [_entry_view(e) for e in s.trick],
            "passes": s.passes,
            "hand_winner": s.hand_winner,
            "played": tiles_of(s.played),
            "last_trick": last,
            "hand_summary": _copy(s.summary),
            "first_draw": draw,
            "winners": list(s.winners),
        }

    def result(self, state: Any) -> dict[str, Any]:
        return {
            "scores": list(state.scores),
            "winners": list(state.winners),
            "hands": state.hand_no,
            "points_to_win": state.target,
            "last_hand": _copy(state.summary),
        }

    # -- moving ------------------------------------------------------------------------------
    def apply(self, state: Any, seat: int, move: Move) -> Any:
        s: SState = state
        check_seat(s.n, seat)
        kind = move_type(move)
        if s.turn is None:
            raise IllegalMove("The game is over: no more moves")
        if seat != s.turn:
            raise IllegalMove(f"It is not your turn: seat {s.turn} is to play")
        if kind == "pass":
            if len(move) != 1:
                raise IllegalMove('A pass is {"type": "pass"} and nothing more')
            if s.table is None and not LEADER_MAY_PASS:
                raise IllegalMove("You lead this trick: play a set (only a follower may pass)")
            return self._pass(s, seat)
        if kind != "play":
            raise IllegalMove(f"Unknown move {kind!r}: play a set of tiles or pass")
        if len(move) != 3 or "tiles" not in move or "values" not in move:
            raise IllegalMove('A play is {"type": "play", "tiles": [...], "values": [...]}')
        read = _read_play(move["tiles"], move["values"])
        tiles, _, key, used = read
        hand = s.hands[seat]
        if any(map(gt, used, hand)):
            missing = [t for t in set(tiles) if used[index_of(t)] > hand[index_of(t)]]
            shown = ", ".join(str(t) for t in sorted(missing, key=index_of))
            raise IllegalMove(f"You do not hold these tiles: {shown}")
        if not beats(key, s.table):
            raise IllegalMove(why_not(key, s.table))  # type: ignore[arg-type]
        return self._play(s, seat, read)

    def _play(self, s: SState, seat: int, read: Read) -> SState:
        t = s.clone()
        self._play_on(t, seat, read)
        return t

    def _play_on(self, t: SState, seat: int, read: Read) -> None:
        """Make a checked play in place (`_play` makes it on a clone, `random_step` on a
        playout copy): every field is replaced whole, never edited."""
        tiles, values, key, used = read
        hands = list(t.hands)
        hands[seat] = tuple(map(sub, t.hands[seat], used))
        t.hands = tuple(hands)
        sizes = list(t.sizes)
        sizes[seat] -= len(tiles)
        t.sizes = tuple(sizes)
        t.played = tuple(map(add, t.played, used))
        t.table = key
        t.top = seat
        t.trick = (*t.trick, (seat, tiles, values, key))
        t.passes = 0
        t.last_trick = None
        ev: list[tuple[Any, ...]] = [("play", seat, tiles, values, key)]
        if not sizes[seat]:
            ev.append(("out", seat, t.hand_winner is None))
            if t.hand_winner is None:
                t.hand_winner = seat
        self._advance(t, seat, ev)

    def _pass(self, s: SState, seat: int) -> SState:
        t = s.clone()
        self._pass_on(t, seat)
        return t

    def _pass_on(self, t: SState, seat: int) -> None:
        t.passes += 1
        t.trick = (*t.trick, (seat, None, None, None))
        self._advance(t, seat, [("pass", seat)])

    # -- the private fast path of search playouts (engines.search) --------------------------
    def playout_copy(self, state: Any) -> SState:
        """A private copy that `random_step` may change in place."""
        return state.clone()

    def random_step(self, state: Any, rng: random.Random) -> int:
        """The move the random bot would make (the same draw from `rng` as its `choose`),
        made in place on a `playout_copy`, without building the move."""
        seat = state.turn
        options = _offer_remembered(state.hands[seat], state.table)
        self.play_in_place(state, seat, rng.choice(options))
        return 1

    def play_in_place(self, state: Any, seat: int, play: Play | None) -> None:
        """Make one of `offered`'s plays (None: pass) in place on a `playout_copy`: for the
        playout policies of engines.search."""
        if play is None:
            self._pass_on(state, seat)
        else:
            self._play_on(state, seat, _read_play(list(play[0]), list(play[1])))

    def _advance(self, t: SState, seat: int, ev: list[tuple[Any, ...]]) -> None:
        """After `seat` moved: the next holder of tiles plays, or the trick is over because
        every other holder passed in turn since the last play."""
        n = t.n
        sizes = t.sizes
        others = n - sizes.count(0) - (sizes[t.top] > 0)
        alone = others == 0 and sizes[t.top] > 0
        if t.passes >= others and not (alone and not ALONE_ENDS_AT_ONCE and t.passes == 0):
            self._take_trick(t, ev)
        else:
            nxt = (seat + 1) % n
            while not sizes[nxt]:
                nxt = (nxt + 1) % n
            t.turn = nxt
            t.ev = tuple(ev)

    def _take_trick(self, t: SState, ev: list[tuple[Any, ...]]) -> None:
        winner = t.top
        tiles = sum(len(e[1]) for e in t.trick if e[1] is not None)
        ev.append(("trick", winner, tiles))
        t.last_trick = (winner, t.trick)
        t.trick = ()
        t.table = None
        t.passes = 0
        if t.hand_winner is None:
            t.leader = t.turn = winner
            t.ev = tuple(ev)
            return
        self._end_hand(t, ev)

    def _end_hand(self, t: SState, ev: list[tuple[Any, ...]]) -> None:
        w = t.hand_winner
        assert w is not None
        left = list(t.sizes)
        points = sum(left)
        scores = list(t.scores)
        scores[w] += points
        t.scores = tuple(scores)
        t.summary = {
            "hand": t.hand_no,
            "winner": w,
            "points": points,
            "tiles_left": left,
            "scores": scores,
        }
        ev.append(("hand_end", t.hand_no, w, points, left, scores))
        if scores[w] >= t.target:
            t.winners = (w,)
            t.turn = None
            ev.append(("game_over", [w]))
        else:
            t.hand_no += 1
            t.leader = w
            _deal(t, _shuffled(t.seed, f"hand {t.hand_no}"))
            ev.append(("hand_start", t.hand_no, w))
        t.ev = tuple(ev)

    def events(self, before: Any, seat: int, move: Move, after: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for e in after.ev:
            kind = e[0]
            if kind == "play":
                _, who, tiles, values, key = e
                out.append(
                    {
                        "kind": "play",
                        "seat": who,
                        "tiles": list(tiles),
                        "values": list(values),
                        "set": key[0],
                        "size": key[1],
                        "rank": key[2],
                    }
                )
            elif kind == "pass":
                out.append({"kind": "pass", "seat": e[1]})
            elif kind == "out":
                out.append({"kind": "out", "seat": e[1], "first": e[2]})
            elif kind == "trick":
                out.append({"kind": "trick", "seat": e[1], "tiles": e[2]})
            elif kind == "hand_end":
                out.append(
                    {
                        "kind": "hand_end",
                        "hand": e[1],
                        "winner": e[2],
                        "points": e[3],
                        "tiles_left": list(e[4]),
                        "scores": list(e[5]),
                    }
                )
            elif kind == "game_over":
                out.append({"kind": "game_over", "winners": list(e[1])})
            else:
                out.append({"kind": "hand_start", "hand": e[1], "leader": e[2]})
        return out

    def statistics(self, game: Played) -> list[list[Stat]]:
        return stats.statistics(game)

    # -- hidden information ------------------------------------------------------------------
    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """The other hands and the tiles dealt to nobody re-dealt among themselves, every
        hand keeping its size; played tiles stay where everyone saw them."""
        s: SState = state
        check_seat(s.n, seat)
        others = [p for p in range(s.n) if p != seat]
        pool = tiles_of(s.out)
        for p in others:
            pool += tiles_of(s.hands[p])
        rng.shuffle(pool)
        t = s.clone()
        hands = list(s.hands)
        at = 0
        for p in others:
            size = sum(s.hands[p])
            hands[p] = counts_of(pool[at : at + size])
            at += size
        t.hands = tuple(hands)
        t.out = counts_of(pool[at:])
        return t


    def from_view(self, view: View, rng: random.Random) -> SState:
        """A state agreeing with everything `view` shows, the rest drawn at random: the other
        hands (sizes kept) and the tiles dealt to nobody from the tiles the seat has not seen,
        and a fresh seed for the hands still to be dealt."""
        n, seat = view["num_players"], view["seat"]
        s = SState.__new__(SState)
        s.n = n
        s.seed = rng.getrandbits(63)
        s.target = view["points_to_win"]
        s.hand_no = view["hand_no"]
        s.scores = tuple(view["scores"])
        s.turn = view["turn"]
        s.leader = view["leader"] if view["leader"] is not None else 0
        s.trick = tuple(_entry_of(e) for e in view["trick"])
        table = view["table"]
        s.table = None if table is None else (table["set"], table["size"], table["rank"])
        s.top = s.leader if table is None else table["seat"]
        s.passes = view["passes"]
        s.hand_winner = view["hand_winner"]
        last = view["last_trick"]
        s.last_trick = (
            None
            if last is None
            else (last["winner"], tuple(_entry_of(e) for e in last["trick"]))
        )
        s.summary = _copy(view["hand_summary"])
        draw = view["first_draw"]
        s.first_draw = (
            None
            if draw is None
            else tuple(tuple((d["seat"], d["tile"]) for d in rnd) for rnd in draw)
        )
        s.winners = tuple(view["winners"])
        s.ev = ()
        played = view["played"]
        s.played = counts_of(played)
        mine = view["hand"] if seat is not None else []
        rest = unseen(DECK, mine, played)
        rng.shuffle(rest)
        hands = []
        for p in range(n):
            if p == seat:
                hands.append(counts_of(mine))
                continue
            size = view["tiles_left"][p]
            hands.append(counts_of(rest[:size]))
            del rest[:size]
        s.hands = tuple(hands)
        s.sizes = tuple(view["tiles_left"])
        s.out = counts_of(rest)
        return s


def hand_cutoff(start: SState, state: SState, n: int) -> list[float] | None:
    """The expert's playouts stop when the hand they started in ends: its winner (the seat
    whose score rose) takes the reward (engines.search.Cutoff)."""
    if state.hand_no == start.hand_no and state.turn is not None:
        return None
    return gainers(start.scores, state.scores, n)


def _entry_of(entry: dict[str, Any]) -> Entry:
    """A trick entry from its view (the inverse of `_entry_view`)."""
    if entry["pass"]:
        return (entry["seat"], None, None, None)
    tiles, values = tuple(entry["tiles"]), tuple(entry["values"])
    return (entry["seat"], tiles, values, (entry["set"], len(values), entry["rank"]))


def _read_play(tiles: Any, values: Any) -> Read:
    """The play's tiles and values in canonical order, the set they make and the tiles it
    uses as counts; IllegalMove says what is wrong with them. Remembered (the same few
    thousand plays come up again and again), keyed only by plain ints and strings: 1.0 and
    True equal 1 as keys but are no tile."""
    if type(tiles) is not list or type(values) is not list or not tiles:
        raise IllegalMove("A play lists its tiles and the number each stands for")
    plain = {*map(type, tiles), *map(type, values)} <= _PLAIN
    if plain:
        cache_key = (*tiles, None, *values)
        found = _READ.get(cache_key)
        if found is not None:
            return found
    if len(tiles) != len(values):
        raise IllegalMove("Give one number for each tile played")
    for tile, value in zip(tiles, values, strict=True):
        if not is_tile(tile):
            raise IllegalMove(f'There is no tile {tile!r}: tiles are 1 to 15 and "SB"')
        if type(value) is not int:
            raise IllegalMove(f"{value!r} is not a number a tile can stand for")
        if tile != SB and value != tile:
            raise IllegalMove(f"A numbered tile stands for itself: the {tile} is not {value}")
        if tile == SB and not 1 <= value <= SB_RANK:
            raise IllegalMove(f"A joker stands for a number from 1 to {JOKER_TOP}")
    ordered, numbers = canonical(tiles, values)
    try:
        key = classify(ordered, numbers)
    except NotASet as exc:
        raise IllegalMove(str(exc)) from None
    read = (ordered, numbers, key, counts_of(ordered))
    if plain:
        if len(_READ) >= CACHE_LIMIT:
            _READ.clear()
        _READ[cache_key] = read
    return read


def _offer(hand: tuple[int, ...], table: SetKey | None) -> tuple[Play | None, ...]:
    found = tuple(sets.plays(hand, table))
    if table is not None or LEADER_MAY_PASS:
        return (*found, None)
    return found


def _offer_remembered(hand: tuple[int, ...], table: SetKey | None) -> tuple[Play | None, ...]:
    """`_offer`, built from what this hand offered before: a hand meets several tables
    before it changes, and the plays of one kind and size beating a table are the tail of
    all of them (they come lowest first), so they are remembered per hand, kind and size."""
    if not (LONE_JOKER_SINGLE and JOKER_ONLY_SETS):
        return _offer(hand, table)
    if len(_LEADS) + len(_SHAPED) + len(_BREAKERS) >= CACHE_LIMIT:
        _LEADS.clear()
        _SHAPED.clear()
        _BREAKERS.clear()
    if table is None:
        found = _LEADS.get(hand)
        if found is None:
            found = _LEADS[hand] = _offer(hand, None)
        return found
    kind, size, rank = table
    beating: tuple[Play | None, ...] = ()
    if kind != BREAKER:
        key = (hand, kind, size)
        ranked = _SHAPED.get(key)
        if ranked is None:
            every = tuple(sets.shaped(hand, (kind, size, 0)))
            ranked = _SHAPED[key] = (tuple(v[-1] for _, v in every), every)
        ranks, every = ranked
        beating = every[bisect_right(ranks, rank) :]
    own = _BREAKERS.get(hand)
    if own is None:
        own = _BREAKERS[hand] = tuple(sets.breakers(hand))
    if own:
        above = (size, rank) if kind == BREAKER else (0, 0)
        beating += tuple(play for key, play in own if key > above)
    return (*beating, None)


def as_move(option: Play | None) -> Move:
    """A move of `legal_moves` from an entry of `offered`."""
    if option is None:
        return {"type": "pass"}
    return {"type": "play", "tiles": list(option[0]), "values": list(option[1])}


def _last_play(trick: tuple[Entry, ...]) -> Entry:
    for entry in reversed(trick):
        if entry[3] is not None:
            return entry
    raise AssertionError("a table set without a play in the trick")


def _copy(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """Views hand out copies so that a caller editing one cannot change the game."""
    if summary is None:
        return None
    return {k: list(v) if isinstance(v, list) else v for k, v in summary.items()}
