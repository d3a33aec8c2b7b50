"""Reviews of recorded games (net.records.review, `tabletop-tui review`) and the fair-play
figures built on them (net.players.fairplay, `players --fair-play`): real bot games recorded
as a table records them, reviewed on small fixed budgets."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from bench.review import played_record
from engines import coach
from net import records
from net.players import fairplay, identity
from net.players.counted import Outcome, SeatOutcome
from net.records import review
from net.table.session import HostSession, SeatInfo
from tui import cli

SMALL = 60  # search iterations a decision


def review_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = 0
    try:
        cli.main(["review", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_review_command_gives_a_json_row_for_every_decision_of_the_seat(
        capsys: pytest.CaptureFixture[str]) -> None:
    path = played_record("skipbo_breakers", ["expert", "random"], 2)
    code, out, _ = review_cli(capsys, str(path), "--seat", "2", "--json",
                              "--iterations", str(SMALL))
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    record = records.load(path)
    replay = records.Replay(record)
    eng = replay.engine
    decisions = [n for n, (seat, _) in enumerate(record.moves)
                 if seat == 1 and len(eng.legal_moves(replay.states[n], 1)) > 1]
    assert [r["state"] for r in rows] == decisions  # every decision, no forced move
    for row in rows:
        assert set(row) == {"state", "seat", "move", "best", "before", "after", "loss",
                            "sure_loss", "grade", "agreed"}
        assert row["seat"] == 1 and row["move"] == record.moves[row["state"]][1]
        assert row["best"] in eng.legal_moves(replay.states[row["state"]], 1)
        assert 0 <= row["after"] <= row["before"] <= 1 and row["grade"] in coach.GRADES
        assert row["grade"] == coach.grade_of(row["sure_loss"]) and row["sure_loss"] <= row["loss"]
    # The plain form names each decision and ends with the tally.
    code, out, _ = review_cli(capsys, str(path), "--seat", "2", "--iterations", str(SMALL))
    assert code == 0 and out.splitlines()[-1].strip().endswith("blunder")
    assert f"{len(rows)} decisions judged" in out.splitlines()[0]


def test_the_expert_makes_clearly_fewer_mistakes_than_the_random_bot() -> None:
    replay = records.Replay(records.load(
        played_record("skipbo_breakers", ["expert", "random"], 2)))
    expert = review.counts(review.review(replay, 0, iterations=SMALL, cache=False))
    rand = review.counts(review.review(replay, 1, iterations=SMALL, cache=False))
    bad = [c[coach.MISTAKE] + c[coach.BLUNDER] for c in (expert, rand)]
    judged = [sum(c.values()) for c in (expert, rand)]
    assert judged[0] > 10 and judged[1] > 10
    assert bad[0] / judged[0] < 0.5 * bad[1] / judged[1]
    assert bad[1] >= 5


def test_bad_input_gets_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    path = played_record("schoene", ["strong", "random", "random"], 1)
    code, out, err = review_cli(capsys, str(path), "--seat", "4")
    assert code == 2 and "no seat 4" in err and not out
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("not a record\n", encoding="utf-8")
    code, out, err = review_cli(capsys, str(damaged))
    assert code == 2 and "not a tabletop-tui game record" in err and not out
    code, _, err = review_cli(capsys, str(path), "--seat", "0")
    assert code == 2 and "seats count from 1" in err
    assert not (path.parent.parent / "reviews").exists()  # nothing was written


def test_an_unfinished_games_other_seats_are_not_reviewed() -> None:
    """Before the end only the writer's own seats may be judged: the others' views are
    still secret."""
    session = HostSession("schoene", [SeatInfo("Ada"), SeatInfo("Bot", "strong"),
                                      SeatInfo("Bot 2", "strong")], 3)
    recorder = records.LocalRecorder(session, [0])
    for _ in range(6):
        seat = session.engine.to_act(session.state)[0]
        session.submit(seat, session.choose_for(seat, "strong"))
    assert recorder.path is not None
    replay = records.Replay(records.load(recorder.path))
    with pytest.raises(records.RecordError, match="only your own seats"):
        review.review(replay, 1, iterations=SMALL)
    assert all(r["seat"] == 0 for r in review.review(replay, 0, iterations=SMALL))


def test_a_review_left_half_way_is_taken_up_where_it_stopped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    replay = records.Replay(records.load(
        played_record("skipbo_breakers", ["expert", "random"], 2)))
    asked = []
    left = review.review(replay, 1, iterations=SMALL, progress=lambda d, t: asked.append(d),
                         stop=lambda: len(asked) >= 3)
    assert len(asked) == 3 and len(left) <= 3
    whole = review.review(replay, 1, iterations=SMALL)
    assert whole[: len(left)] == left
    # Finished once, it is shown again without a single search.
    monkeypatch.setattr(coach, "judge", lambda *a: pytest.fail("searched again"))
    assert review.review(replay, 1, iterations=SMALL) == whole
    # Another budget or seed is another review.
    with pytest.raises(pytest.fail.Exception):
        review.review(replay, 1, iterations=SMALL + 1)


# -- fair play ----------------------------------------------------------------------------------
def someone() -> identity.Identity:
    return identity.Identity(identity.Ed25519PrivateKey.generate())


def person_game(me: identity.Identity, seed: int, chooses: str) -> Path:
    """A rated local Schöne game of one proven person against two strong bots, the person's
    moves chosen at random (`chooses` "random") or by the expert: records as the app keeps."""
    seats = [SeatInfo("Ada"), SeatInfo("Bot 2", "strong"), SeatInfo("Bot 3", "strong")]
    session = HostSession("schoene", seats, seed)
    session.seats[0] = replace(session.seats[0], **me.prove(session.game_id, 0, "Ada"))
    recorder = records.LocalRecorder(session, [0], fixed_seed=False)
    rng = random.Random(seed)
    eng = session.engine
    helper = coach.coach(eng, SMALL)  # the expert, on a small budget to keep the test quick
    while not session.over:
        seat = eng.to_act(session.state)[0]
        level = session.seats[seat].bot
        legal = eng.legal_moves(session.state, seat)
        if level:
            move = session.choose_for(seat, level)
        elif chooses == "random":
            move = rng.choice(legal)
        else:
            move = helper.decide(eng.view(session.state, seat), legal, rng)
        session.submit(seat, move)
    assert recorder.path is not None
    return recorder.path


def test_fair_play_shows_who_plays_as_the_expert_does(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    honest, helped = someone(), someone()
    for seed in (1, 2):
        person_game(honest, seed, "random")
        person_game(helped, seed + 10, "expert")
    played_record("schoene", ["strong", "random", "random"], 3)  # bots alone: not counted
    monkeypatch.setattr(coach, "BUDGET_FACTOR", {**coach.BUDGET_FACTOR, coach.REVIEW: 0.08})
    cli.main(["players", "--fair-play", "schoene", "--json"])
    found = json.loads(capsys.readouterr().out)
    people = {p["ident"]: p for p in found["players"]}
    assert set(people) == {honest.fingerprint, helped.fingerprint}  # people only
    assert people[honest.fingerprint]["games"] == 2 and people[helped.fingerprint]["games"] == 2
    assert people[helped.fingerprint]["agreement"] > people[honest.fingerprint]["agreement"] + 0.2
    assert people[helped.fingerprint]["mean_loss"] < people[honest.fingerprint]["mean_loss"]
    assert found["pairs"] == []  # nobody met another person
    cli.main(["players", "--fair-play", "schoene"])
    out = capsys.readouterr().out
    assert honest.fingerprint in out and "Pairs flagged: 0" in out


def meeting(n: int, *seats: tuple[str, int]) -> Outcome:
    return Outcome(f"game {n}", "schoene", float(n),
                   tuple(SeatOutcome(ident, ident, place, False) for ident, place in seats))


def test_pairs_who_meet_often_or_whose_results_are_unlikely_are_flagged() -> None:
    """A strong player who keeps losing to a newcomer (games thrown to a second key) is
    flagged on both counts; people who meet in a mixed table are not."""
    games = [meeting(n, ("id:main", 1), (f"id:other{n % 3}", 2)) for n in range(30)]
    games += [meeting(n, (f"id:other{n % 3}", 1 + n // 3 % 2),
                      (f"id:other{(n + 1) % 3}", 2 - n // 3 % 2)) for n in range(30, 60)]
    games += [meeting(60 + n, ("id:main", 2), ("id:second", 1)) for n in range(8)]
    out = fairplay.FairPlay("schoene")
    fairplay.pair_figures(out, games)
    thrown = out.pairs[("id:main", "id:second")]
    assert thrown.games == 8 and thrown.wins == 0 and thrown.expected > 4
    assert thrown.unlikely and thrown.often
    mixed = out.pairs[("id:main", "id:other0")]
    assert not mixed.unlikely and not mixed.often
    assert {(p.a, p.b) for p in out.flagged()} == {("id:main", "id:second")}
