"""The results list starts with the winner, whatever the scores say, and Chez Geek ranks the
rest by how far each got towards their own goal: 18 of 19 beats 19 of 23."""

from __future__ import annotations

import random

from tui_helpers import settle

from engines import get_engine
from tui.app import TabletopApp
from tui.screens.results import ResultsScreen


async def ranked(engine_id: str, result: dict[str, object], names: list[str]) -> list[str]:
    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.push_screen(ResultsScreen(engine_id, result, names, can_rematch=False))
        await settle(pilot)
        rows = app.screen.query(".result-row")
        return [str(row.query_one(".who").render()).split("\n")[0] for row in rows]


async def test_chez_geek_results_put_the_winner_first_then_the_share_of_each_goal() -> None:
    # Bot 2 reached the goal (15 of 15). Bot 1 has the most slack but the farthest goal.
    result = {"scores": [18, 20, 15], "winners": [2], "goals": [19, 23, 15],
              "jobs": ["hiwi", "arbeitsdrohne", "slacker"], "turns": 9}
    assert await ranked("chez_geek", result, ["You", "Bot 1", "Bot 2"]) == [
        "Bot 2", "You", "Bot 1"]


async def test_the_winner_comes_first_in_every_game_and_the_rest_by_score() -> None:
    # Schöne, where the lowest score wins: a winner named by the result leads even with the
    # worst score (as after a game left early), the others follow best first.
    eng, rng = get_engine("schoene"), random.Random(3)
    state = eng.new_game(3, 3)
    while not eng.is_over(state):
        seat = eng.to_act(state)[0]
        state = eng.apply(state, seat, rng.choice(eng.legal_moves(state, seat)))
    result = eng.result(state)
    worst = max(range(3), key=lambda s: result["scores"][s])
    rest = sorted((s for s in range(3) if s != worst), key=lambda s: result["scores"][s])
    names = ["Ada", "Bea", "Cem"]
    assert await ranked("schoene", {**result, "winners": [worst]}, names) == [
        names[s] for s in [worst, *rest]]
