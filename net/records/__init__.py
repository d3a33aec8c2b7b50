"""Past games: the one record format every game leaves (`record`, the names below), the
files they live in (`store`) and the statistics of a finished game (`stats`). Callers use the
names here: `from net import records; records.load(path)`."""

from net.records.record import (
    FORMAT,
    KINDS,
    VERSION,
    Entry,
    LocalRecorder,
    Record,
    RecordError,
    Replay,
    export,
    header,
    listing,
    load,
    parse,
    prune,
    save_peer,
    start_peer,
    winners,
)
from net.records.stats import of_game as stats_of_game
from net.records.stats import of_record as stats_of_record
from net.records.stats import of_replay as stats_of_replay

__all__ = [
    "FORMAT", "KINDS", "VERSION", "Entry", "LocalRecorder", "Record", "RecordError", "Replay",
    "export", "header", "listing", "load", "parse", "prune", "save_peer", "start_peer",
    "stats_of_game", "stats_of_record", "stats_of_replay", "winners",
]
