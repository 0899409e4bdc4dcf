"""Where the table page can be opened from the other phones at the table:
the server's own view of its addresses, for the CLI that starts it and for
the page, which puts one of them in its links and QR codes."""

from __future__ import annotations

import socket
from typing import Any

from flask import current_app

from api.body import Blueprint
from schemas.addresses import AddressesSchema

blp = Blueprint("addresses", __name__, url_prefix="/addresses", description="Where other phones open the page")

LOOPBACK = ("127.0.0.1", "localhost", "::1")
EVERYWHERE = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """This machine's address on its network (the interface of its default
    route), or None without one. Connecting a UDP socket sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never reached
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def page_addresses(bind: str) -> list[str]:
    """What to open for the table page, given where the server listens
    (``host:port``): a phone on the same network needs the LAN address.

    >>> page_addresses("127.0.0.1:5000")[0]
    'http://127.0.0.1:5000/ (this machine only: HOST=0.0.0.0 make serve for the phones at the table)'
    """
    host, _, port = bind.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    if host in ("127.0.0.1", "localhost", "::1"):
        return [f"http://{host}:{port}/ (this machine only: HOST=0.0.0.0 make serve for the phones at the table)"]
    if host in ("0.0.0.0", "::"):
        lan = lan_address()
        here = [f"http://127.0.0.1:{port}/ (this machine)"]
        if lan is None:
            return [*here, "no network found: connect this machine to the table's Wi-Fi"]
        return [f"http://{lan}:{port}/ (phones on the same Wi-Fi open this)", *here]
    return [f"http://{host}:{port}/"]


def lan_urls(listen: str | None) -> list[str]:
    """The page's addresses on this machine's network, for a server that
    listens on ``listen`` (host:port): none when it listens on this machine
    only (or says nothing of where it listens)."""
    if not listen:
        return []
    host, _, port = listen.rpartition(":")
    host = host.strip("[]")
    if host in LOOPBACK:
        return []
    if host in EVERYWHERE:
        lan = lan_address()
        return [] if lan is None else [f"http://{lan}:{port}/"]
    return [f"http://{host}:{port}/"]


@blp.route("", methods=["GET"])
@blp.response(200, AddressesSchema)
def get_addresses() -> dict[str, Any]:
    """The page's addresses that other phones can open (empty: the server listens on this machine only)

    PAGE_ADDRESSES (e.g. FLASK_PAGE_ADDRESSES='["https://gin.club.example/"]') names them; otherwise they are
    found from LISTEN, the host:port the server listens on (`make serve` and `make serve-prod` set it)."""
    config = current_app.config
    given = config.get("PAGE_ADDRESSES")
    return {"addresses": list(given) if given else lan_urls(config.get("LISTEN"))}
