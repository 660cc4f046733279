"""The tournament's announcement carries the standings as an image, edited in place after each result."""

from __future__ import annotations

from PIL import Image

from tests.botkit.harness import bot_world
from tests.test_tournament_flow import _create, _entry, _play_round, _players


async def test_the_announcement_carries_the_standings_image_after_each_result(tmp_path):
    async with bot_world(tmp_path, images_on=True) as world:
        users = _players(world, 4)
        async with world.running() as client:
            announcement = await _create(world, world.alice, name="Cup", game="belote", format="melee", rounds=2,
                                         deals=1)  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            assert not world.fake.world.messages[announcement.id].attachments, "no standings before round 1"
            await world.slash(world.alice, "tournament", {"tournament": tid}, subcommand="start")
            await world.settle(client)
            await _play_round(world, client, 0, tid)
            first = world.fake.world.messages[announcement.id].attachments
            assert [a.filename for a in first] == ["standings.png"]
            await _play_round(world, client, 1, tid)
            second = world.fake.world.messages[announcement.id].attachments
            assert [a.filename for a in second] == ["standings.png"] and second[0].data != first[0].data
            (tmp_path / "standings.png").write_bytes(second[0].data)
            image = Image.open(tmp_path / "standings.png")
            assert image.width == 640 and image.height > 200
