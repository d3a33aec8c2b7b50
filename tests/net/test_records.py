"""The record format on disk: local games written as they go, what an export may hold, reading
old and torn records, and pruning only on request."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from net import records
from net.records import store
from net.table.session import HostSession, SeatInfo
from tui import cli

ENGINE = "schoko"


def session(seed: int = 2) -> HostSession:
    return HostSession(ENGINE, [SeatInfo("Ann"), SeatInfo("Bot 1", "random")], seed)


def play_out(game: HostSession) -> None:
    while not game.over:
        seat = game.engine.to_act(game.state)[0]
        game.submit(seat, game.choose_for(seat, "random"))  # type: ignore[arg-type]


def test_a_local_game_is_written_as_it_goes_and_ends_with_its_result() -> None:
    game = session()
    recorder = records.LocalRecorder(game, [0])
    assert recorder.path is not None
    first = records.load(recorder.path)
    assert first.kind == "local" and first.moves == [] and not first.over
    assert first.header["version"] == records.VERSION and first.own_seats() == [0]
    assert first.viewers() == [0]  # unfinished: only the person's own seat
    seat = game.engine.to_act(game.state)[0]
    game.submit(seat, game.choose_for(seat, "random"))  # type: ignore[arg-type]
    assert len(records.load(recorder.path).moves) == 1
    play_out(game)
    done = records.load(recorder.path)
    assert done.over and done.result == json.loads(json.dumps(game.result()))
    assert done.viewers() == [0, 1, None]
    assert records.winners(done) == game.result()["winners"]
    assert store.last_record() is None  # `host --resume` never picks up a local game


def test_an_export_holds_no_secret_of_the_writer_and_no_unfinished_deal(tmp_path: Path) -> None:
    game = session()
    head = records.header(game, "host", code="K7QX9MPA",
                          net={"host_token": "t0p", "tokens": ["a", "b"], "secret": 5})
    path = tmp_path / "hosted.jsonl"
    writer = store.RecordWriter(path, head, [], last=False)
    with pytest.raises(records.RecordError, match="only a finished game"):
        records.export(records.load(path), tmp_path / "early.jsonl")
    assert not (tmp_path / "early.jsonl").exists()
    play_out(game)
    for seat, move in game.moves:
        writer.move(seat, move)
    writer.finish()
    out = records.export(records.load(path), tmp_path / "friend.jsonl")
    text = out.read_text()
    assert "t0p" not in text and '"net"' not in text
    friend = records.load(out)
    assert friend.code == "K7QX9MPA" and friend.over
    assert records.Replay(friend).result == game.result()


def test_old_host_records_and_torn_last_lines_still_open(tmp_path: Path) -> None:
    game = session()
    play_out(game)
    old = {k: v for k, v in game.record().items() if k != "moves"}  # no version, no kind
    lines = [json.dumps(old), *(json.dumps([s, m]) for s, m in game.moves)]
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join([*lines[:-1], lines[-1][:5]]))  # crashed mid-write
    record = records.load(path)
    assert record.kind == "host" and len(record.moves) == len(game.moves) - 1
    assert not record.over and len(records.Replay(record)) == len(game.moves)


def test_pruning_happens_only_on_request_and_as_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    now = time.time()
    paths = []
    for age_days in (0, 3, 10, 40):
        game = session(age_days)
        recorder = records.LocalRecorder(game, [0])
        assert recorder.path is not None
        head, *rest = recorder.path.read_text().splitlines()
        stamped = json.loads(head) | {"started": now - age_days * 86400}
        recorder.path.write_text("\n".join([json.dumps(stamped), *rest]) + "\n")
        paths.append(recorder.path)
    assert [e.path for e in records.listing()] == paths  # newest first
    with pytest.raises(ValueError, match="say what to prune"):
        records.prune()
    with pytest.raises(SystemExit):
        cli.main(["records", "--prune"])
    assert "say what to prune" in capsys.readouterr().err
    cli.main(["records"])  # a list, nothing removed
    assert capsys.readouterr().out.count(" local unfinished") == 4
    cli.main(["records", "--prune", "--older-than", "7"])
    assert "2 record(s) removed" in capsys.readouterr().out
    assert [p.exists() for p in paths] == [True, True, False, False]
    assert records.prune(keep=1) == [paths[1]]
    assert [e.path for e in records.listing()] == [paths[0]]
    assert os.listdir(store.records_dir()) == [paths[0].name]
