"""Puzzles: positions of real games where one move is clearly best from the seat's own view,
mined from verified records (`mine`), kept as a set (`puzzle`: the one shipped with the
package, a table's own in its store), and rated as Lichess rates puzzles, the puzzle being
the player's opponent (`rating`, `book`)."""
