from __future__ import annotations

import asyncio
import atexit
import os
import platform
import weakref
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Set, Union
from urllib.parse import urlsplit

from ._core.batch_sender import BatchSender, CloseResult
from ._core.errors import VigilError
from ._core.event import PreparedEvent, prepare_event
from ._core.event_paths import EventPaths, PathMap
from ._core.insights import Insights, fail_open_insights
from ._core.options import SERVICE_MAX_BATCH, FailOpen, Options, non_negative, positive, report
from ._core.single_sender import SingleSender
from ._request.addresses import TrustedProxies, valid_ip
from ._request.request_info import request_info
from ._version import __version__

#: Every default in one place (the delivery policy's numbers come from _core/policy.py).
_DEFAULTS = Options(endpoint="", write_key="", user_agent="")

Properties = Mapping[str, Any]


class RequestScope:
    """Per-request bookkeeping shared by the contexts derived from one middleware-handled request."""

    __slots__ = ("tracked",)

    def __init__(self) -> None:
        #: Event names tracked by the handler, so the middleware does not send the same event again.
        self.tracked: Set[str] = set()


@dataclass(frozen=True)
class _State:
    identity: Optional[str] = None
    ip: Optional[str] = None
    request: Mapping[str, str] = field(default_factory=dict)
    paths: EventPaths = field(default_factory=EventPaths)
    scope: Optional[RequestScope] = None


class _Runtime:
    """What every context derived from one client shares: options, trusted proxies, queue and senders."""

    def __init__(self, options: Options, trusted: TrustedProxies) -> None:
        self.options = options
        self.trusted = trusted
        self.batches = BatchSender(options)
        self.single = SingleSender(options, self.batches)

    def prepare(self, name: Any, identity: Optional[str], properties: Properties) -> Union[PreparedEvent, VigilError]:
        return prepare_event(name, identity, properties, self.options.new_id)

    def close(self, timeout: Optional[float]) -> CloseResult:
        result = self.batches.close(self.options.close_timeout if timeout is None else timeout)
        self.single.close()
        return result


def _close_at_exit(ref: "weakref.ref[BatchSender]", timeout: float) -> None:
    # The queue, not the client: a client dropped by the application while events wait is gone, but its
    # queue lives on in its sending thread and must still be flushed.
    batches = ref()
    if batches is not None:
        batches.close(timeout)


