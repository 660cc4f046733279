"""The bot under misuse and accidents: closed DMs, illegal plays, strangers, double clicks, bad options, restarts."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.presentation.choices import encode
from bot.presentation.panel import encode_action
from tests.botkit.harness import bot_world, find_id, play_to_the_end, table_message


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def started(world, client, *users, options=None):
    """A toy table hosted by the first user, the others joined, started."""
    lobby = await world.new_table(users[0], "toy", options=options)
    for user in users[1:]:
        await world.click(user, lobby, "join")
    await world.click(users[0], lobby, "start")
    await world.settle(client)
    return client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]


def user_to_move(world, table):
    user_id = table.seats[table.match.to_move].user_id
    return world.fake.world.users[user_id]


async def test_closed_dms_are_detected_at_join_and_told_once(world):
    async with world.running() as client:
        lobby = await world.new_table(world.alice, "toy")
        r = await world.click(world.closed, lobby, "join")
        note = await r.wait_for_followup()
        assert note.ephemeral and "My hand" in note.content
        await world.click(world.closed, lobby, "leave")
        r = await world.click(world.closed, lobby, "join")
        await world.settle(client)
        assert r.followups == []  # told once only
        mark = world.fake.rest_mark()
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        posted = {c.path for c in world.fake.calls("POST", "/channels/{channel_id}/messages", since=mark)}
        assert not any(str(world.fake.dm_channel(world.closed).id) in p for p in posted)  # not tried again
        assert any(str(world.fake.dm_channel(world.alice).id) in p for p in posted)
        r = await world.click(world.closed, lobby, "hand")
        assert r.ephemeral and "Your hand" in r.content


async def test_illegal_and_foreign_actions_are_refused_and_nothing_is_recorded(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        mover = user_to_move(world, table)
        other = world.bob if mover is world.alice else world.alice
        r = await world.slash(other, "pass")
        assert r.ephemeral and "not your turn" in r.content
        r = await world.slash(mover, "play", {"card": "AS"})
        assert r.ephemeral and "⛔" in r.content
        r = await world.slash(mover, "bid", {"value": "banana"})
        assert r.ephemeral and "not a bid" in r.content
        r = await world.slash(world.stranger, "pass")
        assert r.ephemeral and "not playing at any table" in r.content
        # a stranger cannot use a player's components (even a forged click on them)
        hand = await world.click(mover, table_message(world, table), "hand")
        r = await world.click(world.stranger, hand.message, "hp", "=" + encode_action({"type": "pass"}))
        assert r.ephemeral and "not seated" in r.content
        r = await world.click(world.stranger, table_message(world, table), "hand")
        assert r.ephemeral and "not seated" in r.content
        assert table.record.deals[0].actions == []
        # the record is not given out while hands are secret
        r = await world.slash(world.alice, "table", {"table": table.id}, subcommand="record")
        assert r.ephemeral and "still being played" in r.content


async def test_a_double_click_is_applied_once(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        mover = user_to_move(world, table)
        hand = await world.click(mover, table_message(world, table), "hand")
        cid = find_id(hand.message, "hp", "=" + encode_action({"type": "pass"}))
        first, second = await asyncio.gather(
            world.fake.click(mover, hand.message, cid), world.fake.click(mover, hand.message, cid)
        )
        await first.wait()
        await second.wait()
        # each answer as sent (both update the same message: its content is the last one's)
        contents = sorted([(r.callback_data or {}).get("content") or r.content or "" for r in (first, second)])
        assert any("✅ You passed" in c for c in contents), contents
        assert any("out of date" in c for c in contents), contents
        assert len(table.record.deals[0].actions) == 1


async def test_autocomplete_offers_the_players_legal_cards_only(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        await play_to_the_end(world, client, table.id, stop=lambda t: t.match.phase == "play")
        mover = user_to_move(world, table)
        ac = await world.fake.autocomplete(mover, world.channel, "play", "card", "")
        await ac.wait()
        # each choice carries the table's version when it was offered (a later command is refused if stale)
        moves = [a for a in table.match.legal_json() if a["seat"] == table.match.to_move]
        legal = [encode({**a, "v": table.version}) for a in moves]
        assert sorted(c["value"] for c in ac.choices) == sorted(legal)
        other = world.bob if mover is world.alice else world.alice
        ac = await world.fake.autocomplete(other, world.channel, "play", "card", "")
        await ac.wait()
        assert ac.choices == []


async def test_bad_options_and_presets_get_clear_messages(world):
    async with world.running():
        r = await world.slash(world.alice, "table", {"game": "200", "options": "kitty=maybe"}, subcommand="new")
        assert r.ephemeral and "kitty" in r.content
        r = await world.slash(world.alice, "table", {"game": "200", "options": "colour=red"}, subcommand="new")
        assert r.ephemeral and "unknown option" in r.content
        r = await world.slash(world.alice, "table", {"game": "200", "options": "kitty"}, subcommand="new")
        assert r.ephemeral and "key=value" in r.content
        r = await world.slash(world.alice, "table", {"game": "200", "preset": "nope"}, subcommand="new")
        assert r.ephemeral and "Unknown preset" in r.content
        r = await world.slash(world.alice, "table", {"game": "chess"}, subcommand="new")
        assert r.ephemeral and "Unknown game" in r.content
        ac = await world.fake.autocomplete(
            world.alice, world.channel, "table", "preset", "", {"game": "200"}, subcommand="new"
        )
        await ac.wait()
        assert "kitty" in [c["value"] for c in ac.choices]


async def test_a_restart_mid_deal_resumes_the_table_and_its_buttons(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob, options="target=3")
        await play_to_the_end(world, client, table.id, stop=lambda t: t.match.phase == "play" and t.match.trick)
        before = table.match.output()
        message = table_message(world, table)
        hands_dms = len(world.dms(world.alice))
    async with world.running(seed=9) as client:
        table = client.manager.tables[table.id]
        assert table.match.output() == before
        await world.settle(client)
        assert len(world.dms(world.alice)) == hands_dms  # hands were sent already: not again
        mover = user_to_move(world, table)
        r = await world.click(mover, message, "hand")  # the old message's button still works
        assert r.ephemeral and "Your hand" in r.content
        await play_to_the_end(world, client, table.id)
        await world.settle(client)
        assert table.match.phase == "game_over"
        r = await world.slash(world.alice, "table", {"table": table.id}, subcommand="record")
        record = json.loads(r.message.attachments[0].data)
        assert record["format"] == "cardtable-record/1" and record["game"] == "toy"


async def test_cancel_and_host_rules_in_the_lobby(world):
    async with world.running():
        lobby = await world.new_table(world.alice, "toy", options="players=3")
        r = await world.click(world.bob, lobby, "cpu")
        assert r.ephemeral and "Only the host" in r.content
        r = await world.select(world.bob, lobby, "seat", ["2"])
        assert f"`3` <@{world.bob.id}>" in r.message.content
        r = await world.select(world.alice, lobby, "cpu_level", ["expert"])
        assert "Computer 1 (expert)" in r.message.content or "🤖" in r.message.content
        r = await world.click(world.bob, lobby, "cancel")
        assert r.ephemeral and "Only the host" in r.content
        r = await world.click(world.alice, lobby, "cancel")
        assert "cancelled" in r.message.content and r.message.components == []


async def test_a_risky_da_bai_fen_throw_asks_for_confirmation(world):
    from rules.cards import CARD_NAMES, suit_of

    async with world.running() as client:
        lobby = await world.new_table(world.alice, "dabaifen", options="start_level=K")
        for _ in range(3):
            await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        table = client.manager.tables[1]

        def risky_lead(t):
            m = t.match
            if m.phase != "play" or m.to_move != 0 or m.output()["trick"]:
                return None
            hand = m.hand(0)
            for a in hand:
                for b in hand:
                    if a < b and suit_of(a) == suit_of(b) and m.throw_risk(0, [a, b]):
                        return [CARD_NAMES[a], CARD_NAMES[b]]
            return None

        await play_to_the_end(world, client, 1, stop=risky_lead)
        cards = risky_lead(table)
        if cards is None:
            pytest.skip("the game ended before a risky lead came up")
        r = await world.slash(world.alice, "play", {"card": " ".join(cards)})
        assert r.ephemeral and "⚠️" in r.content and "Lead it anyway" in str(r.message.components)
        assert table.match.to_move == 0  # nothing played yet
        r = await world.click(world.alice, r.message, "throw")
        assert "✅" in r.content or "⛔" in r.content or "❌ Your lead of" in r.content  # applied, failed or refused


async def test_a_lobby_survives_a_restart(world):
    async with world.running():
        lobby = await world.new_table(world.alice, "toy")
    async with world.running(seed=3) as client:
        r = await world.click(world.bob, lobby, "join")  # the old message's button, handled by the new bot
        assert r.callback_type == 7 and f"<@{world.bob.id}>" in r.message.content
        r = await world.click(world.alice, lobby, "start")
        await world.settle(client)
        assert client.manager.tables[1].status == "playing"


async def test_a_restart_mid_deal_of_belote_with_computers(world):
    async with world.running() as client:
        lobby = await world.new_table(world.alice, "belote", options="target=300")
        for _ in range(3):
            await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        table = client.manager.tables[1]
        await play_to_the_end(world, client, 1, stop=lambda t: t.match.phase == "play" and len(t.match.hand(0)) <= 5)
        actions = sum(len(d.actions) for d in table.record.deals)
    async with world.running(seed=4) as client:
        table = client.manager.tables[1]
        assert sum(len(d.actions) for d in table.record.deals) >= actions  # nothing acknowledged was lost
        await play_to_the_end(world, client, 1)
        await world.settle(client)
        assert table.match.phase == "game_over"
        stored = await client.store.load_record(table.row)
        assert stored.to_json() == table.record.to_json()


async def test_one_slow_table_does_not_hold_up_another(world):
    import time

    async with world.running() as client:
        slow = await started(world, client, world.alice, world.bob)
        fast = await started(world, client, world.carol, world.dan)
        original = client.presenter._edit_table_message

        async def sluggish(table):
            if table.id == slow.id:
                await asyncio.sleep(1.5)  # Discord being slow for this table's channel, say
            await original(table)

        client.presenter._edit_table_message = sluggish
        await world.slash(user_to_move(world, slow), "pass", {"table": slow.id})  # slow's table edit now hangs
        start = time.monotonic()
        r = await world.slash(user_to_move(world, fast), "pass", {"table": fast.id})
        assert "✅" in r.content and time.monotonic() - start < 0.75
        client.presenter._edit_table_message = original


async def test_a_slow_drawing_answers_thinking_first_then_the_hand(world, monkeypatch):
    import bot.presentation.images
    import bot.presentation.overload

    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        original = bot.presentation.images.hand_image

        async def slow_hand_image(*args, **kwargs):
            await asyncio.sleep(0.3)
            return await original(*args, **kwargs)

        monkeypatch.setattr(bot.presentation.overload, "PATIENCE", 0.05)
        monkeypatch.setattr(bot.presentation.images, "hand_image", slow_hand_image)
        mover = user_to_move(world, table)
        r = await world.click(mover, table_message(world, table), "hand")
        assert r.callback_type == 5 and r.deferred  # "thinking…", ephemeral
        message = await r.wait_for_message()
        assert message.ephemeral and "Your hand" in message.content
        hand = await world.fake.click(mover, message, find_id(message, "hp", "=" + encode_action({"type": "pass"})))
        await hand.wait()
        # a pass leaves the cards as they were: the picture is not drawn again, the message is updated at once
        assert hand.callback_type == 7 and "✅ You passed" in hand.message.content
