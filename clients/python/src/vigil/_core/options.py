from __future__ import annotations

import logging
import math
import random as _random
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Union

from .errors import VigilError
from .policy import EVENTS_BATCH_MAX_BYTES, EVENTS_BATCH_MAX_EVENTS, FLUSH_INTERVAL_MS, QUEUE_BOUND, RETRY, RetryPolicy

logger = logging.getLogger("vigil")

#: What ``track_async``/``track_sync`` return when the service cannot answer: fields merged over the
#: default fail-open insights, or a function of the error and the attempted event giving them.
FailOpen = Union[Mapping[str, Any], Callable[[VigilError, Mapping[str, Any]], Mapping[str, Any]]]

#: The service's own limit on events per batch.
SERVICE_MAX_BATCH = EVENTS_BATCH_MAX_EVENTS


@dataclass(frozen=True)
class Options:
    """Resolved options (see the README for each default, clients/POLICY.md for why). Durations are in seconds."""

    endpoint: str
    write_key: str
    user_agent: str
    timeout: float = 2.0
    fail_open: Optional[FailOpen] = None
    on_error: Optional[Callable[[VigilError], None]] = None
    max_batch_size: int = SERVICE_MAX_BATCH
    max_batch_bytes: int = EVENTS_BATCH_MAX_BYTES
    flush_interval: float = FLUSH_INTERVAL_MS / 1000
    max_queue_size: int = QUEUE_BOUND
    max_attempts: int = RETRY.max_attempts
    #: The backoff's first step (the first wait is half to all of it).
    min_retry_delay: float = RETRY.base_delay_ms / 1000
    max_retry_delay: float = RETRY.max_delay_ms / 1000
    max_retry_after: float = RETRY.retry_after_cap_ms / 1000
    request_timeout: float = 10.0
    close_timeout: float = 10.0
    random: Callable[[], float] = _random.random
    new_id: Callable[[], str] = lambda: str(uuid.uuid4())

    @property
    def retry_policy(self) -> RetryPolicy:
        """The delivery policy with this client's retry options in place of the defaults."""
        return RetryPolicy(
            base_delay_ms=round(self.min_retry_delay * 1000),
            multiplier=RETRY.multiplier,
            max_delay_ms=round(self.max_retry_delay * 1000),
            retry_after_cap_ms=round(self.max_retry_after * 1000),
            max_attempts=self.max_attempts,
        )


def positive(value: Optional[float], fallback: float) -> float:
    return value if _finite(value) and value is not None and value > 0 else fallback


def non_negative(value: Optional[float], fallback: float) -> float:
    return value if _finite(value) and value is not None and value >= 0 else fallback


def _finite(value: Optional[float]) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def default_on_error(error: VigilError) -> None:
    lost = f" ({len(error.dropped)} event(s) dropped)" if error.dropped else ""
    logger.warning("[vigil] %s: %s%s", error.code, error.message, lost)


def report(options: Options, error: VigilError) -> None:
    """Hands a failure to on_error; a failing hook must never reach the host application."""
    hook = options.on_error or default_on_error
    try:
        hook(error)
    except Exception:  # noqa: BLE001 - the hook is the caller's code; we only log its failure
        logger.exception("[vigil] on_error raised")
