"""
Django integration: ``"vigil.django.VigilMiddleware"`` in ``MIDDLEWARE`` and the client in
``settings.VIGIL`` (a ``Vigil``, or the dotted path of one such as ``"myproject.risk.vigil"``).

Every request gets ``request.vigil``, a context built from it; requests matching the client's
``event_paths`` are tracked once the view has answered, with the response's ``status_code``.
Subclass to set ``identify(request)`` / ``properties(request)`` for those events.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping, Optional

from ._core.errors import VigilError
from ._middleware import begin_request
from .client import Vigil


def _import_string(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


class VigilMiddleware:
    """A Django middleware (sync; Django adapts it under ASGI)."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        self.vigil = self.client()

    def client(self) -> Vigil:
        """The Vigil client: ``settings.VIGIL``. Override to build it another way."""
        settings = importlib.import_module("django.conf").settings
        configured = getattr(settings, "VIGIL", None)
        value = _import_string(configured) if isinstance(configured, str) else configured
        if not isinstance(value, Vigil):
            raise VigilError("config", "settings.VIGIL must be a vigil.Vigil or the dotted path of one")
        return value

    def identify(self, request: Any) -> Optional[str]:
        """Identity for auto-tracked events; default: the identity of ``request.vigil``."""
        return None

    def properties(self, request: Any) -> Optional[Mapping[str, Any]]:
        """Extra properties for auto-tracked events."""
        return None

    def __call__(self, request: Any) -> Any:
        context, finish = begin_request(
            self.vigil, request, lambda: getattr(request, "vigil", None), self.identify, self.properties
        )
        request.vigil = context
        if finish is None:
            return self.get_response(request)
        status = 500
        try:
            response = self.get_response(request)
            status = int(getattr(response, "status_code", 200))
            return response
        finally:
            finish(status)
