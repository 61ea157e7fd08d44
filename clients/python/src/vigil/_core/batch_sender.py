from __future__ import annotations

import os
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from typing import Any, Deque, Dict, List, Optional, Set, Union

import httpx

from .backoff import retry_delay_ms
from .classify import Drop, Retry, Shrink, Success, classify_response, is_retryable_status, parse_json
from .errors import VigilError, describe_cause
from .event import SENT_AT_BYTES, with_sent_at
from .options import Options, report


@dataclass
class _Pending:
    event: Dict[str, Any]
    body: bytes
    seq: int
    #: When it was tracked (monotonic): a batch is due flush_interval after its oldest event.
    queued_at: float
    #: Retryable answers (408, 429, 5xx) so far; sends without an answer never count (clients/POLICY.md).
    attempts: int = 0


@dataclass(frozen=True)
class CloseResult:
    #: True when everything queued was delivered (or refused by the service) before the timeout.
    flushed: bool
    #: Events still unsent when the timeout ran out; they were reported through on_error.
    dropped: int


# Bytes of `{"events":[` + `]}` and the sent_at; each item adds its own size plus a comma.
_BATCH_OVERHEAD = 13 + SENT_AT_BYTES


def request_headers(options: Options) -> Dict[str, str]:
    return {
        "authorization": f"Bearer {options.write_key}",
        "content-type": "application/json",
        "user-agent": options.user_agent,
    }


