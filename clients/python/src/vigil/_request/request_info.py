from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional

from .addresses import TrustedProxies, client_ip

#: Header carrying the token produced by Vigil's browser library (becomes properties.browser_token).
BROWSER_TOKEN_HEADER = "x-vigil-browser-token"
#: Header carrying the caller's device id, e.g. from the Android library (becomes properties.device_id).
DEVICE_ID_HEADER = "x-vigil-device-id"


@dataclass(frozen=True)
class RequestView:
    header: Callable[[str], Optional[str]]
    peer: Optional[str]
    method: Optional[str]
    path: Optional[str]


def request_info(request: Any, trusted: TrustedProxies, remote_address: Optional[str] = None) -> Dict[str, str]:
    """
    What a request contributes to an event: the magic properties plus method and path. Read at once, so a
    context keeps a small immutable snapshot rather than a request object the framework reuses.

    Accepts a Django ``HttpRequest``, a Flask/Werkzeug ``Request``, a Starlette/FastAPI ``Request``, a
    WSGI environ or an ASGI HTTP scope. ``remote_address`` overrides the peer address (it is treated like
    one: forwarding headers count only if it is a trusted proxy). Raises TypeError for anything else.
    """
    view = view_of(request)
    ip = client_ip(
        remote_address if remote_address is not None else view.peer,
        view.header("cf-connecting-ip"),
        view.header("forwarded"),
        view.header("x-forwarded-for"),
        trusted,
    )
    candidates = {
        "ip_address": ip,
        "user_agent": view.header("user-agent"),
        "accept_language": view.header("accept-language"),
        "browser_token": view.header(BROWSER_TOKEN_HEADER),
        "device_id": view.header(DEVICE_ID_HEADER),
        "request_method": view.method.upper() if view.method else None,
        "request_path": view.path.split("?", 1)[0] if view.path else None,
    }
    return {key: value for key, value in candidates.items() if value}


def view_of(request: Any) -> RequestView:
    if isinstance(request, Mapping):
        if request.get("type") in ("http", "websocket") and "headers" in request:
            return asgi_view(request)
        if "REQUEST_METHOD" in request:
            return wsgi_view(request, None)
    # Django (WSGIRequest and ASGIRequest both fill META the WSGI way).
    meta = getattr(request, "META", None)
    if isinstance(meta, Mapping):
        return wsgi_view(meta, _str_or_none(getattr(request, "path", None)))
    # Flask / Werkzeug, WebOb, Bottle.
    environ = getattr(request, "environ", None)
    if isinstance(environ, Mapping):
        return wsgi_view(environ, _str_or_none(getattr(request, "path", None)))
    # Starlette / FastAPI.
    scope = getattr(request, "scope", None)
    if isinstance(scope, Mapping) and scope.get("type") in ("http", "websocket"):
        return asgi_view(scope)
    raise TypeError(f"unsupported request object {type(request).__name__}")


def wsgi_view(environ: Mapping[str, Any], path: Optional[str]) -> RequestView:
    def header(name: str) -> Optional[str]:
        return _non_empty(environ.get("HTTP_" + name.upper().replace("-", "_")))

    if path is None:
        script = environ.get("SCRIPT_NAME", "")
        info = environ.get("PATH_INFO", "")
        path = f"{script}{info}" if isinstance(script, str) and isinstance(info, str) else None
    return RequestView(
        header,
        _str_or_none(environ.get("REMOTE_ADDR")),
        _str_or_none(environ.get("REQUEST_METHOD")),
        path or None,
    )


def asgi_view(scope: Mapping[str, Any]) -> RequestView:
    headers: Dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers") or ():
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1")
        # Repeated headers are one list (RFC 9110 §5.3), as Node joins them.
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    client = scope.get("client")
    peer = client[0] if isinstance(client, (list, tuple)) and client and isinstance(client[0], str) else None
    method = scope.get("method") if scope.get("type") == "http" else "GET"
    return RequestView(
        lambda name: _non_empty(headers.get(name)),
        peer,
        _str_or_none(method),
        _str_or_none(scope.get("path")),
    )


def _str_or_none(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value != "" else None


def _non_empty(value: Any) -> Optional[str]:
    if not isinstance(value, str):
        return None
    stripped = value.strip()
    return stripped or None
