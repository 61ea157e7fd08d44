from __future__ import annotations

import math
import re
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from .policy import RetryPolicy


def backoff_delay_ms(failure: int, random: float, policy: "RetryPolicy") -> int:
    """
    Exponential backoff with "equal jitter": half the step is fixed, half random. The fixed half keeps
    retries from hammering a struggling service; the random half spreads out the clients that all failed
    at the same moment. ``failure`` is 1 for the first failure in a row; ``random`` is in [0, 1).
    """
    growth: int = policy.multiplier ** max(0, failure - 1)
    step = min(policy.max_delay_ms, policy.base_delay_ms * growth)
    r = min(1.0, max(0.0, random))
    # floor, as in clients/POLICY.md, so every language gets the same milliseconds.
    return math.floor(step / 2 + (step / 2) * r)


def retry_delay_ms(failure: int, random: float, retry_after_ms: Optional[int], policy: "RetryPolicy") -> int:
    """
    The wait before the next send: the backoff, but never less than what the service asked for. Retry-After
    as a floor keeps the jitter, so clients all told "5 s" do not return at the same instant.
    """
    return max(retry_after_ms or 0, backoff_delay_ms(failure, random, policy))


_SECONDS = re.compile(r"^\d+$")


def parse_retry_after_ms(value: Optional[str], now_ms: float, cap_ms: int) -> Optional[int]:
    """
    Milliseconds a Retry-After header asks for (delay-seconds or HTTP-date, RFC 9110 §10.2.3), clamped to
    [0, cap_ms]; None when absent or unreadable (negative, fractional, garbage), leaving the wait to the backoff.
    """
    if value is None:
        return None
    text = value.strip()
    if _SECONDS.match(text):
        ms = int(text) * 1000
    # Only an HTTP-date names a weekday and a month; anything else (e.g. "-5" or "2.5") is not a valid value.
    elif re.search(r"[a-z]", text, re.IGNORECASE):
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            return None
        ms = math.floor(when.timestamp() * 1000 - now_ms)
    else:
        return None
    return min(cap_ms, max(0, ms))
