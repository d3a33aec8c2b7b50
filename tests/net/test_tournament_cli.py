"""`tabletop-tui tournament`: made, listed, entered and read from the table's store on either
backend; bad input says what is wrong and changes nothing; and a whole event from the command
line: a director and two players, each a process of its own with an identity of its own."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from pathlib import Path

import pytest

from net.players import ladder
from net.players.tournaments import Tournaments, start_time
from net.relay.server import Relay
from tui import cli


def test_a_tournament_is_made_entered_listed_and_read(
        capsys: pytest.CaptureFixture[str], store_at: str) -> None:
    cli.main(["tournament", "new", "schoko", "--swiss", "5", "--start", "20:00", "--id", "fri"])
    assert capsys.readouterr().out.strip() == "fri"
    cli.main(["tournament", "join", "fri", "--name", "Ann\x1b]0;pwned\x07"])
    assert "entered fri as Ann" in capsys.readouterr().out
    cli.main(["tournament", "list"])
    out = capsys.readouterr().out
    assert "fri" in out and "Swiss, 5 rounds" in out and "1 entered" in out
    cli.main(["tournament", "list", "--json"])
    (listed,) = json.loads(capsys.readouterr().out)
    assert (listed["id"], listed["rounds"], listed["entrants"]) == ("fri", 5, 1)
    cli.main(["tournament", "standings", "fri"])
    out = capsys.readouterr().out
    assert "Buchholz" in out and "Sonneborn-Berger" in out and "\x1b" not in out
    cli.main(["tournament", "standings", "fri", "--json"])
    exported = json.loads(capsys.readouterr().out)
    assert exported["tournament"]["kind"] == "swiss" and exported["standings"][0]["score"] == 0


@pytest.mark.parametrize(("argv", "said"), [
    (["new", "schoko", "--swiss", "0"], "a Swiss has 1 to 20 rounds"),
    (["new", "schoko", "--swiss", "3", "--start", "24:10"], "is no start time"),
    (["new", "schoene", "--swiss", "3", "--seats", "2"], "is played by 3 to 7"),
    (["new", "schoko", "--swiss", "3", "--season", "2026-12"], "is for arenas"),
    (["new", "schoko", "--arena", "30", "--season", "2026-13"], "names a month"),
    (["new", "schoko", "--swiss", "3", "--id", "Bad Name"], "small letters"),
    (["join", "nobody"], "there is no tournament nobody"),
    (["standings", "nobody"], "there is no tournament nobody"),
])
def test_bad_input_says_what_is_wrong_and_changes_nothing(
        capsys: pytest.CaptureFixture[str], store_at: str, argv: list[str], said: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["tournament", *argv])
    assert stopped.value.code == 2 and said in capsys.readouterr().err
    store = ladder.open_store(store_at)
    try:
        assert Tournaments(store).events() == []
    finally:
        store.close()


def test_a_start_time_of_the_day_is_today_or_else_tomorrow() -> None:
    noon = time.mktime((2026, 12, 6, 12, 0, 0, 0, 0, -1))
    assert start_time("20:00", noon) == noon + 8 * 3600
    assert start_time("08:00", noon) == noon + 20 * 3600
    assert start_time("now", noon) == noon


async def _tabletop(*argv: str, home: Path) -> asyncio.subprocess.Process:
    env = {**os.environ, "TABLETOP_TUI_HOME": str(home)}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", *argv, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def test_an_event_from_the_command_line_plays_and_counts_for_the_ratings(
        tmp_path: Path, relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    table = tmp_path / "table.sqlite"
    monkeypatch.setenv(ladder.TABLE_ENV, str(table))
    cli.main(["tournament", "new", "schoko", "--swiss", "1", "--start", "now", "--id", "cup"])
    server = relay.url.removeprefix("ws://")
    players = [await _tabletop("tournament", "join", "cup", "--name", name, "--bot", "random",
                               "--server", server, home=tmp_path / name)
               for name in ("Ann", "Bob")]
    store = ladder.open_store(table)
    try:
        events = Tournaments(store)
        while len(events.entrants("cup")) < 2:
            await asyncio.sleep(0.1)
        director = await _tabletop("tournament", "run", "cup", "--server", server,
                                   "--show-up", "30", home=tmp_path / "director")
        out, err = await asyncio.wait_for(director.communicate(), 120)
        assert director.returncode == 0, err.decode()
        assert "Buchholz" in out.decode()
        for player in players:
            said, err = await asyncio.wait_for(player.communicate(), 60)
            assert player.returncode == 0, err.decode()
            assert "game 1: shuffles verified" in said.decode()
        (row,) = events.tables("cup")
        ann, bob = (e.player for e in events.entrants("cup"))
        assert set(row.seats) == {ann, bob} and ann != bob
        # Two people, two identities: the game is a verified record on the table's ladder.
        rated = {s.ident for s in store.ladder("schoko")}
        assert {ann, bob} <= rated
    finally:
        store.close()


def test_a_season_is_read_by_month(capsys: pytest.CaptureFixture[str], store_at: str) -> None:
    cli.main(["tournament", "new", "schoko", "--arena", "30", "--season", "2026-12",
              "--start", "now", "--id", "dec"])
    capsys.readouterr()
    store = ladder.open_store(store_at)
    try:
        events = Tournaments(store)
        events.enter("dec", "ann", "Ann")
        events.enter("dec", "bob", "Bob")
        events.open_round("dec", 1, [("ann", "bob")])
        events.table_done("dec", 1, 0, [1, 2], [], None)
        events.close_round("dec", 1)
    finally:
        store.close()
    cli.main(["tournament", "season", "schoko", "2026-12"])
    out = capsys.readouterr().out
    assert "season 2026-12" in out and out.index("Ann") < out.index("Bob")
    cli.main(["tournament", "season", "schoko", "2026-12", "--json"])
    rows = json.loads(capsys.readouterr().out)["standings"]
    assert [(r["name"], r["score"]) for r in rows] == [("Ann", 2.0), ("Bob", 0.0)]
    with pytest.raises(SystemExit):
        cli.main(["tournament", "season", "schoko", "2026-13"])
    assert "is no month" in capsys.readouterr().err
