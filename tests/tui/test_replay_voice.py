"""A replay is a story told about a past game: it speaks of every seat in the third person
("Player 1's view", "Player 1 leads") and shows nothing that asks for a key, in every game,
though it draws each board exactly as a seat saw it."""

from __future__ import annotations

import random
import re

import pytest
from textual.widget import Widget
from textual.widgets import Static
from tui_helpers import settle

from engines import ENGINE_IDS, get_engine
from net import records
from net.table.session import HostSession, SeatInfo
from tui import boards, i18n
from tui.app import TabletopApp
from tui.boards.base import GameBoard
from tui.screens.replay import ReplayScreen

# Moves of a game replayed here: enough for every game to ask seat 0 several times.
MOVES = 60
# Of those, the steps looked at: the first ones at which seat 0 is to act, and the last.
ASKED = 8
# Words that address the reader, and the marks of a prompt: a key to press, a thing to pick.
SECOND_PERSON = {
    "en": r"\b(you|your|yours)\b",
    "de": r"\b(du|dein\w*|dir|dich)\b",
}
PROMPT = r"\benter\b|\bpress\b|\bpick\b|\bchoose\b|wähle|drücke|[←→↑↓⏎]|(^|[·,] )[a-z]: \w"


def record_of(engine_id: str, seed: int = 3) -> records.Record:
    """A local game of one person (named "You", as the app names a lone player) against
    bots, every move a random legal one, kept as the app keeps it."""
    eng = get_engine(engine_id)
    count = 3 if eng.max_players >= 3 else 2
    seats = [SeatInfo(i18n.tr("name.you"))]
    seats += [SeatInfo(f"Bot {i}", "random") for i in range(1, count)]
    session = HostSession(engine_id, seats, seed)
    rng = random.Random(seed)
    while not session.over and len(session.moves) < MOVES:
        seat = next(s for s in eng.to_act(session.state) if eng.legal_moves(session.state, s))
        session.submit(seat, rng.choice(eng.legal_moves(session.state, seat)))
    head = records.header(session, "local", local=[0])
    return records.Record(head, [[s, m] for s, m in session.moves], session.over)


def card_texts(lang: str) -> list[re.Pattern[str]]:
    """Chez Geek's card effects, as printed on the cards (in our words): they speak to
    whoever holds the card, in a replay too."""
    patterns = []
    for key in i18n.keys(lang):
        if key.startswith("cg.kw."):
            parts = re.split(r"\{\w+\}", i18n.tr(key, lang=lang))
            patterns.append(re.compile(".*?".join(re.escape(p) for p in parts)))
    return patterns


def shown_texts(screen: ReplayScreen) -> list[str]:
    """Every line on the replay screen: the top bar, the log and each board's words,
    frames included."""
    lines: list[str] = []
    for widget in screen.query(Widget):
        if isinstance(widget, Static):
            lines.extend(str(widget.render()).splitlines())
        for text in (widget.border_title, widget.border_subtitle):
            if text:
                lines.append(str(text))
    return lines


@pytest.mark.parametrize("engine_id", ENGINE_IDS)
async def test_a_replay_speaks_in_the_third_person_and_prompts_nobody(engine_id: str) -> None:
    record = record_of(engine_id)
    replay = records.Replay(record)
    eng = get_engine(engine_id)
    # The first steps at which a live table would have asked seat 0 for a move.
    asked = [n for n, state in enumerate(replay.states) if 0 in eng.to_act(state)][:ASKED]
    assert len(asked) == ASKED
    boards.board_module(engine_id)  # registers the game's words
    for lang in ("en", "de"):
        allowed = card_texts(lang)
        app = TabletopApp(lang=lang)
        async with app.run_test(size=(160, 50)) as pilot:
            await settle(pilot)
            app.push_screen(ReplayScreen(replay))
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            person = i18n.tr("name.person", n=1)
            for n in [*asked, len(replay) - 1]:
                screen.go(n)
                await settle(pilot, 2)
                # No round or hand summary pops up over the timeline asking for a key.
                assert app.screen is screen, (n, app.screen)
                board = screen.query_one("#board", GameBoard)
                assert board.table.seat == 0 and board.table.you is None
                topbar = str(screen.query_one("#topbar", Static).render())
                assert i18n.tr("replay.view_of", name=person) in topbar, topbar
                for line in shown_texts(screen):
                    bare = line
                    for pattern in allowed:
                        bare = pattern.sub("", bare)
                    assert not re.search(SECOND_PERSON[lang], bare, re.I), (lang, n, line)
                    assert not re.search(PROMPT, bare), (lang, n, line)
