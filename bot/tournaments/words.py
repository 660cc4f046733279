"""The names players read for a tournament's format and ranking method (the stored values are English keys)."""

from __future__ import annotations

from bot.i18n import N_, _

_FORMAT_NAMES = {
    "melee": N_("mêlée"),
    "swiss": N_("Swiss"),
    "round_robin": N_("round robin"),
    "single_elimination": N_("single elimination"),
    "double_elimination": N_("double elimination"),
}
_METHOD_NAMES = {
    "match_points": N_("match points"),
    "cumulative": N_("cumulative"),
    "levels": N_("levels"),
    "matchpoints": N_("matchpoints"),
}
_STATUS_NAMES = {
    "registration": N_("registration open"),
    "check_in": N_("check-in"),
    "running": N_("under way"),
    "paused": N_("paused"),
    "finished": N_("finished"),
    "cancelled": N_("cancelled"),
}

_ENTRANT_STATUS_NAMES = {
    "registered": N_("registered"),
    "waitlist": N_("on the waiting list"),
    "checked_in": N_("checked in"),
    "withdrawn": N_("withdrawn"),
    "dropped": N_("dropped"),
}


def format_name(key: str) -> str:
    """A format in the current language; an unknown key reads as itself, spaced."""
    name = _FORMAT_NAMES.get(key)
    return _(name) if name else key.replace("_", " ")


def method_name(key: str) -> str:
    """A ranking method in the current language."""
    name = _METHOD_NAMES.get(key)
    return _(name) if name else key.replace("_", " ")


def status_name(key: str) -> str:
    """A tournament's status in the current language."""
    name = _STATUS_NAMES.get(key)
    return _(name) if name else key.replace("_", " ")


def entrant_status_name(key: str) -> str:
    """An entrant's status (registered, on the waiting list, ...) in the current language."""
    name = _ENTRANT_STATUS_NAMES.get(key)
    return _(name) if name else key.replace("_", " ")


def audit_fields(fields: dict[str, object]) -> dict[str, object]:
    """An audit entry's fields as the reader reads them: the stored keys of a format or an entrant's status named in
    the reader's language, everything else (names, numbers) as stored."""
    named = {"format": format_name, "status": entrant_status_name}
    return {
        key: named[key](value) if key in named and isinstance(value, str) else value for key, value in fields.items()
    }