class BatchSender:
    """
    The fire-and-forget path: a bounded in-memory queue drained by one background thread, one request
    at a time, to POST /events/batch. One request in flight keeps ordering simple and makes backoff
    global: when the service says "wait", nothing is sent until the wait is over.
    """

    def __init__(self, options: Options) -> None:
        self._options = options
        self._cond = threading.Condition()
        self._queue: Deque[_Pending] = deque()
        self._in_flight: List[_Pending] = []
        self._unsettled: Set[int] = set()
        self._next_seq = 0
        #: No batch is sent before this monotonic time: set by backoff and Retry-After.
        self._paused_until = 0.0
        self._failures = 0
        #: Shrinks after a 413 and grows back after successes.
        self._batch_limit = options.max_batch_size
        self._flushers = 0
        self._closing = False
        self._close_result: Optional[CloseResult] = None
        self._terminated = False
        self._thread: Optional[threading.Thread] = None
        self._pid = os.getpid()
        if hasattr(os, "register_at_fork"):
            # A forked worker (gunicorn --preload, multiprocessing) inherits the queue but not the thread;
            # the parent still sends what it queued, so the child starts empty.
            ref = weakref.ref(self)
            os.register_at_fork(after_in_child=lambda: _reset_after_fork(ref))

    @property
    def size(self) -> int:
        """Events queued or in flight."""
        with self._cond:
            return len(self._queue) + len(self._in_flight)

    @property
    def is_closed(self) -> bool:
        return self._closing

    @property
    def paused_until(self) -> float:
        """Monotonic time before which the service asked not to be called (429 / 5xx backoff)."""
        return self._paused_until

    def pause(self, until: float) -> None:
        """Records a pause learnt elsewhere (a track_async 429) so the batch path respects it too."""
        with self._cond:
            if until > self._paused_until:
                self._paused_until = until

    def enqueue(self, event: Dict[str, Any], body: bytes) -> None:
        with self._cond:
            if self._closing:
                self._report(VigilError("closed", "the Vigil client is closed; event dropped", dropped=[event]))
                return
            if len(self._queue) + len(self._in_flight) >= self._options.max_queue_size:
                message = f"queue is full ({self._options.max_queue_size} events); event dropped"
                self._report(VigilError("queue_full", message, dropped=[event]))
                return
            seq = self._next_seq
            self._next_seq += 1
            self._queue.append(_Pending(event, body, seq, time.monotonic()))
            self._unsettled.add(seq)
            self._ensure_thread()
            if len(self._queue) == 1 or len(self._queue) >= self._batch_limit:
                self._cond.notify_all()

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Sends everything queued now (respecting any pause the service asked for); True once it settled."""
        with self._cond:
            waiting_for = set(self._unsettled)
            if not waiting_for:
                return True
            self._flushers += 1
            self._cond.notify_all()
            try:
                self._cond.wait_for(lambda: self._terminated or waiting_for.isdisjoint(self._unsettled), timeout)
            finally:
                self._flushers -= 1
            return waiting_for.isdisjoint(self._unsettled)

    def close(self, timeout: float) -> CloseResult:
        """
        Stops accepting events, sends what is queued and returns when done or after ``timeout`` seconds;
        what is left then is dropped and reported. Never raises; a second call returns the first result.
        """
        with self._cond:
            if self._close_result is not None:
                return self._close_result
            self._closing = True
            self._cond.notify_all()
        flushed = self.flush(timeout)
        with self._cond:
            if self._close_result is None:
                self._close_result = CloseResult(True, 0) if flushed else CloseResult(False, self._terminate())
            return self._close_result

    # -- the sending thread ------------------------------------------------------------------------

    def _ensure_thread(self) -> None:
        if os.getpid() != self._pid:
            self._after_fork()
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="vigil-batch-sender", daemon=True)
            self._thread.start()

    def _after_fork(self) -> None:
        self._cond = threading.Condition()
        self._queue.clear()
        self._in_flight = []
        self._unsettled.clear()
        self._thread = None
        self._pid = os.getpid()

    def _run(self) -> None:
        with httpx.Client(timeout=self._options.request_timeout) as client:
            while True:
                batch = self._next_batch()
                if batch is None:
                    return
                outcome = self._send(client, batch)
                with self._cond:
                    # After a forced close the batch was already reported as dropped.
                    if self._terminated or self._in_flight is not batch:
                        return
                    self._in_flight = []
                    try:
                        self._handle(batch, outcome)
                    except Exception as cause:  # noqa: BLE001 - a bug here must not wedge the queue
                        message = f"could not handle the batch response: {describe_cause(cause)}"
                        self._drop(batch, VigilError("invalid_response", message, cause=cause))
                    self._cond.notify_all()

    def _next_batch(self) -> Optional[List[_Pending]]:
        with self._cond:
            while True:
                if self._terminated or os.getpid() != self._pid:
                    return None
                if not self._queue:
                    if self._closing:
                        return None
                    self._cond.wait()
                    continue
                now = time.monotonic()
                if now < self._paused_until:
                    self._cond.wait(self._paused_until - now)
                    continue
                urgent = self._flushers > 0 or self._closing or len(self._queue) >= self._batch_limit
                due = self._queue[0].queued_at + self._options.flush_interval
                if urgent or now >= due:
                    batch = self._take_batch()
                    self._in_flight = batch
                    return batch
                self._cond.wait(due - now)

    def _take_batch(self) -> List[_Pending]:
        batch: List[_Pending] = []
        size = _BATCH_OVERHEAD
        while self._queue and len(batch) < self._batch_limit:
            item = self._queue[0]
            if batch and size + len(item.body) + 1 > self._options.max_batch_bytes:
                break
            size += len(item.body) + 1
            batch.append(self._queue.popleft())
        return batch

    def _send(self, client: httpx.Client, batch: List[_Pending]) -> Union[httpx.Response, VigilError]:
        # Stamped at each send, retries included.
        body = with_sent_at(b'{"events":[' + b",".join(p.body for p in batch) + b"]}")
        url = f"{self._options.endpoint}/events/batch"
        try:
            return client.post(url, content=body, headers=request_headers(self._options))
        except httpx.TimeoutException as cause:
            message = f"POST /events/batch timed out after {self._options.request_timeout} s"
            return VigilError("timeout", message, cause=cause)
        except Exception as cause:  # noqa: BLE001 - any transport failure is a network failure
            return VigilError("network", f"POST /events/batch failed: {describe_cause(cause)}", cause=cause)

    # -- outcomes (called with the lock held) --------------------------------------------------------

    def _handle(self, batch: List[_Pending], outcome: Union[httpx.Response, VigilError]) -> None:
        if isinstance(outcome, VigilError):
            self._retry_later(batch, outcome, None, answered=False)
            return
        verdict = classify_response(outcome, self._options.retry_policy)
        if isinstance(verdict, Success):
            self._on_success(batch, outcome)
        elif isinstance(verdict, Retry):
            self._retry_later(batch, verdict.error, verdict.retry_after_ms, answered=True)
        elif isinstance(verdict, Shrink):
            if len(batch) > 1:
                # Too large for the service: resend the same events in smaller batches.
                self._batch_limit = max(1, len(batch) // 2)
                self._queue.extendleft(reversed(batch))
            else:
                self._drop(batch, verdict.error)
        elif isinstance(verdict, Drop):
            self._drop(batch, verdict.error)

    def _on_success(self, batch: List[_Pending], response: httpx.Response) -> None:
        parsed = parse_json(response.content)
        results = parsed.get("results") if isinstance(parsed, dict) else None
        if not isinstance(results, list) or len(results) != len(batch):
            # Safe to resend: every event carries its idempotency key.
            message = "POST /events/batch answered 2xx without a results array matching the batch"
            # It is an answer, so it counts: a server that always answers so must not hold events forever.
            self._retry_later(batch, VigilError("invalid_response", message), None, answered=True)
            return
        self._failures = 0
        self._batch_limit = min(self._options.max_batch_size, self._batch_limit * 2)
        again: List[_Pending] = []
        for item, result in zip(batch, results):
            status = _item_status(result)
            if 200 <= status < 300:
                self._settle(item)
            elif is_retryable_status(status):
                again.append(item)
            else:
                problem = result.get("error") if isinstance(result, dict) else None
                problem = problem if isinstance(problem, dict) else None
                detail = f": {problem['detail']}" if problem and problem.get("detail") else ""
                name = item.event.get("event")
                error = VigilError("rejected", f'event "{name}" refused ({status}){detail}', status=status, problem=problem)
                self._drop([item], error)
        if again:
            error = VigilError("http", f"{len(again)} event(s) of a batch failed temporarily")
            self._retry_later(again, error, None, answered=True)

    def _retry_later(
        self, batch: List[_Pending], error: VigilError, retry_after_ms: Optional[int], *, answered: bool
    ) -> None:
        """
        Puts events back at the front (keeping their order) and pauses; gives up on those out of attempts.
        Only answers count towards giving up: being offline says nothing about the events (clients/POLICY.md).
        """
        policy = self._options.retry_policy
        if answered:
            for item in batch:
                item.attempts += 1
        exhausted = [p for p in batch if p.attempts >= policy.max_attempts]
        again = [p for p in batch if p.attempts < policy.max_attempts]
        if exhausted:
            message = f"gave up after {policy.max_attempts} retryable answers: {error.message}"
            self._drop(
                exhausted,
                VigilError("retries_exhausted", message, status=error.status, problem=error.problem, cause=error),
            )
        self._failures += 1
        delay_ms = retry_delay_ms(self._failures, self._options.random(), retry_after_ms, policy)
        self._paused_until = max(self._paused_until, time.monotonic() + delay_ms / 1000)
        self._queue.extendleft(reversed(again))

    def _terminate(self) -> int:
        self._terminated = True
        left = [*self._in_flight, *self._queue]
        self._in_flight = []
        self._queue.clear()
        if left:
            message = f"close timed out with {len(left)} event(s) not confirmed by the service"
            self._report(VigilError("closed", message, dropped=[p.event for p in left]))
        self._unsettled.clear()
        self._cond.notify_all()
        return len(left)

    def _drop(self, batch: List[_Pending], error: VigilError) -> None:
        self._report(error.with_dropped([p.event for p in batch]))
        for item in batch:
            self._settle(item)

    def _settle(self, item: _Pending) -> None:
        self._unsettled.discard(item.seq)

    def _report(self, error: VigilError) -> None:
        report(self._options, error)


def _reset_after_fork(ref: "weakref.ref[BatchSender]") -> None:
    sender = ref()
    if sender is not None:
        sender._after_fork()


def _item_status(result: Any) -> int:
    # An item without a status but with insights is a success; anything else unknown is resent (safe,
    # thanks to the idempotency key) rather than silently lost.
    if not isinstance(result, dict):
        return 500
    status = result.get("status")
    if isinstance(status, int) and not isinstance(status, bool):
        return status
    return 200 if "insights" in result else 500
