from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List

import pytest

from vigil import Vigil, VigilError
from vigil_server import TOR_LIST, VigilServer

#: The address the sample Tor exit list (server/test-fixtures/intel) lists.
TOR_IP = "192.0.2.10"


@pytest.fixture(scope="session")
def servers() -> Iterator[Dict[str, VigilServer]]:
    config = Path(tempfile.mkdtemp(prefix="vigil-py-config-")) / "vigil.json"
    config.write_text(
        json.dumps(
            {
                "intel": {"tor_exit_list": str(TOR_LIST)},
                "behaviors": [
                    {"name": "logins_1h", "group_by": "identity", "operation": "count",
                     "window_duration_seconds": 3600, "filters": ["login"]},
                ],
            }
        )
    )
    started = {
        "main": VigilServer("main", {"VIGIL_CONFIG": str(config)}),
        # One request per second, bursts of two: the 429 + Retry-After and server down/up cases.
        "limited": VigilServer("limited", {"VIGIL_RATE_LIMIT_RPS": "1", "VIGIL_RATE_LIMIT_BURST": "2"}),
    }
    try:
        # Each starts when a test first needs it: two embedded databases starting at once on a busy
        # two-core machine take longer than one after the other.
        yield started
    finally:
        for server in started.values():
            server.destroy()


@pytest.fixture(scope="session")
def server(servers: Dict[str, VigilServer]) -> VigilServer:
    return servers["main"].ensure_started()


@pytest.fixture(scope="session")
def limited_server(servers: Dict[str, VigilServer]) -> VigilServer:
    return servers["limited"].ensure_started()


class Errors(List[VigilError]):
    def codes(self) -> List[str]:
        return [e.code for e in self]

    def dropped(self) -> int:
        return sum(len(e.dropped) for e in self)


@pytest.fixture
def errors() -> Errors:
    return Errors()


@pytest.fixture
def make_client(server: VigilServer, errors: Errors) -> Iterator[Callable[..., Vigil]]:
    """Clients on the main server reporting into `errors`, closed after the test."""
    made: List[Vigil] = []

    def make(url: str = "", write_key: str = "", **options: Any) -> Vigil:
        options.setdefault("on_error", errors.append)
        options.setdefault("flush_at_exit", False)
        client = Vigil(url or server.url, write_key or server.write_key, **options)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close(timeout=5)
