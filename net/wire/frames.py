"""The wire: msgpack frames, their version, and the checks every receiver runs.

Every frame is one binary websocket message holding one msgpack map with at least "v" (the
protocol version) and "t" (the frame type). Decoding is deliberately strict and boring: safe
msgpack defaults, no extension types, string map keys only, a size cap, and a field table per
frame type, so that a hostile peer can at worst earn itself an error frame. docs/protocol.md
describes the same tables for people writing other clients.
"""

from __future__ import annotations

from typing import Any

import msgpack

# 2: seat tokens travel only after the host's proof ("proof", "claim"), joint seeds
# ("commit", "contribute"), signed host tokens ("seats"), errors name the refused frame's seq.
# 3: end-to-end encryption (net.wire.channel): 12-symbol join codes whose last 4 never reach the
# relay, a SPAKE2 exchange ("pake") on join, and every host<->peer payload "sealed".
# 4: a peer choosing an answer to an interrupt window says so ("answering"), resumption, padded
# sealed payloads, identities.
# 5: rooms addressable by URL: the host draws its room code, host tokens carry their opening
# time; see docs/protocol.md for the whole list.
VERSION = 5
# Largest frame a relay accepts from a connection (bytes); views and records fit easily.
MAX_FRAME = 64 * 1024
# The websocket layer's own ceiling: frames between MAX_FRAME and this get a readable error
# frame; beyond it the connection is closed with code 1009 before we ever see the bytes.
WS_MAX_SIZE = 1024 * 1024
MAX_CHAT = 500
MAX_NAME = 32

Frame = dict[str, Any]


