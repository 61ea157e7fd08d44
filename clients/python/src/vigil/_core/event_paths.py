from __future__ import annotations

from dataclasses import dataclass
from typing import List, Mapping, Optional, Sequence, Tuple, Union

from .errors import VigilError

#: Event names per HTTP method: ``{"login": "/login", "transfer": "/accounts/*/transfer"}``.
PathMap = Mapping[str, Union[str, Sequence[str]]]

METHODS = ("get", "post", "put", "patch", "delete", "head", "options", "all")


@dataclass(frozen=True)
class _Rule:
    method: str
    event: str
    segments: Tuple[str, ...]


class EventPaths:
    """
    A compiled ``event_paths`` map: tells which event (if any) a request stands for. Pattern segments: a
    literal, ``*`` or ``:name`` (exactly one segment), or ``**`` (any number, including none). A trailing
    slash and the query string are ignored; matching is case-sensitive, like routes.
    """

    def __init__(self, rules: Sequence[_Rule] = ()) -> None:
        self._rules = tuple(rules)

    @staticmethod
    def compile(methods: Mapping[str, PathMap]) -> EventPaths:
        """An unknown method or a pattern not starting with "/" is a configuration error (raised)."""
        rules: List[_Rule] = []
        for method_key, events in methods.items():
            method = method_key.lower()
            if method not in METHODS:
                raise VigilError("config", f'event_paths: unknown method "{method_key}"')
            for event, patterns in (events or {}).items():
                for pattern in [patterns] if isinstance(patterns, str) else patterns:
                    if not isinstance(pattern, str) or not pattern.startswith("/"):
                        raise VigilError("config", f'event_paths: pattern for "{event}" must start with "/"')
                    rules.append(_Rule(method, event, _split(pattern)))
        return EventPaths(rules)

    @property
    def is_empty(self) -> bool:
        return not self._rules

    def match(self, method: Optional[str], path: Optional[str]) -> Optional[str]:
        """The event for this method and path: the first matching rule in the order they were given."""
        if method is None or path is None:
            return None
        m = method.lower()
        segments = _split(path.split("?", 1)[0].split("#", 1)[0])
        for rule in self._rules:
            if rule.method in (m, "all") and _matches(rule.segments, 0, segments, 0):
                return rule.event
        return None


def _split(path: str) -> Tuple[str, ...]:
    return tuple(s for s in path.split("/") if s != "")


def _matches(pattern: Tuple[str, ...], pi: int, path: Tuple[str, ...], si: int) -> bool:
    if pi == len(pattern):
        return si == len(path)
    segment = pattern[pi]
    if segment == "**":
        return any(_matches(pattern, pi + 1, path, skip) for skip in range(si, len(path) + 1))
    if si == len(path):
        return False
    if segment == "*" or segment.startswith(":") or segment == path[si]:
        return _matches(pattern, pi + 1, path, si + 1)
    return False
