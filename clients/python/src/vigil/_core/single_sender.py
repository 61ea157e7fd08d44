from __future__ import annotations

import asyncio
import threading
import time
import weakref
from typing import Dict, Optional

import httpx

from .batch_sender import BatchSender, request_headers
from .classify import Drop, Retry, Shrink, Success, classify_response, parse_json
from .errors import VigilError, describe_cause
from .event import PreparedEvent, with_sent_at
from .insights import Insights, fail_open_insights, is_insights_data
from .options import Options, report


class SingleSender:
    """
    The request/response path: POST /events with a deadline, blocking (``send_sync``) or on asyncio
    (``send_async``). It never raises; when the service cannot answer it returns the fail-open result
    and, when the failure was temporary, hands the event to the batch queue so it is still recorded
    (same idempotency key, so never twice).
    """

    def __init__(self, options: Options, batches: BatchSender) -> None:
        self._options = options
        self._batches = batches
        self._lock = threading.Lock()
        self._sync_client: Optional[httpx.Client] = None
        # An AsyncClient belongs to the event loop it was first used on; one per loop.
        self._async_clients: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, httpx.AsyncClient]" = (
            weakref.WeakKeyDictionary()
        )

    def send_sync(self, prepared: PreparedEvent, timeout: float) -> Insights:
        early = self._before_sending(prepared)
        if early is not None:
            return early
        try:
            response = self._client().post(
                self._url(), content=with_sent_at(prepared.json), headers=self._headers(prepared), timeout=timeout
            )
        except httpx.TimeoutException as cause:
            return self._timed_out(prepared, timeout, cause)
        except Exception as cause:  # noqa: BLE001 - any transport failure is a network failure
            return self._network_failure(prepared, cause)
        return self._answer(prepared, response)

    async def send_async(self, prepared: PreparedEvent, timeout: float) -> Insights:
        early = self._before_sending(prepared)
        if early is not None:
            return early
        try:
            client = self._async_client(asyncio.get_running_loop())
            # The deadline is ours, not the transport's phases', so a slow trickle cannot make us late.
            request = client.post(self._url(), content=with_sent_at(prepared.json), headers=self._headers(prepared), timeout=timeout)
            response = await asyncio.wait_for(request, timeout)
        except (asyncio.TimeoutError, httpx.TimeoutException) as cause:
            return self._timed_out(prepared, timeout, cause)
        except Exception as cause:  # noqa: BLE001 - any transport failure is a network failure
            return self._network_failure(prepared, cause)
        return self._answer(prepared, response)

    def close(self) -> None:
        with self._lock:
            if self._sync_client is not None:
                self._sync_client.close()
                self._sync_client = None

    def _before_sending(self, prepared: PreparedEvent) -> Optional[Insights]:
        if self._batches.is_closed:
            return self._fail_open(prepared, VigilError("closed", "the Vigil client is closed"), requeue=False)
        if time.monotonic() < self._batches.paused_until:
            # The service asked us to wait; asking again now would only lengthen the wait.
            message = "Vigil asked to pause sending (Retry-After or backoff); event queued"
            return self._fail_open(prepared, VigilError("rate_limited", message), requeue=True)
        return None

    def _answer(self, prepared: PreparedEvent, response: httpx.Response) -> Insights:
        try:
            return self._on_response(prepared, response)
        except Exception as cause:  # noqa: BLE001 - never raise into the host application
            error = VigilError("invalid_response", describe_cause(cause), cause=cause)
            return self._fail_open(prepared, error, requeue=False)

    def _on_response(self, prepared: PreparedEvent, response: httpx.Response) -> Insights:
        verdict = classify_response(response, self._options.retry_policy)
        if isinstance(verdict, Success):
            body = parse_json(response.content)
            if not is_insights_data(body):
                # The service answered 2xx, so the event is stored; only the answer is unusable.
                error = VigilError("invalid_response", "POST /events answered 2xx without insights")
                return self._fail_open(prepared, error, requeue=False)
            return Insights(body)
        if isinstance(verdict, Retry):
            if verdict.retry_after_ms is not None:
                self._batches.pause(time.monotonic() + verdict.retry_after_ms / 1000)
            return self._fail_open(prepared, verdict.error, requeue=True)
        assert isinstance(verdict, (Shrink, Drop))
        return self._fail_open(prepared, verdict.error.with_dropped([prepared.event]), requeue=False)

    def _timed_out(self, prepared: PreparedEvent, timeout: float, cause: BaseException) -> Insights:
        error = VigilError("timeout", f"POST /events took longer than {timeout} s", cause=cause)
        return self._fail_open(prepared, error, requeue=True)

    def _network_failure(self, prepared: PreparedEvent, cause: BaseException) -> Insights:
        error = VigilError("network", f"POST /events failed: {describe_cause(cause)}", cause=cause)
        return self._fail_open(prepared, error, requeue=True)

    def _fail_open(self, prepared: PreparedEvent, error: VigilError, *, requeue: bool) -> Insights:
        if requeue:
            self._batches.enqueue(prepared.event, prepared.json)
        report(self._options, error)
        return fail_open_insights(self._options, error, prepared.event)

    def _url(self) -> str:
        return f"{self._options.endpoint}/events"

    def _headers(self, prepared: PreparedEvent) -> Dict[str, str]:
        return {**request_headers(self._options), "idempotency-key": str(prepared.event["properties"]["event_id"])}

    def _client(self) -> httpx.Client:
        with self._lock:
            if self._sync_client is None:
                self._sync_client = httpx.Client()
            return self._sync_client

    def _async_client(self, loop: asyncio.AbstractEventLoop) -> httpx.AsyncClient:
        with self._lock:
            client = self._async_clients.get(loop)
            if client is None:
                client = httpx.AsyncClient()
                self._async_clients[loop] = client
            return client
