"""The expert bot: information-set Monte Carlo tree search over the engine contract.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012). Each iteration samples one state
the searching seat cannot tell apart from the real one, walks a single tree whose edges are
(seat, canonical move) pairs legal in that sample, adds one edge, plays the game out with the
game's own bots and backs up every seat's share of the win along the path. Edges are counted as
*available* each time they are legal in a sample, so a move that exists only in some samples
(a card an opponent may or may not hold) is weighed against how often it could be played.

Where the sample comes from is what keeps the bot honest. It decides from the seat's view and
legal moves alone: `eng.from_view(view, rng)` rebuilds a whole state from a view with everything
the view hides (other hands, the draw order, a seed that fixes future deals) drawn afresh. So a
local seat and a networked `join --bot expert` seat play alike, and no hidden part of the real
state can leak into a decision. So `from_view` is what a game must add to the contract to
get an expert (Chez Geek's view carries its pending effects and queued steps for it); without
one the expert plays as its guide (the game's strong bot unless the game gives it another).

Interrupt windows: when several seats may act, every (seat, move) legal for any of them is an
edge, and selection takes the edge that is best *for the seat that would make it*: the first
to want to act does. Letting an optional interrupt pass is implicit for everyone but the
searching seat at the root, which weighs its moves against a "pass" edge (a move of None)
after which only the others may act.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engines.base import Bot, Engine, Move, View, ViewBot

# A playout that has not ended after this many moves counts as a draw for everyone.
MAX_PLAYOUT_MOVES = 20_000
# UCB1's exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
# The default budget: stop after this many seconds or this many iterations, whichever first.
# Each game's expert plays on a fixed number of iterations instead (its EXPERT_ITERATIONS, no
# seconds): it then decides the same for the same state and seed, so anyone can replay a
# record and check every expert move (net.players.counted), and a busy machine does not
# weaken it; each game's count is sized to stay well under a second a decision on an idle
# core (bench.bots measures both).
DEFAULT_SECONDS = 0.8
DEFAULT_ITERATIONS = 100_000

# A game's playout cut-off: (the iteration's sampled state, a state in its playout, players) ->
# each seat's reward in [0, 1] if the playout may stop here, else None. For games of many
# rounds, where the round is what a move decides and whole games would cost tenfold.
Cutoff = Callable[[Any, Any, int], list[float] | None]
# A game's narrowing of the root: (view, legal moves) -> the few worth searching, for games
# with too many moves to try each in a second (Scho K.O. lays a tile in a hundred ways).
Candidates = Callable[[View, list[Move]], list[Move]]
Key = tuple[int, Any]  # (seat, canonical move), the move None meaning "let it pass"
PASS_KEY_MOVE = None


class Recall(Protocol):
    """A game's memory for the expert, where a view forgets what the seat saw (Das
    Zwergenamulett's won tricks lie face down): `augment` gives the view plus what this seat
    remembers, in keys the game's `from_view` reads; `played` tells it the move the seat made
    from that view. It learns only from the seat's own views."""

    def augment(self, view: View) -> View: ...

    def played(self, view: View, move: Move | None) -> None: ...


def canonical(value: Any) -> Any:
    """A hashable form of msgpack-safe data that is equal exactly when the data is."""
    if type(value) is dict:
        return tuple(sorted((k, canonical(v)) for k, v in value.items()))
    if type(value) is list or type(value) is tuple:
        return tuple(canonical(v) for v in value)
    return value


class Node:
    """One edge of the tree and the node it leads to: `seat` made `move` to get here;
    `reward` sums that seat's results over `visits`; `avail` counts the iterations in which
    the move was legal when its parent was reached."""

    __slots__ = ("avail", "children", "move", "reward", "seat", "visits")

    def __init__(self, seat: int, move: Move | None) -> None:
        self.seat = seat
        self.move = move
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.children: dict[Key, Node] = {}


@dataclass
class Choice:
    """One root move as the search saw it."""

    move: Move | None
    visits: int
    win: float  # the searching seat's mean share of the win after it


@dataclass
class Analysis:
    """What a search found: root moves, most visited first, and how much it searched."""

    choices: list[Choice]
    iterations: int
    seconds: float

    @property
    def best(self) -> Choice:
        return self.choices[0]


