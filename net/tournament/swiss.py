"""Swiss pairings: who sits where in the next round, from the rounds so far.

Two-player games are paired the way the FIDE Dutch system does: players ordered by score,
then starting rank; a field of odd size gives the lowest-ranked player of the lowest score
group who has had the fewest byes a game against the strong bot (scored, never ranked); then
score group by score group, from the top, the group's top half (S1) meets its bottom half (S2)
board by board, S2 transposed in order when a pairing would repeat a game or give two players
the same seat who both must have the other (a player who sat first twice running, or twice
more often than second, must sit second next). A player who cannot be paired in their group
floats down into the next one. What the rules cannot meet in the last group is met as well as
it can: an absolute seat wish gives way first, then a repeat game.

Seats: the player with the stronger wish gets it (absolute, then a difference of one, then
alternating from the last game), the higher-ranked on equal wishes; in the first round the
top boards alternate, the first board's higher-ranked player sitting first.

Tables of three to six: players in score order, each table taken from the top of those not
yet seated, its other seats chosen from the next few by the fewest earlier meetings with the
table so far, then by closeness in the standings; seats so that each player sits where they
sat least; a field that does not fill the last tables leaves seats to the strong bot.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from net.tournament.history import History

Table = tuple[str | None, ...]  # players in seat order; None: a seat the strong bot plays

# How many pairing attempts one score group may cost before more players float down.
BUDGET = 4000
# How far below a table's first player the multiplayer seating looks for the rest of it.
WINDOW = 3


def wish(h: History) -> tuple[int, int | None]:
    """(strength, seat) a two-player pairing should give this player: 3 absolute, 2 strong,
    1 mild, 0 none."""
    balance, seats = h.first_balance(), h.seats
    if balance > 1 or seats[-2:] == [0, 0]:
        return 3, 1
    if balance < -1 or seats[-2:] == [1, 1]:
        return 3, 0
    if balance:
        return 2, 1 if balance > 0 else 0
    if seats:
        return 1, 1 - seats[-1]
    return 0, None


def _clash(a: History, b: History) -> bool:
    (sa, wa), (sb, wb) = wish(a), wish(b)
    return sa == 3 and sb == 3 and wa == wb


def seated(p: str, q: str, hist: dict[str, History]) -> tuple[str, str]:
    """The pair (p ranked above q) in seat order."""
    (sp, wp), (sq, wq) = wish(hist[p]), wish(hist[q])
    if wp is not None and (wq is None or wq != wp or sp >= sq):
        return (p, q) if wp == 0 else (q, p)
    if wq is not None:
        return (q, p) if wq == 0 else (p, q)
    return p, q


def _order(players: Sequence[str], hist: dict[str, History]) -> list[str]:
    return sorted(players, key=lambda p: (-hist[p].score, hist[p].rank))


def _match(members: list[str], ok: Callable[[str, str], bool], floats: int
           ) -> tuple[list[tuple[str, str]], list[str]] | None:
    """Pairs within a group, S1 against S2 with S2 transposed in order, at most `floats`
    left over; None when the budget runs out first."""
    half = len(members) // 2
    s1, s2 = members[:half], members[half:]
    position = {p: i for i, p in enumerate(s2 + s1[::-1])}
    steps = [0]

    def go(rest: list[str], left: int) -> tuple[list[tuple[str, str]], list[str]] | None:
        if not rest:
            return [], []
        steps[0] += 1
        if steps[0] > BUDGET:
            return None
        p, others = rest[0], rest[1:]
        for q in sorted(others, key=position.__getitem__):
            if ok(p, q):
                found = go([o for o in others if o != q], left)
                if found is not None:
                    return [(p, q), *found[0]], found[1]
        if left > 0 and (len(rest) - 1) % 2 == (left - 1) % 2:
            found = go(others, left - 1)
            if found is not None:
                return found[0], [p, *found[1]]
        return None

    return go(members, floats)


def _pair_group(members: list[str], ok: Callable[[str, str], bool]
                ) -> tuple[list[tuple[str, str]], list[str]]:
    """The group's pairs and those who float down: as few as the budget finds."""
    for floats in range(len(members) % 2, len(members) + 1, 2):
        found = _match(members, ok, floats)
        if found is not None:
            return found
    return [], list(members)


