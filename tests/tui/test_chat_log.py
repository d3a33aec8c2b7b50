"""Chat in a table's log goes where it was said, once: a host's numbered lines that arrive
late (a rejoin hears the room's last lines again, after the table) are put in their place."""

from __future__ import annotations

from tui_helpers import game_screen, settle, wait_for_board

from tui.app import local_app
from tui.screens.chat_log import LOBBY_CHAT, merged, place
from tui.screens.game import LinkMessage
from tui.widgets import EventLog


def event(n: int) -> tuple[str, dict[str, int]]:
    return ("event", {"n": n})


def chat(no: int | None, at: int | None) -> dict[str, object]:
    return {"name": "Pia", "text": f"line {no}", "no": no, "at": at}


def test_lines_go_where_they_were_said() -> None:
    entries = [("note", "A new game starts."), event(1), event(2), event(2), event(3)]
    assert place(entries, chat(5, None)) == 0  # the lobby: before the start
    assert place(entries, chat(6, 0)) == 1  # before any move: after the start
    assert place(entries, chat(7, 2)) == 4  # after both events of move 2
    assert place(entries, chat(8, 3)) == 5
    assert place(entries, chat(None, 0)) == 5  # no number (a local table): at the end
    lobby = [chat(no, None) for no in range(1, LOBBY_CHAT + 3)]
    out = merged([event(1)], [chat(99, 1), *reversed(lobby)])
    said = [entry[1]["no"] for entry in out if entry[0] == "chat"]
    assert said == [*range(3, LOBBY_CHAT + 3), 99]  # the lobby's last lines, in order
    assert out[-1] == ("chat", chat(99, 1)) and out[LOBBY_CHAT] == event(1)


async def test_a_late_lobby_line_is_put_before_the_start_once() -> None:
    app = local_app("schoene", 1, 2, "strong", seed=11, options={}, lang="en", bot_delay=0)
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_for_board(pilot)
        await pilot.press("t")
        await settle(pilot)
        screen = game_screen(app)
        log = screen.query_one("#log", EventLog)
        assert log.texts[0] == "A new game starts." and len(log.texts) > 2
        for _ in range(2):  # the same line twice: a host sends the last lines again
            screen.post_message(LinkMessage({"type": "chat", "name": "Ann", "text": "hi",
                                             "seat": 1, "no": 1, "at": None}))
            await settle(pilot)
        assert log.texts[:2] == ["Ann: hi", "A new game starts."]
        assert log.texts.count("Ann: hi") == 1 and screen.chat_lines == ["Ann: hi"]
        assert [screen._entry_text(e) for e in screen.entries] == log.texts
