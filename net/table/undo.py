"""Taking a move back: which moves may be undone, and the table put back as it was.

Two rules (docs/records.md says what a record keeps of them):

- **Within the turn** (every table, rated or not, networked or not): a person may take back
  their own moves of the turn they are still in, one by one, as long as none of them revealed
  anything hidden (a card drawn, a tile or die turned up) and none let another seat act (the
  turn passed on, an answer window opened to others). Such a move is *quiet*; the first move
  that is not quiet, or any move nobody at a keyboard made (a bot, a clock that ran out),
  lays a floor nothing is undone below.
- **Practice** (`free`: an unrated local game of one person against bots): back to the
  person's previous decision, whatever happened since, the bots' moves undone too. The state
  is put back exactly as it was, so nothing is re-dealt: what the person saw of the hidden
  rest (the card they drew, a bot's cards shown in play) stays what it will be again. That is
  what undo may teach in practice, and why a rated game has only the first rule.

Whether a move revealed something is asked of the engine through its existing contract
(`from_view`, `determinize`, `apply`, `view`): the move is replayed on states that agree with
everything the table knew and differ in all that was hidden; if every seat's view afterwards
is the same on all of them, the move told nobody anything new. A sample can agree by chance
only when everything hidden it touched came out the same several times over (`SAMPLES`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines import IllegalMove
from engines.base import Move

if TYPE_CHECKING:
    from net.table.session import HostSession

# States sampled to tell whether a move revealed something hidden.
SAMPLES = 6
NOTHING = "There is nothing of yours to take back"
REVEALED = "That move can't be taken back: it showed something hidden or let another seat act"
NOT_YOURS = "Only the person who made the last move may take it back"


@dataclass
class Step:
    """One applied move and what the table was before it."""

    seat: int
    state: Any
    log_len: int
    quiet: bool  # a person's move that revealed nothing and kept the turn


def reveals(session: HostSession, before: Any, seat: int, move: Move, after: Any) -> bool:
    """Whether `seat`'s `move` (from `before` to `after`) showed any seat or a spectator
    something hidden: the same move on states that agree with what each seat knew must give
    that seat the same view."""
    eng = session.engine
    rng = random.Random(f"undo:{session.seed}:{session.state_no}")
    watchers: list[int | None] = [None, *range(len(session.seats))]
    from_view = getattr(eng, "from_view", None)
    for _ in range(SAMPLES):
        for watcher in watchers:
            if watcher is None or watcher == seat:
                if from_view is None:
                    return True  # no way to ask: count it as revealing
                sample = from_view(eng.view(before, seat), rng)
                looking = [None, seat] if watcher is None else []
            else:
                sample = eng.determinize(before, watcher, rng)
                looking = [watcher]
            try:
                moved = eng.apply(sample, seat, move)
            except IllegalMove:
                continue  # the move itself tells this watcher something: that is public
            if any(eng.view(moved, w) != eng.view(after, w) for w in looking):
                return True
    return False


class UndoBook:
    """A session's applied moves and the states before them, back to the floor."""

    def __init__(self, session: HostSession) -> None:
        self.session = session
        self.enabled = False  # a table that offers undo turns it on (replays need none)
        self.free = False  # practice: see the module docstring
        self.people: frozenset[int] = frozenset()  # seats whose moves are a person's
        self.steps: list[Step] = []
        self.floor = 0  # no state below this number is taken back to
        self._by_table = False  # the next move is the table's (a clock ran out, a stand-in)

    def enable(self, people: list[int], free: bool = False) -> None:
        """Offer undo at this table: `people` are the seats played by persons, `free` the
        practice rule."""
        self.enabled, self.free, self.people = True, free, frozenset(people)
        self.floor = self.session.state_no

    def by_table(self) -> None:
        """The next move is made by the table for a person's seat (their clock ran out, or a
        stand-in plays for them while they are away): neither it nor anything before it may
        be taken back, not even in practice (a record's clock marks name its state)."""
        self._by_table = True

    def moved(self, before: Any, seat: int, move: Move, after: Any, log_len: int) -> None:
        """Called by the session after each applied move."""
        if not self.enabled:
            return
        session = self.session
        eng = session.engine
        by_table, self._by_table = self._by_table, False
        quiet = (seat in self.people and not by_table and not eng.is_over(after)
                 and eng.to_act(after) == [seat]
                 and not reveals(session, before, seat, move, after))
        self.steps.append(Step(seat, before, log_len, quiet))
        if by_table or eng.is_over(after) or not (quiet or self.free):
            self.floor, self.steps = session.state_no, []

    def target(self, seat: int) -> int | None:
        """The state `seat`'s undo would go back to now, or None if it may not."""
        back_to = self._target(seat)[0]
        return back_to if back_to is not None and back_to >= self.floor else None

    def _target(self, seat: int) -> tuple[int | None, str]:
        session = self.session
        if not self.enabled or seat not in self.people:
            return None, NOTHING
        if session.over or not self.steps:
            # The last move was this seat's, but it laid a floor (it showed something).
            mine = bool(session.moves) and session.moves[-1][0] == seat
            return None, REVEALED if mine else NOTHING
        if self.free:
            # Back to before this person's last move, bots' moves after it included.
            for back, step in enumerate(reversed(self.steps), 1):
                if step.seat in self.people:
                    return session.state_no - back, ""
            return None, NOTHING
        last = self.steps[-1]
        if last.seat != seat:
            return None, NOT_YOURS if last.quiet else REVEALED
        if not last.quiet:
            return None, REVEALED
        return session.state_no - 1, ""

    def undo(self, seat: int) -> int:
        """Take `seat`'s last move back (see the rules above); the state number now.
        IllegalMove with a sentence for the player if it may not."""
        back_to, why = self._target(seat)
        if back_to is None or back_to < self.floor:
            raise IllegalMove(why or REVEALED)
        session = self.session
        count = session.state_no - back_to
        step = self.steps[-count]
        del self.steps[-count:]
        session.rewind(back_to, step.state, step.log_len)
        return back_to


def undo_note(seat: int, back_to: int) -> dict[str, Any]:
    """The public event an undo leaves in the log: who took back, and to which state."""
    return {"kind": "undo", "seat": seat, "to": back_to}
