"""The arithmetic of a ladder: OpenSkill's Plackett-Luce model, one rating per player and
game, moved by each counted game's places (net.players.counted says which games count).

A rating is a belief about a player's skill: `mu` (its mean) and `sigma` (how unsure it is).
What ladders sort by is the cautious figure `mu - 3 sigma`, which starts at 0 and grows only
as games make the belief surer, so one lucky first game does not top a ladder; players see it
as `shown`: 1500 + 100 (mu - 3 sigma), in whole points.
Places come from the engine (`Engine.places`: the winners first, ties share a place); a
seat whose person left before the end counts as last, behind everybody who played on, and
pays `LEFT_PENALTY` on top, as Board Game Arena does with a game abandoned.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
# How far a player who left a game falls beyond counting as last (in mu; a new player's mu
# is 25 and one lost two-player game costs about 2.6): small, so quitting a lost game costs
# a little more than losing it, never a season.
LEFT_PENALTY = 1.0
# How many standard deviations the shown rating stays below the mean.
CAUTION = 3.0
# The scale players see (`shown`): the cautious figure, times DISPLAY_SCALE, above
# DISPLAY_BASE, in whole points. A new player shows 1500, as at Lichess; one game moves it by
# a few hundred points at most, so nobody shows a negative number after one game.
DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 100.0
# A person's rating is provisional (shown with "?") until this many counted games: a result
# against them moves their opponents' ratings the less, the fewer games they have (bots,
# whose level is known, count in full). A second key made to lose on purpose is new.
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Skill:
    """One player's rating at one game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def rating(self) -> float:
        """The figure a ladder shows and sorts by: the skill the player is 99.7 % likely to
        have at least."""
        return self.mu - CAUTION * self.sigma

    @property
    def shown(self) -> float:
        """`rating` on the scale players see (`shown`)."""
        return shown(self.rating)


def shown(rating: float) -> float:
    """A rating (`Skill.rating`, or a change of it) on the scale players see: the ladder, a
    player's page, the results, `players` and a table's word on a host all say this one."""
    return DISPLAY_BASE + DISPLAY_SCALE * rating


def shown_change(delta: float) -> float:
    """A change of a rating on the scale players see."""
    return DISPLAY_SCALE * delta


def rate(before: list[Skill], places: list[int], left: list[bool]) -> list[Skill]:
    """Everybody's rating after one game: `places` per seat (1 is best, equal places tie),
    `left` whether that seat's person left before the end (last place, and the penalty)."""
    if len(before) < 2:
        raise ValueError("a rated game needs two players at least")
    last = max(places) + 1
    ranks = [last if gone else place for place, gone in zip(places, left, strict=True)]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu - (LEFT_PENALTY if gone else 0.0), team[0].sigma)
            for team, gone in zip(after, left, strict=True)]


def provisional(games: int, bot: bool = False) -> bool:
    """Whether a rating with `games` counted games is still provisional ("?")."""
    return not bot and games < PROVISIONAL_GAMES


def trust(games: int, bot: bool) -> float:
    """How much a result against an opponent with `games` counted games weighs: nothing
    against a person in their first game, growing with the square of their games to full
    weight at PROVISIONAL_GAMES (a bot, whose level is known, weighs in full)."""
    return 1.0 if bot else min(1.0, games / PROVISIONAL_GAMES) ** 2


def weight(opponents: list[tuple[int, bool, int]]) -> float:
    """How much of a game's move a seat gets, from its opponents (each: their counted games,
    whether a bot, how often the two met before at this game): the mean of their trust,
    each divided by one more than the meetings, so farming a new or the same second key
    moves a rating little and less each time."""
    if not opponents:
        return 1.0
    return sum(trust(games, bot) / (1 + met) for games, bot, met in opponents) / len(opponents)


def damped(before: Skill, after: Skill, share: float, left: bool) -> Skill:
    """`after` moved only `share` of the way from `before`; the penalty of a person who left
    is paid in full whatever the share."""
    penalty = LEFT_PENALTY if left else 0.0
    mu = before.mu + share * (after.mu + penalty - before.mu) - penalty
    return Skill(mu, before.sigma + share * (after.sigma - before.sigma))
