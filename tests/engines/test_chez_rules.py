"""Chez Geek: fifteen worked scenarios of our rules, the response and reaction windows and illegal
moves, played out through the engine contract with stacked cards, fixed jobs and dice.

The helpers here (a stacked game, letting windows go, walking to a phase) are shared by the
other Chez Geek test files."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack
import pytest

from engines import IllegalMove, get_engine
from engines.chez_geek.deck import CARDS, DECK, JOBS
from engines.chez_geek.rules import NO_MOVES

ENG = get_engine("chez_geek")


def _filler_rank(cid: str) -> tuple[int, int, int]:
    """Padding prefers cards that change nothing: Things first, then paid activities, and
    cards that answer or hurt others last, so a test's seats hold only what it gives them."""
    card = CARDS[cid]
    if card.type == "thing":
        tier = 0
    elif card.type == "activity" and card.cost > 0 and not card.effects:
        tier = 1
    else:
        tier = 2
    return tier, -card.cost, DECK.life.index(cid)


def stack_for(
    n: int, hands: dict[int, list[str]], draws: list[str], bottom: list[str]
) -> list[str]:
    """A whole deck, top first: the given hands (padded), then `draws`, the spare cards, and
    `bottom` last (cards a test lays into rooms)."""
    rest = Counter(DECK.life)
    rest.subtract(Counter(c for h in hands.values() for c in h))
    rest.subtract(Counter(draws) + Counter(bottom))
    assert min(rest.values()) >= 0, "a test asked for more copies than the deck has"
    spare = sorted(rest.elements(), key=_filler_rank)
    deck: list[str] = []
    for seat in range(n):
        hand = hands.get(seat, [])
        pad = 5 - len(hand)
        deck += hand + spare[:pad]
        spare = spare[pad:]
    return deck + list(draws) + spare + list(bottom)


def game(
    jobs: list[str],
    hands: dict[int, list[str]] | None = None,
    draws: list[str] = (),  # type: ignore[assignment]
    dice: list[int] = (),  # type: ignore[assignment]
    first: int = 0,
    rooms: dict[int, list[str]] | None = None,
) -> Any:
    """A game whose seats hold `jobs` (the rest of the job pile in file order), with `rooms`
    laid out once the first turn has begun."""
    n = len(jobs)
    options: dict[str, Any] = {"first": first, "dice": list(dice)}
    in_play = list(JOBS)
    if n == 2:
        if {"slacker", "drummer"} & set(jobs):
            options["two_player_jobs_dealt"] = True
        else:
            in_play = [j for j in in_play if j not in ("slacker", "drummer")]
    options["jobs"] = jobs + [j for j in in_play if j not in jobs]
    rooms = rooms or {}
    laid = [c for cards in rooms.values() for c in cards]
    options["stack"] = stack_for(n, hands or {}, list(draws), laid)
    s = ENG.new_game(n, 11, options)
    for seat, cards in rooms.items():
        for cid in cards:
            put(s, seat, cid)
    return s


def mv(s: Any, seat: int, kind: str, /, **fields: Any) -> Any:
    return ENG.apply(s, seat, {"type": kind, **fields})


def quiet(s: Any) -> Any:
    """Everybody lets every open window go (no prompt may be open)."""
    while not s.over and s.prompt is None and (s.items or s.reaction is not None):
        s = mv(s, ENG.to_act(s)[0], "pass")
    return s


def to_phase(s: Any, phase: str) -> Any:
    """The active player moves on to `phase`, every window let go."""
    s = quiet(s)
    while s.phase != phase:
        kinds = {m["type"] for m in ENG.legal_moves(s, s.active)}
        s = quiet(mv(s, s.active, "end_removals" if "end_removals" in kinds else "end_phase"))
    return s


def next_turn(s: Any) -> Any:
    """The active player ends their turn (discarding their first cards if they must)."""
    seat = s.active
    s = to_phase(s, "discard")
    while s.active == seat and not s.over:
        kinds = {m["type"] for m in ENG.legal_moves(s, seat)}
        if "end_turn" in kinds:
            s = quiet(mv(s, seat, "end_turn"))
        else:
            s = mv(s, seat, "discard", card=s.hands[seat][0])
    return s