class ProtocolError(Exception):
    """A frame that breaks the protocol. `code` is machine-readable, `message` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def encode(t: str, **fields: Any) -> bytes:
    """Pack one frame of type `t`."""
    return msgpack.packb({"v": VERSION, "t": t, **fields}, use_bin_type=True)


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code} is not allowed")


def unpack(data: bytes) -> Any:
    """msgpack with the safe settings; ProtocolError("malformed") for anything else."""
    try:
        return msgpack.unpackb(
            data, raw=False, strict_map_key=True, use_list=True, ext_hook=_no_ext, timestamp=0
        )
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        reason = str(exc) or type(exc).__name__
        raise ProtocolError("malformed", f"not a valid msgpack frame ({reason})") from None


def decode(data: bytes | str, max_size: int = MAX_FRAME) -> Frame:
    """One received websocket message -> a frame map with the right version and a type."""
    if isinstance(data, str):
        raise ProtocolError("malformed", "frames must be binary msgpack, not text")
    if len(data) > max_size:
        raise ProtocolError(
            "too_big", f"frame of {len(data)} bytes is over the limit of {max_size} bytes"
        )
    frame = unpack(data)
    if not isinstance(frame, dict):
        raise ProtocolError("malformed", "a frame must be a msgpack map")
    version = frame.get("v")
    if type(version) is not int:
        raise ProtocolError("malformed", "a frame needs an integer 'v' (protocol version)")
    if version != VERSION:
        raise ProtocolError(
            "version",
            f"protocol version {version} is not supported: this side speaks protocol {VERSION};"
            " please update tabletop-tui (every player, the host and the relay need the same"
            " protocol)",
        )
    if not isinstance(frame.get("t"), str):
        raise ProtocolError("malformed", "a frame needs a string 't' (frame type)")
    return frame


# -- field tables ---------------------------------------------------------------------------
# A field spec is a tuple of accepted Python types after decoding; `None` in it means the field
# may be nil. Missing fields are errors unless None is accepted. Extra fields are ignored, so a
# newer minor revision can add fields without breaking older receivers.
OPT = type(None)
INT, STR, BOOL, MAP, LIST, BIN = (int,), (str,), (bool,), (dict,), (list,), (bytes,)

# Frames a peer (a joining player or spectator) sends to the relay, which forwards them all to
# the room's host unchanged. Only routing facts travel in the clear: the room code (without
# its secret part), watch, a one-time ticket the relay checks against the host's list, and what
# the host needs to answer the exchange; the rest is sealed. A first frame is "join" (keyed by
# the code: the player typed it) or "resume" (keyed by an earlier session, net.wire.resume);
# "rejoin" resumes on an open connection (after "host_back", or to re-key).
PEER_FRAMES: dict[str, dict[str, tuple[type, ...]]] = {
    "join": {"seq": INT, "code": STR, "watch": BOOL, "seat_id": (str, OPT),
             "nonce": (str, OPT), "pake": BIN},
    "resume": {"seq": INT, "code": STR, "watch": BOOL, "ticket": (str, OPT), "rid": STR,
               "nonce": BIN, "epub": BIN},
    "rejoin": {"seq": INT, "rid": STR, "nonce": BIN, "epub": BIN},
    "sealed": {"seq": INT, "n": INT, "data": BIN},
}
FIRST_PEER_FRAMES = ("join", "resume")

# What a peer's "sealed" frames hold (net.wire.channel): its hello first, then the game.
PEER_SEALED: dict[str, dict[str, tuple[type, ...]]] = {
    "hello": {"name": STR, "watch": BOOL, "seat_id": (str, OPT), "nonce": (str, OPT),
              "identity": (bytes, OPT), "identity_sig": (bytes, OPT)},
    "claim": {"token": STR},
    "contribute": {"value": STR, "proof": (bytes, OPT)},
    "move": {"seat": INT, "state_no": INT, "move": MAP},
    "chat": {"text": STR},
    "sync": {},
    "echo": {"data": (bytes, str, int, OPT)},
    "answering": {"state_no": INT},
    "extend": {"state_no": INT},
    "undo": {"state_no": INT},
}

# Frames a host sends to the relay.
HOST_FRAMES: dict[str, dict[str, tuple[type, ...]]] = {
    "open": {"seq": INT, "code": (str, OPT), "host_token": (str, OPT)},
    "send": {"seq": INT, "items": LIST},
    "seats": {"seq": INT, "ids": LIST},
    "kick": {"seq": INT, "cid": INT, "reason": STR, "code": (str, OPT),
             "retry_after": (int, float, OPT)},
    "close": {"seq": INT, "reason": STR},
    "list": {"seq": INT, "game": STR, "seats": INT, "free": INT, "secret": STR, "name": STR,
             "key": (bytes, OPT), "sig": (bytes, OPT), "fill_after": (int, float, OPT),
             "level": (str, OPT), "min_finished": (int, float, OPT)},
    "unlist": {"seq": INT},
}

# Frames the host sends to peers in the clear (through the relay, inside "send"): its half
# of the key exchange, then only "sealed" ones.
HOST_ENVELOPES: dict[str, dict[str, tuple[type, ...]]] = {
    "pake": {"msg": BIN},
    "resumed": {"epub": BIN, "proof": BIN},
    "sealed": {"n": INT, "data": BIN},
}

# What the host's "sealed" frames hold.
HOST_TO_PEER: dict[str, dict[str, tuple[type, ...]]] = {
    "welcome": {
        "seat": (int, OPT), "token": STR, "name": STR, "code": STR, "engine": STR,
        "options": MAP, "commitment": (str, OPT), "proof_key": (str, OPT),
        "ticket": (str, OPT), "deal": (int, OPT),
    },
    "proof": {"proof": STR},
    "commit": {"commitment": STR, "seats": LIST, "deal": (int, OPT),
               "fixed": (bool, OPT)},
    "lobby": {"engine": STR, "options": MAP, "seats": LIST, "clock": (dict, OPT),
              "takeover": (int, float, OPT), "deal": (int, OPT)},
    "start": {"engine": STR, "options": MAP, "players": LIST, "commitment": STR,
              "contributions": LIST, "fixed_seed": (int, OPT), "deal": (int, OPT)},
    "sync": {"seat": (int, OPT), "state_no": INT, "view": MAP, "legal": LIST, "players": LIST,
             "log": LIST, "result": (dict, OPT), "reveal": (dict, OPT), "clocks": (dict, OPT)},
    "update": {"seat": (int, OPT), "state_no": INT, "view": MAP, "legal": LIST,
               "players": LIST, "events": LIST, "result": (dict, OPT), "reveal": (dict, OPT),
               "clocks": (dict, OPT)},
    "presence": {"players": LIST, "spectators": INT},
    "chat": {"name": STR, "text": STR, "seat": (int, OPT), "no": INT, "at": (int, OPT)},
    "notice": {"text": STR},
    "error": {"code": STR, "message": STR, "seq": (int, OPT)},
    "echo": {"data": (bytes, str, int, OPT)},
}

# Frames the relay itself sends (to hosts and peers).
RELAY_FRAMES: dict[str, dict[str, tuple[type, ...]]] = {
    "opened": {"code": STR, "host_token": STR, "peers": LIST},
    "from": {"cid": INT, "data": BIN, "src": (str, OPT)},
    "left": {"cid": INT},
    "host_gone": {},
    "host_back": {},
    "error": {"code": STR, "message": STR, "fatal": BOOL, "seq": (int, OPT)},
}


def check(frame: Frame, table: dict[str, dict[str, tuple[type, ...]]]) -> Frame:
    """ProtocolError unless `frame`'s type is in `table` and its fields have the right types."""
    t = frame["t"]
    spec = table.get(t)
    if spec is None:
        raise ProtocolError("unknown_type", f"unknown frame type {t!r}")
    for name, kinds in spec.items():
        value = frame.get(name)
        if value is None and OPT in kinds:
            continue
        # bool is an int subclass: an int field must not accept true/false.
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            want = " or ".join("nil" if k is OPT else k.__name__ for k in kinds)
            raise ProtocolError(
                "bad_field", f"frame {t!r}: field {name!r} must be {want}, not {value!r:.40}"
            )
    return frame


def is_plain(value: Any, depth: int = 0) -> bool:
    """Only the types a move or view may hold (maps with str keys, lists, str, int, bool, nil);
    keeps odd decoded objects (timestamps, floats, bytes) away from the engines."""
    if depth > 32:
        return False
    if value is None or isinstance(value, str | int):  # bool is an int
        return True
    if isinstance(value, list):
        return all(is_plain(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain(v, depth + 1) for k, v in value.items())
    return False
