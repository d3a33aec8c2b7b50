"""Past games: the one record format every game leaves (`record`, the names below) and the
files they live in (`store`). Callers use the names here:
`from net import records; records.load(path)`."""

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

__all__ = [
    "FORMAT", "KINDS", "VERSION", "Entry", "LocalRecorder", "Record", "RecordError", "Replay",
    "export", "header", "listing", "load", "parse", "prune", "save_peer", "start_peer", "winners",
]
