"""
The client delivery policy (clients/POLICY.md): every default of retry, backoff and batching in one place.
clients/policy-cases.json repeats these numbers in its ``policy`` block, and tests/test_policy_cases.py fails
when they drift from it, as the TypeScript and Kotlin libraries' tests do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional, Union

from .backoff import backoff_delay_ms, parse_retry_after_ms, retry_delay_ms


@dataclass(frozen=True)
class RetryPolicy:
    #: Step of the first retry, before jitter.
    base_delay_ms: int = 1_000
    #: Each consecutive failure multiplies the step by this.
    multiplier: int = 2
    #: Largest step: a client that failed for long is back within a minute of recovery.
    max_delay_ms: int = 60_000
    #: Longest Retry-After honoured; a longer one (a misconfigured proxy) is cut to this.
    retry_after_cap_ms: int = 300_000
    #: Retryable answers (408, 429, 5xx) an event may get before it is given up. Failures without an answer
    #: (offline, DNS, timeouts) never count: they say nothing about the event; the queue bound protects memory.
    max_attempts: int = 20


RETRY = RetryPolicy()
#: Half the step is fixed, half random (see backoff.backoff_delay_ms).
JITTER = "equal"

#: Batches for POST /events/batch: the server's own limits (100 events, 1 MiB), with room for the envelope.
EVENTS_BATCH_MAX_EVENTS = 100
EVENTS_BATCH_MAX_BYTES = 1_000_000

#: Server-side libraries (Node, Python): a non-full batch waits a second for company, keeping requests few.
FLUSH_INTERVAL_MS = 1_000
#: Events held in memory; beyond it new events are refused and reported.
QUEUE_BOUND = 10_000

StatusClass = Literal["done", "retry", "shrink", "drop"]


def classify_status(status: Optional[int]) -> StatusClass:
    """What an answer means; ``None`` is no answer at all (network failure, timeout)."""
    if status is None or status == 408 or status == 429 or status >= 500:
        return "retry"
    if 200 <= status < 300:
        return "done"
    if status == 413:
        return "shrink"
    # Any other 4xx, and 1xx/3xx reaching the client: the server would answer the same again.
    return "drop"


def shrink_batch(size: int) -> Optional[int]:
    """The batch limit after a 413 (half, rounding down), or None when a single event is too large."""
    return size // 2 if size > 1 else None


@dataclass(frozen=True)
class Done:
    kind: Literal["done"] = "done"


@dataclass(frozen=True)
class RetryIn:
    delay_ms: int
    counts_as_attempt: bool
    kind: Literal["retry"] = "retry"


@dataclass(frozen=True)
class GiveUp:
    kind: Literal["give_up"] = "give_up"


@dataclass(frozen=True)
class ShrinkTo:
    batch_limit: int
    kind: Literal["shrink"] = "shrink"


@dataclass(frozen=True)
class DropBatch:
    reason: Literal["refused", "too_large"]
    kind: Literal["drop"] = "drop"


Decision = Union[Done, RetryIn, GiveUp, ShrinkTo, DropBatch]


def decide(
    status: Optional[int],
    *,
    retry_after: Optional[str] = None,
    now_ms: float,
    failure: int = 1,
    attempts: int = 1,
    random: float = 0.0,
    batch_size: int = 1,
    policy: RetryPolicy = RETRY,
) -> Decision:
    """
    The whole policy for one answer, as data. ``failure`` is this failure's number in a row (drives the
    backoff); ``attempts`` the retryable answers the event has had, this one included (drives giving up);
    ``random`` the jitter draw in [0, 1). The senders use the functions it is made of.
    """
    verdict = classify_status(status)
    if verdict == "done":
        return Done()
    if verdict == "drop":
        return DropBatch("refused")
    if verdict == "shrink":
        limit = shrink_batch(batch_size)
        return DropBatch("too_large") if limit is None else ShrinkTo(limit)
    if status is None:
        return RetryIn(backoff_delay_ms(failure, random, policy), counts_as_attempt=False)
    if attempts >= policy.max_attempts:
        return GiveUp()
    waited = parse_retry_after_ms(retry_after, now_ms, policy.retry_after_cap_ms)
    return RetryIn(retry_delay_ms(failure, random, waited, policy), counts_as_attempt=True)
