"""Chez Geek on the engine contract: moves, views and events over the rules in `rules`.

Moves
-----
Active player, when no window or prompt is open (phase in the view):
  roll:       {"type": "remove", "card": REF, "to": SEAT | None}  (None: the discard pile;
              the target is announced with the move, before the roll), {"type": "end_removals"}
  call:       {"type": "call", "card": ID, "to": SEAT}, {"type": "end_phase"}
  free_time:  {"type": "activity", "card": ID}, {"type": "shop", "cards": [ID, ...]} (sorted),
              {"type": "end_phase"}
  discard:    {"type": "discard", "card": ID}, {"type": "end_turn"}
  any phase:  {"type": "play", "card": ID, ...} an anytime card, with "target": REF
              (steal, discard_target), "seat": SEAT (new_job other), "with": ID (free_play) or
              "take": ID (salvage) where the card needs it.
Response window (every seat but the item's player): {"type": "pass"},
  {"type": "cancel", "card": ID}, {"type": "tv", "card": ID}.
Reaction window (every seat but the one excluded): {"type": "pass"}, {"type": "play", ...}.
Prompt (one seat): {"type": "choose", "card": REF | ID}, {"type": "roll"},
  {"type": "take", "value": N}, {"type": "accept"}, {"type": "play", "card": ID}.

Room cards are named by REF, a number given to each card as it enters a room (public).

View (``view(state, seat)``; seat None: a spectator), every value msgpack-safe:
  game, seat, turn (the active seat, None once over), to_act, over, num_players, turn_no,
  phase ("roll" | "call" | "free_time" | "discard"), income / free_time (the active player's,
  left this turn), removals_left [REF] (persons the active player may still try to remove),
  players [{job, goal, slack, bonus_pool, hand_count, room [{ref, card, value, tokens,
  slack}], lasting [ID], lasting_fired [bool] (a next-turn card has fired), income,
  free_time}], hand [{card, type, categories, cost, slack (text: "2", "d6-1", or None),
  effects [keyword text]}] (own hand only), draw_pile (count), discard_pile [ID] (face up, top
  last), job_pile (count), job_pile_known [ID] (the jobs seen going under the pile, bottom
  last), pending [{kind, seat, cards, to, ft}] (items waiting, bottom first; "to" is the room,
  or the victim for a TV card; ft: a free-time use, which TV cards may answer),
  window None | {kind: "response", item: index into pending} | {kind: "reaction", after: seat
  whose cards just resolved, or None, exclude: the seat it leaves out, owner, refs [REF]: the
  cards that just resolved}, prompt None | {kind: "room_loss" | "hand_limit" | "nookie" |
  "rolled", seat, why?, refs? (the room cards a loss may take), card?, result? (the card
  being rolled for, and the roll so far), item?, value? (a Nookie's fixed value)},
  queue [{step, args}] (the work waiting behind the window or prompt, next first: an eater
  still to eat, the next phase, ...), next_ref (the REF the next card entering a room gets),
  winners [seat], rolls [{seat, for, die}] (the dice rolled this turn so far).
Nothing in a view or an event depends on whether a seat could answer a window, and a view holds
everything public, so `from_view` can rebuild a whole state from it (engines.chez_geek.rebuild).

Events (``events(before, seat, move, after)``), public facts only, in order:
  turn, draw {seat, count}, reshuffle, roll {seat, for, die}, income, phase,
  play {seat, card | cards, as: call | activity | trip | anytime | cancel | tv | free_play, to},
  let_go {window, item?} (a window closed with everyone passing), cancelled {item, by},
  enter {seat, card, ref, value, tokens}, not_home, failed, take_fixed, loud_nookie,
  remove_attempt {seat, card, ref, to}, move {card, ref, from, to, why},
  eat {seat, card, eater}, discard {seat, card, from, why}, bonus_pool, salvage,
  job {seat, old, new}, win {seats, how}.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from engines.base import (
    Engine,
    IllegalMove,
    Move,
    View,
    check_seat,
    check_stack,
    check_viewer,
    move_type,
)
from engines.chez_geek import effects, rebuild, rules, stats
from engines.chez_geek.deck import CARDS, DECK, JOBS
from engines.chez_geek.rules import CState
from engines.stats import Played, Stat

PASS: Move = {"type": "pass"}
ONLY_PASS = [PASS]  # the commonest list of legal moves: a window with nothing to answer it
# The fields each move type may carry (besides "type").
FIELDS: dict[str, set[str]] = {
    "pass": set(),
    "cancel": {"card"},
    "tv": {"card"},
    "play": {"card", "target", "seat", "with", "take"},
    "choose": {"card"},
    "roll": set(),
    "take": {"value"},
    "accept": set(),
    "remove": {"card", "to"},
    "end_removals": set(),
    "call": {"card", "to"},
    "activity": {"card"},
    "shop": {"cards"},
    "end_phase": set(),
    "discard": {"card"},
    "end_turn": set(),
}
NEXT_PHASE = {"call": "free_time", "free_time": "discard"}
# Whether a hand holds nothing that could answer a response / reaction window at all.
CANNOT_ANSWER = effects.ANSWERS.isdisjoint
CANNOT_REACT = effects.PLAYABLE["reaction"].isdisjoint
FULL = [(1 << n) - 1 for n in range(rules.MAX_PLAYERS + 1)]  # every seat's bit, by table size
# The moves of the legal-move cache are made once and shared by every state: `legal_moves`
# hands out copies and nothing ever changes them.
END_REMOVALS: Move = {"type": "end_removals"}
END_PHASE: Move = {"type": "end_phase"}
END_TURN: Move = {"type": "end_turn"}
DISCARDS: dict[str, Move] = {cid: {"type": "discard", "card": cid} for cid in CARDS}
ACTIVITIES: dict[str, Move] = {cid: {"type": "activity", "card": cid} for cid in CARDS}


class ChezGeekEngine(Engine):
    id = "chez_geek"
    title = "Chez Geek"
    min_players = 2
    max_players = rules.MAX_PLAYERS
    # The last two are table settings for the interrupt windows, not rules: the rules never
    # read them. They are options so the lobby shows them, the record keeps them and every peer
    # sees them (net.table.windows runs the windows): the seconds a window waits for answers
    # before the silent seats let it go (0: it waits for every answer), and whether the people
    # at a local keyboard are asked to answer windows at all (off: they let everything go).
    options: ClassVar[dict[str, Any]] = {
        "two_player_jobs_dealt": rules.TWO_PLAYER_DEAL_DEFAULT,
        "window_seconds": rules.WINDOW_SECONDS_DEFAULT,
        "keyboard_answers": True,
    }
    option_seats: ClassVar[dict[str, tuple[int, int]]] = {"two_player_jobs_dealt": (2, 2)}
    test_options = ("stack", "first", "dice", "jobs")
    # Clocks: a seat out of time lets windows go, ends its phases and its turn; what it must
    # choose (a prompt) the bot chooses.
    skip_moves = ("pass", "end_removals", "end_phase", "end_turn")
    clock_turns: ClassVar[dict[int, int]] = {2: 4, 3: 4, 4: 4, 5: 4, 6: 3}
    think_seconds = 40.0
    # The printed deck (names, values, effect keywords and texts), public like the cards
    # themselves: boards read names and descriptions here, never a game's state.
    cards: ClassVar[dict[str, Any]] = CARDS
    jobs: ClassVar[dict[str, Any]] = JOBS

    # -- setup -------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        n = num_players
        rng = random.Random(f"{seed}:setup")
        in_play = list(DECK.job_ids)
        dealt_two = n == 2 and opts["two_player_jobs_dealt"]
        if n == 2 and not dealt_two:
            in_play = [j for j in in_play if j not in DECK.two_player_jobs]
        if "jobs" in opts:
            jobs = check_stack(opts["jobs"], in_play, "jobs")
        else:
            rng.shuffle(in_play)
            jobs = in_play
            if dealt_two:
                two = list(DECK.two_player_jobs)
                rng.shuffle(two)
                jobs = two + [j for j in jobs if j not in two]
        if "stack" in opts:
            life = check_stack(opts["stack"], DECK.life)
        else:
            life = list(DECK.life)
            rng.shuffle(life)
        first = opts.get("first")
        if first is None:
            first = rng.randrange(n) if rules.RANDOM_FIRST_SEAT else 0
        elif type(first) is not int or not 0 <= first < n:
            raise ValueError(f"first must be a seat from 0 to {n - 1}, not {first!r}")
        dice = opts.get("dice", ())
        if not isinstance(dice, list | tuple) or any(
            type(d) is not int or not 1 <= d <= rules.DIE_SIDES for d in dice
        ):
            raise ValueError(f"dice must be a list of die results 1-{rules.DIE_SIDES}")
        return rules.new_state(n, seed, life, jobs, first, tuple(dice))

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """The base checks, and the window's seconds within reason (every lobby asks here)."""
        opts = super().resolve_options(options)
        if not 0 <= opts["window_seconds"] <= rules.WINDOW_SECONDS_MAX:
            raise ValueError(
                f"window_seconds must be 0 to {rules.WINDOW_SECONDS_MAX}, "
                f"not {opts['window_seconds']}"
            )
        return opts

    # -- reading -----------------------------------------------------------------------------
    # The state answers itself: one call fewer on the commonest question of all.
    to_act = staticmethod(CState.acting)  # type: ignore[assignment]

    def is_over(self, state: Any) -> bool:
        return state.over

    def turn(self, state: Any) -> int | None:
        return None if state.over else state.active

    def standing(self, result: dict[str, Any], seat: int) -> float:
        """Each job has its own goal: slack counts as the share of that goal reached."""
        try:
            return float(result["scores"][seat]) / max(1, int(result["goals"][seat]))
        except (KeyError, IndexError, TypeError, ValueError):
            return super().standing(result, seat)

    def result(self, state: Any) -> dict[str, Any]:
        s: CState = state
        return {
            "scores": [s.slack(p) for p in range(s.n)],
            "winners": list(s.winners),
            "goals": [s.goal(p) for p in range(s.n)],
            "jobs": list(s.jobs),
            "turns": s.turn_no,
        }

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        moves = self.offered(state, seat)
        if moves is ONLY_PASS:
            return [{"type": "pass"}]
        return list(map(own_copy, moves))

    def offered(self, state: Any, seat: int) -> list[Move]:
        """The legal moves of `seat` as `legal_moves` lists them, but the state's own shared
        list: for the random bot, which picks one move and need not copy the others, and for
        `apply`, which checks a move against the list the bot just chose from. Nobody may
        change the list or its moves. (One function, not a cache in front of another: random
        playouts ask it on every move, mostly in a window that leaves nothing but a pass.)"""
        s: CState = state
        known, moves = s.legal
        if type(seat) is int and seat == known:
            return moves
        if s.over or type(seat) is not int or not 0 <= seat < s.n:
            return []
        moves = self._moves(s, seat)
        s.legal = seat, moves
        return moves

    def _moves(self, s: CState, seat: int) -> list[Move]:
        """`offered` worked out afresh, for a seat of a game that is not over."""
        moves: list[Move]
        if s.prompt is not None:
            moves = list(s.prompt.moves) if seat == s.prompt.seat else []
        elif s.items:
            if s.item_done >> seat & 1:  # its player, or let it go already
                moves = []
            elif CANNOT_ANSWER(s.hands[seat]):
                moves = ONLY_PASS
            else:
                top = s.items[-1]
                moves = [PASS, *effects.cancels(s, seat, top)]
                if top.kind != "tv":
                    moves += effects.tv_answers(s, seat, top)
        elif s.reaction is not None:
            if s.react_done >> seat & 1:  # the seat it leaves out, or let it go already
                moves = []
            elif CANNOT_REACT(s.hands[seat]):
                moves = ONLY_PASS
            else:
                moves = [PASS, *effects.anytime_moves(s, seat, "reaction")]
        elif seat == s.active:
            moves = self._phase_moves(s, seat) + effects.anytime_moves(s, seat, "own")
        else:
            moves = []
        return moves

    def _phase_moves(self, s: CState, seat: int) -> list[Move]:
        phase = s.phase
        hand = s.hands[seat]
        moves: list[Move] = []
        if phase == "roll":
            others: list[int | None] = [p for p in range(s.n) if p != seat]
            for ref in s.removal_left:
                if s.find(seat, ref) is None:  # gone meanwhile (a card discarded it)
                    continue
                moves += [{"type": "remove", "card": ref, "to": to} for to in [*others, None]]
            moves.append(END_REMOVALS)
        elif phase == "call":
            blocks = effects.blocks_for(s, seat, effects.BLOCKABLE_OF_TYPE["person"])
            for cid in dict.fromkeys(hand):
                card = CARDS[cid]
                if card.type != "person" or cid in blocks:
                    continue
                if "cat" in card.categories:  # a cat moves in with its caller only
                    moves.append(CALLS[cid, seat])
                else:
                    moves += ROOM_CALLS[cid][: s.n]
            moves.append(END_PHASE)
        elif phase == "free_time":
            if s.ft >= 1:
                moves += self._free_time_moves(s, seat)
            moves.append(END_PHASE)
        else:
            if len(hand) > rules.MIN_KEEP:
                moves += map(DISCARDS.__getitem__, dict.fromkeys(hand))
            if len(hand) <= rules.DISCARD_TO:
                moves.append(END_TURN)
        return moves

    def _free_time_moves(self, s: CState, seat: int) -> list[Move]:
        moves: list[Move] = []
        things: list[str] = []
        blocks = effects.blocks_for(s, seat, BLOCKABLE_BUYS)
        for cid in dict.fromkeys(s.hands[seat]):
            card = CARDS[cid]
            if cid in blocks or card.cost > s.income:
                continue
            if card.type == "activity":
                moves.append(ACTIVITIES[cid])
            elif card.type == "thing":
                things += [cid] * s.hands[seat].count(cid)
        if things:
            things.sort()
            moves += _trips(tuple(things), s.income)
        return moves

    # -- moving ------------------------------------------------------------------------------
    def apply(self, state: Any, seat: int, move: Move) -> Any:
        s: CState = state
        # The commonest move by far, a pass in an open window, needs no list of answers; one
        # that leaves the window open changes one number.
        # (A game that is over has no window: `finish` closes them all.)
        if move == PASS and s.prompt is None and type(seat) is int and 0 <= seat < s.n:
            if s.items:
                done = s.item_done
            elif s.reaction is not None:
                done = s.react_done
            else:
                done = -1
            if done >= 0 and not done >> seat & 1:
                c = s.clone()
                if done | 1 << seat == FULL[s.n]:
                    rules.pass_window(c, seat)
                    rules.advance(c)
                elif s.items:
                    c.item_done |= 1 << seat
                else:
                    c.react_done |= 1 << seat
                return c
        if type(seat) is not int or not 0 <= seat < s.n:
            check_seat(s.n, seat)
        kind = move.get("type") if type(move) is dict else None
        if type(kind) is not str:
            kind = move_type(move)
        if s.over:
            raise IllegalMove("The game is over")
        norm = _normalized(move)
        if norm not in self.offered(s, seat):
            raise IllegalMove(self._explain(s, seat, kind, move))
        c = s.clone()
        DO[kind](self, c, seat, norm)
        rules.advance(c)
        return c

    # -- the private fast path of search playouts (engines.search) --------------------------
    def playout_copy(self, state: Any) -> CState:
        """A private copy that `random_step` may change in place (a state holds no container
        that is ever edited, so a clone is all it takes), making no events."""
        c: CState = state.clone()
        c.log = False
        return c

    def random_step(self, state: Any, rng: random.Random) -> int:
        """The random bots' next moves as the host asks them (the first seat of `to_act`,
        which always has a move; the same draws from `rng` as the random bot's `choose`),
        made in place on a `playout_copy`: no copies, no checks, no move dicts. Returns how
        many: the seats of a window holding nothing that could answer it let it go one after
        another, each a move without a draw (one that leaves the window open changes one
        number, as in `apply`), up to the first move that is a choice."""
        s: CState = state
        s.legal = rules.NO_MOVES  # a caller may have asked before this step: not true after it
        full, waiting, hands = FULL[s.n], rules.WAITING[s.n], s.hands
        made = 0
        while s.prompt is None:
            if s.items:
                done, silent = s.item_done, CANNOT_ANSWER
            elif s.reaction is not None:
                done, silent = s.react_done, CANNOT_REACT
            else:
                seat = s.active
                break
            seat = waiting[done][0]
            while silent(hands[seat]) and done | 1 << seat != full:
                done |= 1 << seat
                made += 1
                seat = waiting[done][0]
            if s.items:
                s.item_done = done
            else:
                s.react_done = done
            if not silent(hands[seat]):
                break  # a choice: `seat` holds a card that might answer
            rules.pass_window(s, seat)  # the last seat lets it go: the window closes
            rules.advance(s)
            made += 1
            if s.over:
                return made
            hands = s.hands
        else:
            seat = s.prompt.seat
        moves = self._moves(s, seat)
        move = pick(moves, rng)
        DO[move["type"]](self, s, seat, move)
        rules.advance(s)
        return made + 1

    def _do_pass(self, c: CState, seat: int, move: Move) -> None:
        rules.pass_window(c, seat)

    def _do_cancel(self, c: CState, seat: int, move: Move) -> None:
        c.take_from_hand(seat, move["card"])
        c.to_discard(move["card"])
        if c.log:
            c.ev.append({"kind": "play", "seat": seat, "card": move["card"], "as": "cancel"})
        rules.cancel_top(c, seat)

    def _do_tv(self, c: CState, seat: int, move: Move) -> None:
        top = c.items[-1]
        c.take_from_hand(seat, move["card"])
        if c.log:
            c.ev.append(
                {"kind": "play", "seat": seat, "card": move["card"], "as": "tv", "to": top.seat}
            )
        c.open_item("tv", seat, (move["card"],), top.seat, False)

    def _do_play(self, c: CState, seat: int, move: Move) -> None:
        if c.prompt is not None:  # a one-shot roll bonus right after the own roll
            effects.play_anytime(c, seat, move, "rolled")
            item, result = c.prompt.data
            c.prompt = None
            rules.settle(c, item, result, rolled=True)
            return
        r = c.reaction
        if r is None:
            effects.play_anytime(c, seat, move, "own")
            return
        # A play in a reaction window: the window closes and opens afresh for everyone once
        # what the card set off is done (REACTION_PLAY_REOPENS), unless it started a new item.
        base = len(c.todo)
        effects.play_anytime(c, seat, move, "reaction")
        c.reaction = None
        if rules.REACTION_PLAY_REOPENS and not (c.items and rules.NEW_ITEM_ENDS_REACTION):
            c.todo = (*c.todo[:base], ("react", r.exclude, r.owner, r.refs), *c.todo[base:])

    def _do_choose(self, c: CState, seat: int, move: Move) -> None:
        p = c.prompt
        assert p is not None
        c.prompt = None
        if p.kind == "room_loss":
            c.discard_entry(seat, move["card"], p.data)
        else:  # hand_limit
            c.discard_from_hand(seat, move["card"], "hand_limit")
            c.push(("hand_limit", seat))

    def _do_roll(self, c: CState, seat: int, move: Move) -> None:
        item = c.prompt.data  # type: ignore[union-attr]
        c.prompt = None
        rules.roll_activity(c, item)

    def _do_take(self, c: CState, seat: int, move: Move) -> None:
        item = c.prompt.data  # type: ignore[union-attr]
        c.prompt = None
        if c.log:
            c.ev.append(
                {"kind": "take_fixed", "seat": seat, "card": item.cards[0], "value": move["value"]}
            )
        rules.settle(c, item, move["value"], rolled=False)

    def _do_accept(self, c: CState, seat: int, move: Move) -> None:
        item, result = c.prompt.data  # type: ignore[union-attr]
        c.prompt = None
        rules.settle(c, item, result, rolled=True)

    def _do_remove(self, c: CState, seat: int, move: Move) -> None:
        ref, to = move["card"], move["to"]
        c.removal_left = tuple(r for r in c.removal_left if r != ref)
        cid = c.find(seat, ref)[1]  # type: ignore[index]
        if c.log:
            c.ev.append({"kind": "remove_attempt", "seat": seat, "card": cid, "ref": ref, "to": to})
        if not c.removal_left:  # queued first: a moved eater eats before phase 3 begins
            c.push(("end_removals",))
        if c.roll("removal", seat) >= rules.REMOVAL_SUCCEEDS_FROM:
            if to is None:
                c.discard_entry(seat, ref, "removal")
            else:
                c.move_entry(seat, ref, to, "removal")

    def _do_end_removals(self, c: CState, seat: int, move: Move) -> None:
        rules.end_removals(c)

    def _do_call(self, c: CState, seat: int, move: Move) -> None:
        c.take_from_hand(seat, move["card"])
        if c.log:
            c.ev.append(
                {"kind": "play", "seat": seat, "card": move["card"], "as": "call", "to": move["to"]}
            )
        c.open_item("person", seat, (move["card"],), move["to"], False)

    def _do_activity(self, c: CState, seat: int, move: Move) -> None:
        c.take_from_hand(seat, move["card"])
        c.ft -= 1
        if c.log:
            c.ev.append(
                {"kind": "play", "seat": seat, "card": move["card"], "as": "activity", "to": seat}
            )
        c.open_item("activity", seat, (move["card"],), seat, True)

    def _do_shop(self, c: CState, seat: int, move: Move) -> None:
        for cid in move["cards"]:
            c.take_from_hand(seat, cid)
        c.ft -= 1
        if c.log:
            c.ev.append(
                {
                    "kind": "play",
                    "seat": seat,
                    "cards": list(move["cards"]),
                    "as": "trip",
                    "to": seat,
                }
            )
        c.open_item("trip", seat, tuple(move["cards"]), seat, True)

    def _do_end_phase(self, c: CState, seat: int, move: Move) -> None:
        c.push(("phase", NEXT_PHASE[c.phase]))

    def _do_discard(self, c: CState, seat: int, move: Move) -> None:
        c.discard_from_hand(seat, move["card"], "discard_phase")

    def _do_end_turn(self, c: CState, seat: int, move: Move) -> None:
        rules.end_turn(c)

    def _explain(self, s: CState, seat: int, kind: str, move: Move) -> str:
        """Why a move is not legal, in a sentence a player can read."""
        if seat not in s.acting():
            return "It is not your move now"
        if kind not in FIELDS:
            return f"There is no move {kind!r} in Chez Geek"
        extra = set(move) - FIELDS[kind] - {"type"}
        if extra:
            return f"A {kind!r} move has no field {sorted(extra)[0]!r}"
        card = move.get("card")
        if kind == "pass":
            return "There is nothing to let go right now"
        if kind in ("cancel", "tv", "play", "activity", "call", "discard") and isinstance(
            card, str
        ):
            if card not in CARDS:
                return f"There is no card {card!r}"
            if card not in s.hands[seat]:
                return f"{CARDS[card].de} is not in your hand"
            if effects.blocked(s, seat, card):
                return f"You may not play {CARDS[card].de}: it is blocked for you"
            if kind == "cancel":
                return f"{CARDS[card].de} cannot cancel what is being played now"
            if kind == "activity" and s.phase == "free_time":
                if s.ft < 1:
                    return "You have no free time left"
                if CARDS[card].cost > s.income:
                    return f"{CARDS[card].de} costs {CARDS[card].cost}; you have {s.income} income"
        if kind == "shop" and isinstance(move.get("cards"), list) and s.phase == "free_time":
            cards = move["cards"]
            if all(isinstance(c, str) and c in CARDS for c in cards):
                if any(c not in s.hands[seat] for c in cards):
                    return "You can only buy Things from your hand"
                if any(effects.blocked(s, seat, c) for c in cards):
                    return "One of these Things is blocked for you"
                total = sum(CARDS[c].cost for c in cards)
                if total > s.income:
                    return f"That trip costs {total}; you have {s.income} income"
                if s.ft < 1:
                    return "You have no free time left"
        if s.prompt is not None:
            return "First make the choice you are asked for"
        if s.items or s.reaction is not None:
            return "Now you can only answer what is being played, or let it go"
        return self._explain_phase(s, seat, kind, move)

    @staticmethod
    def _explain_phase(s: CState, seat: int, kind: str, move: Move) -> str:
        """Why a move of the active player's own turn is not legal in this phase."""
        phase = s.phase.replace("_", " ")
        held = len(s.hands[seat])
        card = CARDS.get(move.get("card")) if isinstance(move.get("card"), str) else None
        if kind == "play" and card is not None:
            if card.effect("cancel") is not None:
                return f"{card.de} only stops a card as someone else plays it"
            if card.effect("roll_bonus") is not None:
                return f"{card.de} is played right after your own roll"
            needs = card.effect("requires")
            if needs is not None:
                return f"{card.de} needs {needs[0]} in your room"
            return f"{card.de} cannot be played now"
        if kind == "end_turn" and s.phase == "discard" and held > rules.DISCARD_TO:
            return f"You hold {held} cards: discard down to {rules.DISCARD_TO} first"
        if kind == "discard" and s.phase == "discard" and held <= rules.MIN_KEEP:
            return "You must keep at least one card"
        wanted = {"remove": "roll", "end_removals": "roll", "call": "call", "activity":
                  "free_time", "shop": "free_time", "discard": "discard", "end_turn": "discard"}
        if kind in wanted and wanted[kind] != s.phase:
            where = wanted[kind].replace("_", " ")
            return f"That is for the {where} phase; this is the {phase} phase"
        return f"That move is not possible in the {phase} phase"

    # -- showing -----------------------------------------------------------------------------
    def view(self, state: Any, seat: int | None) -> View:
        s: CState = state
        check_viewer(s.n, seat)
        active = s.active
        players = []
        for p in range(s.n):
            job = JOBS[s.jobs[p]]
            room = [
                {"ref": r, "card": cid, "value": v, "tokens": t, "slack": v + t}
                for r, cid, v, t in s.rooms[p]
            ]
            lasting = s.lasting[p]
            players.append(
                {
                    "job": job.id,
                    "goal": job.goal,
                    "slack": sum(e["slack"] for e in room) + s.pool[p],
                    "bonus_pool": s.pool[p],
                    "hand_count": len(s.hands[p]),
                    "room": room,
                    "lasting": [x[0] for x in lasting],
                    "lasting_fired": [x[2] for x in lasting],
                    "income": s.income if p == active else 0,
                    "free_time": s.ft if p == active else 0,
                }
            )
        pile = s.job_pile
        return {
            "game": self.id,
            "seat": seat,
            "turn": None if s.over else active,
            "to_act": s.acting(),
            "over": s.over,
            "num_players": s.n,
            "turn_no": s.turn_no,
            "phase": s.phase,
            "income": s.income,
            "free_time": s.ft,
            "removals_left": list(s.removal_left),
            "players": players,
            "hand": [] if seat is None else [_card_view(c) for c in s.hands[seat]],
            "draw_pile": len(s.draw),
            "discard_pile": list(s.discard),
            "job_pile": len(pile),
            "job_pile_known": list(pile[len(pile) - s.jobs_known :]),
            "pending": [rebuild.item_view(i) for i in s.items],
            "window": rebuild.window_view(s),
            "prompt": rebuild.prompt_view(s),
            "queue": [rebuild.step_view(step) for step in reversed(s.todo)],
            "next_ref": s.next_ref,
            "winners": list(s.winners),
            # The dice rolled this turn so far (public), so a table can show them.
            "rolls": [{"seat": p, "for": what, "die": die} for p, what, die in s.turn_rolls],
        }

    def from_view(self, view: View, rng: random.Random) -> CState:
        """A state agreeing with everything `view` shows, the rest drawn afresh (see
        `rebuild`): what the expert bot searches over, at a local seat and a networked one."""
        return rebuild.from_view(view, rng)

    def events(self, before: Any, seat: int, move: Move, after: Any) -> list[dict[str, Any]]:
        return [dict(e) for e in after.ev]

    def statistics(self, game: Played) -> list[list[Stat]]:
        return stats.statistics(game)

    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """Other hands and the draw pile are re-dealt among themselves (sizes kept), the
        unseen part of the job pile reshuffled, and future dice drawn afresh."""
        s: CState = state
        t = s.clone()
        unseen = list(s.draw)
        for p in range(s.n):
            if p != seat:
                unseen += s.hands[p]
        # Sorted first, so the sample depends on what the seat knows and the rng alone, never
        # on where the hidden cards really lie (engines.search samples with this).
        unseen.sort()
        rng.shuffle(unseen)
        i = 0
        hands = list(s.hands)
        for p in range(s.n):
            if p != seat:
                size = len(s.hands[p])
                hands[p] = tuple(unseen[i : i + size])
                i += size
        t.hands = tuple(hands)
        t.draw = tuple(unseen[i:])
        top = sorted(s.job_pile[: len(s.job_pile) - s.jobs_known])
        rng.shuffle(top)
        t.job_pile = (*top, *s.job_pile[len(top) :])
        t.seed = rng.getrandbits(64)
        t.dice = s.dice[: s.rolls]
        return t


