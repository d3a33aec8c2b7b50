"""Das Zwergenamulett at the table: the trick in the middle with who played what and which card
takes it, your hand as coloured cards (those that would take the trick marked), every player's
tricks and gold, and the "7 Zwerge!" call, which is open to everybody at any time of a round.

Won tricks are secret in this game, even from their owner, so the table never lists them: it
shows only how many tricks each player holds, plus your own won cards when the `memory_aid`
option is on. The trick just completed stays on show (faded) until the next card is played,
as it lies on a real table until somebody gathers it. When a round ends, its summary opens on
top of the table once per round and can be opened again with `s`.

The registry needs `Board` and `describe` from here; the rest lives in the modules beside.
"""

from tui.boards.zwergenamulett.board import PICK_KEYS, Board
from tui.boards.zwergenamulett.events import describe
from tui.boards.zwergenamulett.faces import face_name
from tui.boards.zwergenamulett.summary import RoundSummary
from tui.boards.zwergenamulett.text import TEXTS
from tui.i18n import register

register(TEXTS)

__all__ = ["PICK_KEYS", "Board", "RoundSummary", "describe", "face_name"]
