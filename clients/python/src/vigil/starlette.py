"""
Starlette and FastAPI integration: ``app.add_middleware(VigilMiddleware, vigil=client)``.

Every HTTP request gets ``request.state.vigil``, a context built from it; requests matching the
client's ``event_paths`` are tracked once the response has started, with its ``status_code``. A pure
ASGI middleware: it does not buffer responses and keeps contextvars intact.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ._core.errors import VigilError
from ._middleware import IdentifyHook, PropertiesHook, begin_request
from .client import Vigil


class VigilMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        vigil: Vigil,
        identify: Optional[IdentifyHook[Request]] = None,
        properties: Optional[PropertiesHook[Request]] = None,
    ) -> None:
        self.app = app
        self.vigil = vigil
        self.identify = identify
        self.properties = properties

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state: Dict[str, Any] = scope.setdefault("state", {})
        context, finish = begin_request(
            self.vigil, Request(scope), lambda: state.get("vigil"), self.identify, self.properties
        )
        state["vigil"] = context
        if finish is None:
            await self.app(scope, receive, send)
            return
        status = 500

        async def send_with_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_with_status)
        finally:
            finish(status)


def context_of(request: Request) -> Vigil:
    """``request.state.vigil``, typed; for FastAPI: ``risk: Vigil = Depends(context_of)``."""
    context: Any = getattr(request.state, "vigil", None)
    if not isinstance(context, Vigil):
        raise VigilError("config", "vigil.starlette.VigilMiddleware is not installed on this application")
    return context


__all__ = ["VigilMiddleware", "context_of"]