class Vigil:
    """
    A Vigil client and, at the same time, an immutable tracking context (the chained builder the README documents).
    Every chain call (``set_ip``, ``identify``, ``event_paths``, ``with_request``) returns a **new**
    context and leaves the one it was called on untouched, so a context built for one request can never
    leak its identity or IP into another, however threads and tasks interleave. All contexts derived
    from one client share its queue, so ``flush`` and ``close`` can be called on any of them.

    ``Vigil(url, write_key)`` raises ``VigilError("config")`` for a missing write key, a URL that is
    not http(s) or an invalid trusted proxy; these are the only raises, and they happen at startup.
    """

    __slots__ = ("_runtime", "_state")

    def __init__(
        self,
        url: str,
        write_key: Optional[str] = None,
        *,
        trusted_proxies: Sequence[str] = (),
        timeout: float = 2.0,
        fail_open: Optional[FailOpen] = None,
        on_error: Optional[Callable[[VigilError], None]] = None,
        max_batch_size: int = SERVICE_MAX_BATCH,
        max_batch_bytes: int = _DEFAULTS.max_batch_bytes,
        flush_interval: float = _DEFAULTS.flush_interval,
        max_queue_size: int = _DEFAULTS.max_queue_size,
        max_attempts: int = _DEFAULTS.max_attempts,
        min_retry_delay: float = _DEFAULTS.min_retry_delay,
        max_retry_delay: float = _DEFAULTS.max_retry_delay,
        max_retry_after: float = _DEFAULTS.max_retry_after,
        request_timeout: float = 10.0,
        close_timeout: float = 10.0,
        flush_at_exit: bool = True,
        random: Optional[Callable[[], float]] = None,
        new_id: Optional[Callable[[], str]] = None,
    ) -> None:
        key = write_key if write_key is not None else os.environ.get("VIGIL_WRITE_KEY")
        if key is None or key.strip() == "":
            raise VigilError("config", "Vigil write key missing: pass write_key or set VIGIL_WRITE_KEY")
        parts = urlsplit(url) if isinstance(url, str) else None
        if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
            raise VigilError("config", f"Vigil url must be an http or https URL, got {url!r}")
        defaults = _DEFAULTS
        options = Options(
            # A path prefix (a Vigil behind /risk on a shared host) is kept; query and fragment are not.
            endpoint=f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/"),
            write_key=key.strip(),
            user_agent=f"vigil-python/{__version__} python/{platform.python_version()}",
            timeout=positive(timeout, defaults.timeout),
            fail_open=fail_open,
            on_error=on_error,
            max_batch_size=min(SERVICE_MAX_BATCH, int(positive(max_batch_size, SERVICE_MAX_BATCH))),
            max_batch_bytes=int(positive(max_batch_bytes, defaults.max_batch_bytes)),
            flush_interval=non_negative(flush_interval, defaults.flush_interval),
            max_queue_size=int(positive(max_queue_size, defaults.max_queue_size)),
            max_attempts=int(positive(max_attempts, defaults.max_attempts)),
            min_retry_delay=non_negative(min_retry_delay, defaults.min_retry_delay),
            max_retry_delay=non_negative(max_retry_delay, defaults.max_retry_delay),
            max_retry_after=non_negative(max_retry_after, defaults.max_retry_after),
            request_timeout=positive(request_timeout, defaults.request_timeout),
            close_timeout=non_negative(close_timeout, defaults.close_timeout),
            random=random or defaults.random,
            new_id=new_id or defaults.new_id,
        )
        self._runtime = _Runtime(options, TrustedProxies(trusted_proxies))
        self._state = _State()
        if flush_at_exit:
            atexit.register(_close_at_exit, weakref.ref(self._runtime.batches), options.close_timeout)

    @classmethod
    def _derived(cls, runtime: _Runtime, state: _State) -> Vigil:
        context = cls.__new__(cls)
        context._runtime = runtime
        context._state = state
        return context

    def _derive(self, **change: Any) -> Vigil:
        return Vigil._derived(self._runtime, replace(self._state, **change))

    # -- the chained builder ------------------------------------------------------------------------

    def set_ip(self, ip: str) -> Vigil:
        """spec: set_ip(ip). The client IP for events from this context; wins over the request's."""
        address = valid_ip(ip) if isinstance(ip, str) else None
        if address is None:
            self._report(VigilError("invalid_event", f"set_ip: {ip!r} is not an IP address; ignored"))
            return self._derive()
        return self._derive(ip=address)

    def identify(self, identity: str) -> Vigil:
        """spec: identify(identity). The user the events are about (e-mail, user id, …)."""
        if not isinstance(identity, str) or identity == "":
            self._report(VigilError("invalid_event", "identify: identity must be a non-empty string; ignored"))
            return self._derive()
        return self._derive(identity=identity)

    def event_paths(self, **methods: PathMap) -> Vigil:
        """
        spec: event_paths(post=…). Which requests the middleware tracks by itself, e.g.
        ``event_paths(post={"login": "/login", "transfer": "/accounts/*/transfer"})``. Methods: get, post,
        put, patch, delete, head, options, all. Replaces any previous map. Raises VigilError("config")
        for an unknown method or a pattern not starting with "/".
        """
        return self._derive(paths=EventPaths.compile(methods))

    def with_request(self, request: Any, *, remote_address: Optional[str] = None) -> Vigil:
        """
        spec: with_request(request). Takes the client IP (through the trusted proxies), user agent,
        Accept-Language, X-Vigil-Browser-Token, X-Vigil-Device-Id, method and path from a Django, Flask
        or Starlette/FastAPI request, a WSGI environ or an ASGI scope.
        """
        try:
            info = request_info(request, self._runtime.trusted, remote_address)
        except Exception as cause:  # noqa: BLE001 - a request we cannot read must not break the caller
            self._report(VigilError("invalid_event", "with_request: could not read the request; ignored", cause=cause))
            return self._derive()
        return self._derive(request=info)

    def track(self, event: str, properties: Optional[Properties] = None) -> None:
        """spec: track(event). Fire and forget: queued, sent in batches by a background thread, retried."""
        prepared = self._prepare(event, properties)
        if isinstance(prepared, PreparedEvent):
            self._runtime.batches.enqueue(prepared.event, prepared.json)

    async def track_async(
        self, event: str, properties: Optional[Properties] = None, *, timeout: Optional[float] = None
    ) -> Insights:
        """
        spec: track_async(event). Sends now on the running asyncio loop and returns the insights; never
        raises. When the service is down, slower than ``timeout`` seconds, rate limiting or refusing the
        event, returns the fail-open result (``insights.fail_open``) and reports the failure to on_error.
        """
        prepared = self._prepare(event, properties)
        if isinstance(prepared, VigilError):
            return self._invalid(event, properties, prepared)
        return await self._runtime.single.send_async(prepared, self._timeout(timeout))

    def track_sync(self, event: str, properties: Optional[Properties] = None, *, timeout: Optional[float] = None) -> Insights:
        """The blocking twin of track_async, for WSGI views and scripts; same results, never raises."""
        prepared = self._prepare(event, properties)
        if isinstance(prepared, VigilError):
            return self._invalid(event, properties, prepared)
        return self._runtime.single.send_sync(prepared, self._timeout(timeout))

    # -- queue control -----------------------------------------------------------------------------

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Sends everything queued so far and waits until delivered or given up (True), or ``timeout`` passed."""
        return self._runtime.batches.flush(timeout)

    def close(self, timeout: Optional[float] = None) -> CloseResult:
        """
        Graceful shutdown: stops accepting events, flushes, and returns within ``timeout`` seconds
        (default: close_timeout). Never raises. Also run at interpreter exit unless flush_at_exit=False.
        """
        return self._runtime.close(timeout)

    async def aflush(self, timeout: Optional[float] = None) -> bool:
        """``flush`` without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, self.flush, timeout)

    async def aclose(self, timeout: Optional[float] = None) -> CloseResult:
        """``close`` without blocking the event loop (e.g. in a FastAPI lifespan)."""
        return await asyncio.get_running_loop().run_in_executor(None, self.close, timeout)

    # -- reading the context -----------------------------------------------------------------------

    def event_for(self, method: Optional[str], path: Optional[str]) -> Optional[str]:
        """The event the configured event_paths map gives this method and path, if any."""
        return self._state.paths.match(method, path)

    @property
    def properties(self) -> Dict[str, Any]:
        """The properties this context adds to every event (for logging and tests)."""
        own: Dict[str, Any] = dict(self._state.request)
        if self._state.ip is not None:
            own["ip_address"] = self._state.ip
        return own

    @property
    def identity(self) -> Optional[str]:
        return self._state.identity

    @property
    def queued(self) -> int:
        """Events queued or in flight (shared by all contexts of one client)."""
        return self._runtime.batches.size

    @property
    def options(self) -> Options:
        return self._runtime.options

    def _with_scope(self, scope: RequestScope) -> Vigil:
        return self._derive(scope=scope)

    @property
    def _scope(self) -> Optional[RequestScope]:
        return self._state.scope

    # -- internals ---------------------------------------------------------------------------------

    def _prepare(self, event: Any, properties: Optional[Properties]) -> Union[PreparedEvent, VigilError]:
        if properties is not None and not isinstance(properties, Mapping):
            error = VigilError("invalid_event", f"properties of {event!r} must be a mapping; event dropped")
            self._report(error)
            return error
        if self._state.scope is not None and isinstance(event, str):
            self._state.scope.tracked.add(event)
        prepared = self._runtime.prepare(event, self._state.identity, {**self.properties, **(properties or {})})
        if isinstance(prepared, VigilError):
            self._report(prepared)
        return prepared

    def _invalid(self, event: Any, properties: Optional[Properties], error: VigilError) -> Insights:
        attempted = {"event": str(event), "identity": self._state.identity, "properties": dict(properties or {})}
        return fail_open_insights(self._runtime.options, error, attempted)

    def _timeout(self, timeout: Optional[float]) -> float:
        return positive(timeout, self._runtime.options.timeout)

    def _report(self, error: VigilError) -> None:
        report(self._runtime.options, error)

    def __repr__(self) -> str:
        return f"Vigil({self._runtime.options.endpoint!r}, identity={self._state.identity!r})"
