"""A host that closes its room before the game's end (by its keys, or `NetHost.close`): the
game ends there for everybody, as the host's leaving.

Its own people's seats join those that left already (a bot took them over); it signs the
close with its identity key (net.players.closing: the state and those seats), reveals the
deal as at a regular end in one last table message to everybody, and ends its own record
with the same `closed` and `left`. Each guest checks the reveal and replays the game to that
state itself (net.peer.remote), so the places stand as the game stood; the host is last with
the leaver's penalty on every ladder that counts the game (docs/records.md).

A game not begun (no move yet), one over, and a host without an identity (it can sign
nothing) close as before: nothing is revealed, the record stays unfinished.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.host.seats import left_seats
from net.players import closing, identity

if TYPE_CHECKING:
    from net.host.authority import NetHost


def close_mid_game(host: NetHost) -> bool:
    """End `host`'s game as closed by its host, if it is under way; whether it did."""
    session, dealer = host.session, host.dealer
    if (session is None or session.over or not session.moves or dealer.closed is not None
            or dealer.commitment is None):
        return False
    mine = [i for i, seat in enumerate(host.seats) if seat.local and seat.bot is None]
    me = identity.mine()
    if not mine or me is None:
        return False
    left = sorted(set(left_seats(session.players(), host.seats)) | set(mine))
    state = len(session.moves)  # the record's moves: passes still held are not in it
    dealer.left = left
    dealer.closed = {"state": state, "seat": mine[0],
                     "sig": closing.sign(me, dealer.commitment, state, left)}
    host.play.reschedule()  # no bot or clock moves after the close (`Play` refuses any)
    host.play.broadcast("update", [])
    host.recorder.closed(left, dealer.closed)
    return True
