"""The one cleaner of text from the wire (net.wire.text), over what an attacker would send:
terminal escapes of every kind, C1 controls, bidi overrides, joined emoji that a terminal and
Textual measure differently, piles of combining marks, bytes that are no UTF-8."""

from __future__ import annotations

import unicodedata

import wcwidth
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from net.wire.text import MAX_MARKS, clean, clean_tree, fit, printable

OSC52 = "\x1b]52;c;cm0gLXJmIH4vKg==\x07"  # writes "rm -rf ~/*" to the clipboard
TITLE = "\x1b]0;you have been pwned\x1b\\"


def terminal_width(text: str) -> int:
    """Cells as a terminal that measures character by character (xterm, pyte) counts them."""
    return sum(max(0, wcwidth.wcwidth(ch)) for ch in text)


def test_escape_sequences_go_whole_not_just_their_esc() -> None:
    assert clean(f"hi{OSC52} there") == "hi there"
    assert clean(f"{TITLE}ok") == "ok"
    assert clean("a\x1b[2J\x1b[1;31mb\x1b[0m") == "ab"
    assert clean("a\x1bPq#0;2;0;0;0\x1b\\b") == "ab"  # DCS (sixel)
    assert clean("a\x1b_apc\x07b\x1b^pm\x07c\x1bXsos\x07d") == "abcd"
    assert clean("a\x1b7b\x1b(0c\x1bcd") == "abcd"  # save cursor, charset, reset
    assert clean("tail\x1b]0;never ended") == "tail"
    assert clean("tail\x1b[") == "tail" and clean("\x1b") == ""


def test_c1_controls_and_their_escapes_go() -> None:
    assert clean("a\x9b31mb") == "ab"  # CSI as one C1 character
    assert clean("a\x9d0;title\x9cb") == "ab"  # OSC ... ST
    assert clean("a\x9d52;c;eA==\x07b") == "ab"
    assert clean("a\x90dcs\x9cb\x84\x8d\x9f") == "ab"
    assert clean("line\x85next") == "line next"  # NEL is a line break: a space


def test_controls_and_line_breaks_keep_it_one_line() -> None:
    assert clean("a\x00b\x07c\x08d\x7fe") == "abcde"
    assert clean("tab\there\nnew\rline\u2028x\u2029y") == "tab here new line x y"
    assert clean("  padded  ") == "padded"


def test_bidi_overrides_isolates_and_invisible_characters_go() -> None:
    evil = "gnp.\u202eexe\u202c \u2066iso\u2069 \u200f\u200e\u061c z\u200bw\u200dj \u00ad\ufeff"
    cleaned = clean(evil)
    assert cleaned == "gnp.exe iso  zwj"
    assert not any(unicodedata.category(ch) == "Cf" for ch in cleaned)


def test_emoji_are_measured_alike_by_textual_and_a_terminal() -> None:
    """A joined family, a heart with its emoji selector and a toned thumb are one wide cell
    pair to rich but several to a terminal that counts characters: each is drawn as the
    characters it is made of, so both agree and a border after it stays in its column."""
    for text in ("👨\u200d👩\u200d👧", "❤\ufe0f", "👍🏽", "🇩🇪", "中文 and 😀", "e\u0301"):
        cleaned = clean(text)
        assert cleaned and cell_len(cleaned) == terminal_width(cleaned), (text, cleaned)
    assert clean("👨\u200d👩\u200d👧") == "👨👩👧" and clean("❤\ufe0f") == "❤"
    assert clean("🇩🇪") == "DE"


def test_a_pile_of_combining_marks_is_cut_to_a_few() -> None:
    assert clean("z" + "\u0336" * 50) == "z" + "\u0336" * MAX_MARKS
    assert clean("\u0301\u0301x") == "x"  # a mark with nothing to sit on
    assert clean("e\u0301") == "é"  # NFC


def test_bytes_that_are_no_utf8_decode_with_one_replacement_each() -> None:
    """msgpack refuses such a string outright (the frame is malformed); where bytes reach the
    cleaner anyway (a file, a header), each undecodable byte is one U+FFFD."""
    assert clean(b"caf\xe9") == "caf\ufffd"
    assert clean(b"\xff\xfe\x1b]0;t\x07ok") == "\ufffd\ufffdok"
    assert clean(b"\xc3") == "\ufffd"  # a sequence cut short
    assert clean(b"\xed\xa0\x80x") == "\ufffd\ufffd\ufffdx"  # an encoded surrogate
    assert clean(bytearray(b"ok")) == "ok"


def test_a_limit_counts_characters_and_fit_counts_cells() -> None:
    assert clean("abcdef", 3) == "abc"
    assert fit("中文x", 4) == "中文" and fit("中文x", 3) == "中 "
    assert fit("ab", 4) == "ab  " and fit("ab", 4, right=True) == "  ab"
    assert cell_len(fit("😀😀😀", 5)) == 5


def test_clean_tree_cleans_keys_and_values_and_keeps_what_was_clean() -> None:
    clean_one = {"view": {"cards": ["a", "b"]}, "n": 3}
    assert clean_tree(clean_one) is clean_one
    dirty = {"chat": [{"name": "Eve\x1b[31m", "text": OSC52 + "hi"}], "k\x07": 1, "ok": clean_one}
    cleaned = clean_tree(dirty)
    assert cleaned == {"chat": [{"name": "Eve", "text": "hi"}], "k": 1, "ok": clean_one}
    assert cleaned["ok"] is clean_one and dirty["chat"][0]["name"] == "Eve\x1b[31m"


@settings(max_examples=1000)
@given(st.text(max_size=60) | st.binary(max_size=60).map(lambda b: b.decode("latin-1")))
def test_whatever_comes_the_result_is_one_clean_measurable_line(text: str) -> None:
    cleaned = clean(text)
    assert clean(cleaned) == cleaned and printable(cleaned)
    assert not any(unicodedata.category(ch)[0] == "C" for ch in cleaned)
    assert cell_len(cleaned) == terminal_width(cleaned)
