"""How the table tells a player it is their turn while they are away from it: a webhook (one
HTTP POST per turn) and e-mail (a digest at most once a day, and one last warning before a
turn's time runs out; never one e-mail per move).

A webhook's body is one JSON object that ntfy, Discord and Slack all take as a message:
`{"content": ..., "text": ..., "message": ..., "title": ...}` (Discord reads `content`, Slack
`text`, ntfy's JSON publishing `message` and `title`). A webhook is a URL a player typed,
fetched by the table's own machine: it must be http(s), and its host must not be one of the
table's private, loopback or link-local addresses (else a player could make the table call
into the network it runs in), unless the operator allows them (`private_hooks`: a test, or a
table whose players are its own).
"""

from __future__ import annotations

import ipaddress
import json
import os
import smtplib
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import urlsplit

# Set (to "1") by `serve --days-private-webhooks` for itself and its sessions.
PRIVATE_ENV = "TABLETOP_TUI_DAYS_PRIVATE_HOOKS"
HOOK_SECONDS = 10.0
MAX_URL = 500
MAX_EMAIL = 254


class NoticeError(ValueError):
    """A webhook or address the table will not use, with a sentence a player can read."""


def private_allowed() -> bool:
    return os.environ.get(PRIVATE_ENV) == "1"


def check_webhook(url: str, private_hooks: bool = False) -> str:
    """`url` if the table may POST to it; NoticeError saying why not."""
    url = url.strip()
    private_hooks = private_hooks or private_allowed()
    parts = urlsplit(url)
    if len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.hostname:
        raise NoticeError("A webhook is an http:// or https:// address")
    if private_hooks:
        return url
    try:
        found = socket.getaddrinfo(parts.hostname, parts.port or 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise NoticeError(f"The webhook's host {parts.hostname} is not found") from None
    for *_rest, address in found:
        ip = ipaddress.ip_address(address[0])
        if not ip.is_global:
            raise NoticeError("The webhook must be on the internet, not on the table's own "
                              "network")
    return url


def check_email(address: str) -> str:
    address = address.strip()
    local, at, domain = address.rpartition("@")
    if (not at or not local or "." not in domain or len(address) > MAX_EMAIL
            or any(c.isspace() or c in "<>,;\"\r\n" for c in address)):
        raise NoticeError("That is not an e-mail address")
    return address


def body(title: str, text: str) -> bytes:
    return json.dumps({"content": f"{title}: {text}", "text": f"{title}: {text}",
                       "message": text, "title": title}).encode()


def post(url: str, title: str, text: str, private_hooks: bool = False) -> bool:
    """POST one notice to `url` (checked again: a name may point elsewhere by now); whether
    the server took it."""
    try:
        check_webhook(url, private_hooks)
        request = urllib.request.Request(url, data=body(title, text), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "User-Agent": "tabletop-tui"})
        with _OPENER.open(request, timeout=HOOK_SECONDS) as answer:
            return 200 <= answer.status < 300
    except (NoticeError, urllib.error.URLError, OSError, ValueError):
        return False


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook is posted where the player said, never where its server sends us on (a
    redirect could point into the table's own network)."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


@dataclass(frozen=True)
class Smtp:
    """The table's mail server (`serve --smtp-host/--smtp-port/--smtp-from`)."""

    host: str
    port: int = 25
    sender: str = "tabletop-tui@localhost"

    def send(self, to: str, subject: str, text: str) -> bool:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, to, subject
        message.set_content(text)
        try:
            with smtplib.SMTP(self.host, self.port, timeout=HOOK_SECONDS) as server:
                server.send_message(message)
        except (OSError, smtplib.SMTPException):
            return False
        return True
