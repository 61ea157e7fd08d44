"""The shared delivery policy cases (clients/policy-cases.json), played through the Python core's decide()."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any, Dict

import pytest

from vigil._core import policy
from vigil._core.options import Options

CASES_FILE = Path(__file__).resolve().parent.parent.parent / "policy-cases.json"
DATA: Dict[str, Any] = json.loads(CASES_FILE.read_text(encoding="utf-8"))
NOW_MS = datetime.fromisoformat(DATA["now"].replace("Z", "+00:00")).timestamp() * 1000


def as_json(decision: policy.Decision) -> Dict[str, Any]:
    """A decision in the cases' own shape, so a mismatch shows every field at once."""
    if isinstance(decision, policy.RetryIn):
        return {"decision": "retry", "delay_ms": decision.delay_ms, "counts_as_attempt": decision.counts_as_attempt}
    if isinstance(decision, policy.ShrinkTo):
        return {"decision": "shrink", "batch_limit": decision.batch_limit}
    if isinstance(decision, policy.DropBatch):
        return {"decision": "drop", "reason": decision.reason}
    return {"decision": decision.kind}


@pytest.mark.parametrize("case", DATA["cases"], ids=[case["name"] for case in DATA["cases"]])
def test_case(case: Dict[str, Any]) -> None:
    decision = policy.decide(
        case["status"],
        retry_after=case.get("retry_after"),
        now_ms=NOW_MS,
        failure=case.get("failure", 1),
        attempts=case.get("attempts", 1),
        random=case.get("random", 0),
        batch_size=case.get("batch_size", 1),
    )
    assert as_json(decision) == case["expect"]


def test_the_cases_cover_every_decision() -> None:
    # Guards against a truncated or emptied file passing vacuously.
    assert len(DATA["cases"]) >= 33
    assert {case["expect"]["decision"] for case in DATA["cases"]} == {"done", "retry", "give_up", "shrink", "drop"}


def test_constants_equal_the_policy_block() -> None:
    block = DATA["policy"]
    retry = policy.RETRY
    assert {
        "base_delay_ms": retry.base_delay_ms,
        "multiplier": retry.multiplier,
        "max_delay_ms": retry.max_delay_ms,
        "jitter": policy.JITTER,
        "retry_after_cap_ms": retry.retry_after_cap_ms,
        "max_attempts": retry.max_attempts,
    } == block["retry"]
    assert {
        "max_events": policy.EVENTS_BATCH_MAX_EVENTS,
        "max_bytes": policy.EVENTS_BATCH_MAX_BYTES,
    } == block["events_batch"]
    # A server-side library, like Node (clients/POLICY.md).
    assert policy.FLUSH_INTERVAL_MS == block["flush_interval_ms"]["node"]
    assert policy.QUEUE_BOUND == block["queue_bound"]["node"]


def test_client_defaults_are_the_policy() -> None:
    defaults = Options(endpoint="", write_key="", user_agent="")
    assert defaults.retry_policy == policy.RETRY
    assert defaults.max_batch_size == policy.EVENTS_BATCH_MAX_EVENTS
    assert defaults.max_batch_bytes == policy.EVENTS_BATCH_MAX_BYTES
    assert defaults.flush_interval * 1000 == policy.FLUSH_INTERVAL_MS
    assert defaults.max_queue_size == policy.QUEUE_BOUND
