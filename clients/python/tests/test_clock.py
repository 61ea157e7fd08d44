"""A backend whose clock is wrong: every request says when it was sent, and Vigil corrects the timestamps."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta, timezone
from typing import Optional

import pytest

from vigil._core import event as event_module

HOUR = timedelta(hours=1)


def test_a_clock_an_hour_fast_still_has_its_events_stored_at_the_right_time(
    make_client, server, errors, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without sent_at these events would be an hour in the future, which Vigil refuses (more than 5 minutes ahead).
    real = event_module.utc_timestamp

    def fast(now: Optional[datetime] = None) -> str:
        return real((now or datetime.now(timezone.utc)) + HOUR)

    monkeypatch.setattr(event_module, "utc_timestamp", fast)
    user = f"fast-clock-{uuid.uuid4().hex[:8]}"
    client = make_client(flush_interval=0).identify(user)
    answer = client.track_sync("login")
    assert not answer.fail_open, answer.error
    client.track("view")
    assert client.flush(timeout=30)
    assert list(errors) == []

    stored = server.stored_events(identity=user)
    assert sorted(e["name"] for e in stored) == ["login", "view"]
    now = datetime.now(timezone.utc)
    for e in stored:
        # The timestamp the library stamped stays in properties; the event's time is corrected by the hour.
        assert datetime.fromisoformat(e["properties"]["timestamp"].replace("Z", "+00:00")) - now > HOUR - timedelta(minutes=5)
        assert abs(datetime.fromisoformat(e["occurredAt"].replace("Z", "+00:00")) - now) < timedelta(minutes=5)
