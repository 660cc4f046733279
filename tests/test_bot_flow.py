"""End to end through the offline Discord: lobby, start, hands, acting by buttons and slash commands."""

from __future__ import annotations

import pytest

from tests.botkit.harness import bot_world, find_id, play_to_the_end, tap_action


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


async def test_a_card_is_one_tap_on_the_live_hand_answered_in_place(tmp_path):
    """What is sent, to whom, with which flags: the tap on the player's live hand (a DM) is answered by updating that
    same message (type 7); the table message is edited once for everybody; the other player's hand is edited, not
    sent again."""
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "toy")
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "start")
        table = client.manager.tables[1]
        await play_to_the_end(world, client, 1, stop=lambda t: t.match.phase == "play")
        await world.settle(client)
        user = world.alice if table.seats[table.match.to_move].user_id == world.alice.id else world.bob
        other = world.bob if user is world.alice else world.alice
        hands = [m for m in world.dms(user) if m.custom_ids()]
        assert len(hands) == 1 and hands[0].attachments[0].data.startswith(b"\x89PNG")
        seat = table.seat_of(user.id)
        card = next(a for a in table.match.legal_json() if a["seat"] == seat and a["type"] == "play")
        mark = world.fake.rest_mark()
        played = await tap_action(world, table, user, hands[0], {"type": "play", "cards": card["cards"]})
        await world.settle(client)
        assert played.callback_type == 7 and "✅ You played" in played.message.content
        assert played.message.id == hands[0].id  # the same message, updated in place
        calls = world.fake.calls(since=mark)
        callbacks = [c for c in calls if c.route.endswith("/callback")]
        edits = [c for c in calls if c.method == "PATCH" and str(table.row.message_id) in c.path]
        assert len(callbacks) == 1 and len(edits) == 1, [f"{c.method} {c.route}" for c in calls]
        assert edits[0].files and edits[0].files[0].filename == "table-1.png"
        assert not any(c.method == "POST" and "/users/@me/channels" in c.path for c in calls)  # no new DM channel
        other_hand = next(m for m in world.dms(other) if m.custom_ids())
        assert len([m for m in world.dms(other) if m.custom_ids()]) == 1 and other_hand.edits  # edited in place
