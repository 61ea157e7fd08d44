"""
Vigil's GraphQL API as a BI engineer uses it, through a real client library (gql, pinned in pyproject.toml):
the schema loads by standard introspection, matches the checked-in SDL, and events page in received order
without a gap, including an offline event that arrives after its week was read.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Dict, List, Optional

import httpx
from gql import Client, GraphQLRequest
from gql.transport.httpx import HTTPXTransport
from graphql import build_schema, lexicographic_sort_schema, print_schema

from vigil_server import REPO, VigilServer, wait_until

#: Every option of the standard introspection query (graphql-js getIntrospectionQuery with all options on).
FULL_INTROSPECTION = dict(
    descriptions=True,
    specified_by_url=True,
    directive_is_repeatable=True,
    schema_description=True,
    input_value_deprecation=True,
    input_object_one_of=True,
)

PAGE = """query ($after: String, $f: EventFilter) {
  events(order: RECEIVED_ASC, first: 3, after: $after, filter: $f) {
    pageInfo { hasNextPage endCursor }
    nodes { id identity occurredAt receivedAt deviceState { status } scoreBreakdown { tag contribution } }
  } }"""


def client(server: VigilServer) -> Client:
    transport = HTTPXTransport(url=f"{server.url}/graphql", headers={"authorization": f"Bearer {server.token()}"}, timeout=30)
    return Client(transport=transport, fetch_schema_from_transport=True, introspection_args=FULL_INTROSPECTION)


def test_loads_the_schema_by_full_introspection_and_it_matches_the_checked_in_sdl(server: VigilServer) -> None:
    with client(server) as session:
        served = session.client.schema
        assert served is not None
        # gql validates every request against the introspected schema before sending it.
        result = session.execute(GraphQLRequest("{ events(first: 1, order: RECEIVED_ASC) { totalCount } }"))
        assert isinstance(result["events"]["totalCount"], int)
    checked_in = build_schema((REPO / "server" / "schema.graphql").read_text())
    assert print_schema(lexicographic_sort_schema(served)) == print_schema(lexicographic_sort_schema(checked_in))


def _post(server: VigilServer, identity: str, at: dt.datetime) -> None:
    answer = httpx.post(
        f"{server.url}/events",
        json={"event": "bi_week", "identity": identity, "properties": {"timestamp": at.isoformat()}},
        headers={"authorization": f"Bearer {server.write_key}"},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text


def _read_on(session: Any, after: Optional[str]) -> tuple[List[Dict[str, Any]], Optional[str]]:
    """Every event after `after`, page by page; returns them and the cursor to resume from."""
    seen: List[Dict[str, Any]] = []
    while True:
        page = session.execute(GraphQLRequest(PAGE, variable_values={"after": after, "f": {"event": "bi_week"}}))["events"]
        seen.extend(page["nodes"])
        after = page["pageInfo"]["endCursor"] or after
        if not page["pageInfo"]["hasNextPage"]:
            return seen, after


def test_pages_a_week_in_received_order_without_a_gap_even_for_a_late_offline_event(server: VigilServer) -> None:
    now = dt.datetime.now(dt.timezone.utc)
    week = [f"day-{d}" for d in range(7)]
    for d, identity in enumerate(week):
        _post(server, identity, now - dt.timedelta(days=7 - d))
    with client(server) as session:
        read: List[Dict[str, Any]] = []
        after: Optional[str] = None

        def caught_up(expected: List[str]) -> bool:
            nonlocal after
            more, after = _read_on(session, after)
            read.extend(more)
            return [n["identity"] for n in read] == expected

        # Events of the last few seconds are held back until surely stored (VIGIL_REPORTING_SETTLE_MS).
        wait_until(lambda: caught_up(week), timeout=60, message="the week in received order")
        # A phone that was offline syncs an event from before the week began.
        _post(server, "offline", now - dt.timedelta(days=9))
        wait_until(lambda: caught_up(week + ["offline"]), timeout=60, message="the late offline event on the next page")
    assert len({n["id"] for n in read}) == len(read)
    received = [n["receivedAt"] for n in read]
    assert received == sorted(received)
    assert all(n["deviceState"]["status"] == "UNREGISTERED" for n in read)