def gainers(before: tuple[int, ...], after: tuple[int, ...], n: int) -> list[float]:
    """Rewards for a cut-off at the end of a round: the seats whose score (gold, points) rose
    since `before` share the win; if nobody's did, everyone shares it."""
    up = [p for p in range(n) if after[p] > before[p]]
    if not up:
        return [1.0 / n] * n
    out = [0.0] * n
    for p in up:
        out[p] = 1.0 / len(up)
    return out


def shares(eng: Engine, state: Any, n: int) -> list[float]:
    """Each seat's share of the win of a finished game (ties split it)."""
    winners = eng.result(state)["winners"]
    out = [0.0] * n
    for w in winners:
        out[w] = 1.0 / len(winners)
    return out


class Searcher:
    """ISMCTS for one engine. `rollout` is the bot (or the name of the game's bot level) that
    plays the samples out; `max_depth` bounds how deep the tree grows (None: no bound)."""

    def __init__(
        self,
        eng: Engine,
        *,
        rollout: str | Bot = "random",
        exploration: float = EXPLORATION,
        defer: tuple[str, ...] = (),
        cutoff: Cutoff | None = None,
        max_depth: int | None = None,
    ) -> None:
        self.eng = eng
        self.rollout = rollout
        self.max_depth = max_depth
        self.exploration = exploration
        self.defer = defer
        self.cutoff = cutoff

    def run(
        self,
        sample: Callable[[random.Random], Any],
        seat: int,
        players: int,
        legal: list[Move],
        may_pass: bool,
        rng: random.Random,
        *,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = DEFAULT_SECONDS,
    ) -> Analysis:
        """Search from `seat`'s information set; `sample(rng)` gives a determinized state.
        Deterministic for a given rng when `seconds` is None."""
        root = Node(seat, None)
        root_keys: list[tuple[Key, Move | None]] = [
            ((seat, canonical(m)), m) for m in legal
        ]
        if may_pass:
            root_keys.append(((seat, PASS_KEY_MOVE), None))
        start = time.perf_counter()
        done = 0
        limit = iterations if iterations is not None else 1 << 62
        while done < limit:
            if seconds is not None and done and time.perf_counter() - start >= seconds:
                break
            self._iterate(sample(rng), root, root_keys, seat, players, rng)
            done += 1
        choices = [
            Choice(node.move, node.visits, node.reward / node.visits if node.visits else 0.0)
            for node in root.children.values()
        ]
        choices.sort(key=lambda c: (-c.visits, -c.win))
        return Analysis(choices, done, time.perf_counter() - start)

    # -- one iteration ---------------------------------------------------------------------
    def _iterate(
        self,
        state: Any,
        root: Node,
        root_keys: list[tuple[Key, Move | None]],
        seat: int,
        n: int,
        rng: random.Random,
    ) -> None:
        eng = self.eng
        start = state
        depth = self.max_depth if self.max_depth is not None else MAX_PLAYOUT_MOVES
        path = [root]
        node = root
        edges: list[tuple[Key, int, Move | None]] = [(k, seat, m) for k, m in root_keys]
        skip: int | None = None
        expanded = False
        while True:
            if not edges:
                break
            untried = [e for e in edges if e[0] not in node.children]
            if untried:
                key, actor, move = untried[rng.randrange(len(untried))]
                child = node.children[key] = Node(actor, move)
                for k, _, _ in edges:
                    c = node.children.get(k)
                    if c is not None:
                        c.avail += 1
                expanded = True
            else:
                child = self._select(node, edges)
            path.append(child)
            node = child
            if child.move is None:
                skip = child.seat  # the root seat lets the window pass: the others act
            else:
                state = eng.apply(state, child.seat, child.move)
                skip = None
            if expanded or eng.is_over(state) or len(path) > depth:
                break
            edges = self._edges(state, skip)
        result = self._playout(start, state, skip, n, rng)
        for p in path[1:]:
            p.visits += 1
            p.reward += result[p.seat]
        root.visits += 1

    def _edges(self, state: Any, skip: int | None) -> list[tuple[Key, int, Move | None]]:
        eng = self.eng
        defer = self.defer
        out: list[tuple[Key, int, Move | None]] = []
        for s in eng.to_act(state):
            if s == skip:
                continue
            for m in eng.legal_moves(state, s):
                if m["type"] not in defer:
                    out.append(((s, canonical(m)), s, m))
        return out

    def _select(self, node: Node, edges: list[tuple[Key, int, Move | None]]) -> Node:
        """UCB1 over the available edges, each judged by the seat that would make it."""
        best: Node | None = None
        best_score = -1.0
        c = self.exploration
        children = node.children
        for key, _, _ in edges:
            child = children[key]
            child.avail += 1
            score = child.reward / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    def _playout(
        self, start: Any, state: Any, skip: int | None, n: int, rng: random.Random
    ) -> list[float]:
        """The game's bots of the rollout level play on, as the host asks them (the first
        seat in `to_act` that wants to move does), to the end or the game's cut-off; each
        seat's reward. Playouts take the engine's in-place path where it has one
        (`playout_copy`, and `random_step` for random playouts or the rollout bot's own
        `step`: its very moves, without the contract's copies and move dicts)."""
        eng = self.eng
        bot = eng.bots[self.rollout] if isinstance(self.rollout, str) else self.rollout
        cutoff = self.cutoff
        step = getattr(bot, "step", None)
        if self.rollout == "random":
            step = getattr(eng, "random_step", None)
        fast = step is not None and hasattr(eng, "playout_copy")
        moves = 0
        while moves < MAX_PLAYOUT_MOVES:
            if cutoff is not None:
                reward = cutoff(start, state, n)
                if reward is not None:
                    return reward
            if eng.is_over(state):
                return shares(eng, state, n)
            if fast and skip is None:
                return self._fast_playout(start, state, n, rng, moves, step)
            for s in eng.to_act(state):
                if s == skip:
                    continue
                move = bot.choose(eng, state, s, rng)
                if move is not None:
                    state = eng.apply(state, s, move)
                    break
            else:
                break  # nobody wants to move
            skip = None
            moves += 1
        return [1.0 / n] * n

    def _fast_playout(
        self,
        start: Any,
        state: Any,
        n: int,
        rng: random.Random,
        moves: int,
        step: Callable[[Any, random.Random], int],
    ) -> list[float]:
        eng = self.eng
        cutoff = self.cutoff
        is_over = eng.is_over
        state = eng.playout_copy(state)  # type: ignore[attr-defined]
        while moves < MAX_PLAYOUT_MOVES:
            moves += step(state, rng)  # (the moves it made: Chez Geek's make several)
            if cutoff is not None:
                reward = cutoff(start, state, n)
                if reward is not None:
                    return reward
            if is_over(state):
                return shares(eng, state, n)
        return [1.0 / n] * n


