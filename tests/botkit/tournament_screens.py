"""Pictures of a daylong from the real bot, for docs/tournaments.md.

    .venv/bin/python -m tests.botkit.tournament_screens docs/images

Starts the bot against the offline Discord (images on), opens a Belote daylong, has alice, bob and carol each play
its first board (random legal cards, seeded) and alice her second, and saves the announcement as a phone shows it
(``render/tools/message_preview.py``), its standings image as the bot drew it, and a board's result in a player's
private thread.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bot.storage import daylong as ds
from render.tools.message_preview import preview_png
from tests.botkit.harness import TIMEOUT, bot_world, play_to_the_end
from tests.fakediscord.models import Message

SEED = 14


def _save(world, message: Message, path: Path) -> None:
    picture = message.attachments[0].data if message.attachments else None
    names = {u.id: u.username for u in world.fake.world.users.values()}
    path.write_bytes(preview_png(message.content, message.components, picture, names=names))


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        async with bot_world(Path(tmp), images_on=True) as world, world.running(SEED) as client:
            options = {"name": "Sunday daylong", "game": "belote", "boards": 8, "level": "heuristic", "instances": 1}
            result = await world.slash(world.alice, "daylong", options, subcommand="create")
            announcement = result.message
            assert announcement is not None, result.content
            tid = int(announcement.content.split("(daylong #")[1].split(")")[0])
            for k, user in enumerate([world.alice, world.bob, world.carol, world.alice]):
                message = world.fake.world.messages[announcement.id]
                cid = next(c for c in message.custom_ids() if c.endswith(":play"))
                await (await world.fake.click(user, message, cid)).wait(TIMEOUT)
                boards = await ds.boards(client.store, tid)
                table_id = next(b.table_id for b in boards if b.user_id == user.id and b.status == ds.BOARD_PLAYING)
                assert table_id is not None
                await play_to_the_end(world, client, table_id, seed=SEED + k)
                await world.settle(client)
            message = world.fake.world.messages[announcement.id]
            _save(world, message, out / "daylong-announcement.png")
            (out / "standings-daylong.png").write_bytes(message.attachments[0].data)
            table = await client.manager.get(table_id)
            thread = world.fake.world.channels[table.row.channel_id]
            done = [m for m in thread.messages if "played:" in m.content][-1]
            _save(world, done, out / "daylong-board-played.png")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", default=Path("docs/images"))
    asyncio.run(main(parser.parse_args().out))
    sys.exit(0)
