"""Turn pings, player settings, auto-play of a forced card and the channel's request budget, end to end through
the offline Discord (which counts who is notified of what, and every request to each channel)."""

from __future__ import annotations

import random

import pytest

from bot.presentation.choices import BUTTON_TYPES  # noqa: F401  (act_through_ui's buttons)
from rules.game import GAME_OVER
from tests.botkit.harness import act_through_ui, bot_world


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def set_settings(world, user, **options):
    result = await world.slash(user, "player", options, subcommand="settings")
    assert result.ephemeral, result.content
    return result.content


async def started(world, client, users, game="belote", clock=None, options=None):
    return await world.seated_and_started(client, list(users), game, clock=clock, options=options)


def pending_pings(world, channels) -> set[int]:
    """Turn pings still shown: bot messages that notified someone and were not deleted."""
    return {
        n.message.id
        for n in world.fake.notifications()
        if not n.message.deleted and n.message.channel in channels and is_ping(n)
    }


def is_ping(note) -> bool:
    return note.message.content.startswith("🔔")


def pings(world, user=None):
    return [n for n in world.fake.notifications(user) if is_ping(n)]


async def act_randomly(world, table, rng):
    match = table.match
    seat = match.to_move
    mine = [a for a in match.legal_json() if a.get("seat") == seat]
    action = {k: v for k, v in rng.choice(mine).items() if k != "seat"}
    user = world.fake.world.users[table.seats[seat].user_id]
    result = await act_through_ui(world, table, user, action)
    assert "✅" in (result.message.content if result.message else ""), (action, result.content)
    return seat


async def test_a_four_human_deal_pings_each_turn_change_once_and_never_the_player_who_keeps_it(world):
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        for user in users:  # every card by hand here: auto-play has its own test
            assert "Auto-play: off" in await set_settings(world, user, auto_play=False)
        table = await started(world, client, users)
        notes = pings(world)
        assert [n.user.id for n in notes] == [table.seats[table.match.to_move].user_id]
        first = notes[0].message
        assert first.channel is world.channel and f"<@{notes[0].user.id}>" in first.content
        rng, steps, kept, changes = random.Random(3), 0, 0, 1
        while table.match.deal_index == 0 and table.match.phase != GAME_OVER:
            before = len(world.fake.notifications())
            acted = await act_randomly(world, table, rng)
            await world.settle(client)
            steps += 1
            new = world.fake.notifications(since=before)
            if table.match.deal_index == 0:  # (a new deal's hands are DMed: those notify too)
                assert all(is_ping(n) for n in new), new
            new = [n for n in new if is_ping(n)]
            to_move = table.match.to_move
            if to_move is None:  # the game is over
                assert new == []
            elif to_move == acted:
                kept += 1
                assert new == [], "no ping for the player who keeps the turn"
            else:
                changes += 1
                assert [n.user.id for n in new] == [table.seats[to_move].user_id], (steps, new)
            assert len(pending_pings(world, {world.channel})) <= 1
        assert len(pings(world)) == changes
        print(f"\n{steps} actions, {changes} turn changes pinged, {kept} kept turns not pinged")


async def test_an_async_table_pings_by_dm_and_closed_dms_fall_back_to_the_channel(world):
    """At an async table the clock's turn summary is the DM ping (one notification a turn, not two)."""
    async with world.running() as client:
        users = [world.alice, world.closed]
        table = await started(world, client, users, game="toy", clock="async")
        rng = random.Random(1)
        for _ in range(6):
            if table.match.phase == GAME_OVER or table.status != "playing":
                break
            seat = table.match.to_move
            await act_randomly(world, table, rng)
            await world.settle(client)
            assert seat is not None
        notes = [n for n in world.fake.notifications() if is_ping(n) or n.message.content.startswith("⏰ Your turn")]
        assert notes, "some turn changed"
        for note in notes:
            if note.user is world.alice:
                assert note.message.channel is world.fake.dm_channel(world.alice)
            else:
                assert note.user is world.closed and note.message.channel is world.channel
        assert {n.user for n in notes} == {world.alice, world.closed}
        assert len(pending_pings(world, {world.channel, world.fake.dm_channel(world.alice)})) <= 1


async def test_the_settings_command_shows_and_changes_the_settings(world):
    async with world.running():
        text = await set_settings(world, world.alice)
        assert "table clock's default" in text and "Auto-play: on" in text
        text = await set_settings(world, world.alice, turn_ping="dm", auto_play=False)
        assert "a DM" in text and "Auto-play: off" in text
        assert "a DM" in await set_settings(world, world.alice)  # kept
        text = await set_settings(world, world.alice, turn_ping="default")
        assert "table clock's default" in text and "Auto-play: off" in text
    async with world.running():  # saved across a restart
        assert "Auto-play: off" in await set_settings(world, world.alice)


async def test_turn_pings_off_sends_none(world):
    async with world.running() as client:
        for user in (world.alice, world.bob):
            await set_settings(world, user, turn_ping="off")
        table = await started(world, client, [world.alice, world.bob], game="toy")
        await act_randomly(world, table, random.Random(2))
        await world.settle(client)
        assert pings(world) == []


async def test_a_forced_last_card_is_played_for_its_player(world):
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await started(world, client, users)
        rng, by_hand = random.Random(5), 0
        while table.match.deal_index == 0 and table.match.phase != GAME_OVER:
            await act_randomly(world, table, rng)
            by_hand += 1
            await world.settle(client)
        played = table.record.deals[0].actions
        assert len(played) > by_hand, "the forced cards were played for their players"
        if len([a for a in played if a["type"] == "play"]) == 32:  # a deal played out (not thrown in)
            assert len(played) - by_hand >= 4  # at least everyone's last card


async def test_the_channel_budget_holds_over_a_deal_with_fast_players(world):
    window = 0.3
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running(channel_requests=5, channel_window=window) as client:
        mark = world.fake.rest_mark()
        table = await started(world, client, users)
        rng = random.Random(11)
        while table.match.deal_index == 0 and table.match.phase != GAME_OVER:
            if table.match.to_move is None or table.seats[table.match.to_move].user_id is None:
                await world.settle(client, rounds=1)
                continue
            try:
                await act_randomly(world, table, rng)  # no waiting for the bot between moves
            except AssertionError:
                await world.settle(client, rounds=1)  # an auto-played card got there first
        await world.settle(client)
        calls = sorted(c.timestamp for c in world.fake.channel_calls(world.channel, since=mark))
        busiest = max(sum(1 for t in calls if start <= t < start + window) for start in calls)
        assert busiest <= 5, busiest
        print(f"\n{len(calls)} channel requests, at most {busiest} in any {window} s window")
