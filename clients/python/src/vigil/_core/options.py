from __future__ import annotations

import logging
import math
import random as _random
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Union

from .errors import VigilError

logger = logging.getLogger("vigil")

#: What ``track_async``/``track_sync`` return when the service cannot answer: fields merged over the
#: default fail-open insights, or a function of the error and the attempted event giving them.
FailOpen = Union[Mapping[str, Any], Callable[[VigilError, Mapping[str, Any]], Mapping[str, Any]]]

#: The service's own limit on events per batch.
SERVICE_MAX_BATCH = 100


@dataclass(frozen=True)
class Options:
    """Resolved options (see the README for each default). Durations are in seconds."""

    endpoint: str
    write_key: str
    user_agent: str
    timeout: float = 2.0
    fail_open: Optional[FailOpen] = None
    on_error: Optional[Callable[[VigilError], None]] = None
    max_batch_size: int = SERVICE_MAX_BATCH
    max_batch_bytes: int = 1_000_000
    flush_interval: float = 1.0
    max_queue_size: int = 10_000
    max_attempts: int = 10
    min_retry_delay: float = 0.5
    max_retry_delay: float = 30.0
    max_retry_after: float = 300.0
    request_timeout: float = 10.0
    close_timeout: float = 10.0
    random: Callable[[], float] = _random.random
    new_id: Callable[[], str] = lambda: str(uuid.uuid4())


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