def put(s: Any, seat: int, cid: str, value: int | None = None, tokens: int = 0) -> int:
    """Lay a card from the draw pile into a room (setting up a position), returning its ref."""
    i = s.draw.index(cid)
    s.draw = s.draw[:i] + s.draw[i + 1 :]
    ref = s.next_ref
    s.next_ref += 1
    card = CARDS[cid]
    entry = (ref, cid, card.slack if value is None else value, tokens)
    s.rooms = tuple((*r, entry) if p == seat else r for p, r in enumerate(s.rooms))
    s.legal = NO_MOVES
    return ref


def poke(s: Any, **fields: Any) -> None:
    """Set up a position by hand; the state's cached legal moves no longer hold."""
    for name, value in fields.items():
        setattr(s, name, value)
    s.legal = NO_MOVES


def room(s: Any, seat: int) -> list[tuple[str, int]]:
    """(card, slack) of each card in a room."""
    return [(cid, v + t) for _, cid, v, t in s.rooms[seat]]


def snapshot(s: Any) -> bytes:
    views = [ENG.view(s, p) for p in [*range(s.n), None]]
    legal = [ENG.legal_moves(s, p) for p in range(s.n)]
    return msgpack.packb([views, legal, ENG.to_act(s)])


def refuse(s: Any, seat: int, move: dict[str, Any], match: str) -> None:
    before = snapshot(s)
    with pytest.raises(IllegalMove, match=match):
        ENG.apply(s, seat, move)
    assert snapshot(s) == before


# -- §1.8 worked scenarios ------------------------------------------------------------------------
def test_1_variable_income() -> None:
    s = game(["zeitarbeiter", "hiwi", "kellner"], {0: ["nt_server_handbuch"]}, dice=[5])
    assert s.income == 4
    s = to_phase(s, "free_time")
    s = quiet(mv(s, 0, "shop", cards=["nt_server_handbuch"]))
    assert room(s, 0) == [("nt_server_handbuch", 3)] and s.income == 1

    s = game(["zeitarbeiter", "hiwi", "kellner"], {0: ["nt_server_handbuch"]}, dice=[3])
    assert s.income == 1
    s = to_phase(s, "free_time")
    refuse(s, 0, {"type": "shop", "cards": ["nt_server_handbuch"]}, "costs 3; you have 1")


def test_2_shopping() -> None:
    hand = ["geld_in_der_couch", "ultra_slims", "nt_server_handbuch", "schlafen"]
    s = game(["hiwi", "kellner", "zeitarbeiter"], {0: hand})
    assert (s.income, s.ft) == (3, 2)
    s = to_phase(s, "free_time")
    s = mv(s, 0, "play", card="geld_in_der_couch")
    assert s.income == 4
    s = quiet(mv(s, 0, "shop", cards=["ultra_slims", "nt_server_handbuch"]))
    assert s.income == 0 and s.slack(0) == 4 and s.ft == 1
    s = quiet(mv(s, 0, "activity", card="schlafen"))
    assert s.slack(0) == 5 and s.ft == 0


def test_3_failed_variable_slack() -> None:
    s = game(["slacker", "hiwi", "kellner"], {0: ["schaeferstuendchen_jimmys"]}, dice=[1])
    s = to_phase(s, "free_time")
    ft = s.ft
    s = quiet(mv(s, 0, "activity", card="schaeferstuendchen_jimmys"))
    assert s.prompt.kind == "rolled" and s.prompt.data[1] == 0
    s = quiet(mv(s, 0, "accept"))
    assert s.slack(0) == 0 and s.ft == ft - 1
    assert s.discard[-1] == "schaeferstuendchen_jimmys"


