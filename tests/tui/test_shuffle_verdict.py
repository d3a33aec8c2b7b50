"""The fair-shuffle line of a networked game's results, in both languages: a deal that was
not verified says so, and why, in the warning colour (issue 24)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tui_helpers import settle

from engines import get_engine
from net.table.fairness import REASONS
from tui import i18n
from tui.app import TabletopApp
from tui.screens.results import ResultsScreen


def finished() -> dict[str, Any]:
    eng, rng = get_engine("schoene"), random.Random(1)
    state = eng.new_game(3, 1)
    while not eng.is_over(state):
        seat = eng.to_act(state)[0]
        state = eng.apply(state, seat, rng.choice(eng.legal_moves(state, seat)))
    return eng.result(state)


EXTRA = {"verified": False, "verify_code": "extra", "verify_args": {"name": "Bot 3", "n": 3},
         "verify_note": "the host added a part for Bot 3 (seat 3), which the commit did not "
                        "ask for", "fixed_seed": False}
GAP = {"verified": True, "verify_code": "verified_gaps", "verify_args": {"names": "Per"},
       "verify_note": "shuffles verified, made without a part from Per (no answer in time)",
       "fixed_seed": False}


@pytest.mark.parametrize(
    ("lang", "verdict", "said", "warns"),
    [
        ("en", EXTRA, "⚠ This deal was NOT verified: the host added a part for Bot 3 (seat 3), "
                      "which the commit did not ask for", True),
        ("de", EXTRA, "⚠ Diese Partie wurde NICHT als fair bestätigt: der Gastgeber hat einen "
                      "Teil für Bot 3 (Platz 3) hinzugefügt, um den die Festlegung nicht "
                      "gebeten hat", True),
        ("en", GAP, "✔ Shuffles verified: the host's seed replays to this game, made without "
                    "a part from Per (no answer in time).", False),
        ("de", GAP, "✔ Mischen geprüft: der Startwert des Gastgebers ergibt dieses Spiel, ohne "
                    "einen Teil von Per (keine Antwort rechtzeitig).", False),
        # A verdict this version has no words for still says why, in the check's own words.
        ("de", {**EXTRA, "verify_code": "new_in_a_later_version"},
         "⚠ Diese Partie wurde NICHT als fair bestätigt: the host added a part for Bot 3 "
         "(seat 3), which the commit did not ask for", True),
    ],
)
async def test_the_results_say_whether_the_deal_was_verified(
    lang: str, verdict: dict[str, Any], said: str, warns: bool
) -> None:
    app = TabletopApp(lang=lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        result = {**finished(), **verdict}
        app.push_screen(ResultsScreen("schoene", result, ["Hana", "Pia", "Per"],
                                      can_rematch=False))
        await settle(pilot)
        line = app.screen.query_one("#results-verified")
        assert str(line.render()) == said
        assert line.has_class("-warning") == warns


def test_every_reason_the_check_gives_has_german_words() -> None:
    for code in REASONS:
        assert f"fair.{code}" in i18n.keys("de"), code
