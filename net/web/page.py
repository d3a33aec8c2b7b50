"""The pages a browser gets: the table (textual-serve's terminal script and styles, served
from its package) and the password form. Our own markup, so that nothing is fetched from
another site (textual-serve's page loads a font from Google's) and so that the page:

* works behind a TLS proxy: the websocket's address is the page's own, `wss:` under `https:`;
* picks a font size a phone's screen holds about 45 columns at (14 px where the screen is
  narrower than 600 CSS pixels either way);
* says why the table closed a tab (a limit, the idle timeout), which the close frame carries.

Words on these pages are English, as the SSH table's lines before the app starts are.
"""

from __future__ import annotations

from html import escape

PHONE_WIDTH = 600  # CSS pixels: a screen narrower than this either way is a phone (PHONE_FONT)
PHONE_FONT = 14
DESKTOP_FONT = 16

_STYLE = """
@font-face { font-family: 'Roboto Mono';
  src: url('/static/fonts/RobotoMono-VariableFont_wght.ttf'); }
html, body { margin: 0; height: 100%; background: #0c181f; color: #eee;
  font-family: 'Roboto Mono', monospace; }
.textual-terminal { position: absolute; inset: 0; }
#note { display: none; position: absolute; inset: 0; z-index: 10; align-items: center;
  justify-content: center; text-align: center; padding: 2em; background: #0c181fee; }
body.-closed #note { display: flex; flex-direction: column; }
button, input { font: inherit; padding: .5em 1em; margin: .5em; }
form { max-width: 30em; margin: 20vh auto; padding: 1em; text-align: center; }
"""

_SCRIPT = """
(function () {
  var term = document.getElementById('terminal');
  var scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  term.dataset.sessionWebsocketUrl = scheme + '//' + location.host + '/ws';
  var narrow = Math.min(window.innerWidth, window.innerHeight);
  term.dataset.fontSize = String(narrow < PHONE ? SMALL : LARGE);
  var Native = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener('close', function (event) {
      document.getElementById('why').textContent = event.reason ||
        'The game in this tab has ended.';
      document.body.classList.add('-closed');
    });
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
})();
""".replace("PHONE", str(PHONE_WIDTH)).replace("SMALL", str(PHONE_FONT)).replace(
    "LARGE", str(DESKTOP_FONT))


def table_page(title: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="/static/css/xterm.css">
<style>{_STYLE}</style>
<script src="/static/js/textual.js"></script>
</head><body>
<div id="terminal" class="textual-terminal" data-font-size="{DESKTOP_FONT}"></div>
<div id="note"><p id="why"></p>
<button type="button" onclick="location.reload()">Play again</button></div>
<script>{_SCRIPT}</script>
</body></html>
"""


def password_page(title: str, wrong: bool = False) -> str:
    said = "<p>That was not the password.</p>" if wrong else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title><style>{_STYLE}</style></head><body>
<form method="post" action="/login"><p>This table asks for a password.</p>{said}
<input type="password" name="password" autofocus autocomplete="current-password">
<button type="submit">Sit down</button></form>
</body></html>
"""