# The handler of each move type, looked up once rather than by name on every move.
DO = {kind: getattr(ChezGeekEngine, "_do_" + kind) for kind in FIELDS}
CALLS: dict[tuple[str, int], Move] = {
    (cid, to): {"type": "call", "card": cid, "to": to}
    for cid in CARDS
    for to in range(ChezGeekEngine.max_players)
}
# A person's calls into every room, seat 0 first (a table of n seats takes the first n).
ROOM_CALLS = {
    cid: tuple(CALLS[cid, to] for to in range(ChezGeekEngine.max_players)) for cid in CARDS
}
COSTS = {cid: card.cost for cid, card in CARDS.items()}
# What a free-time use may be blocked in: an activity or a Thing bought on a trip.
BLOCKABLE_BUYS = effects.BLOCKABLE_OF_TYPE["activity"] | effects.BLOCKABLE_OF_TYPE["thing"]


@lru_cache(maxsize=4096)
def _trips(things: tuple[str, ...], income: int) -> tuple[Move, ...]:
    """The shopping trips of these Things (sorted) within `income`, each once, in order:
    the same few hands and incomes come back all game long, and every move of a free-time
    phase asks again. (Cached moves are shared like every legal move: never changed.)"""
    trips: set[tuple[str, ...]] = set()
    for size in range(1, len(things) + 1):
        for combo in combinations(things, size):
            if sum(map(COSTS.__getitem__, combo)) <= income:
                trips.add(combo)
    return tuple({"type": "shop", "cards": list(t)} for t in sorted(trips))


