from __future__ import annotations

import ipaddress
import re
from typing import Iterable, List, Optional, Union

from .._core.errors import VigilError

Network = Union[ipaddress.IPv4Network, ipaddress.IPv6Network]
Address = Union[ipaddress.IPv4Address, ipaddress.IPv6Address]

# Named ranges, as in Express's `trust proxy`, so the common deployments need no CIDR arithmetic.
NAMED_RANGES = {
    "loopback": ("127.0.0.0/8", "::1/128"),
    "linklocal": ("169.254.0.0/16", "fe80::/10"),
    "uniquelocal": ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"),
}


def parse_ip(text: str) -> Optional[Address]:
    """An address, with IPv4-mapped IPv6 (``::ffff:10.1.2.3``, as dual-stack sockets report) unwrapped."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def valid_ip(text: str) -> Optional[str]:
    address = parse_ip(text)
    return None if address is None else str(address)


class TrustedProxies:
    """
    Decides whether a peer address is one of our proxies, whose forwarding headers may be believed. Built
    from IPs, CIDRs ("10.0.0.0/8", "2001:db8::/32") and the names ``loopback``, ``linklocal``,
    ``uniquelocal``. An invalid entry is a configuration error, raised at construction.
    """

    def __init__(self, entries: Iterable[str] = ()) -> None:
        networks: List[Network] = []
        for raw in entries:
            for entry in NAMED_RANGES.get(raw.strip().lower(), (raw.strip(),)):
                try:
                    network = ipaddress.ip_network(entry, strict=False)
                except ValueError:
                    raise VigilError(
                        "config", f'trusted_proxies: "{raw}" is not an IP address, CIDR range or known name'
                    ) from None
                if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
                    mapped = network.network_address.ipv4_mapped
                    if mapped is not None:
                        network = ipaddress.ip_network(f"{mapped}/{network.prefixlen - 96}")
                networks.append(network)
        self._networks = tuple(networks)

    def trusts(self, address: str) -> bool:
        if not self._networks:
            return False
        parsed = parse_ip(address)
        return parsed is not None and any(parsed in network for network in self._networks)


_BRACKETED = re.compile(r"^\[([^\]]+)\](?::\d+)?$")
_IPV4_PORT = re.compile(r"^\d+\.\d+\.\d+\.\d+:\d+$")


def node_address(node: str) -> Optional[str]:
    """A node of Forwarded or X-Forwarded-For: "1.2.3.4", "1.2.3.4:80", "[2001:db8::1]:443", "2001:db8::1"."""
    candidate = node
    bracketed = _BRACKETED.match(candidate)
    if bracketed:
        candidate = bracketed.group(1)
    elif _IPV4_PORT.match(candidate):
        candidate = candidate.rsplit(":", 1)[0]
    return valid_ip(candidate)


def parse_forwarded(header: str) -> List[Optional[str]]:
    """
    Addresses of an RFC 7239 ``Forwarded`` header in hop order (client first). Obfuscated or unknown
    nodes ("_hidden", "unknown") are kept as None so they still count as a hop.
    """
    hops: List[Optional[str]] = []
    for element in _split_outside_quotes(header, ","):
        for_node: Optional[str] = None
        saw_for = False
        for pair in _split_outside_quotes(element, ";"):
            name, eq, value = pair.partition("=")
            if not eq or name.strip().lower() != "for":
                continue
            saw_for = True
            for_node = node_address(_unquote(value.strip()))
        if saw_for:
            hops.append(for_node)
    return hops


def parse_x_forwarded_for(header: str) -> List[Optional[str]]:
    """Addresses of ``X-Forwarded-For``, client first; ports (some load balancers add them) removed."""
    return [node_address(part.strip()) for part in header.split(",") if part.strip()]


def _unquote(value: str) -> str:
    if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def _split_outside_quotes(text: str, separator: str) -> List[str]:
    parts: List[str] = []
    current: List[str] = []
    quoted = False
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and quoted and i + 1 < len(text):
            current.append(ch + text[i + 1])
            i += 2
            continue
        if ch == '"':
            quoted = not quoted
        if ch == separator and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
        i += 1
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def client_ip(
    peer: Optional[str],
    cf_connecting_ip: Optional[str],
    forwarded: Optional[str],
    x_forwarded_for: Optional[str],
    trusted: TrustedProxies,
) -> Optional[str]:
    """
    The client's address. Forwarding headers are anyone's to forge, so they are read only when the peer
    that sent them is a trusted proxy, and then only as far back as the chain stays trusted: walking from
    the nearest hop outwards, the first address that is not a trusted proxy is the client. With no
    trusted peer, the socket's address is the answer.

    Header preference when the peer is trusted: CF-Connecting-IP (Cloudflare sets exactly one value),
    then Forwarded (RFC 7239), then X-Forwarded-For.
    """
    socket_address = None if peer is None else valid_ip(peer)
    if socket_address is None or not trusted.trusts(socket_address):
        return socket_address
    if cf_connecting_ip is not None:
        address = node_address(cf_connecting_ip.strip())
        if address is not None:
            return address
    if forwarded is not None:
        chain = parse_forwarded(forwarded)
    elif x_forwarded_for is not None:
        chain = parse_x_forwarded_for(x_forwarded_for)
    else:
        chain = []
    client = socket_address
    for hop in reversed(chain):
        # An unparseable or hidden hop cannot be vouched for: stop at the last address we trust.
        if hop is None:
            return client
        client = hop
        if not trusted.trusts(hop):
            return hop
    return client
