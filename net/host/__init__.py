"""The hosting side of a networked table: the room's authority (`authority.NetHost`), its
connection to the relay, its key exchanges, its seats and its record, and opening a room
from this machine (`hosting`)."""
