from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Literal, Mapping, Optional, Union

import httpx

from .backoff import parse_retry_after_ms
from .errors import VigilError
from .policy import RETRY, RetryPolicy, classify_status


@dataclass(frozen=True)
class Success:
    kind: Literal["success"] = "success"


@dataclass(frozen=True)
class Retry:
    """408, 429, 5xx; ``retry_after_ms`` (already capped) when the service said how long."""

    error: VigilError
    retry_after_ms: Optional[int]
    kind: Literal["retry"] = "retry"


@dataclass(frozen=True)
class Shrink:
    """413: the batch is too large and must be split."""

    error: VigilError
    kind: Literal["shrink"] = "shrink"


@dataclass(frozen=True)
class Drop:
    """Any other 4xx (or 1xx/3xx): retrying would get the same answer."""

    error: VigilError
    kind: Literal["drop"] = "drop"


Classification = Union[Success, Retry, Shrink, Drop]


def is_retryable_status(status: int) -> bool:
    return classify_status(status) == "retry"


def classify_response(response: httpx.Response, policy: RetryPolicy = RETRY) -> Classification:
    """What to do with a response (clients/POLICY.md). Expected outcomes are data: the senders switch on ``kind``."""
    status = response.status_code
    verdict = classify_status(status)
    if verdict == "done":
        return Success()
    problem = parse_problem(response.content)
    error = VigilError("http", _describe(status, problem), status=status, problem=problem)
    if verdict == "retry":
        header = response.headers.get("retry-after")
        return Retry(error, parse_retry_after_ms(header, time.time() * 1000, policy.retry_after_cap_ms))
    if verdict == "shrink":
        return Shrink(error)
    return Drop(error)


def parse_json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def parse_problem(body: bytes) -> Optional[Mapping[str, Any]]:
    parsed = parse_json(body)
    return parsed if isinstance(parsed, dict) else None


def _describe(status: int, problem: Optional[Mapping[str, Any]]) -> str:
    detail = (problem or {}).get("detail") or (problem or {}).get("title")
    return f"Vigil answered {status}: {detail}" if detail else f"Vigil answered {status}"
