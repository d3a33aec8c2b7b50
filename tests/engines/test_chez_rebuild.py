"""Chez Geek for search: a state rebuilt from one seat's view (`from_view`), the expert deciding
from what the seat may know only, and the in-place playout path (`playout_copy`, `random_step`)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgpack
from test_chez_properties import every_card
from test_chez_rules import ENG, game, mv, quiet, to_phase

from bench import bot_move
from engines.chez_geek.deck import DECK
from engines.chez_geek.expert import turn_cutoff


def seeded_positions(games: int) -> list[Any]:
    """Every position of a few seeded games of 2 to 6 players (strong and random bots, and
    a random seat of `to_act` moving first in some, so nested windows and prompts come up)."""
    found = []
    for g in range(games):
        rng = random.Random(g)
        n = 2 + g % 5
        options = {"two_player_jobs_dealt": g % 2 == 1} if n == 2 else None
        s = ENG.new_game(n, 100 + g, options)
        levels = ["strong" if (g + p) % 2 else "random" for p in range(n)]
        while not ENG.is_over(s):
            found.append(s)
            acting = ENG.to_act(s)
            seat = rng.choice(acting) if g % 3 == 0 else acting[0]
            move = ENG.bots[levels[seat]].choose(ENG, s, seat, rng) or {"type": "pass"}
            s = ENG.apply(s, seat, move)
    return found


def kind_of(s: Any) -> str:
    if s.prompt is not None:
        return "prompt:" + s.prompt.kind
    if len(s.items) > 1:
        return "nested"
    if s.items:
        return "response"
    return "reaction" if s.reaction is not None else "own"


def check_rebuild(s: Any, seat: int | None, rng: random.Random) -> Any:
    """The rebuilt state shows `seat` the same view and gives it the same moves."""
    view = ENG.view(s, seat)
    rebuilt = ENG.from_view(msgpack.unpackb(msgpack.packb(view)), rng)
    assert ENG.view(rebuilt, seat) == view
    assert ENG.to_act(rebuilt) == ENG.to_act(s)
    if seat is not None:
        assert ENG.legal_moves(rebuilt, seat) == ENG.legal_moves(s, seat)
    assert every_card(rebuilt) == Counter(DECK.life)
    return rebuilt


def test_a_rebuilt_state_shows_the_seat_the_same_view_in_every_kind_of_position() -> None:
    """Every rare position (prompts, nested windows, work queued) from every seat, and every
    seventh of the others from one seat in turn."""
    seen: Counter[str] = Counter()
    hidden_differs = 0
    for i, s in enumerate(seeded_positions(12)):
        kind = kind_of(s)
        rare = kind.startswith("prompt") or kind == "nested" or bool(s.todo)
        if not rare and i % 7:
            continue
        seen[kind] += 1
        seen["queue"] += bool(s.todo)
        seen["lasting"] += any(s.lasting)
        seen["jobs_known"] += s.jobs_known > 0
        seats = [*range(s.n), None] if rare else [[*range(s.n), None][i % (s.n + 1)]]
        for seat in seats:
            rebuilt = check_rebuild(s, seat, random.Random(i))
            hidden_differs += rebuilt.hands != s.hands
    for kind in ("own", "response", "nested", "reaction", "prompt:rolled", "prompt:room_loss"):
        assert seen[kind] > 0, kind
    assert seen["queue"] and seen["lasting"] and seen["jobs_known"]
    assert hidden_differs > 0  # the other hands are drawn afresh, not read from the state
    # A Nookie's choice of its fixed value comes up too rarely to count on in a sample.
    hands, rooms = {0: ["schaeferstuendchen_theater"]}, {0: ["lebensabschnittspartner"]}
    s = game(["drummer", "hiwi", "kellner"], hands, dice=[1], rooms=rooms)
    s = quiet(mv(to_phase(s, "free_time"), 0, "activity", card="schaeferstuendchen_theater"))
    assert kind_of(s) == "prompt:nookie"
    for seat in [*range(s.n), None]:
        check_rebuild(s, seat, random.Random(7))


def test_a_hand_limit_prompt_is_rebuilt_from_the_hand() -> None:
    s = game(["arbeitsdrohne", "kellner", "hiwi"], {1: ["du_bist_gefeuert"]})
    s = mv(s, 1, "play", card="du_bist_gefeuert", seat=0)
    assert s.prompt.kind == "hand_limit"
    for seat in (0, 1, 2, None):
        check_rebuild(s, seat, random.Random(seat))


def test_the_view_shows_no_choice_that_lies_in_a_hand() -> None:
    """The choices of a hand limit or of a roll bonus are cards in a hand: the view names the
    prompt, never its moves (only a room loss, whose cards lie in a room, lists them)."""
    s = game(["arbeitsdrohne", "kellner", "hiwi"], {1: ["du_bist_gefeuert"]})
    s = mv(s, 1, "play", card="du_bist_gefeuert", seat=0)
    assert ENG.view(s, 1)["prompt"] == {"kind": "hand_limit", "seat": 0}


def test_rebuilt_states_play_on_to_the_end() -> None:
    positions = seeded_positions(3)
    for i, s in enumerate(positions[::40]):
        seat = ENG.to_act(s)[0]
        t = ENG.from_view(ENG.view(s, seat), random.Random(i))
        rng = random.Random(i)
        while not ENG.is_over(t):
            t = ENG.apply(t, *bot_move(ENG, t, ["random"] * t.n, rng))
            assert every_card(t) == Counter(DECK.life)
        assert ENG.result(t)["winners"]


def test_the_expert_decides_alike_whatever_the_hidden_part_of_the_state() -> None:
    """Two real states that differ only where the seat cannot see (other hands, the draw
    pile, future dice) give the same decision, in a window and on the seat's own turn."""
    expert = ENG.bots["expert"].with_budget(25, None)  # type: ignore[attr-defined]
    window = game(["hiwi", "kellner", "zeitarbeiter"], {0: ["schlafen"], 1: ["auto_alarmanlage"]})
    window = mv(to_phase(window, "free_time"), 0, "activity", card="schlafen")
    positions = [(window, 1), *((s, ENG.to_act(s)[0]) for s in seeded_positions(2)[5::90])]
    for s, seat in positions:
        other = ENG.determinize(s, seat, random.Random(3))
        assert other.hands != s.hands or other.draw != s.draw
        assert ENG.view(other, seat) == ENG.view(s, seat)
        decisions = [expert.choose(ENG, x, seat, random.Random(8)) for x in (s, other)]
        assert decisions[0] == decisions[1]
        assert decisions[0] is None or decisions[0] in ENG.legal_moves(s, seat)


