"""A log entry's detail as stored: a message id with its fields (JSON), so each reader reads it in their own language;
older rows hold plain English text and are shown as they were written."""

from __future__ import annotations

import json

from rules.errors import Words


def stored_detail(detail: Words | str) -> str:
    """An audit entry's detail as stored: a message id with its fields (JSON), or a plain text (older rows)."""
    if isinstance(detail, Words):
        return json.dumps({"msgid": detail.msgid, "fields": detail.fields}, ensure_ascii=False)
    return detail


def read_detail(text: str) -> Words | None:
    """The message id and fields of a stored detail; None for an older row's plain text, shown as it is."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    message, fields = data.get("msgid"), data.get("fields")
    return Words(message, **fields) if isinstance(message, str) and isinstance(fields, dict) else None
