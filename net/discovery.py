"""Finding a room from its code alone.

`resolve(code)` tries, in order:
1. The machine's rooms directory. Friends logged into one machine over SSH cannot read each
   other's data directories, so a host also writes the relay's address into a shared,
   sticky, world-writable directory (`/tmp/tabletop-tui-rooms`, or `TABLETOP_TUI_ROOMS`),
   like /tmp itself: everyone may add files, nobody may remove or replace another user's. The
   file is named after a slow, salted hash of the code (`codes.room_key` with the directory's
   per-machine salt), so listing the directory reveals no codes: only someone who knows the
   code finds the file. A file also names its host's process: one whose process is gone (a
   host killed without cleaning up) is ignored.
2. mDNS on the LAN (hosts started with `--lan` advertise `<room_key>._tabletop-tui._tcp`),
   asked directly for that name with a short timeout.
3. The default relay address, ws://127.0.0.1:8765 (`tabletop-tui serve`, or a host using the
   default port).
`--server HOST:PORT` skips all of this.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import socket
import stat
from pathlib import Path
from urllib.parse import urlsplit

from net.wire.codes import room_key

_SALT_FILE = ".salt"

log = logging.getLogger("tabletop.discovery")

DEFAULT_PORT = 8765
DEFAULT_URL = f"ws://127.0.0.1:{DEFAULT_PORT}"
SERVICE = "_tabletop-tui._tcp.local."
LAN_TIMEOUT = 1.5


def server_url(text: str) -> str:
    """`HOST`, `HOST:PORT` or a ws:// / wss:// URL -> a websocket URL; ValueError, saying
    what is accepted, for anything else."""
    typed = text.strip()
    url = typed
    if not typed.startswith(("ws://", "wss://")):
        host, sep, port = typed.rpartition(":")
        if sep and port.isdigit() and (":" not in host or host.startswith("[")):
            url = f"ws://{host}:{port}"
        elif typed.count(":") >= 2 and not typed.startswith("["):  # a bare IPv6 address
            url = f"ws://[{typed}]:{DEFAULT_PORT}"
        else:
            url = f"ws://{typed}:{DEFAULT_PORT}"
    try:
        parts = urlsplit(url)
        fine = bool(parts.hostname) and (parts.port is None or 0 < parts.port < 65536)
    except ValueError:  # a port that is not a number, or out of range
        fine = False
    if not fine:
        raise ValueError(f"a relay is HOST, HOST:PORT or a ws:// URL, not {typed!r}")
    return url


# -- same machine ----------------------------------------------------------------------------
def rooms_dir() -> Path | None:
    """The shared rooms directory, created sticky and world-writable if missing; None if it
    exists but is not safe to use (not a directory, or someone else's and not sticky)."""
    path = Path(os.environ.get("TABLETOP_TUI_ROOMS") or "/tmp/tabletop-tui-rooms")
    try:
        path.mkdir(mode=0o700)
        path.chmod(0o1777)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        info = path.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return None
    shared = info.st_mode & stat.S_ISVTX and info.st_mode & 0o777 == 0o777
    if info.st_uid != os.getuid() and not shared:
        return None
    return path


def machine_salt(folder: Path) -> bytes | None:
    """The rooms directory's salt (made by whoever came first; public, but unique to this
    machine, so no table of keys computed elsewhere helps)."""
    path = folder / _SALT_FILE
    with contextlib.suppress(FileExistsError, OSError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(16))
    try:
        with open(path, "rb", opener=lambda p, f: os.open(p, f | os.O_NOFOLLOW)) as handle:
            salt = handle.read(64).strip()
    except OSError:
        return None
    return salt if len(salt) == 32 else None


def _room_file(folder: Path, code: str) -> Path | None:
    salt = machine_salt(folder)
    return None if salt is None else folder / f"{room_key(code, salt)}.json"


def publish(code: str, url: str) -> Path | None:
    """Tell other users of this machine where room `code` is; returns the file written."""
    folder = rooms_dir()
    target = None if folder is None else _room_file(folder, code)
    if folder is None or target is None:
        return None
    tmp = folder / f".{target.stem}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"url": url, "pid": os.getpid()}, handle)
        os.replace(tmp, target)
    except OSError as exc:
        log.warning("cannot publish the room on this machine: %s", exc)
        with contextlib.suppress(OSError):
            tmp.unlink()
        return None
    return target


def unpublish(code: str) -> None:
    folder = rooms_dir()
    target = None if folder is None else _room_file(folder, code)
    if target is not None:
        with contextlib.suppress(OSError):
            target.unlink()


def _alive(pid: object) -> bool:
    if type(pid) is not int or pid <= 0:
        return True  # a file without a process id: trust it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: it exists
        return True
    return True


def lookup_local(code: str) -> str | None:
    folder = rooms_dir()
    target = None if folder is None else _room_file(folder, code)
    if target is None:
        return None
    try:
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not _alive(data.get("pid")):
        return None
    url = data.get("url")
    return url if isinstance(url, str) and url.startswith(("ws://", "wss://")) else None


# -- LAN ---------------------------------------------------------------------------------------
def lan_address() -> str:
    """This machine's address on its default route (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


class Advertiser:
    """Announces one room on the LAN with mDNS while it is open."""

    def __init__(self) -> None:
        self._zc: object | None = None
        self._info: object | None = None

    async def start(self, code: str, port: int, address: str | None = None) -> None:
        from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

        key = room_key(code)
        info = AsyncServiceInfo(
            SERVICE,
            f"{key}.{SERVICE}",
            addresses=[socket.inet_aton(address or lan_address())],
            port=port,
            properties={"room": key, "v": "1"},
        )
        zc = AsyncZeroconf()
        await zc.async_register_service(info)
        self._zc, self._info = zc, info

    async def stop(self) -> None:
        zc, info = self._zc, self._info
        self._zc = self._info = None
        if zc is not None:
            with contextlib.suppress(Exception):
                await zc.async_unregister_service(info)  # type: ignore[attr-defined]
            await zc.async_close()  # type: ignore[attr-defined]


async def find_lan(code: str, timeout: float = LAN_TIMEOUT) -> str | None:
    """Ask the LAN for room `code`; its relay's URL, or None."""
    try:
        from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

        key = room_key(code)
        zc = AsyncZeroconf()
        try:
            info = AsyncServiceInfo(SERVICE, f"{key}.{SERVICE}")
            if not await info.async_request(zc.zeroconf, timeout * 1000):
                return None
            addresses = info.parsed_addresses()
            if not addresses or info.port is None:
                return None
            return f"ws://{addresses[0]}:{info.port}"
        finally:
            await zc.async_close()
    except Exception as exc:  # no multicast here, no interfaces, ...: just not found
        log.debug("mDNS lookup failed: %s", exc)
        return None


async def resolve(code: str, lan: bool = True) -> str:
    """Where room `code` is, by the order in the module docstring."""
    url = lookup_local(code)
    if url is None and lan:
        url = await find_lan(code)
    return url or DEFAULT_URL
