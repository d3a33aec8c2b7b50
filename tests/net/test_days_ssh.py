"""Play over days at an SSH table: two players with keys open and join a game by keys on
their screens, play some moves, the table stops and starts again (its sessions gone with
it), and both come back by SSH to the same game and play it to the end; and a process that
applies moves killed by SIGKILL loses none the store answered for."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
from ssh_support import OpenTable, Player, connect
from test_ssh_play import take

from net.days import table
from net.days.link import with_store
from net.players import ladder

PLAY_SECONDS = 90.0


async def _play_some(players: list[Player], moves: int | None) -> None:
    """Whoever's top line says it is their turn takes the card (`t`), until `moves` were
    made, or (None) until every screen shows the results."""
    made = 0
    deadline = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < deadline:
        if moves is None and all("Results" in p.text() for p in players):
            return
        if moves is not None and made >= moves:
            return
        waiting = [p for p in players if "Your turn" in p.line(0)]
        for player in waiting:
            await take(player)
            made += 1
        if not waiting:
            await asyncio.sleep(0.1)
    raise AssertionError("the game did not go on:\n" + "\n\n".join(p.text() for p in players))


async def _drawn(player: Player) -> None:
    """Until the app has drawn what the last keys did (a dropdown opening or closing takes
    a frame or two, and keys meanwhile go to the old focus)."""
    before = player.text()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(2):
            while player.text() == before:
                await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)


async def _to_the_game(player: Player) -> None:
    """From the menu: `w` opens the game waiting longest for this player, else the list,
    where Enter opens the first game."""
    await player.wait_for("Play over days", "the menu's entry at a table")
    player.press("w")
    await player.wait_for(lambda: "room" in player.line(0) or "Your turn" in player.line(0)
                          or player.find("Waiting for the others") or player.find("Your turn"),
                          "the game or the list")
    if player.find("Waiting for the others") and "Schöne" not in player.line(0):
        player.press("enter")
    await player.wait_for(lambda: player.find("more card") or player.find("the last card"),
                          "the game screen")


async def test_two_ssh_players_play_a_game_over_days_across_a_table_restart(
        open_table: OpenTable) -> None:
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ada", "bob")}
    first = await open_table()
    ada = await connect(first.port, "ada", key=keys["ada"], size=(110, 32))
    bob = await connect(first.port, "bob", key=keys["bob"], size=(110, 32))
    try:
        await ada.wait_for("Play over days", "ada's menu")
        ada.press("w")  # no game waits for her: the list
        await ada.wait_for("sees every hand", "the note on who hosts")
        ada.press("n")
        await ada.wait_for("A new game over days", "the form")
        for pressed in (("tab", "tab"), ("enter",), ("down",), ("enter",),  # 3 players
                     ("tab",), ("enter",), ("down",), ("enter",),  # 1 bot
                     ("tab",), ("b", "o", "b"), ("tab",), ("tab",),  # invite bob, listed
                        ("enter",)):  # Open
            ada.press(*pressed)
            await _drawn(ada)
        await ada.wait_for("Waiting for the others", "ada's game waiting for bob")
        bob.press("w")
        # His invitation (or, had a key of ada's been lost on the way, the open seat).
        await bob.wait_for(lambda: bob.find("Invitations") or bob.find("Open games"),
                           "bob's invitation")
        bob.press("enter")
        await bob.wait_for(lambda: bob.find("more card"), "bob at the table")
        ada.press("r")
        await ada.wait_for(lambda: ada.find("Your turn") or ada.find("Waiting for the others"),
                           "ada's list")
        ada.press("enter")
        await ada.wait_for(lambda: ada.find("more card"), "ada at the table")
        await _play_some([ada, bob], 4)
    finally:
        for player in (ada, bob):
            await player.close()
    await first.stop()  # the table goes down; the game is in its store alone
    second = await open_table()
    ada = await connect(second.port, "ada", key=keys["ada"], size=(110, 32))
    bob = await connect(second.port, "bob", key=keys["bob"], size=(110, 32))
    try:
        await _to_the_game(ada)
        await _to_the_game(bob)
        await _play_some([ada, bob], None)
    finally:
        for player in (ada, bob):
            await player.close()
    games = with_store(None, lambda store: store.rows(
        "SELECT id, status FROM days_games"))
    assert [status for _id, status in games] == ["over"]
    store = ladder.open_store()
    try:
        assert {s.name for s in store.ladder("schoene")} >= {"ada", "bob"}
    finally:
        store.close()


MOVER = """
import sys, time
from net.days import table
from net.days.link import with_store
from net.players import ladder
game_id, idents = sys.argv[1], dict(a.split("=") for a in sys.argv[2:])

def step(store):
    game = store.load(game_id)
    session = table.session_of(game)
    seat = game.to_act[0]
    move = session.engine.legal_moves(session.state, seat)[0]
    table.play(store, game_id, game.seats[seat].ident, seat, move, game.state_no, time.time())
    return game.state_no

while True:
    print(with_store(None, step), flush=True)
"""


def test_a_table_killed_mid_game_loses_no_move_it_answered_for(tmp_path: Path) -> None:
    from netsupport import someone

    ann, bob = someone(), someone()

    def opened(store):  # type: ignore[no-untyped-def]
        game = table.open_game(store, "schoene", [table.SeatPlan("me"), table.SeatPlan("open"),
                                                  table.SeatPlan("bot", "random")],
                               ann, "Ann", time.time())
        return table.take_seat(store, game.id, 1, bob, "Bob", time.time())

    game = with_store(None, opened)
    root = str(Path(table.__file__).resolve().parents[2])
    mover = subprocess.Popen(
        [sys.executable, "-c", MOVER, game.id],
        stdout=subprocess.PIPE, text=True, cwd=root,
        env={**os.environ, "PYTHONPATH": root})
    assert mover.stdout is not None
    answered = [int(mover.stdout.readline()) for _ in range(5)]
    os.kill(mover.pid, signal.SIGKILL)
    mover.wait()
    after = with_store(None, lambda store: store.load(game.id))
    assert after is not None
    # Every move it was told was applied is there, and the game replays whole.
    assert after.state_no >= answered[-1] + 1
    assert len(table.session_of(after).moves) == after.state_no == len(after.moves)