def anchored(analysis: Analysis, wanted: Move | None, margin: float) -> None:
    """Put the root move `wanted` (the expert's guide's) first unless the search found one
    better by `margin` in mean share of the win: where playouts can hardly tell moves apart,
    the game's rules of thumb know more than the noise of the samples."""
    if not analysis.choices:
        return
    key = canonical(wanted)
    best = analysis.choices[0]
    for i, choice in enumerate(analysis.choices):
        if choice.visits and canonical(choice.move) == key:
            if best.win - choice.win < margin:
                analysis.choices.insert(0, analysis.choices.pop(i))
            return


class ExpertBot(ViewBot):
    """The expert level: ISMCTS from the seat's view (see the module docstring).

    `iterations` and `seconds` bound each decision (whichever runs out first; seconds=None
    makes it deterministic for a given rng). Per game, chosen by measurement: `rollout`, the
    bot (or bot level) that plays samples out; `max_depth`, a bound on the tree (see
    Searcher); `cutoff`, where playouts may stop (see Cutoff); `candidates`, a narrowing of
    the root's moves (see Candidates); `defer`, move types left to the guide (played when
    it wants them, never searched), for moves whose worth lies in what the seat
    remembers rather than what it sees; `recall`, the game's memory of what the seat saw (see
    Recall), shared by every budget of the bot; `anchor`, how much better (in mean share of
    the win) a move must look than the guide's to be played instead of it (see `anchored`);
    `guide`, the rules of thumb the expert falls back on, defers to and anchors on (the game's
    strong bot unless the game gives the expert sharper ones)."""

    name = "expert"

    def __init__(
        self,
        eng: Engine,
        *,
        rollout: str | Bot = "random",
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = DEFAULT_SECONDS,
        exploration: float = EXPLORATION,
        defer: tuple[str, ...] = (),
        cutoff: Cutoff | None = None,
        candidates: Candidates | None = None,
        max_depth: int | None = None,
        recall: Recall | None = None,
        anchor: float | None = None,
        guide: Bot | None = None,
    ) -> None:
        self.eng = eng
        self._own_guide = guide
        self.candidates = candidates
        self.recall = recall
        self.anchor = anchor
        self.iterations = iterations
        self.seconds = seconds
        self.searcher = Searcher(
            eng,
            rollout=rollout,
            exploration=exploration,
            defer=defer,
            cutoff=cutoff,
            max_depth=max_depth,
        )

    def with_budget(self, iterations: int | None, seconds: float | None) -> ExpertBot:
        """The same bot with another budget (tests use small fixed iteration counts)."""
        return ExpertBot(
            self.eng,
            rollout=self.searcher.rollout,
            iterations=iterations,
            seconds=seconds,
            exploration=self.searcher.exploration,
            defer=self.searcher.defer,
            cutoff=self.searcher.cutoff,
            candidates=self.candidates,
            max_depth=self.searcher.max_depth,
            recall=self.recall,
            anchor=self.anchor,
            guide=self._own_guide,
        )

    @property
    def guide(self) -> Bot:
        """The bot whose moves the expert plays where it does not search."""
        return self._own_guide if self._own_guide is not None else self.eng.bots["strong"]

    def analyse(
        self,
        view: View,
        legal: list[Move],
        rng: random.Random,
    ) -> Analysis | None:
        """The search behind `decide` (hints show it); None when there is nothing to weigh
        or no way to sample states from this view. `view` is what the seat sees, plus what it
        remembers where the game has a `recall`."""
        started = time.perf_counter()
        seat = view["seat"]
        if seat is None or not legal:
            return None
        # Letting the moment pass is a choice only where someone else may move instead (and
        # the game has no explicit pass move for it).
        may_pass = (
            seat != view.get("turn")
            and len(view.get("to_act", ())) > 1
            and not any(m.get("type") == "pass" for m in legal)
        )
        defer = self.searcher.defer
        if any(m["type"] in defer for m in legal):
            wanted = self.guide.decide(view, legal, rng)
            if wanted is not None and wanted["type"] in defer:
                return Analysis([Choice(wanted, 0, 0.0)], 0, 0.0)
            legal = [m for m in legal if m["type"] not in defer]
            if not legal:
                return Analysis([Choice(None, 0, 0.0)], 0, 0.0)
        if self.candidates is not None:
            legal = self.candidates(view, legal)
        if len(legal) == 1 and not may_pass:
            return Analysis([Choice(legal[0], 0, 0.0)], 0, 0.0)
        sample = self._sampler(view)
        if sample is None:
            return None

        search_rng = random.Random(rng.getrandbits(64))
        analysis = self.searcher.run(
            sample,
            seat,
            view["num_players"],
            legal,
            may_pass,
            search_rng,
            iterations=self.iterations,
            seconds=self._left(started),
        )
        if self.anchor is not None:
            wanted = self.guide.decide(view, legal, search_rng)
            anchored(analysis, wanted, self.anchor)
        return analysis

    def _left(self, started: float) -> float | None:
        """What is left of the decision's `seconds` for its search: the work before it (the
        candidates of Scho K.O., which rate every placement; the sampler's fixed part) is
        part of the decision the player waits for, so the budget bounds the whole of it."""
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.perf_counter() - started))

    def _sampler(self, view: View) -> Callable[[random.Random], Any] | None:
        """States rebuilt from `view` (`from_view`), through the engine's `sampler` where it
        has one (from_view's fixed part worked out once per search)."""
        sampler = getattr(self.eng, "sampler", None)
        if sampler is not None:
            return sampler(view)  # type: ignore[no-any-return]
        from_view = getattr(self.eng, "from_view", None)
        if from_view is None:
            return None

        def sample(r: random.Random) -> Any:
            return from_view(view, r)

        return sample

    def remembered(self, view: View) -> View:
        """The view plus what the seat remembers (the view itself without a `recall`)."""
        return view if self.recall is None else self.recall.augment(view)

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        view = self.remembered(view)
        analysis = self.analyse(view, legal, rng)
        if analysis is None:
            move = self.guide.decide(view, legal, rng) if legal else None
        else:
            move = analysis.best.move
        if self.recall is not None:
            self.recall.played(view, move)
        return move

