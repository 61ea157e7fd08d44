from __future__ import annotations

from typing import Any, Callable, Mapping, Optional, Tuple, TypeVar

from ._core.errors import VigilError
from .client import RequestScope, Vigil

Req = TypeVar("Req")

#: Identity for events the middleware tracks, read when the response is done (so it can use what your
#: authentication set). Default: the identity of the request's context.
IdentifyHook = Callable[[Req], Optional[str]]
#: Extra properties for events the middleware tracks, read when the response is done.
PropertiesHook = Callable[[Req], Optional[Mapping[str, Any]]]

Finish = Callable[[int], None]


def begin_request(
    root: Vigil,
    request: Req,
    current: Callable[[], Optional[Vigil]],
    identify: Optional[IdentifyHook[Req]] = None,
    properties: Optional[PropertiesHook[Req]] = None,
) -> Tuple[Vigil, Optional[Finish]]:
    """
    Starts tracking one request: gives it its own context and, if its method and path match event_paths,
    returns a function to call with the response status once the response is done. That function sends
    the matched event (with ``status_code``) unless the handler already tracked an event of that name
    through the request's context, so a login view that awaits ``track_async("login")`` to decide is not
    counted twice. Never raises.
    """
    scope = RequestScope()
    context = root.with_request(request)._with_scope(scope)
    info = context.properties
    event = root.event_for(info.get("request_method"), info.get("request_path"))
    if event is None:
        return context, None
    done = False

    def finish(status_code: int) -> None:
        nonlocal done
        if done or event in scope.tracked:
            return
        done = True
        try:
            # The handler may have replaced the request's context (e.g. after identify); use the latest.
            latest = current()
            ctx = latest if isinstance(latest, Vigil) else context
            identity = identify(request) if identify is not None else None
            if identity:
                ctx = ctx.identify(identity)
            extra = properties(request) if properties is not None else None
            ctx.track(event, {**(extra or {}), "status_code": status_code})
        except Exception as cause:  # noqa: BLE001 - the caller's hooks must not break their response
            root._report(VigilError("invalid_event", f'could not track "{event}" after the response', cause=cause))

    return context, finish