def test_random_steps_play_the_same_games_as_apply() -> None:
    for g in range(6):
        n = 2 + g % 5
        slow = ENG.new_game(n, g)
        fast = ENG.playout_copy(slow)
        slow_rng, fast_rng = random.Random(g), random.Random(g)
        several = 0
        while not ENG.is_over(slow):
            made = ENG.random_step(fast, fast_rng)
            for _ in range(made):
                slow = ENG.apply(slow, *bot_move(ENG, slow, ["random"] * n, slow_rng))
            several += made > 1
            assert ENG.view(fast, None) == ENG.view(slow, None)
            assert fast.hands == slow.hands and fast.draw == slow.draw
        assert ENG.is_over(fast) and ENG.result(fast) == ENG.result(slow)
        assert several > 10  # the silent seats of a window pass in one step
        assert fast.ev == []  # a playout copy makes no events


def test_a_playout_copy_leaves_the_state_it_came_from_alone() -> None:
    s = ENG.new_game(4, 5)
    views = [ENG.view(s, p) for p in range(4)]
    fast = ENG.playout_copy(s)
    rng = random.Random(1)
    for _ in range(300):
        if not ENG.is_over(fast):
            ENG.random_step(fast, rng)
    assert [ENG.view(s, p) for p in range(4)] == views


def test_the_experts_playouts_are_judged_when_the_turn_ends() -> None:
    """The expert's playouts stop at the end of the turn they start in (random play over more
    turns blurs the judgement and costs twice the time): nothing is judged inside the turn,
    and the first state of the next turn gets each seat's win chance."""
    s = ENG.new_game(4, 5)
    rng = random.Random(5)
    for _ in range(3):
        start = s
        while s.turn_no == start.turn_no:
            assert turn_cutoff(start, s, 4) is None
            s = ENG.apply(s, *bot_move(ENG, s, ["strong"] * 4, rng))
        reward = turn_cutoff(start, s, 4)
        assert reward is not None and abs(sum(reward) - 1) < 1e-9
