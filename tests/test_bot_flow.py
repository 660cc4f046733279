"""End to end through the offline Discord: lobby, start, hands, acting by buttons and slash commands."""

from __future__ import annotations

import pytest

from tests.botkit.harness import bot_world, find_id, play_to_the_end, select_options, table_message


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


async def test_a_card_by_buttons_costs_two_replies_and_one_edit(tmp_path):
    """What is sent, to whom, with which flags: My hand (ephemeral, to the player alone), the pick (the same
    ephemeral message updated), and one edit of the table message for everybody."""
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "toy")
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "start")
        table = client.manager.tables[1]
        await play_to_the_end(world, client, 1, stop=lambda t: t.match.phase == "play")
        await world.settle(client)
        user = world.alice if table.seats[table.match.to_move].user_id == world.alice.id else world.bob
        mark = world.fake.rest_mark()
        hand = await world.click(user, table_message(world, table), "hand")
        assert hand.callback_type == 4 and hand.ephemeral  # flags 64: only the clicker sees it
        assert hand.message.attachments[0].data.startswith(b"\x89PNG")
        cid = next(c for c in hand.message.custom_ids() if ":pick:" in c)
        card = select_options(hand.message, cid)[0]["value"]
        picked = await world.fake.select(user, hand.message, cid, [card])
        await picked.wait()
        await world.settle(client)
        assert picked.callback_type == 7 and "✅ You played" in picked.message.content
        calls = world.fake.calls(since=mark)
        callbacks = [c for c in calls if c.route.endswith("/callback")]
        edits = [c for c in calls if c.method == "PATCH" and str(table.row.message_id) in c.path]
        assert len(callbacks) == 2 and len(edits) == 1, [f"{c.method} {c.route}" for c in calls]
        assert edits[0].files and edits[0].files[0].filename == "table-1.png"
        assert not any("/users/@me/channels" in c.path for c in calls)  # no DM for a move