def pair_two(players: Sequence[str], hist: dict[str, History]) -> list[Table]:
    """The next round of a two-player Swiss (Dutch system), boards in order."""
    order = _order(players, hist)
    tables: list[Table] = []
    bye = None
    if len(order) % 2:
        fewest = min(hist[p].byes for p in order)
        bye = next(p for p in reversed(order) if hist[p].byes == fewest)
        order.remove(bye)
    groups: list[list[str]] = []
    for p in order:
        if groups and hist[groups[-1][0]].score == hist[p].score:
            groups[-1].append(p)
        else:
            groups.append([p])

    def fresh(p: str, q: str) -> bool:
        return not hist[p].met[q] and not _clash(hist[p], hist[q])

    pairs: list[tuple[str, str]] = []
    floating: list[str] = []
    for group in groups:
        found, floating = _pair_group(floating + group, fresh)
        pairs += found
    if floating:
        # The score groups left players no fresh opponent: pair the whole field in score
        # order instead, if that repeats nothing; else what is left as well as it can be.
        for ok in (fresh, lambda p, q: not hist[p].met[q]):
            whole = _match(order, ok, 0)
            if whole is not None:
                pairs, floating = whole[0], []
                break
    for ok in (lambda p, q: not hist[p].met[q], lambda p, q: True):
        if floating:
            found, floating = _pair_group(floating, ok)
            pairs += found
    first_round = all(not h.seats for h in hist.values())
    for board, (p, q) in enumerate(pairs):
        if first_round:
            tables.append((p, q) if board % 2 == 0 else (q, p))
        else:
            tables.append(seated(p, q, hist))
    if bye is not None:
        seat = wish(hist[bye])[1]
        tables.append((None, bye) if seat == 1 else (bye, None))
    return tables


def seat_tables(players: Sequence[str], hist: dict[str, History], size: int) -> list[Table]:
    """The next round at tables of `size` (3 to 6): score groups, fewest repeat meetings."""
    if size == 2:
        return pair_two(players, hist)
    rest = _order(players, hist)
    count = -(-len(rest) // size)
    bots = count * size - len(rest)
    groups: list[list[str]] = []
    for t in range(count):
        people = size - (bots // count + (1 if t >= count - bots % count else 0))
        table = [rest.pop(0)]
        while len(table) < people and rest:
            window = rest[:WINDOW * size]
            best = min(range(len(window)),
                       key=lambda i: (sum(hist[window[i]].met[m] for m in table), i))
            table.append(rest.pop(best))
        groups.append(table)
    _untangle(groups, hist)
    return [_seats(table, hist, size) for table in groups]


def _repeats(table: list[str], hist: dict[str, History]) -> int:
    return sum(hist[a].met[b] for a, b in itertools.combinations(table, 2))


def _untangle(groups: list[list[str]], hist: dict[str, History]) -> None:
    """Swap players between neighbouring tables while that lowers the meetings repeated
    (the greedy seating leaves its leftovers to the last tables)."""
    for _ in range(WINDOW):
        better = False
        near = [(t, u) for t in range(len(groups))
                for u in range(t + 1, min(len(groups), t + 1 + WINDOW))]
        for t, u in near:
            a, b = groups[t], groups[u]
            for i, j in itertools.product(range(len(a)), range(len(b))):
                if not (_repeats(a, hist) or _repeats(b, hist)):
                    break
                before = _repeats(a, hist) + _repeats(b, hist)
                a[i], b[j] = b[j], a[i]
                if _repeats(a, hist) + _repeats(b, hist) < before:
                    better = True
                else:
                    a[i], b[j] = b[j], a[i]
        if not better:
            return


def _seats(table: list[str], hist: dict[str, History], size: int) -> Table:
    """The seating with the fewest returns to a seat sat before (the first such in rank
    order); bots in the seats left."""
    def returns(seats: tuple[int, ...]) -> int:
        return sum(hist[p].seats.count(s) for p, s in zip(table, seats, strict=True))

    best = min(itertools.permutations(range(size), len(table)), key=returns)
    out: list[str | None] = [None] * size
    for player, seat in zip(table, best, strict=True):
        out[seat] = player
    return tuple(out)
