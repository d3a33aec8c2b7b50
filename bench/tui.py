"""How long from starting a process to the first painted main menu (aim: under 1 s).

Each run spawns a fresh Python, so imports and Textual's start-up are counted as a player
feels them. The child runs the real app headless and reports once the menu screen has been
painted; the clock starts in this process before the child is spawned."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 7
ROOT = Path(__file__).resolve().parents[1]

CHILD = """
from tui.app import TabletopApp

class FirstPaint(TabletopApp):
    def on_mount(self) -> None:
        super().on_mount()
        self.screen.call_after_refresh(self.painted)

    def painted(self) -> None:
        print("painted", flush=True)
        self.exit()

FirstPaint(lang="en").run(headless=True, size=(100, 30))
"""


def time_to_menu() -> float:
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    elapsed = time.perf_counter() - start
    child.wait(timeout=30)
    if line.strip() != "painted":
        raise RuntimeError(f"the app did not paint its menu (exit code {child.returncode})")
    return elapsed


def main() -> None:
    times = [time_to_menu() for _ in range(RUNS)]
    print(f"tui: process start to first painted menu, {RUNS} runs")
    print(f"  median {statistics.median(times) * 1000:.0f} ms")
    print(f"  best   {min(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