def test_4_eater() -> None:
    # Nils is seat 0, Maike seat 1.
    rooms = {1: ["mikrowellenpopcorn", "white_russian", "schlafen"], 0: ["pizza", "bier"]}
    s = game(["hiwi", "versuchskaninchen"], {0: ["superzecke"]}, dice=[3, 6], rooms=rooms)
    s = quiet(mv(quiet(s), 0, "call", card="superzecke", to=1))
    assert s.rolls == 0, "an uninvited person needs no call roll"
    assert s.prompt.seat == 1 and s.prompt.kind == "room_loss"
    popcorn = next(e[0] for e in s.rooms[1] if e[1] == "mikrowellenpopcorn")
    s = quiet(mv(s, 1, "choose", card=popcorn))
    assert [c for c, _ in room(s, 1)] == ["white_russian", "schlafen", "superzecke"]
    s = next_turn(s)
    zecke = next(e[0] for e in s.rooms[1] if e[1] == "superzecke")
    s = mv(s, 1, "remove", card=zecke, to=None)  # die 3: it stays, then eats White Russian
    assert [c for c, _ in room(s, 1)] == ["schlafen", "superzecke"]
    s = next_turn(next_turn(s))
    s = mv(s, 1, "remove", card=zecke, to=0)  # die 6: it moves and eats at Nils' at once
    assert s.prompt.seat == 0 and s.prompt.kind == "room_loss"
    bier = next(e[0] for e in s.rooms[0] if e[1] == "bier")
    s = mv(s, 0, "choose", card=bier)
    assert [c for c, _ in room(s, 0)] == ["pizza", "superzecke"]
    assert [c for c, _ in room(s, 1)] == ["schlafen"]


def test_5_one_card_bringing_two_players_to_their_goal() -> None:
    """A Web card pays the Web Designer's bonus pool as it enters the player's room: if both
    reach their goal at once, the first of them clockwise from the active seat wins; if only
    the designer does, the designer wins (only the seats a change touched are asked)."""
    for owner_short, winners in ((1, [0]), (2, [1])):
        s = game(["hiwi", "web_designer", "kellner"], {0: ["im_netz_surfen"]})
        poke(s, pool=(s.goal(0) - owner_short, s.goal(1) - 2, 0))
        s = quiet(mv(to_phase(s, "free_time"), 0, "activity", card="im_netz_surfen"))
        assert s.over and ENG.result(s)["winners"] == winners


def _peter_at_19(maike: str) -> Any:
    things = ["rostlaube", "pilze", "alter_ragnaroek", "gamestation", "bong"]  # 3+4+4+5+3
    s = game(["support_hotline", "hiwi"], {0: ["gullys"], 1: [maike]}, dice=[3], rooms={0: things})
    assert s.slack(0) == 19
    return to_phase(s, "free_time")


def test_5_instant_win() -> None:
    s = quiet(mv(_peter_at_19("kippenschnorren"), 0, "shop", cards=["gullys"]))
    assert s.over and ENG.result(s)["winners"] == [0] and ENG.result(s)["scores"][0] == 20
    assert ENG.legal_moves(s, 1) == []  # no reaction window after the win: Kippenschnorren too late

    s = mv(_peter_at_19("pech_gehabt"), 0, "shop", cards=["gullys"])
    s = mv(s, 1, "cancel", card="pech_gehabt")
    assert not s.over and s.slack(0) == 19 and "gullys" in s.hands[0]


def test_6_cancel_timing() -> None:
    s = game(["kellner", "hiwi"], {0: ["schlafen"], 1: ["schreinerarbeiten"]})
    s = to_phase(s, "free_time")
    s = mv(s, 0, "activity", card="schlafen")
    s = quiet(s)  # Nils lets it go: it resolves
    s = next_turn(s)
    assert s.active == 1
    moves = [m for p in range(2) for m in ENG.legal_moves(s, p)]
    assert not any(m.get("card") == "schreinerarbeiten" for m in moves)
    refuse(s, 1, {"type": "cancel", "card": "schreinerarbeiten"}, "only answer|cannot cancel")
    assert room(s, 0) == [("schlafen", 2)]


