"""
Flask integration: ``vigil.flask.init_app(app, client)``.

Every request gets ``flask.g.vigil``, a context built from it; requests matching the client's
``event_paths`` are tracked once the response is done, with its ``status_code``. A view that
identifies the user can store the new context back (``g.vigil = g.vigil.identify(user)``) so the
auto-tracked event carries the identity.
"""

from __future__ import annotations

from typing import Any, Optional

from flask import Flask, Request, Response, g, request

from ._middleware import IdentifyHook, PropertiesHook, begin_request
from .client import Vigil


def init_app(
    app: Flask,
    client: Vigil,
    *,
    identify: Optional[IdentifyHook[Request]] = None,
    properties: Optional[PropertiesHook[Request]] = None,
) -> None:
    """Registers the before/after/teardown hooks that set ``g.vigil`` and auto-track ``event_paths``."""

    @app.before_request
    def _vigil_begin() -> None:
        req: Request = request._get_current_object()
        context, finish = begin_request(client, req, lambda: g.get("vigil"), identify, properties)
        g.vigil = context
        g._vigil_finish = finish

    @app.after_request
    def _vigil_status(response: Response) -> Response:
        g._vigil_status = response.status_code
        return response

    @app.teardown_request
    def _vigil_finish(_error: Optional[BaseException]) -> None:
        finish = g.pop("_vigil_finish", None)
        if finish is not None:
            finish(g.pop("_vigil_status", 500))


def current() -> Vigil:
    """This request's context (``g.vigil``), for code that prefers a function to ``flask.g``."""
    context: Any = g.vigil
    assert isinstance(context, Vigil)
    return context


__all__ = ["init_app", "current"]

