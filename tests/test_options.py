"""Options: "An unknown option key, or a value out of range, is an error (exit 2), never silently ignored"
(docs/records.md)."""

import pytest

from rules.errors import RecordError
from rules.options import Option, resolve_options

DECLARED = [
    Option("players", 4, "seats", choices=(4, 6)),
    Option("kitty", False, "with a kitty"),
    Option("target", 200, "points to win", check=lambda v: None if v > 0 else "must be positive"),
    Option("name", "x", "a label"),
]


def test_defaults_fill_missing_keys():
    assert resolve_options(DECLARED, {}) == {"players": 4, "kitty": False, "target": 200, "name": "x"}
    assert resolve_options(DECLARED, None)["players"] == 4


def test_unknown_key_is_an_error_naming_it():
    with pytest.raises(RecordError, match="unknown option.*colour"):
        resolve_options(DECLARED, {"colour": "red"})


@pytest.mark.parametrize(
    "given, complaint",
    [({"players": 5}, "one of"), ({"players": True}, "one of"), ({"kitty": 1}, "true or false"),
     ({"target": "200"}, "whole number"), ({"target": -5}, "must be positive"), ({"name": 3}, "text")],
)  # fmt: skip
def test_bad_values_are_errors(given, complaint):
    with pytest.raises(RecordError, match=complaint):
        resolve_options(DECLARED, given)


def test_options_must_be_an_object():
    with pytest.raises(RecordError, match="object"):
        resolve_options(DECLARED, [1, 2])