def test_7_job_bonus_only_on_later_cards() -> None:
    s = game(
        ["hiwi", "zeitarbeiter", "support_hotline"], {0: ["schlafen", "schlafen", "neuer_job"]}
    )
    poke(s, job_pile=("kellner", *[j for j in s.job_pile if j != "kellner"]))
    s = to_phase(s, "free_time")
    s = quiet(mv(s, 0, "activity", card="schlafen"))
    s = mv(s, 0, "play", card="neuer_job")
    assert s.jobs[0] == "kellner"
    s = quiet(mv(s, 0, "activity", card="schlafen"))
    assert room(s, 0) == [("schlafen", 1), ("schlafen", 2)]


def test_8_bonus_only_for_later_cards_and_the_pool() -> None:
    hands = {0: ["neuer_job", "im_netz_surfen"]}
    s = game(["hiwi", "kellner", "zeitarbeiter"], hands, rooms={1: ["im_netz_surfen"]})
    poke(s, job_pile=("web_designer", *[j for j in s.job_pile if j != "web_designer"]))
    s = to_phase(s, "free_time")
    s = mv(s, 0, "play", card="neuer_job")
    assert s.jobs[0] == "web_designer" and s.slack(0) == 0
    s = quiet(mv(s, 0, "activity", card="im_netz_surfen"))
    assert room(s, 0) == [("im_netz_surfen", 3)]

    s = game(["kellner", "hiwi", "zeitarbeiter"], {0: ["im_netz_surfen"]})
    poke(s, jobs=(s.jobs[0], "web_designer", *s.jobs[2:]))
    s = quiet(mv(to_phase(s, "free_time"), 0, "activity", card="im_netz_surfen"))
    assert room(s, 0) == [("im_netz_surfen", 1)]
    assert s.pool[1] == 2 and s.slack(1) == 2


def test_9_job_drawback_keeps_old_cards() -> None:
    hand = ["neuer_job", "bier", "joint", "haschkekse", "pizza"]
    s = game(["slacker", "hiwi", "kellner"], {0: hand}, ["pilze"], rooms={0: ["white_russian"]})
    poke(s, job_pile=("versuchskaninchen", *[j for j in s.job_pile if j != "versuchskaninchen"]))
    s = to_phase(s, "free_time")
    s = mv(s, 0, "play", card="neuer_job")
    assert s.jobs[0] == "versuchskaninchen" and room(s, 0) == [("white_russian", 2)]
    poke(s, income=5)
    trips = [m["cards"] for m in ENG.legal_moves(s, 0) if m["type"] == "shop"]
    assert ["pizza"] in trips and not any({"bier", "joint", "haschkekse"} & set(t) for t in trips)
    assert "pilze" in s.hands[0]
    for cid in ("bier", "joint", "haschkekse", "pilze"):
        refuse(s, 0, {"type": "shop", "cards": [cid]}, "blocked")


def test_10_dual_category() -> None:
    def faultiere_value(job: str, cancel: bool) -> Any:
        hands = {0: ["faultiere"], 1: ["auto_alarmanlage"]}
        s = game([job, "arbeitsdrohne", "zeitarbeiter"], hands, rooms={0: ["tv_queen"]})
        s = mv(to_phase(s, "free_time"), 0, "activity", card="faultiere")
        assert {"type": "cancel", "card": "auto_alarmanlage"} in ENG.legal_moves(s, 1)
        if cancel:
            return mv(s, 1, "cancel", card="auto_alarmanlage")
        return quiet(s)

    s = faultiere_value("hiwi", cancel=True)
    assert room(s, 0) == [("tv_queen", 2)] and "faultiere" in s.discard
    assert room(faultiere_value("hiwi", False), 0)[-1] == ("faultiere", 2)
    assert room(faultiere_value("versuchskaninchen", False), 0)[-1] == ("faultiere", 2)
    assert room(faultiere_value("kellner", False), 0)[-1] == ("faultiere", 3)
    assert room(faultiere_value("slacker", False), 0)[-1] == ("faultiere", 3)

    # As a TV cancel against Nils' trip, Nils' Müllabfuhr (a Sleep cancel) stops it.
    s = game(
        ["hiwi", "kellner", "zeitarbeiter"], {0: ["pizza"], 1: ["faultiere"], 2: ["muellabfuhr"]}
    )
    s = mv(to_phase(s, "free_time"), 0, "shop", cards=["pizza"])
    s = mv(s, 1, "tv", card="faultiere")
    assert {"type": "cancel", "card": "muellabfuhr"} in ENG.legal_moves(s, 2)
    s = mv(s, 2, "cancel", card="muellabfuhr")
    assert len(s.items) == 1 and s.items[0].kind == "trip"
    s = quiet(s)
    assert room(s, 0) == [("pizza", 2)]


