from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional

from .errors import VigilError, describe_cause
from .options import Options, report

#: The risk tags the service documents; it may add others, so any string can appear in current_tags.
RISK_TAGS = ("emulator", "rooted", "hooked", "vpn", "proxy", "tor", "new_device", "unregistered", "multi_user")

_KNOWN = (
    "event_id",
    "device_id",
    "handprint_id",
    "current_tags",
    "risk_score",
    "score_breakdown",
    "device_id_details",
    "behaviors",
    "device",
    "email_intel",
    "phone_intel",
    "warnings",
)


@dataclass(frozen=True)
class Behavior:
    """One behaviour counter; which fields are set depends on the behaviour's operation."""

    count: Optional[int]
    sum: Optional[float]
    unique: Optional[int]
    values: Optional[List[str]]


class Insights:
    """
    Insights for one event. Attributes keep the service's snake_case names so that what you log or
    forward is exactly what the service said; ``fail_open`` and ``error`` are the only client-side
    additions (and ``to_dict()`` leaves them out).
    """

    __slots__ = (*_KNOWN, "extra", "fail_open", "error", "_raw")

    event_id: Optional[str]
    device_id: Optional[str]
    handprint_id: Optional[str]
    current_tags: List[str]
    risk_score: float
    score_breakdown: List[Dict[str, Any]]
    device_id_details: Optional[Dict[str, Any]]
    behaviors: Dict[str, Dict[str, Any]]
    device: Optional[Dict[str, Any]]
    email_intel: Optional[Dict[str, Any]]
    phone_intel: Optional[Dict[str, Any]]
    warnings: List[Any]
    #: Fields the service sent that this version of the library does not know yet.
    extra: Dict[str, Any]
    #: True when the service could not answer and this is the configured fail-open result.
    fail_open: bool
    #: Why the result is a fail-open one; None for real answers.
    error: Optional[VigilError]

    def __init__(self, data: Mapping[str, Any], failure: Optional[VigilError] = None) -> None:
        self._raw = dict(data)
        self.event_id = data.get("event_id")
        self.device_id = data.get("device_id")
        self.handprint_id = data.get("handprint_id")
        tags = data.get("current_tags")
        self.current_tags = list(tags) if isinstance(tags, list) else []
        score = data.get("risk_score")
        self.risk_score = float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else 0.0
        breakdown = data.get("score_breakdown")
        self.score_breakdown = list(breakdown) if isinstance(breakdown, list) else []
        self.device_id_details = data.get("device_id_details")
        behaviors = data.get("behaviors")
        self.behaviors = dict(behaviors) if isinstance(behaviors, dict) else {}
        self.device = data.get("device")
        self.email_intel = data.get("email_intel")
        self.phone_intel = data.get("phone_intel")
        warnings = data.get("warnings")
        self.warnings = list(warnings) if isinstance(warnings, list) else []
        self.extra = {k: v for k, v in data.items() if k not in _KNOWN}
        self.fail_open = failure is not None
        self.error = failure

    def has_tag(self, tag: str) -> bool:
        """Whether ``tag`` (e.g. ``"tor"``, ``"new_device"``) is among the current risk tags."""
        return tag in self.current_tags

    def behavior(self, name: str) -> Optional[Behavior]:
        """The named behaviour counter, or None when the service reported none by that name."""
        value = self.behaviors.get(name)
        if not isinstance(value, dict):
            return None
        return Behavior(value.get("count"), value.get("sum"), value.get("unique"), value.get("values"))

    @property
    def device_age_days(self) -> Optional[int]:
        """Age of the device id in days (0 for a device first seen today), None when unknown."""
        details = self.device_id_details
        age = details.get("age") if isinstance(details, dict) else None
        days = age.get("days") if isinstance(age, dict) else None
        return days if isinstance(days, int) else None

    def to_dict(self) -> Dict[str, Any]:
        """Exactly what the service sent (for a fail-open result: the fail-open fields)."""
        return dict(self._raw)

    def __repr__(self) -> str:
        state = ", fail_open=True" if self.fail_open else ""
        return f"Insights(risk_score={self.risk_score}, current_tags={self.current_tags!r}{state})"


def is_insights_data(value: Any) -> bool:
    """Minimal check that a 2xx body is insights; anything else is reported as invalid_response."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("risk_score"), (int, float))
        and isinstance(value.get("current_tags"), list)
    )


def default_fail_open(device_id: Optional[str]) -> Dict[str, Any]:
    """
    No tags, risk 0, a ``vigil_unavailable`` warning. Letting users in when the risk service is down is
    the usual choice for login and checkout flows; services that prefer to fail closed configure
    ``fail_open`` (see README).
    """
    return {
        "event_id": None,
        "device_id": device_id,
        "handprint_id": None,
        "current_tags": [],
        "risk_score": 0,
        "score_breakdown": [],
        "device_id_details": None,
        "behaviors": {},
        "device": None,
        "email_intel": None,
        "phone_intel": None,
        "warnings": ["vigil_unavailable"],
    }


def fail_open_insights(options: Options, error: VigilError, event: Mapping[str, Any]) -> Insights:
    """The configured fail-open result: the default merged with the caller's ``fail_open``."""
    properties = event.get("properties")
    device_id = properties.get("device_id") if isinstance(properties, Mapping) else None
    base = default_fail_open(device_id if isinstance(device_id, str) else None)
    configured = options.fail_open
    custom: Mapping[str, Any] = {}
    try:
        custom = configured(error, event) if callable(configured) else (configured or {})
    except Exception as cause:  # noqa: BLE001 - the caller's hook must not break fail-open
        report(options, VigilError("config", f"fail_open raised: {describe_cause(cause)}", cause=cause))
    return Insights({**base, **custom}, error)
