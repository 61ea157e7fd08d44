"""The chained builder against the real server: insights, fire-and-forget, failures as data."""

from __future__ import annotations

import uuid

import pytest

from conftest import TOR_IP
from vigil import Vigil, VigilError


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def test_the_spec_chain_returns_insights(make_client, server, errors) -> None:
    user = unique("alice")
    insights = make_client().set_ip(TOR_IP).identify(user).track_sync("login", {"device_id": unique("dev")})
    assert not insights.fail_open, errors
    assert insights.has_tag("tor") and insights.has_tag("new_device")
    assert insights.risk_score >= 0.8
    assert insights.behavior("logins_1h") is not None and insights.behavior("logins_1h").count == 1
    assert insights.device_age_days == 0
    assert insights.event_id and insights.event_id.startswith("evt_")
    assert insights.to_dict()["current_tags"] == insights.current_tags
    [stored] = server.stored_events(identity=user)
    assert stored["ip"] == TOR_IP and stored["name"] == "login"


async def test_track_async_returns_insights(make_client, errors) -> None:
    insights = await make_client().identify(unique("bob")).track_async("login", {"amount": 12.5})
    assert not insights.fail_open, errors
    assert isinstance(insights.risk_score, float) and insights.handprint_id


def test_builders_are_immutable(make_client) -> None:
    root = make_client()
    a = root.identify("a").set_ip("203.0.113.1")
    b = root.identify("b")
    assert (root.identity, a.identity, b.identity) == (None, "a", "b")
    assert root.properties == {} and b.properties == {} and a.properties == {"ip_address": "203.0.113.1"}
    assert a.set_ip("::ffff:198.51.100.4").properties == {"ip_address": "198.51.100.4"}
    assert a.properties == {"ip_address": "203.0.113.1"}


def test_track_is_queued_then_stored_once_with_id_and_time(make_client, server, errors) -> None:
    client = make_client(flush_interval=60)
    user = unique("carol")
    client.identify(user).set_ip("203.0.113.7").track("password_reset", {"n": 1})
    assert client.queued == 1
    assert client.flush(timeout=30)
    [stored] = server.stored_events(identity=user)
    assert stored["name"] == "password_reset" and stored["ip"] == "203.0.113.7"
    assert stored["properties"]["event_id"] and stored["properties"]["timestamp"].endswith("Z")
    assert errors == []


def test_a_repeated_event_id_is_stored_once(make_client, server) -> None:
    user, event_id = unique("dave"), str(uuid.uuid4())
    client = make_client().identify(user)
    first = client.track_sync("login", {"event_id": event_id})
    client.track("login", {"event_id": event_id})
    client.flush(timeout=30)
    again = client.track_sync("login", {"event_id": event_id})
    assert first.event_id == again.event_id
    assert len(server.stored_events(identity=user)) == 1


def test_413_halves_the_batch_and_every_event_is_stored(make_client, server, errors) -> None:
    # 30 events of ~60 KB exceed the server's 1 MiB batch limit when the client is told it may send 5 MB.
    user = unique("big")
    client = make_client(max_batch_bytes=5_000_000, flush_interval=60).identify(user)
    for n in range(30):
        client.track("upload", {"n": n, "blob": "x" * 60_000})
    assert client.flush(timeout=60)
    stored = server.stored_events(identity=user)
    assert sorted(e["properties"]["n"] for e in stored) == list(range(30))
    assert errors == []


def test_refused_events_are_dropped_and_reported_never_raised(make_client, server, errors) -> None:
    client = make_client(write_key="vigil_wk_not_a_real_key")
    client.track("login")
    assert client.flush(timeout=30)
    assert errors[-1].code == "http" and errors[-1].status == 401 and len(errors[-1].dropped) == 1
    insights = client.track_sync("login")
    assert insights.fail_open and insights.error is not None and insights.error.status == 401
    assert insights.warnings == ["vigil_unavailable"] and insights.risk_score == 0


def test_invalid_input_is_reported_not_raised(make_client, errors) -> None:
    client = make_client()
    assert client.set_ip("not-an-ip").properties == {}
    assert client.identify("").identity is None
    client.track("")
    client.track("x", {"when": object()})
    result = client.track_sync("x" * 201)
    assert result.fail_open and result.error is not None and result.error.code == "invalid_event"
    assert errors.codes() == ["invalid_event"] * 5
    assert client.queued == 0


def test_fail_open_is_configurable(make_client, errors) -> None:
    client = make_client(
        url="http://127.0.0.1:9",  # nothing listens on the discard port
        fail_open=lambda error, event: {"risk_score": 1.0} if event["event"] == "transfer" else {},
        max_attempts=1,
    )
    transfer = client.set_ip("203.0.113.8").track_sync("transfer", {"device_id": "d1"})
    assert transfer.fail_open and transfer.risk_score == 1.0 and transfer.device_id == "d1"
    assert transfer.error is not None and transfer.error.code == "network"
    assert client.track_sync("login").risk_score == 0


def test_close_flushes_and_later_events_are_reported(make_client, server, errors) -> None:
    client = make_client(flush_interval=60)
    user = unique("erin")
    client.identify(user).track("logout")
    result = client.close(timeout=30)
    assert result.flushed and result.dropped == 0
    assert len(server.stored_events(identity=user)) == 1
    client.track("late")
    assert errors.codes() == ["closed"] and errors.dropped() == 1
    assert client.close() is result


def test_configuration_errors_raise_at_startup(server) -> None:
    with pytest.raises(VigilError) as missing:
        Vigil(server.url, "", flush_at_exit=False)
    assert missing.value.code == "config"
    for bad in (lambda: Vigil("ftp://x", "k"), lambda: Vigil(server.url, "k", trusted_proxies=["nope"])):
        with pytest.raises(VigilError):
            bad()
    client = Vigil(server.url, "k", flush_at_exit=False)
    with pytest.raises(VigilError):
        client.event_paths(fetch={"x": "/x"})
    with pytest.raises(VigilError):
        client.event_paths(post={"x": "no-slash"})


def test_event_paths_patterns(make_client) -> None:
    paths = make_client().event_paths(
        post={"login": "/login", "transfer": ["/accounts/*/transfer", "/v2/:id/transfer"]}, all={"any": "/files/**"}
    )
    assert paths.event_for("POST", "/login/?next=/") == "login"
    assert paths.event_for("post", "/accounts/42/transfer") == "transfer"
    assert paths.event_for("POST", "/v2/7/transfer") == "transfer"
    assert paths.event_for("GET", "/login") is None
    assert paths.event_for("DELETE", "/files/a/b/c") == "any"
    assert paths.event_for("POST", "/accounts/transfer") is None


def test_events_still_queued_at_interpreter_exit_are_sent(server) -> None:
    import subprocess
    import sys

    user = unique("atexit")
    script = (
        "from vigil import Vigil\n"
        f"Vigil({server.url!r}, {server.write_key!r}, flush_interval=60).identify({user!r}).track('bye')\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert [e["name"] for e in server.stored_events(identity=user)] == ["bye"]