def test_11_tv_on_a_shopping_trip() -> None:
    s = game(
        ["hiwi", "kellner", "zeitarbeiter"], {0: ["pizza", "bier"], 1: ["sendung_mit_der_ratte"]}
    )
    s = to_phase(s, "free_time")
    income, ft = s.income, s.ft
    s = mv(s, 0, "shop", cards=["bier", "pizza"])
    s = mv(s, 1, "tv", card="sendung_mit_der_ratte")
    assert ENG.to_act(s) == [0, 2], "the nested window: everyone but the TV's player"
    s = quiet(s)
    assert {"pizza", "bier"} <= set(s.hands[0])
    assert s.ft == ft - 1 and s.income == income
    assert room(s, 0) == [("sendung_mit_der_ratte", 1)]
    assert {"type": "shop", "cards": ["bier", "pizza"]} in ENG.legal_moves(s, 0)


def _loud(n: int) -> Any:
    hands = {0: ["schaeferstuendchen_uni"]}
    rooms = {p: ["schlafen"] for p in range(1, n)}
    s = game(["drummer", "hiwi", "kellner", "zeitarbeiter"][:n], hands, dice=[1, 5], rooms=rooms)
    s = quiet(mv(to_phase(s, "free_time"), 0, "activity", card="schaeferstuendchen_uni"))
    return quiet(mv(s, 0, "accept"))


def test_12_loud_nookie() -> None:
    s = _loud(4)
    assert room(s, 0) == [("schaeferstuendchen_uni", 5)]
    assert room(s, 1) == [] and room(s, 3) == [] and room(s, 2) == [("schlafen", 1)]
    s = _loud(2)
    assert room(s, 1) == []


def test_13_partner() -> None:
    hands = {0: ["schaeferstuendchen_theater"]}
    s = game(
        ["drummer", "hiwi", "kellner"], hands, dice=[1], rooms={0: ["lebensabschnittspartner"]}
    )
    s = mv(to_phase(s, "free_time"), 0, "activity", card="schaeferstuendchen_theater")
    s = quiet(s)
    assert s.prompt.kind == "nookie"
    rolls = s.rolls
    s = quiet(mv(s, 0, "take", value=3))
    assert s.rolls == rolls and room(s, 0)[-1] == ("schaeferstuendchen_theater", 3)
    assert not any(e["kind"] == "loud_nookie" for e in s.ev)


def test_14_calls() -> None:
    hands = {0: ["enthusiast", "feliz", "fresssack"]}
    s = game(["hiwi", "kellner", "zeitarbeiter"], hands, dice=[2], rooms={1: ["pizza"]})
    s = quiet(mv(quiet(s), 0, "call", card="enthusiast", to=0))
    assert room(s, 0) == [] and s.discard[-1] == "enthusiast"
    s = quiet(mv(s, 0, "call", card="feliz", to=0))
    assert room(s, 0) == [("feliz", 1)] and s.rolls == 1
    assert {"type": "call", "card": "feliz", "to": 1} not in ENG.legal_moves(s, 0)
    s = quiet(mv(s, 0, "call", card="fresssack", to=1))
    assert room(s, 1) == [("fresssack", 0)] and s.rolls == 1


