"""Learn to play: a first game on a prepared deal that teaches the rules at the table itself.

One runner serves every game: `lesson` says what a lesson is (steps, each with its text in
English and German and, for a step that asks for a move, what kind of move it wants),
`link` checks every move of the learner against the step before the engine applies it, and
`screen` is the game screen with the lesson's panel beside (or, in a small window, over) the
table. Each game's lesson is one small data module here, found through `LESSONS`."""

from tui.i18n import register

# The menu's item, registered here so the menu names it without loading a lesson.
register({"en": {"menu.learn": "Learn to play"}, "de": {"menu.learn": "Spielen lernen"}})
