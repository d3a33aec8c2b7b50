"""Chez Geek: each effect keyword on its own, through the contract."""

from __future__ import annotations

from test_chez_rules import ENG, game, mv, next_turn, poke, quiet, refuse, room, to_phase

from engines.chez_geek import effects
from engines.chez_geek.deck import VOCABULARY

THREE = ["hiwi", "kellner", "zeitarbeiter"]


def plays(s, seat):  # type: ignore[no-untyped-def]
    return [m for m in ENG.legal_moves(s, seat) if m["type"] == "play"]


def test_every_keyword_has_exactly_one_handler() -> None:
    assert set(effects.HANDLERS) == set(VOCABULARY) and len(VOCABULARY) == 23


def test_own_turn() -> None:
    s = game(THREE, {0: ["geld_in_der_couch"], 1: ["finanzspritze"]})
    assert s.reaction is not None and plays(s, 1) == []  # another player's reaction window
    s = quiet(s)
    assert {"type": "play", "card": "geld_in_der_couch"} in plays(s, 0)


def test_requires_and_a_one_shot_roll_bonus() -> None:
    for alcohol, expected in ((False, 2), (True, 4)):
        rooms = {0: ["bier"]} if alcohol else {}
        hands = {0: ["schaeferstuendchen_jimmys", "schoensaufen"]}
        s = game(THREE, hands, dice=[3], rooms=rooms)
        s = quiet(mv(to_phase(s, "free_time"), 0, "activity", card="schaeferstuendchen_jimmys"))
        assert s.prompt.kind == "rolled"
        offered = {"type": "play", "card": "schoensaufen"} in ENG.legal_moves(s, 0)
        assert offered == alcohol
        s = quiet(mv(s, 0, "play", card="schoensaufen") if alcohol else mv(s, 0, "accept"))
        assert room(s, 0)[-1] == ("schaeferstuendchen_jimmys", expected)


def test_cancel_spends_the_ft_and_pays_nothing() -> None:
    s = game(THREE, {0: ["massage"], 1: ["hirnfurz"]})
    s = to_phase(s, "free_time")
    income, ft = s.income, s.ft
    s = mv(mv(s, 0, "activity", card="massage"), 1, "cancel", card="hirnfurz")
    assert (s.income, s.ft) == (income, ft - 1) and room(s, 0) == []
    assert s.discard[-2:] == ("hirnfurz", "massage")


def test_tv_cancel_is_also_a_plain_activity_and_never_stops_calls() -> None:
    s = game(THREE, {0: ["akte_y", "enthusiast"], 1: ["fussball_im_fernsehen"]})
    s = mv(quiet(s), 0, "call", card="enthusiast", to=0)
    assert not any(m["type"] == "tv" for m in ENG.legal_moves(s, 1))
    s = to_phase(quiet(s), "free_time")
    s = quiet(mv(s, 0, "activity", card="akte_y"))
    assert room(s, 0)[-1] == ("akte_y", 1)


def test_income_and_free_time() -> None:
    s = game(THREE, {0: ["finanzspritze", "krankfeiern", "ueberstunden"]})
    s = quiet(s)
    s = mv(s, 0, "play", card="finanzspritze")
    assert s.income == 5
    s = mv(s, 0, "play", card="krankfeiern")
    assert s.ft == 3
    poke(s, ft=0)
    assert {"type": "play", "card": "ueberstunden"} not in plays(s, 0)
    poke(s, ft=1)
    s = mv(s, 0, "play", card="ueberstunden")
    assert (s.income, s.ft) == (8, 0)


def test_lose_income_hits_the_active_player() -> None:
    s = game(THREE, {1: ["ueberfall"]})
    assert s.income == 3
    s = mv(s, 1, "play", card="ueberfall")
    assert s.income == 1
    assert s.reaction is not None and ENG.to_act(s) == [1, 2]  # everyone may answer again


def test_charge_takes_a_thing_when_income_runs_short_and_hiwi_is_immune() -> None:
    s = game(
        ["kellner", "hiwi", "zeitarbeiter"], {1: ["studiengebuehren"]}, rooms={0: ["pizza", "bier"]}
    )
    poke(s, income=1)
    s = mv(s, 1, "play", card="studiengebuehren")
    assert s.income == 0 and s.prompt.seat == 0 and s.prompt.kind == "room_loss"
    s = mv(s, 0, "choose", card=s.rooms[0][1][0])
    assert room(s, 0) == [("pizza", 2)]

    s = game(["hiwi", "kellner", "zeitarbeiter"], {1: ["studiengebuehren"]})
    assert {"type": "play", "card": "studiengebuehren"} not in plays(s, 1)