def test_a_refused_card_says_why_in_its_own_turn() -> None:
    s = game(["hiwi", "kellner", "slacker"],
             {0: ["pech_gehabt", "schoensaufen", "bier", "schlafen", "schlafen"]})
    s = to_phase(s, "call")
    refuse(s, 0, {"type": "play", "card": "pech_gehabt"},
           "Pech gehabt! only stops a card as someone else plays it")
    refuse(s, 0, {"type": "play", "card": "schoensaufen"},
           "Schönsaufen is played right after your own roll")
    refuse(s, 0, {"type": "activity", "card": "schlafen"},
           "That is for the free time phase; this is the call phase")


def test_15_hand_and_discard() -> None:
    s = game(["arbeitsdrohne", "hiwi", "kellner"])
    assert len(s.hands[0]) == 7
    s = to_phase(s, "discard")
    kinds = {m["type"] for m in ENG.legal_moves(s, 0)}
    assert "end_turn" not in kinds
    refuse(s, 0, {"type": "end_turn"}, "You hold 7 cards: discard down to 5 first")
    refuse(s, 0, {"type": "call", "card": s.hands[0][0], "to": 0},
           "That is for the call phase; this is the discard phase")
    s = mv(s, 0, "discard", card=s.hands[0][0])
    s = mv(s, 0, "discard", card=s.hands[0][0])
    assert len(s.hands[0]) == 5 and {"type": "end_turn"} in ENG.legal_moves(s, 0)
    while len(s.hands[0]) > 1:
        s = mv(s, 0, "discard", card=s.hands[0][0])
    assert not any(m["type"] == "discard" for m in ENG.legal_moves(s, 0))
    s = mv(s, 0, "end_turn")
    s = next_turn(next_turn(s))
    assert s.active == 0 and s.income == JOBS["arbeitsdrohne"].income[0]


# -- §1.5 windows ---------------------------------------------------------------------------------
def test_a_response_window_asks_everyone_else_at_once() -> None:
    s = game(["hiwi", "kellner", "zeitarbeiter", "slacker"], {0: ["schlafen"]})
    s = mv(to_phase(s, "free_time"), 0, "activity", card="schlafen")
    assert ENG.to_act(s) == [1, 2, 3]
    for p in (1, 2, 3):
        assert {"type": "pass"} in ENG.legal_moves(s, p)
    s = mv(s, 2, "pass")
    assert ENG.to_act(s) == [1, 3] and ENG.legal_moves(s, 2) == []
    s = mv(mv(s, 3, "pass"), 1, "pass")
    assert not s.items and room(s, 0) == [("schlafen", 1)]
    assert s.reaction is not None and ENG.to_act(s) == [1, 2, 3]  # the reaction window


def test_the_first_response_wins() -> None:
    s = game(
        ["hiwi", "kellner", "zeitarbeiter"],
        {0: ["schlafen"], 1: ["auto_alarmanlage"], 2: ["pech_gehabt"]},
    )
    s = mv(to_phase(s, "free_time"), 0, "activity", card="schlafen")
    s = mv(s, 2, "cancel", card="pech_gehabt")
    assert not s.items and "schlafen" in s.discard
    assert ENG.legal_moves(s, 1) == [] and ENG.to_act(s) == [0]
    refuse(s, 1, {"type": "cancel", "card": "auto_alarmanlage"}, "not your move")


def test_a_cancelled_tv_reopens_the_window_for_everyone() -> None:
    hands = {0: ["schlafen"], 1: ["akte_y"], 2: ["hirnfurz"]}
    s = game(["hiwi", "kellner", "zeitarbeiter", "slacker"], hands)
    s = mv(to_phase(s, "free_time"), 0, "activity", card="schlafen")
    s = mv(s, 3, "pass")
    assert ENG.to_act(s) == [1, 2]
    s = mv(s, 1, "tv", card="akte_y")
    assert ENG.to_act(s) == [0, 2, 3]  # nested: the victim may answer too
    s = mv(s, 2, "cancel", card="hirnfurz")
    assert [i.kind for i in s.items] == ["activity"] and ENG.to_act(s) == [1, 2, 3]
    assert "akte_y" in s.discard
    s = quiet(s)
    assert room(s, 0) == [("schlafen", 1)]


