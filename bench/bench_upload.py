"""What sending a message edit costs the bot's process: in JSON, with a picture as discord.py sends it (multipart
form built per try), and with the picture's form as one prepared buffer (``bot/presentation/uploads.py``).

CPU time of this process per edit (the server, a local aiohttp app standing in for Discord, runs in a process of its
own), through discord.py's ``HTTPClient`` as the presenter's table-message edit calls it.

    .venv/bin/python bench/bench_upload.py [--edits 1500] [--png-bytes 45000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
import discord  # noqa: E402
from aiohttp import web  # noqa: E402
from discord.http import HTTPClient, Route, handle_message_parameters  # noqa: E402

from bot.presentation import uploads  # noqa: E402

MESSAGE = {"id": "1", "channel_id": "2", "content": "", "attachments": []}


async def serve(port: int) -> None:
    async def edit(request: web.Request) -> web.Response:
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                await part.read()
        else:
            await request.read()
        return web.json_response(MESSAGE)

    app = web.Application(client_max_size=1 << 24)
    app.router.add_patch("/api/v10/channels/{channel}/messages/{message}", edit)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    await asyncio.Event().wait()


async def measure(port: int, edits: int, png: bytes, rounds: int) -> None:
    Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    http = HTTPClient(asyncio.get_running_loop())
    http._HTTPClient__session = aiohttp.ClientSession()  # type: ignore[attr-defined]
    http.token = "x"
    http._global_over = asyncio.Event()
    http._global_over.set()
    send = http.request

    async def one_buffer(route: Route, **kwargs):
        return await send(route, **uploads.one_buffer(kwargs))

    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="My hand", custom_id="hand:1"))
    content = json.dumps({"words": "x" * 300})

    async def edit(with_file: bool) -> None:
        fields: dict = {"content": content, "view": view}
        if with_file:
            fields["attachments"] = [discord.File(io.BytesIO(png), filename="table-12-3.png")]
        with handle_message_parameters(**fields) as params:
            await http.edit_message(2, 1, params=params)

    kinds = (("JSON edit", False, send), ("picture, discord.py's form", True, send), ("picture, one buffer", True,
             one_buffer))  # fmt: skip
    for _ in range(200):  # connections and caches warm
        await edit(True)
    results: dict[str, list[float]] = {name: [] for name, _, _ in kinds}
    for _ in range(rounds):
        for name, with_file, request in kinds:
            http.request = request  # type: ignore[method-assign]
            started = time.process_time()
            for _ in range(edits):
                await edit(with_file)
            results[name].append((time.process_time() - started) * 1e6 / edits)
    await http._HTTPClient__session.close()  # type: ignore[attr-defined]
    for name, figures in results.items():
        print(f"{name:<28} {' '.join(f'{f:6.0f}' for f in figures)} µs of the bot's CPU per edit")
    one, five, _ = os.getloadavg()
    print(f"{len(png)}-byte picture, {edits} edits a round; machine load average {one:.1f} / {five:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=1500)
    parser.add_argument("--png-bytes", type=int, default=45000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve))
        return
    import socket
    import subprocess

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", args.port))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)])
    try:
        time.sleep(1.5)
        png = os.urandom(args.png_bytes)
        asyncio.run(measure(port, args.edits, png, args.rounds))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
