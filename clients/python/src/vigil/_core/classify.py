from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, Mapping, Optional, Union

import httpx

from .backoff import parse_retry_after
from .errors import VigilError


@dataclass(frozen=True)
class Success:
    kind: Literal["success"] = "success"


@dataclass(frozen=True)
class Retry:
    """408, 429, 5xx (and network failures); ``retry_after`` in seconds when the service said how long."""

    error: VigilError
    retry_after: Optional[float]
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
    return status == 408 or status == 429 or status >= 500


def classify_response(response: httpx.Response) -> Classification:
    """What to do with a response. Expected outcomes are data: the senders switch on ``kind``."""
    status = response.status_code
    if 200 <= status < 300:
        return Success()
    problem = parse_problem(response.content)
    error = VigilError("http", _describe(status, problem), status=status, problem=problem)
    if is_retryable_status(status):
        return Retry(error, parse_retry_after(response.headers.get("retry-after")))
    if status == 413:
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
