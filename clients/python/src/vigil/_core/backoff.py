from __future__ import annotations

import re
import time
from email.utils import parsedate_to_datetime
from typing import Callable, Optional


def backoff_delay(min_delay: float, max_delay: float, attempt: int, random: Callable[[], float]) -> float:
    """
    Exponential backoff with "equal jitter": half the delay is fixed, half random. The fixed half keeps
    retries from hammering a struggling service; the random half spreads out the clients that all failed
    at the same moment. ``attempt`` is 1 for the first retry.
    """
    exponential = min_delay * 2.0 ** max(0, attempt - 1)
    capped = min(max_delay, exponential)
    return capped / 2 + (capped / 2) * random()


_SECONDS = re.compile(r"^\d+$")


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait according to a Retry-After header (delay-seconds or HTTP-date, RFC 9110 §10.2.3)."""
    if value is None:
        return None
    text = value.strip()
    if text == "":
        return None
    if _SECONDS.match(text):
        return float(text)
    # Only an HTTP-date names a weekday and a month; anything else (e.g. "-5") is not a valid value.
    if not re.search(r"[a-z]", text, re.IGNORECASE):
        return None
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
