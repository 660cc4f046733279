"""End to end through the offline Discord: lobby, start, hands, acting by buttons and slash commands."""

from __future__ import annotations

import pytest

from tests.botkit.harness import bot_world, find_id, play_to_the_end


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def test_lobby_join_start_and_hand(world):
    async with world.running() as client:
        lobby = await world.new_table(world.alice, "toy")
        assert "table #1" in lobby.content and "alice" not in lobby.content  # mentions, not names
        r = await world.click(world.bob, lobby, "join")
        assert r.callback_type == 7, r.callback_data
        assert f"<@{world.bob.id}>" in r.message.content
        r = await world.click(world.bob, lobby, "start")
        assert r.ephemeral and "Only the host" in r.content
        r = await world.click(world.alice, lobby, "start")
        assert r.callback_type == 7
        await world.settle(client)
        assert find_id(r.message, "hand")
        # both got their hand by DM, labelled with server, channel and table
        for user in (world.alice, world.bob):
            dm = world.dms(user)[-1]
            assert "Card Club" in dm.content and "#tables" in dm.content and "table #1" in dm.content
        # the "my hand" button answers the owner only, ephemerally
        r = await world.click(world.stranger, lobby, "hand")
        assert r.ephemeral and "not seated" in r.content
        r = await world.click(world.alice, lobby, "hand")
        assert r.ephemeral and "Your hand" in r.content


async def test_a_whole_toy_game_with_a_computer(world):
    async with world.running() as client:
        lobby = await world.new_table(world.alice, "toy", options="target=3")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        table = await play_to_the_end(world, client, 1)
        await world.settle(client)
        assert table.match.phase == "game_over"
        sheet = await world.fake.wait_for_message(world.channel, lambda m: "is over" in m.content)
        assert "table #1" in sheet.content
        results = [m for m in world.fake.messages(world.channel) if "result**" in m.content]
        assert len(results) == len(table.match.deal_results)
        r = await world.slash(world.alice, "table", {"table": 1}, subcommand="record")
        assert r.message.attachments[0].filename == "table-1.json"
