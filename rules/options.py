"""Table options: each game declares its options once (name, default, allowed values, meaning)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import RecordError


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    doc: str
    choices: Sequence[Any] | None = None  # allowed values, when a short list
    kind: type | None = None  # bool, int or str when not given by choices
    check: Callable[[Any], str | None] | None = None  # returns a complaint, or None when fine

    def validate(self, value: Any) -> Any:
        if self.choices is not None:
            same_type = any(type(value) is type(c) for c in self.choices)  # True must not pass for 1
            if not same_type or value not in self.choices:
                raise RecordError(f"option '{self.name}' must be one of {list(self.choices)}, not {value!r}")
        kind = self.kind if self.kind is not None else type(self.default)
        if self.choices is None and kind in (bool, int, str):
            if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise RecordError(f"option '{self.name}' must be a whole number, not {value!r}")
            if kind is bool and not isinstance(value, bool):
                raise RecordError(f"option '{self.name}' must be true or false, not {value!r}")
            if kind is str and not isinstance(value, str):
                raise RecordError(f"option '{self.name}' must be text, not {value!r}")
        if self.check is not None:
            complaint = self.check(value)
            if complaint:
                raise RecordError(f"option '{self.name}': {complaint}")
        return value


def resolve_options(declared: Sequence[Option], given: object) -> dict[str, Any]:
    """Fill defaults and validate every given option; an unknown key is an error, never ignored."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise RecordError("'options' must be a JSON object")
    by_name = {o.name: o for o in declared}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        raise RecordError(f"unknown option(s) {unknown}; this game's options are {sorted(by_name)}")
    return {o.name: (o.validate(given[o.name]) if o.name in given else o.default) for o in declared}
