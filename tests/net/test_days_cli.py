"""`tabletop-tui days ...` for scripts: JSON lines out, a clear error line and exit status 1
for what the table refuses (a broken move, a move on an old state), and nothing changed."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from days_support import days_store, two_seated
from netsupport import someone

from net.players import ladder
from tui.cli import build_parser, main
from tui.commands.days import keeper_beside


def _run(capsys: pytest.CaptureFixture[str], *words: str) -> list[dict]:
    main(["days", *words])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _refused(capsys: pytest.CaptureFixture[str], *words: str) -> str:
    with pytest.raises(SystemExit) as ended:
        main(["days", *words])
    assert ended.value.code == 1
    return str(json.loads(capsys.readouterr().out.splitlines()[-1])["error"])


def test_a_script_opens_shows_and_plays_a_game_over_days(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(ladder.TABLE_ENV, str(tmp_path / "table.sqlite"))
    opened = _run(capsys, "new", "schoko", "--seat", "bot:strong", "--days", "2")[0]
    assert opened["status"] == "playing"
    mine = _run(capsys, "list")
    assert [g["id"] for g in mine if g["kind"] == "mine"] == [opened["id"]]
    shown = _run(capsys, "show", opened["id"])[0]
    assert shown["seat"] == 0 and shown["to_act"] == [0] and shown["legal"]
    state = shown["state_no"]
    assert "JSON object" in _refused(capsys, "move", opened["id"], "0", "[1", "--state",
                                     str(state))
    assert "not yours" in _refused(capsys, "move", opened["id"], "1",
                                   json.dumps(shown["legal"][0]), "--state", str(state))
    moved = _run(capsys, "move", opened["id"], "0", json.dumps(shown["legal"][0]), "--state",
                 str(state))[0]
    assert moved["state"] > state
    assert "moved on" in _refused(capsys, "move", opened["id"], "0",
                                  json.dumps(shown["legal"][0]), "--state", str(state))
    assert _run(capsys, "away", "3")[0]["away_until"]
    assert _run(capsys, "back") == [{"back": True}]
    assert "not on the table's own network" in _refused(
        capsys, "notices", "--webhook", "http://127.0.0.1:1/")
    assert _run(capsys, "notices", "--email", "me@example.org")[0]["email"] == "me@example.org"


def test_a_scripts_notices_speak_its_players_language(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The keeper tells a player in the language their environment asks for when they set
    their notices (their settings' choice first), as the app would speak to them."""
    from net.days.link import with_store
    from net.players import identity

    monkeypatch.setenv(ladder.TABLE_ENV, str(tmp_path / "table.sqlite"))
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    _run(capsys, "notices", "--email", "me@example.org")
    me = identity.mine()
    assert me is not None
    player = with_store(None, lambda store: store.player(me.fingerprint))
    assert player is not None and player.lang == "de"
    monkeypatch.setenv("LC_ALL", "C")
    _run(capsys, "notices", "--email", "me@example.org")
    player = with_store(None, lambda store: store.player(me.fingerprint))
    assert player is not None and player.lang == "en"


async def test_serve_runs_the_keeper_beside_its_tables(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve --ssh/--web` starts the keeper with its tables: a turn whose days ran out long
    ago is played by the bot at once, and the keeper stops with the tables."""
    monkeypatch.setenv(ladder.TABLE_ENV, str(tmp_path / "table.sqlite"))
    store = days_store(str(tmp_path / "table.sqlite"))
    try:
        game = two_seated(store, "schoko", someone(), someone(), time.time() - 3 * 86400,
                          days=1)
    finally:
        store.close()
    args = build_parser().parse_args(["serve", "--ssh", "0", "--smtp-host", "127.0.0.1"])
    stop = await keeper_beside(args, None)("ws://127.0.0.1:1", None)
    try:
        for _ in range(200):
            await asyncio.sleep(0.05)
            store = days_store(str(tmp_path / "table.sqlite"))
            try:
                moved = store.load(game.id)
            finally:
                store.close()
            if moved is not None and moved.state_no > 0:
                break
        assert moved is not None and moved.moves[0][2] == "timeout"
    finally:
        await stop()
