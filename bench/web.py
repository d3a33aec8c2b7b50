"""Web table benchmark: `python -m bench.web` prints figures (it asserts nothing).

A relay and the web table run in this process, as `tabletop-tui serve --web` runs them.
Printed:
  * page load to painted menu, in a real headless Chromium (bench.chromium): from asking for
    the page to the whole main menu in xterm's buffer (the page, textual-serve's script, the
    websocket, the app forked and painted), a new tab each time (median and slowest; the first
    load, which fills the caches, apart);
  * memory per tab: each tab's app's PSS (and RSS, USS) once all sit idle in the menu, from
    /proc/PID/smaps_rollup as bench.ssh measures an SSH session's (the tabs here are raw
    websocket clients, as many as asked, so that the browser's own memory stays out of it),
    what the server grew by per tab, and the fork server's PSS;
  * how many idle tabs fit in 1 GiB, and in this machine's available memory.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import pyte

from bench.chromium import Browser, Tab
from bench.ssh import MENU, memory_kib, mib, spread
from net.relay.server import Relay
from net.web.limits import WebLimits
from net.web.server import WebConfig, WebTable


async def open_table(tabs: int) -> tuple[Relay, WebTable]:
    relay = Relay()
    await relay.start("127.0.0.1", 0)
    limits = WebLimits(max_tabs=tabs, per_address=tabs, per_minute=10_000)
    table = WebTable(WebConfig(0, "127.0.0.1", limits=limits), relay.url)
    await table.start()
    return relay, table


async def page_loads(port: int, loads: int) -> tuple[float, list[float]]:
    """Seconds from asking for the page to the painted menu: the first load, then the rest."""
    browser = Browser()
    await browser.start()
    times = []
    try:
        for _ in range(loads + 1):
            tab = await browser.tab(1280, 800)
            started = time.perf_counter()
            await tab.send("Page.navigate", url=f"http://127.0.0.1:{port}/")

            async def painted(t: Tab = tab) -> bool:
                text = await t.text()
                return all(item in text for item in MENU)

            await tab.until(painted, "the menu")
            times.append(time.perf_counter() - started)
            await tab.close()
    finally:
        await browser.stop()
    return times[0], times[1:]


async def idle_tab(port: int, http: aiohttp.ClientSession) -> aiohttp.ClientWebSocketResponse:
    """A tab without a browser, waiting in the menu (as bench.ssh's sessions do)."""
    base = f"http://127.0.0.1:{port}"
    async with http.get(base + "/") as page:
        await page.read()
    ws = await http.ws_connect(f"{base}/ws?width=100&height=30", headers={"Origin": base})
    screen = pyte.Screen(100, 30)
    stream = pyte.ByteStream(screen)
    async with asyncio.timeout(60):
        while not all(item in "\n".join(screen.display) for item in MENU):
            message = await ws.receive()
            if message.type != aiohttp.WSMsgType.BINARY:
                raise ConnectionError("the tab closed before the menu")
            stream.feed(message.data)
    return ws


async def run(loads: int, tabs: int) -> None:
    relay, table = await open_table(tabs + 2)
    sockets = []
    https = []
    try:
        first, times = await page_loads(table.port, loads)
        await asyncio.sleep(1.0)
        server_before = memory_kib("self")
        for _ in range(tabs):  # each its own browser: its own cookie, its own owner
            http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
            https.append(http)
            sockets.append(await idle_tab(table.port, http))
        await asyncio.sleep(2.0)  # let every app settle in its menu
        children = [memory_kib(tab.app.pid) for tab in table.tabs if tab.app.pid is not None]
        forks = memory_kib(table.forks.pid or "self")
        server_after = memory_kib("self")
    finally:
        for ws in sockets:
            await ws.close()
        for http in https:
            await http.close()
        await table.stop()
        await relay.stop()
    count = len(children)
    pss = statistics.mean(c["Pss"] for c in children)
    rss = statistics.mean(c["Rss"] for c in children)
    uss = statistics.mean(c["Uss"] for c in children)
    server_share = max(0, server_after["Rss"] - server_before["Rss"]) / count
    per_tab = pss + server_share + forks["Pss"] / count
    available = _available_kib()
    print(f"web table: {loads} page loads in headless Chromium, then {tabs} idle tabs "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} cores)")
    print(f"  page load to painted menu: first {first:.2f} s; then {spread(times)}")
    print(f"  memory per idle tab ({count} tabs): PSS {mib(pss)} (RSS {mib(rss)}, USS "
          f"{mib(uss)}); the server grew {mib(server_share)} per tab; the fork server "
          f"(shared by all) PSS {mib(forks['Pss'])}")
    print(f"  tabs in 1 GiB (PSS + the server's and fork server's shares): "
          f"{int(1024 * 1024 // per_tab)}; in this machine's available memory "
          f"({mib(available)}): {int(available // per_tab)}")


def _available_kib() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--loads", type=int, default=10, help="page loads in the browser")
    parser.add_argument("--tabs", type=int, default=10, help="idle tabs measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-web-") as home:
        os.environ["TABLETOP_TUI_HOME"] = str(Path(home) / "data")
        os.environ["TABLETOP_TUI_ROOMS"] = str(Path(home) / "rooms")
        asyncio.run(run(args.loads, args.tabs))


if __name__ == "__main__":
    main()
