"""Delivery when the server is down, then up, and when it answers 429 with Retry-After (real rate limiter)."""

from __future__ import annotations

import uuid

from vigil import Vigil


def make(limited_server, errors, **options) -> Vigil:
    return Vigil(limited_server.url, limited_server.write_key, on_error=errors.append, flush_at_exit=False, **options)


def test_events_tracked_while_the_server_is_down_are_stored_once_it_is_up(limited_server, errors) -> None:
    user = f"down-{uuid.uuid4().hex[:8]}"
    # One retryable answer would give an event up; sends that get no answer at all must never count.
    client = make(
        limited_server, errors, min_retry_delay=0.05, max_retry_delay=0.5, max_attempts=1, flush_interval=0
    ).identify(user)
    limited_server.stop()
    try:
        for n in range(5):
            client.track("queued_while_down", {"n": n})
        answer = client.track_sync("login", {"n": 5})
        assert answer.fail_open and answer.error is not None and answer.error.code == "network"
        # The failed track_sync hands its event to the queue: nothing is lost.
        assert client.queued == 6
        assert not client.flush(timeout=0.5)
    finally:
        limited_server.start().wait()
    assert client.flush(timeout=60)
    stored = limited_server.stored_events(identity=user)
    assert sorted(e["properties"]["n"] for e in stored) == list(range(6))
    assert [e for e in errors if e.dropped] == []
    client.close()


def test_429_with_retry_after_pauses_then_delivers_each_event_once(limited_server, errors) -> None:
    user = f"limited-{uuid.uuid4().hex[:8]}"
    client = make(limited_server, errors, timeout=10, flush_interval=0, max_batch_size=1).identify(user)
    # Bursts of two per second: the third request in a row is refused with 429 and Retry-After.
    answers = [client.track_sync("login", {"n": n}) for n in range(3)]
    refused = [a for a in answers if a.fail_open]
    assert refused, "the rate limiter never answered 429"
    assert refused[0].error is not None and refused[0].error.status == 429
    # While paused the client does not call Vigil at all: the next call fails open at once, queued.
    paused = client.track_sync("login", {"n": 3})
    assert paused.fail_open and paused.error is not None and paused.error.code == "rate_limited"
    # The batch path, one event per request, keeps meeting the limiter and waits each time.
    for n in range(4, 8):
        client.track("login", {"n": n})
    assert client.flush(timeout=60)
    stored = limited_server.stored_events(identity=user)
    assert sorted(e["properties"]["n"] for e in stored) == list(range(8))
    assert [e for e in errors if e.dropped] == []
    client.close()


def test_retryable_answers_count_and_give_an_event_up_after_max_attempts(limited_server, errors) -> None:
    user = f"given-up-{uuid.uuid4().hex[:8]}"
    client = make(limited_server, errors, flush_interval=0, max_batch_size=1, max_attempts=1).identify(user)
    # Sent one per request back to back: the limiter (burst 2) answers 429 before long, and with
    # max_attempts=1 that one retryable answer gives its event up.
    for n in range(5):
        client.track("login", {"n": n})
    assert client.flush(timeout=60)
    given_up = [e for e in errors if e.code == "retries_exhausted"]
    assert given_up, "the rate limiter never answered 429"
    assert all(e.status == 429 and len(e.dropped) == 1 for e in given_up)
    dropped = {e.dropped[0]["properties"]["n"] for e in given_up}
    stored = {e["properties"]["n"] for e in limited_server.stored_events(identity=user)}
    assert stored.isdisjoint(dropped) and stored | dropped == set(range(5))
    client.close()
