from __future__ import annotations

import datetime as _dt
import json
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Union

from .errors import VigilError, describe_cause

# The service's limits (see its OpenAPI document), checked here so a bad event is reported, not retried.
MAX_EVENT_NAME = 200
MAX_IDENTITY = 256
MAX_EVENT_BYTES = 64 * 1024
#: What ``"sent_at":"…"`` adds to a POST /events body, which the service measures whole.
SENT_AT_BYTES = len(b',"sent_at":"2000-01-01T00:00:00.000Z"')


@dataclass(frozen=True)
class PreparedEvent:
    event: Dict[str, Any]
    #: Size of the serialised event, used to keep batches under the body limit.
    json: bytes


def utc_timestamp(now: Optional[_dt.datetime] = None) -> str:
    moment = now or _dt.datetime.now(_dt.timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def with_sent_at(body: bytes) -> bytes:
    """
    A JSON object's body with ``sent_at``, the send time by this process's clock (the one that stamps
    ``timestamp``): the service moves every timestamp of the request by that clock's error, so a server whose clock
    is wrong still has its events stored at the time they happened.
    """
    return body[:-1] + b',"sent_at":"' + utc_timestamp().encode() + b'"}'


def _json_default(value: Any) -> Any:
    # Dates are the one non-JSON type callers routinely put in properties; anything else is their bug.
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    if isinstance(value, uuid.UUID):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def encode(value: Any) -> bytes:
    return json.dumps(value, default=_json_default, allow_nan=False, ensure_ascii=False, separators=(",", ":")).encode()


def prepare_event(
    name: Any, identity: Optional[str], properties: Mapping[str, Any], new_id: Callable[[], str]
) -> Union[PreparedEvent, VigilError]:
    """
    Builds the wire event: caller properties win, and every event gets an idempotency key (``event_id``)
    and the time it happened (``timestamp``) now, so a retry minutes later is stored once and at its
    original time.
    """
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_EVENT_NAME:
        return VigilError("invalid_event", f"event name must be a string of 1 to {MAX_EVENT_NAME} characters")
    if identity is not None and (not isinstance(identity, str) or len(identity) > MAX_IDENTITY):
        return VigilError("invalid_event", f"identity must be a string of at most {MAX_IDENTITY} characters")
    event_id = properties.get("event_id")
    timestamp = properties.get("timestamp")
    props = dict(properties)
    props["event_id"] = event_id if isinstance(event_id, str) and event_id != "" else new_id()
    props["timestamp"] = timestamp if isinstance(timestamp, str) else utc_timestamp()
    event: Dict[str, Any] = {"event": name}
    if identity is not None:
        event["identity"] = identity
    event["properties"] = props
    try:
        body = encode(event)
    except (TypeError, ValueError) as cause:
        return VigilError(
            "invalid_event", f'properties of "{name}" cannot be serialised as JSON: {describe_cause(cause)}', cause=cause
        )
    limit = MAX_EVENT_BYTES - SENT_AT_BYTES
    if len(body) > limit:
        return VigilError("invalid_event", f'event "{name}" is {len(body)} bytes, above the {limit} byte limit')
    return PreparedEvent(event, body)