def test_each_turn_lasts_until_the_job_changes() -> None:
    s = game(["hiwi", "kellner"], {0: ["gehaltserhoehung", "neuer_job"]})
    s = mv(quiet(s), 0, "play", card="gehaltserhoehung")
    assert s.income == 4 and s.lasting[0] == (("gehaltserhoehung", "each", False),)
    s = next_turn(next_turn(s))
    assert s.income == 4
    s = mv(quiet(s), 0, "play", card="neuer_job")
    assert s.lasting[0] == () and "gehaltserhoehung" in s.discard
    z = game(["zeitarbeiter", "kellner"], {0: ["gehaltserhoehung"]}, dice=[1])
    refuse(quiet(z), 0, {"type": "play", "card": "gehaltserhoehung"}, "blocked")


def test_next_turn_fires_once_then_goes() -> None:
    s = game(["hiwi", "kellner"], {0: ["blutplasmaspende"]})
    s = mv(quiet(s), 0, "play", card="blutplasmaspende")
    assert s.income == 5
    s = next_turn(next_turn(s))
    assert s.ft == 1 and s.lasting[0] == (("blutplasmaspende", "next", True),)
    s = next_turn(s)
    assert s.lasting[0] == () and "blutplasmaspende" in s.discard


def test_room_card() -> None:
    s = mv(
        quiet(game(THREE, {0: ["couch_vom_sperrmuell"]})), 0, "play", card="couch_vom_sperrmuell"
    )
    assert room(s, 0) == [("couch_vom_sperrmuell", 2)] and s.slack(0) == 2


def test_steal_only_right_after_the_card_resolved() -> None:
    s = game(
        ["kellner", "hiwi", "zeitarbeiter"], {0: ["gullys", "ultra_slims"], 1: ["kippenschnorren"]}
    )
    s = mv(to_phase(s, "free_time"), 0, "shop", cards=["gullys"])
    s = mv(mv(s, 1, "pass"), 2, "pass")
    gullys = s.rooms[0][0][0]
    assert {"type": "play", "card": "kippenschnorren", "target": gullys} in plays(s, 1)
    later = quiet(s)
    assert plays(later, 1) == []
    s = mv(s, 1, "play", card="kippenschnorren", target=gullys)
    assert room(s, 1) == [("gullys", 1)] and room(s, 0) == []


def test_discard_target_fits_its_filter() -> None:
    rooms = {1: ["feliz", "enthusiast", "lebensabschnittspartner"]}
    s = game(THREE, {2: ["notwehr", "nicht_aufs_bett", "schluss_machen"]}, rooms=rooms)
    refs = {cid: ref for ref, cid, _, _ in s.rooms[1]}
    targets = {(m["card"], m["target"]) for m in plays(s, 2)}
    assert targets == {
        ("notwehr", refs["enthusiast"]),
        ("notwehr", refs["lebensabschnittspartner"]),
        ("nicht_aufs_bett", refs["feliz"]),
        ("schluss_machen", refs["lebensabschnittspartner"]),
    }
    s = mv(s, 2, "play", card="nicht_aufs_bett", target=refs["feliz"])
    assert [c for c, _ in room(s, 1)] == ["enthusiast", "lebensabschnittspartner"]


def test_salvage() -> None:
    s = game(THREE, {0: ["im_muell_wuehlen", "pizza"]})
    s = quiet(s)
    assert plays(s, 0) == [{"type": "play", "card": "im_muell_wuehlen"}]  # nothing to take
    s = to_phase(s, "discard")
    s = mv(s, 0, "discard", card="pizza")
    s = mv(s, 0, "play", card="im_muell_wuehlen", take="pizza")
    assert "pizza" in s.hands[0] and "pizza" not in s.discard


