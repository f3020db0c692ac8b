"""Whose request it is: the peer's address, or the one a trusted proxy says it forwarded for.

`X-Forwarded-For` is only words in a header: anyone can send it. It is read only when the peer
is one of SHUTBOX_TRUSTED_PROXIES (none by default), and then from the right, past every
trusted hop, to the first address no trusted proxy stands for: a visitor who writes their own
header in front of it only adds hops on the left, which are never reached.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """`10.0.0.0/8, 127.0.0.1, ::1` as networks; ValueError naming the part that is not one."""
    networks = []
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an address or network (e.g. 10.0.0.0/8)") from None
    return tuple(networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The proxies whose `X-Forwarded-For` is taken; empty: nobody's."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, text: str | None) -> TrustedProxies:
        return cls(parse_networks(text or ""))

    def trusts(self, address: str) -> bool:
        ip = _address(address)
        return ip is not None and any(ip in network for network in self.networks)

    def client(self, request: web.Request) -> str:
        """The visitor's address (see the module's docstring)."""
        peer = request.remote or ""
        if not self.networks or not self.trusts(peer):
            return peer
        hops = _hops(request.headers.getall("X-Forwarded-For", ()))
        for hop in reversed(hops):
            if not self.trusts(hop):
                return hop if _address(hop) is not None else peer
        return hops[0] if hops else peer


def _hops(headers: Iterable[str]) -> list[str]:
    return [hop.strip() for header in headers for hop in header.split(",") if hop.strip()]
