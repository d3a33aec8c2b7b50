"""A bot is the bot it says, and a seat whose clock ran out is not its person's win: a
record whose bot seat is relabelled (`strong` called `expert`), names no real level
(`grandmaster`), or whose bot moves are not that bot's, does not count; an honest record
with an expert seat does (the expert plays on a fixed budget of iterations and seeded
randomness, so the check replays it); a person whose clock ran out counts as having left."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from test_ratings import counted, lines, local_record, refused

from engines import get_engine
from net import records
from net.players import identity
from net.table.session import HostSession, SeatInfo


def relabelled(path: Path, seat: int, level: str) -> Path:
    text = lines(path)
    head = json.loads(text[0])
    head["players"][seat]["bot"] = level
    text[0] = json.dumps(head)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def test_a_strong_seat_relabelled_expert_does_not_count() -> None:
    assert refused(relabelled(local_record(21), 1, "expert")) == "botmove"


def test_a_bot_level_that_does_not_exist_does_not_count() -> None:
    assert refused(relabelled(local_record(22), 2, "grandmaster")) == "level"


def test_a_bot_move_made_otherwise_does_not_count() -> None:
    path = local_record(23)
    text = lines(path)
    head = json.loads(text[0])
    session = HostSession("schoene", [SeatInfo(p["name"], p.get("bot"))
                                      for p in head["players"]], head["seed"])
    for number, line in enumerate(text[1:-1], 1):
        seat, move = json.loads(line)
        legal = session.engine.legal_moves(session.state, seat)
        if seat == 1 and len(legal) > 1:  # the strong bot's move, made another way
            text[number] = json.dumps([1, next(m for m in legal if m != move)])
            break
        session.submit(seat, move)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert refused(path) in ("botmove", "damaged", "result")


@pytest.fixture
def quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scho K.O.'s expert on a small fixed budget, for the suite's time."""
    eng = get_engine("schoko")
    monkeypatch.setitem(eng.bots, "expert", eng.bots["expert"].with_budget(8, None))


def test_an_honest_game_against_the_expert_counts_and_its_moves_check(
        quick_expert: None) -> None:
    me = identity.mine()
    assert me is not None
    session = HostSession("schoko", [SeatInfo("Ada"), SeatInfo("Bot", "expert")], 31)
    session.seats[0] = replace(session.seats[0], **me.prove(session.game_id, 0, "Ada"))
    recorder = records.LocalRecorder(session, [0], fixed_seed=False)
    rng = random.Random(31)
    while not session.over:
        seat = session.engine.to_act(session.state)[0]
        session.submit(seat, session.choose_for(seat, "expert") if seat == 1
                       else rng.choice(session.engine.legal_moves(session.state, seat)))
    assert recorder.path is not None
    changes = counted(recorder.path).changes
    assert [c.ident for c in changes] == [me.fingerprint, "bot:expert"]


def test_a_person_whose_clock_ran_out_counts_as_having_left() -> None:
    path = local_record(24)
    text = lines(path)
    head = json.loads(text[0])
    head["out_of_time"] = [[0, 5]]  # as the table writes it the moment it happens
    text[0] = json.dumps(head)
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    mine = counted(path).changes[0]
    assert mine.left and mine.place == 3
