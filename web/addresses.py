"""Whose request this is: the client's address, read through the proxies the admin trusts.

Behind a reverse proxy every connection comes from the proxy, so counting the peer would put
every visitor in one bucket (one client's flood, everyone's 429). The proxy says who it is
forwarding in ``X-Forwarded-For``, but anyone can send that header: it is read only when the
peer is one of ``WEB_TRUSTED_PROXIES``, from the right (the hop the proxy itself appended) to
the left, skipping the trusted hops, so a client cannot name an address of its choosing."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from aiohttp import web

from bot.config import Network

#: ``request`` key: the client's address, worked out once per request by the middleware.
CLIENT = web.RequestKey("client", str)


class Proxies:
    """The trusted proxies, and the client address a request comes from through them."""

    def __init__(self, networks: Iterable[Network] = ()) -> None:
        self.networks = tuple(networks)

    def trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def client(self, peer: str, forwarded: list[str]) -> str:
        """The client behind ``peer``: the right-most address of the ``X-Forwarded-For``
        headers (``forwarded``, in order) that no trusted proxy holds. A header that is not
        an address ends the walk at the last trusted hop."""
        client = peer
        if not self.trusted(peer):
            return client
        hops = [hop.strip() for header in forwarded for hop in header.split(",")]
        for hop in reversed(hops):
            try:
                client = str(ipaddress.ip_address(hop))
            except ValueError:
                return client
            if not self.trusted(client):
                return client
        return client

    def of(self, request: web.Request) -> str:
        """The client of ``request`` (the peer when it is not a trusted proxy)."""
        return self.client(request.remote or "?", request.headers.getall("X-Forwarded-For", []))


def client_of(request: web.Request) -> str:
    """The address the middleware worked out for ``request``."""
    return request.get(CLIENT, request.remote or "?")
