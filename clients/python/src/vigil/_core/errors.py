from __future__ import annotations

from typing import Any, Literal, Mapping, Optional, Sequence

ErrorCode = Literal[
    # No response: connection refused, reset, DNS failure.
    "network",
    # No response within the configured timeout.
    "timeout",
    # The service answered with a status that is not a success (see `status` and `problem`).
    "http",
    # The service asked us to wait (429 / Retry-After) and the call was not sent.
    "rate_limited",
    # A batch item was refused by the service (see `status` and `problem`).
    "rejected",
    # The service answered 2xx with a body that is not the documented shape.
    "invalid_response",
    # The event itself is unusable (bad name, not serialisable) and was never sent.
    "invalid_event",
    # The in-memory queue is full; the event was dropped.
    "queue_full",
    # The event got `max_attempts` retryable answers (408, 429, 5xx) and was given up.
    "retries_exhausted",
    # The client was closed (or its close timeout ran out) before the event could be sent.
    "closed",
    # Invalid options; the only error that is raised, and only at construction.
    "config",
]

EventBody = Mapping[str, Any]
Problem = Mapping[str, Any]


class VigilError(Exception):
    """
    Why a failure happened. Expected outcomes (insights, fail-open results) are data; these are the
    failures, reported through the ``on_error`` hook and never raised into the host application
    (except ``config``, raised by the constructor and ``event_paths`` at startup).
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        status: Optional[int] = None,
        problem: Optional[Problem] = None,
        dropped: Sequence[EventBody] = (),
        cause: Optional[BaseException] = None,
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.status = status
        self.problem = problem
        #: Events permanently lost because of this failure (empty when they will still be retried).
        self.dropped: Sequence[EventBody] = tuple(dropped)
        self.__cause__ = cause

    def with_dropped(self, dropped: Sequence[EventBody]) -> VigilError:
        """A copy recording which events were lost, so one failure can be reported for a whole batch."""
        return VigilError(
            self.code, self.message, status=self.status, problem=self.problem, dropped=dropped, cause=self.__cause__
        )

    def __repr__(self) -> str:
        return f"VigilError({self.code!r}, {self.message!r})"


def describe_cause(cause: BaseException) -> str:
    text = str(cause)
    return f"{type(cause).__name__}: {text}" if text else type(cause).__name__
