"""The trusted-proxy rules of the Node library, read from WSGI environs and ASGI scopes (no server needed)."""

from __future__ import annotations

from typing import Dict, Optional

import pytest

from vigil import Vigil


@pytest.fixture(scope="module")
def root() -> Vigil:
    return Vigil("http://127.0.0.1:9", "k", trusted_proxies=["loopback", "10.0.0.0/8", "2001:db8::/32"], flush_at_exit=False)


def ip(root: Vigil, peer: str, **headers: str) -> Optional[str]:
    environ: Dict[str, str] = {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "REMOTE_ADDR": peer}
    environ.update({"HTTP_" + name.upper(): value for name, value in headers.items()})
    return root.with_request(environ).properties.get("ip_address")


def test_headers_from_an_untrusted_peer_are_ignored(root) -> None:
    assert ip(root, "198.51.100.1", x_forwarded_for="192.0.2.1") == "198.51.100.1"
    assert ip(root, "198.51.100.1", cf_connecting_ip="192.0.2.1") == "198.51.100.1"


def test_the_chain_is_walked_from_the_nearest_hop_to_the_first_untrusted_one(root) -> None:
    assert ip(root, "127.0.0.1", x_forwarded_for="192.0.2.1, 203.0.113.5, 10.1.2.3") == "203.0.113.5"
    assert ip(root, "::ffff:127.0.0.1", x_forwarded_for="192.0.2.1:4711") == "192.0.2.1"
    assert ip(root, "127.0.0.1", x_forwarded_for="10.0.0.1, 10.0.0.2") == "10.0.0.1"
    assert ip(root, "127.0.0.1", x_forwarded_for="192.0.2.1, garbage") == "127.0.0.1"


def test_forwarded_wins_over_x_forwarded_for_and_cf_connecting_ip_over_both(root) -> None:
    forwarded = 'for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"'
    assert ip(root, "127.0.0.1", forwarded=forwarded, x_forwarded_for="203.0.113.9") == "192.0.2.60"
    assert ip(root, "127.0.0.1", forwarded="for=_hidden, for=10.0.0.9") == "10.0.0.9"
    assert ip(root, "127.0.0.1", cf_connecting_ip="192.0.2.77", forwarded=forwarded) == "192.0.2.77"


def test_asgi_scope_and_request_fields() -> None:
    root = Vigil("http://127.0.0.1:9", "k", trusted_proxies=["loopback"], flush_at_exit=False)
    scope = {
        "type": "http",
        "method": "post",
        "path": "/a/b",
        "client": ("127.0.0.1", 5000),
        "headers": [
            (b"x-forwarded-for", b"192.0.2.8"),
            (b"user-agent", b"UA/1"),
            (b"x-vigil-device-id", b"dev-9"),
            (b"x-vigil-browser-token", b"tok"),
            (b"accept-language", b"fr"),
        ],
    }
    assert root.with_request(scope).properties == {
        "ip_address": "192.0.2.8",
        "user_agent": "UA/1",
        "accept_language": "fr",
        "browser_token": "tok",
        "device_id": "dev-9",
        "request_method": "POST",
        "request_path": "/a/b",
    }
    # set_ip wins over the request; an unreadable request is reported and ignored.
    assert root.with_request(scope).set_ip("203.0.113.1").properties["ip_address"] == "203.0.113.1"
    assert root.with_request(object()).properties == {}
