"""The arithmetic of a puzzle attempt: OpenSkill's Plackett-Luce model, as Lichess rates
puzzles with Glicko-2: the puzzle is the player's opponent, a solve is the player's win and
a wrong move the puzzle's. Ratings are on the familiar scale (1500 to start, a new rating
unsure by 350), so a player reads them as chess players read theirs."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

START = 1500.0
START_SIGMA = 350.0
# A rating never grows surer than this: a puzzle's or a player's strength drifts, and a
# rating that stopped moving would stop following it.
LEAST_SIGMA = 60.0
MODEL = PlackettLuce(mu=START, sigma=START_SIGMA, beta=START_SIGMA / 2, tau=START_SIGMA / 100)


@dataclass(frozen=True)
class PuzzleSkill:
    """A player's or a puzzle's puzzle rating: `mu` its mean, `sigma` how unsure it is."""

    mu: float = START
    sigma: float = START_SIGMA

    @property
    def shown(self) -> int:
        """The figure a player reads."""
        return round(self.mu)


def attempt(player: PuzzleSkill, puzzle: PuzzleSkill,
            solved: bool) -> tuple[PuzzleSkill, PuzzleSkill]:
    """Both ratings after one attempt: (player's, puzzle's)."""
    teams = [[MODEL.rating(mu=player.mu, sigma=player.sigma)],
             [MODEL.rating(mu=puzzle.mu, sigma=puzzle.sigma)]]
    after = MODEL.rate(teams, ranks=[1.0, 2.0] if solved else [2.0, 1.0])
    you, it = after[0][0], after[1][0]
    return (PuzzleSkill(you.mu, max(LEAST_SIGMA, you.sigma)),
            PuzzleSkill(it.mu, max(LEAST_SIGMA, it.sigma)))
