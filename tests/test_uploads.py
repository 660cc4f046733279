"""A picture's form sent as one prepared buffer reaches the server as discord.py's own form does: the same fields, in
the same order, with the same names, file names, content types and bytes; and a form it cannot write plainly goes
as discord.py sends it."""

from __future__ import annotations

import io
import os

import aiohttp
import discord
from aiohttp import web
from aiohttp.test_utils import TestServer
from discord.http import handle_message_parameters

from bot.presentation import images
from bot.presentation.live_hands import hand_image, hand_text
from bot.presentation.presenter import SHOWN_PICTURE
from bot.presentation.uploads import one_buffer
from tests.botkit.harness import act_through_ui, bot_world, play_to_the_end, table_message
from tests.fakediscord.faults import TOO_MANY, Fault


async def parts_received(forms: list) -> list[list[tuple]]:
    """Each form posted to a real aiohttp server, read back part by part: (name, file name, content type, bytes)."""
    received: list[list[tuple]] = []

    async def handler(request: web.Request) -> web.Response:
        parts = []
        async for part in await request.multipart():
            parts.append((part.name, part.filename, part.headers.get("Content-Type"), bytes(await part.read())))
        received.append(parts)
        return web.json_response({})

    app = web.Application()
    app.router.add_post("/", handler)
    async with TestServer(app) as server, aiohttp.ClientSession() as session:
        for data in forms:
            async with session.post(server.make_url("/"), data=data) as response:
                assert response.status == 200
    return received


def discord_form(params) -> aiohttp.FormData:
    """What discord.py's ``HTTPClient.request`` builds from ``form`` for each try."""
    form = aiohttp.FormData(quote_fields=False)
    for field in params.multipart:
        form.add_field(**field)
    return form


async def test_the_buffer_carries_what_discord_py_would_send():
    png, other = os.urandom(45_000), os.urandom(700)
    files = [discord.File(io.BytesIO(png), filename="table-12-3.png"), discord.File(io.BytesIO(other), "hand-1.png")]
    with handle_message_parameters(content="**Two Hundred** — table #12 é 王", attachments=files) as params:
        theirs = discord_form(params)
        for file in files:
            file.reset()
        prepared = one_buffer({"files": params.files, "form": params.multipart})
        assert "form" not in prepared and prepared["files"] is params.files
        assert prepared["data"].content_type.startswith("multipart/form-data; boundary=")
        ours, sent = await parts_received([theirs, prepared["data"]])
    assert ours == sent
    assert [name for name, *_ in ours] == ["payload_json", "files[0]", "files[1]"]
    assert ours[1][1:] == ("table-12-3.png", "application/octet-stream", png)


async def test_a_file_read_from_where_it_starts():
    buffer = io.BytesIO(b"skipped" + b"\x89PNG picture")
    buffer.seek(7)  # discord.File starts each try where its file was when it was made
    with handle_message_parameters(content="x", file=discord.File(buffer, filename="a.png")) as params:
        prepared = one_buffer({"files": params.files, "form": params.multipart})
        (parts,) = await parts_received([prepared["data"]])
    assert parts[1][3] == b"\x89PNG picture"


def test_what_it_cannot_write_plainly_goes_as_discord_py_sends_it():
    for field in (
        {"name": "files[0]", "value": io.BytesIO(b"x"), "filename": 'a "quoted" name.png'},
        {"name": "files[0]", "value": open(os.devnull, "rb"), "filename": "a.png"},  # a file on disk  # noqa: SIM115
        {"name": "payload_json", "value": "{}", "filename": None, "content_transfer_encoding": "base64"},
    ):
        kwargs = {"form": [field], "files": []}
        assert one_buffer(kwargs) is kwargs
    json_only = {"json": {"content": "x"}}
    assert one_buffer(json_only) is json_only


def count_one_buffer(monkeypatch, module: str) -> list[bool]:
    """Whether each request that ``module`` prepared went as one buffer."""
    prepared: list[bool] = []

    def counting(kwargs):
        out = one_buffer(kwargs)
        prepared.append(out is not kwargs)
        return out

    monkeypatch.setattr(f"{module}.one_buffer", counting)
    return prepared


async def test_the_table_message_shows_its_picture_uploaded_in_one_buffer(tmp_path, monkeypatch):
    prepared = count_one_buffer(monkeypatch, "bot.presentation.budget")
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        table = await world.five_hundred_with_a_computer(client)
        version = table.version
        await play_to_the_end(world, client, 1, stop=lambda t: t.version > version + 2)
        await world.settle(client)
        picture = table_message(world, table).attachments[0]
        message_id, key = table.extra[SHOWN_PICTURE]
        assert picture.data == images.pictures.peek(key)  # the very PNG drawn, byte for byte
        assert picture.filename.startswith("table-") and picture.data.startswith(b"\x89PNG\r\n\x1a\n")
        assert any(prepared)  # pictures went through the one-buffer path


async def test_a_tap_answered_with_its_hand_picture_in_one_buffer(tmp_path, monkeypatch):
    prepared = count_one_buffer(monkeypatch, "bot.presentation.deadline")
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        table = await world.five_hundred_with_a_computer(client)
        answer = await world.click(world.alice, table_message(world, table), "hand")  # "My hand": a callback
        picture = answer.message.attachments[0]
        drawn = await hand_image(
            table, table.seat_of(world.alice.id), hand_text(table, table.seat_of(world.alice.id)).image_key
        )
        assert picture.data == drawn  # the very PNG drawn, byte for byte
        assert prepared and all(prepared)  # the callback's form went as one buffer


async def test_a_picture_sent_again_after_discord_py_gave_up_is_the_whole_picture(tmp_path):
    """Discord refuses the table message's edit five times (429): discord.py gives up, ``budget.py`` sends it again
    in a second round of tries, and the picture that arrives then is the whole picture drawn — discord.py rewinds a
    file only from its second try on, so that round's first try would have read it from where the last one ended."""
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        await world.settle(client)
        version = table.version
        user = world.fake.world.users[table.seats[table.match.to_move].user_id]
        action = next(a for a in table.match.legal_json() if a["seat"] == table.match.to_move)
        table_message_path = f"/messages/{table.row.message_id}"
        refusing = world.fake.faults.add(
            Fault(TOO_MANY, "PATCH", "/channels/{channel_id}/messages/{message_id}", times=5, seconds=0.01,
                  when=lambda method, route, path: path.endswith(table_message_path))
        )  # fmt: skip
        await act_through_ui(world, table, user, {k: v for k, v in action.items() if k != "seat"})
        await world.settle(client)
        assert table.version > version and refusing.hits == 5
        picture = table_message(world, table).attachments[0]
        message_id, key = table.extra[SHOWN_PICTURE]
        assert picture.data == images.pictures.peek(key) and len(picture.data) > 1000