def own_copy(move: Move) -> Move:
    """A legal move the caller may change: a copy down to a trip's list of cards (the moves of
    `offered` are shared, trips even between states: see `_trips`)."""
    return {**move, "cards": [*move["cards"]]} if "cards" in move else move.copy()


def pick(moves: list[Move], rng: random.Random) -> Move:
    """The random bots' pick among `moves` (see bots.FastRandomBot): one `rng.random()`, and
    none for a lone move."""
    return moves[int(rng.random() * len(moves))] if len(moves) > 1 else moves[0]


def _card_view(cid: str) -> dict[str, Any]:
    """A hand card as the view shows it: a fresh copy of the record made once per card."""
    shown = CARD_VIEWS[cid]
    return {**shown, "categories": shown["categories"][:], "effects": shown["effects"][:]}


CARD_VIEWS: dict[str, dict[str, Any]] = {
    cid: {
        "card": cid,
        "type": card.type,
        "categories": sorted(card.categories),
        "cost": card.cost,
        "slack": card.slack_text(),
        "effects": list(card.keywords),
    }
    for cid, card in CARDS.items()
}


def _normalized(move: Move) -> Move:
    """The move with a trip's cards sorted; values other than text, whole numbers, None and
    lists of text never match a legal move (True is not seat 1). Nothing in a move is ever
    changed or kept, so a move with nothing to sort is its own normal form."""
    for value in move.values():
        if type(value) is not str and type(value) is not int and value is not None:
            break
    else:
        return move
    out = dict(move)
    for key, value in move.items():
        if isinstance(value, bool | float):
            return {"type": "?"}
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value):
                return {"type": "?"}
            out[key] = sorted(value)
    return out
