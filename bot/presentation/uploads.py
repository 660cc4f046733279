"""A request with files (a table or hand picture) sent as one buffer.

discord.py sends a message with files as ``aiohttp.FormData``, built anew for each try: a multipart writer with a
payload object per field, each field's headers built and written on their own, the PNG read from its file object in
chunks, about nine socket writes: a 45-KB picture cost the bot ~330 µs more CPU than the same edit in JSON
(``bench/bench_upload.py``, medians of five rounds), more than its trip through the render pool.  ``one_buffer``
writes the same multipart body (the same fields, names, file names and content types, in the same order) into one
``bytes`` once, and the request sends that: ~140 µs less per upload, at ~0.8 uploads per action.  A request sent
again sends the same bytes (discord.py rewinds a file at each of its tries but the first, so ``budget.py``'s second
round of tries would have started reading the picture where the last try had left it: at its end).

Only forms of plain fields take this path: a text value, or a file object in memory (``io.BytesIO``, what
``discord.File`` holds for a picture) with a plain name and file name; anything else goes as discord.py sends it.
"""

from __future__ import annotations

import io
import os
import re
from typing import Any

from aiohttp.payload import BytesPayload

# Names and file names written as they are between quotes: what discord.py sends ("payload_json", "files[0]",
# "table-12-3.png") needs no escaping; anything else is left to aiohttp.
_PLAIN = re.compile(r"[A-Za-z0-9_.\[\]-]+\Z")
_FIELD_KEYS = frozenset(("name", "value", "filename", "content_type"))
LARGEST = 1 << 20  # aiohttp warns about bodies of bytes past this (it would rather stream them): stream those


def one_buffer(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``HTTPClient.request``'s keyword arguments with the form (``form``) as one prepared body (``data``), or as
    they were when the form is not one of plain fields."""
    form = kwargs.get("form")
    if not form or "data" in kwargs:
        return kwargs
    boundary = os.urandom(16).hex().encode()
    dash = b"--" + boundary
    pieces: list[bytes] = []
    for field in form:
        if not field.keys() <= _FIELD_KEYS or not _PLAIN.match(field["name"]):
            return kwargs
        value, filename = field["value"], field.get("filename")
        if isinstance(value, str) and filename is None:
            data = value.encode()
            content_type = field.get("content_type") or "text/plain; charset=utf-8"
            disposition = f'form-data; name="{field["name"]}"'
        elif isinstance(value, io.BytesIO) and filename is not None and _PLAIN.match(filename):
            start = value.tell()  # where discord.File starts each try (its file's position when it was made)
            data = value.getvalue()
            data = data[start:] if start else data
            content_type = field.get("content_type") or "application/octet-stream"
            disposition = f'form-data; name="{field["name"]}"; filename="{filename}"'
        else:
            return kwargs
        head = f"\r\nContent-Type: {content_type}\r\nContent-Disposition: {disposition}\r\n\r\n".encode()
        pieces += (dash, head, data, b"\r\n")
    pieces += (dash, b"--\r\n")
    body = b"".join(pieces)
    if len(body) > LARGEST:
        return kwargs
    prepared = {key: value for key, value in kwargs.items() if key != "form"}
    prepared["data"] = BytesPayload(body, content_type=f"multipart/form-data; boundary={boundary.decode()}")
    return prepared