def test_free_play_needs_no_ft_and_no_tv_can_stop_it() -> None:
    s = game(THREE, {0: ["narkolepsie", "schlafen"], 1: ["akte_y"]})
    s = to_phase(s, "free_time")
    poke(s, ft=0)
    s = mv(s, 0, "play", card="narkolepsie", **{"with": "schlafen"})
    assert s.items[-1].kind == "activity" and not s.items[-1].ft
    assert not any(m["type"] == "tv" for m in ENG.legal_moves(s, 1))
    s = quiet(s)
    assert room(s, 0) == [("schlafen", 1)] and s.ft == 0


def test_eat_takes_one_card_on_entering_and_each_roll_phase() -> None:
    s = game(
        ["hiwi", "kellner"], {0: ["fresssack"]}, dice=[1, 1], rooms={1: ["pizza", "bier", "nachos"]}
    )
    s = quiet(mv(quiet(s), 0, "call", card="fresssack", to=1))
    assert s.prompt.kind == "room_loss" and s.prompt.seat == 1
    s = quiet(mv(s, 1, "choose", card=s.rooms[1][0][0]))
    assert [c for c, _ in room(s, 1)] == ["bier", "nachos", "fresssack"]
    s = next_turn(s)
    s = mv(s, 1, "remove", card=s.rooms[1][-1][0], to=None)  # rolls 1: stays, eats again
    assert [c for c, _ in room(s, 1)] == ["bier", "fresssack"]


def test_block_by_a_person_in_the_room() -> None:
    s = game(THREE, {0: ["akte_y", "schlafen"], 1: ["faultiere"]}, rooms={1: ["typ_auf_der_couch"]})
    s = to_phase(s, "free_time")
    assert {"type": "activity", "card": "akte_y"} in ENG.legal_moves(s, 0)
    s = mv(s, 0, "activity", card="schlafen")
    assert not any(m["type"] == "tv" for m in ENG.legal_moves(s, 1))
    refuse(s, 1, {"type": "tv", "card": "faultiere"}, "blocked")


def test_bonus_of_a_person_counts_cards_resolving_into_its_room() -> None:
    s = game(THREE, {0: ["bier", "pizza"]}, rooms={0: ["partyloewe"]})
    s = quiet(mv(to_phase(s, "free_time"), 0, "shop", cards=["bier", "pizza"]))
    assert room(s, 0) == [("partyloewe", 2), ("bier", 2), ("pizza", 2)]


def test_auto_nookie_leaves_the_roll_as_a_choice() -> None:
    s = game(
        THREE, {0: ["schaeferstuendchen_uni"]}, dice=[6], rooms={0: ["lebensabschnittspartner"]}
    )
    s = quiet(mv(to_phase(s, "free_time"), 0, "activity", card="schaeferstuendchen_uni"))
    assert ENG.legal_moves(s, 0) == [{"type": "roll"}, {"type": "take", "value": 3}]
    s = quiet(mv(mv(s, 0, "roll"), 0, "accept"))
    assert room(s, 0)[-1] == ("schaeferstuendchen_uni", 5)


def test_roll_bonus_of_a_job() -> None:
    s = game(["drummer", "hiwi"], {0: ["schaeferstuendchen_jimmys"]}, dice=[1, 2])
    s = quiet(mv(to_phase(s, "free_time"), 0, "activity", card="schaeferstuendchen_jimmys"))
    assert s.prompt.data[1] == 2  # 2 - 1 + 1


def test_hand_size_and_a_new_job_that_lowers_it() -> None:
    s = game(["arbeitsdrohne", "kellner", "hiwi"], {1: ["du_bist_gefeuert"]})
    assert len(s.hands[0]) == 7
    s = mv(s, 1, "play", card="du_bist_gefeuert", seat=0)
    assert s.jobs[0] != "arbeitsdrohne" and s.prompt.kind == "hand_limit"
    s = mv(s, 0, "choose", card=s.hands[0][0])
    assert len(s.hands[0]) == 6 and s.prompt is None


def test_immune_and_new_job_other() -> None:
    s = game(["slacker", "kellner", "hiwi"], {1: ["du_bist_gefeuert"]})
    assert {m.get("seat") for m in plays(s, 1)} == {2}
    old = s.job_pile[0]
    s = mv(s, 1, "play", card="du_bist_gefeuert", seat=2)
    assert s.jobs[2] == old and s.job_pile[-1] == "hiwi"
