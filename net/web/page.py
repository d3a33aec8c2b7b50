"""The pages a browser gets: the table (textual-serve's terminal script and styles, served
from its package) and the password form. Our own markup, so that nothing is fetched from
another site (textual-serve's page loads a font from Google's) and so that the page:

* works behind a TLS proxy: the websocket's address is the page's own, `wss:` under `https:`;
* picks a font size a phone's screen holds about 45 columns at (14 px where the screen is
  narrower than 600 CSS pixels either way);
* says why the table closed a tab (a limit, the idle timeout), which the close frame carries;
* on a touch screen, shows a bar of the keys a phone's keyboard has not (Esc, Tab, the arrows,
  Enter, F1-F6), each tap sent to the app as the terminal would send that key; and, held
  sideways, a font small enough for a table's rows (`LANDSCAPE_ROWS`).

The pages' few words are English or German, as the browser prefers (`language`); so is the
first language of the tab's app, until the player picks one in its settings.
"""

from __future__ import annotations

import json
from html import escape

PHONE_WIDTH = 600  # CSS pixels: a screen narrower than this either way is a phone (PHONE_FONT)
PHONE_FONT = 14
DESKTOP_FONT = 16
LANDSCAPE_ROWS = 25  # a phone held sideways gets a font that many rows fit (at least 9 px)
KEY_BAR = 44  # CSS pixels the touch screen's key bar takes at the bottom
# The key bar: what a button shows, and what the terminal sends for that key (xterm's).
# The most used first: an upright phone shows about eight, the rest a swipe along the bar away.
KEYS = (("Esc", "\x1b"), ("⏎", "\r"), ("←", "\x1b[D"), ("↑", "\x1b[A"), ("↓", "\x1b[B"),
        ("→", "\x1b[C"), ("Tab", "\t"), ("F5", "\x1b[15~"), ("F6", "\x1b[17~"),
        ("F4", "\x1bOS"), ("F1", "\x1bOP"), ("F2", "\x1bOQ"), ("F3", "\x1bOR"), ("⇤", "\x1b[Z"))

_STYLE = """
@font-face { font-family: 'Roboto Mono';
  src: url('/static/fonts/RobotoMono-VariableFont_wght.ttf'); }
html, body { margin: 0; height: 100%; background: #0c181f; color: #eee;
  font-family: 'Roboto Mono', monospace; }
body .textual-terminal { position: absolute; inset: 0; width: auto; height: auto; }
#note { display: none; position: absolute; inset: 0; z-index: 10; align-items: center;
  justify-content: center; text-align: center; padding: 2em; background: #0c181fee; }
body.-closed #note { display: flex; flex-direction: column; }
button, input { font: inherit; padding: .5em 1em; margin: .5em; }
#keys { display: none; position: absolute; left: 0; right: 0; bottom: 0; height: KEYBARpx;
  overflow-x: auto; white-space: nowrap; background: #16262f; z-index: 5; }
#keys button { margin: 4px 2px; padding: 0 .8em; height: 36px; min-width: 44px;
  background: #24404f; color: #eee; border: 0; border-radius: 4px; }
body.-touch #keys { display: block; }
body.-touch .textual-terminal { bottom: KEYBARpx; }
form { max-width: 30em; margin: 20vh auto; padding: 1em; text-align: center; }
""".replace("KEYBAR", str(KEY_BAR))

_SCRIPT = """
(function () {
  var term = document.getElementById('terminal');
  var scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  term.dataset.sessionWebsocketUrl = scheme + '//' + location.host + '/ws';
  var touch = navigator.maxTouchPoints > 0 || window.matchMedia('(pointer: coarse)').matches;
  if (touch) document.body.classList.add('-touch');
  var wide = window.innerWidth, high = window.innerHeight - (touch ? KEYBAR : 0);
  var size = LARGE;
  if (Math.min(window.innerWidth, window.innerHeight) < PHONE) {
    // xterm draws a row about 1.3 times the font size high
    size = wide > high ? Math.max(9, Math.min(SMALL, Math.floor(high / ROWS / 1.3))) : SMALL;
  }
  term.dataset.fontSize = String(size);
  var live = null;
  KEYLIST.forEach(function (key) {
    var button = document.createElement('button');
    button.type = 'button';
    button.tabIndex = -1;
    button.textContent = key[0];
    // Sent on the finger's lift (a swipe along the bar scrolls it and sends nothing); the
    // press itself keeps the focus where it was, so no phone keyboard pops up.
    button.addEventListener('pointerdown', function (event) { event.preventDefault(); });
    button.addEventListener('pointerup', function () {
      if (live && live.readyState === 1) live.send(JSON.stringify(['stdin', key[1]]));
    });
    document.getElementById('keys').appendChild(button);
  });
  var Native = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    live = socket;
    socket.addEventListener('close', function (event) {
      document.getElementById('why').textContent = event.reason || ENDED;
      document.body.classList.add('-closed');
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
""".replace("PHONE", str(PHONE_WIDTH)).replace("SMALL", str(PHONE_FONT)).replace(
    "LARGE", str(DESKTOP_FONT)).replace("KEYBAR", str(KEY_BAR)).replace(
    "ROWS", str(LANDSCAPE_ROWS)).replace("KEYLIST", json.dumps(KEYS))


WORDS = {
    "en": {"again": "Play again", "ended": "The game in this tab has ended.",
           "asks": "This table asks for a password.", "wrong": "That was not the password.",
           "sit": "Sit down"},
    "de": {"again": "Nochmal spielen", "ended": "Das Spiel in diesem Tab ist zu Ende.",
           "asks": "Dieser Tisch verlangt ein Passwort.", "wrong": "Das war nicht das Passwort.",
           "sit": "Hinsetzen"},
}


def language(accepted: str) -> str:
    """English or German, whichever comes first in an Accept-Language header (English if
    neither does): the browser's order is its user's; weights are not weighed."""
    for part in accepted.split(","):
        tag = part.split(";")[0].strip().lower()
        primary = tag.split("-")[0]
        if primary in WORDS:
            return primary
    return "en"


def table_page(title: str, lang: str = "en") -> str:
    words = WORDS[lang]
    script = _SCRIPT.replace("ENDED", json.dumps(words["ended"]))
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<style>{_STYLE}</style>
<script src="/static/js/textual.js"></script>
</head><body>
<div id="terminal" class="textual-terminal" data-font-size="{DESKTOP_FONT}"></div>
<div id="keys"></div>
<div id="note"><p id="why"></p>
<button type="button" onclick="location.reload()">{escape(words["again"])}</button></div>
<script>{script}</script>
</body></html>
"""


def password_page(title: str, wrong: bool = False, lang: str = "en") -> str:
    words = WORDS[lang]
    said = f"<p>{escape(words['wrong'])}</p>" if wrong else ""
    return f"""<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title><style>{_STYLE}</style></head><body>
<form method="post" action="/login"><p>{escape(words["asks"])}</p>{said}
<input type="password" name="password" autofocus autocomplete="current-password">
<button type="submit">{escape(words["sit"])}</button></form>
</body></html>
"""
