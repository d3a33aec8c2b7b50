"""Chez Geek: while another seat chooses (keep a roll, take a Nookie's fixed value, give up a
room card), the table says what they face in the third person: a guest watching the host's
roll read "you rolled 1"."""

from __future__ import annotations

import random
import re

import pytest
from tui_helpers import settle, wait_for_board

from engines import get_engine
from net.table.link import LocalLink
from net.table.session import HostSession, SeatInfo
from tui.app import TabletopApp
from tui.boards.chez_geek.banner import Banner
from tui.screens.game import GameScreen

ENGINE = get_engine("chez_geek")
SEATS = [SeatInfo("Ada"), SeatInfo("Bea", "random"), SeatInfo("Cem", "random")]
SECOND_PERSON = {"en": r"\b(you|your)\b", "de": r"\b(du|dein\w*|dir|dich)\b"}


def others_prompts() -> dict[str, HostSession]:
    """For each kind of prompt: a game (random moves) stopped where a seat other than Ada's
    must choose."""
    found: dict[str, HostSession] = {}
    for seed in range(12):
        session = HostSession("chez_geek", SEATS, seed)
        rng = random.Random(seed)
        while not session.over and len(session.moves) < 500:
            prompt = ENGINE.view(session.state, 0)["prompt"]
            if prompt and prompt["seat"] != 0 and prompt["kind"] not in found:
                found[prompt["kind"]] = session
                break
            state = session.state
            seat = next(s for s in ENGINE.to_act(state) if ENGINE.legal_moves(state, s))
            session.submit(seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return found


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_someone_elses_choice_is_told_in_the_third_person(lang: str) -> None:
    games = others_prompts()
    assert {"rolled", "nookie", "room_loss"} <= set(games)
    for kind, session in games.items():
        prompt = ENGINE.view(session.state, 0)["prompt"]
        name = SEATS[prompt["seat"]].name
        app = TabletopApp(lang=lang)
        async with app.run_test(size=(120, 40)) as pilot:
            # Ada at this terminal; the bots take a minute to choose, so the prompt stays.
            app.push_screen(GameScreen(LocalLink(session, [0], bot_delay=60), "chez_geek"))
            await wait_for_board(pilot)
            await settle(pilot)
            assert isinstance(app.screen, GameScreen)
            banner = str(app.screen.query_one(Banner).render())
            assert banner.count(name) == 2, (kind, banner)  # who waits, and what they face
            if kind == "rolled":
                assert f"{name} " in banner.splitlines()[1] and str(prompt["result"]) in banner
            assert not re.search(SECOND_PERSON[lang], banner, re.I), (kind, banner)