def test_the_victim_cancels_a_tv_card_in_the_nested_window() -> None:
    hands = {0: ["schlafen", "muellabfuhr"], 1: ["faultiere"]}
    s = game(["hiwi", "kellner", "zeitarbeiter"], hands)
    s = mv(to_phase(s, "free_time"), 0, "activity", card="schlafen")
    s = mv(s, 1, "tv", card="faultiere")
    s = mv(s, 0, "cancel", card="muellabfuhr")
    s = quiet(s)
    assert room(s, 0) == [("schlafen", 1)] and "faultiere" in s.discard


def test_let_go_is_an_event_only_when_the_window_closes() -> None:
    s = game(["hiwi", "kellner", "zeitarbeiter"], {0: ["schlafen"]})
    s = mv(to_phase(s, "free_time"), 0, "activity", card="schlafen")
    first = mv(s, 1, "pass")
    assert ENG.events(s, 1, {"type": "pass"}, first) == []
    last = mv(first, 2, "pass")
    kinds = [e["kind"] for e in ENG.events(first, 2, {"type": "pass"}, last)]
    assert kinds[0] == "let_go" and "enter" in kinds


def test_phases_open_with_a_reaction_window() -> None:
    s = game(["hiwi", "kellner", "zeitarbeiter"])
    assert s.phase == "call" and s.reaction is not None and ENG.to_act(s) == [1, 2]
    s = quiet(s)
    s = mv(s, 0, "end_phase")
    assert s.phase == "free_time" and ENG.to_act(s) == [1, 2]


# -- illegal moves --------------------------------------------------------------------------------
def test_illegal_moves_are_refused_with_a_reason() -> None:
    hands = {0: ["massage", "schlafen", "bier"], 1: ["auto_alarmanlage"]}
    s = game(["versuchskaninchen", "kellner", "zeitarbeiter"], hands)
    s = to_phase(s, "free_time")
    refuse(s, 1, {"type": "end_phase"}, "not your move")
    refuse(s, 0, {"type": "activity", "card": "konzert"}, "not in your hand")
    refuse(s, 0, {"type": "shop", "cards": ["bier"]}, "blocked")
    poke(s, income=1)
    refuse(s, 0, {"type": "activity", "card": "massage"}, "costs 2; you have 1")
    poke(s, income=3)
    s = mv(s, 0, "activity", card="massage")  # not a Sleep card: the Sleep cancel cannot hit it
    refuse(s, 1, {"type": "cancel", "card": "auto_alarmanlage"}, "cannot cancel")
    refuse(s, 0, {"type": "pass"}, "not your move")
    refuse(s, 1, {"type": "pass", "extra": 1}, "no field 'extra'")
    refuse(s, 1, {"type": "fly"}, "no move 'fly'")


# -- setup and options ----------------------------------------------------------------------------
def test_two_player_jobs_removed_or_dealt() -> None:
    for seed in range(6):
        s = ENG.new_game(2, seed)
        assert not {"slacker", "drummer"} & {*s.jobs, *s.job_pile}
        assert len(s.jobs) + len(s.job_pile) == 7
        t = ENG.new_game(2, seed, {"two_player_jobs_dealt": True})
        assert sorted(t.jobs) == ["drummer", "slacker"] and len(t.job_pile) == 7


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="stack must hold the 100 cards"):
        ENG.new_game(3, 1, {"stack": ["schlafen"] * 100})
    with pytest.raises(ValueError, match="jobs must hold the 9 cards"):
        ENG.new_game(3, 1, {"jobs": ["hiwi"]})
    with pytest.raises(ValueError, match="dice must be a list of die results 1-6"):
        ENG.new_game(3, 1, {"dice": [7]})
    with pytest.raises(ValueError, match="first must be a seat"):
        ENG.new_game(3, 1, {"first": 3})


def test_setup_deals_five_and_the_starter_draws_to_six() -> None:
    s = game(["hiwi", "kellner", "zeitarbeiter"], first=1)
    assert [len(h) for h in s.hands] == [5, 6, 5] and s.active == 1
    assert len(s.draw) == 100 - 16
