"""Turn clocks through the offline Discord with a FakeClock (no real waiting): the clock shown, reminders, the
stand-in at the deadline, I'm back, nudges, async DMs and summaries, substitutes, restarts, closing idle tables."""

from __future__ import annotations

import logging
import random

import pytest

from bot.clocks.clock import FakeClock
from bot.clocks.service import SUBSTITUTE_AFTER
from bot.presentation.clock_view import clock_of
from bot.storage.clocks import closure_reason
from tests.botkit.harness import bot_world, find_id, table_message
from tests.fakediscord.faults import SERVER_ERROR, Fault


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        w.clock = FakeClock()
        yield w


def running(world, **kw):
    return world.running(clock=world.clock, **kw)


async def advance(world, client, seconds: float) -> None:
    await world.clock.advance(seconds)
    await world.settle(client)
    await client.clocks.settle()
    await world.settle(client)


async def started(world, client, *users, clock="live", options=None):
    table = await world.seated_and_started(client, list(users), clock=clock, options=options)
    await client.clocks.settle()
    return table


def user_at(world, table, seat):
    return world.fake.world.users[table.seats[seat].user_id]


def channel_texts(world, since=0):
    return [m.content for m in world.fake.messages(world.channel)[since:]]


RNG = random.Random(1)


async def act_for(client, table, seat, rng=RNG):
    """A random legal action for a human seat, through the table manager."""
    mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
    action = {k: v for k, v in rng.choice(mine).items() if k != "seat"}
    if action["type"] == "discard":
        action = {"type": "discard", "cards": rng.sample(action["from"], action["choose"])}
    await client.manager.act(table.id, table.seats[seat].user_id, action, expected_version=table.version)


async def test_the_clock_is_chosen_shown_and_validated(world):
    async with running(world) as client:
        r = await world.slash(world.alice, "table", {"game": "toy", "clock": "banana"}, subcommand="new")
        assert r.ephemeral and "not a clock" in r.content
        r = await world.slash(world.alice, "table", {"game": "toy", "clock": "3s"}, subcommand="new")
        assert r.ephemeral and "between 15 s" in r.content
        r = await world.slash(world.alice, "table", {"game": "toy", "clock": "5m"}, subcommand="new")
        assert "Clock: custom 5 min (5 min a turn)" in r.message.content
        r = await world.slash(world.bob, "table", {"game": "toy"}, subcommand="new")
        assert "Clock: casual (10 min a turn)" in r.message.content  # the server's default
        ac = await world.fake.autocomplete(world.alice, world.channel, "table", "clock", "", {"game": "toy"},
                                           subcommand="new")  # fmt: skip
        await ac.wait()
        assert [c["value"] for c in ac.choices] == ["live", "casual", "async"]
        table = await started(world, client, world.carol, world.dan, clock="live")
        text = table_message(world, table).content
        assert "⏱ Clock: live, 1 min a turn" in text and "runs out <t:" in text
        assert "Nudge" in str(table_message(world, table).components)


async def test_reminder_then_a_stand_in_plays_until_i_am_back(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        seat = table.match.to_move
        mover = user_at(world, table, seat)
        mark = len(world.fake.messages(world.channel))
        await advance(world, client, 44)
        assert not any("left" in t for t in channel_texts(world, mark))
        await advance(world, client, 2)
        reminder = [t for t in channel_texts(world, mark) if "your turn" in t]
        assert reminder and f"<@{mover.id}>" in reminder[0] and "15 s left" in reminder[0], reminder
        actions = len(table.record.deals[-1].actions)
        await advance(world, client, 15)
        assert any("ran out of time" in t and f"<@{mover.id}>" in t for t in channel_texts(world, mark))
        assert seat in table.away
        assert len(table.record.deals[-1].actions) > actions  # the stand-in played the seat, legally
        assert table.record.deals[-1].actions[actions]["seat"] == seat
        message = table_message(world, table)
        assert "A computer plays for" in message.content
        # someone else cannot press I'm back for them
        r = await world.click(world.stranger, message, "back")
        assert r.ephemeral and "not seated" in r.content
        other = world.bob if mover is world.alice else world.alice
        r = await world.click(other, message, "back")
        assert r.ephemeral and "your seat is yours" in r.content
        r = await world.click(mover, message, "back")
        assert r.ephemeral and "Welcome back" in r.content
        assert seat not in table.away
        await world.settle(client)
        # from now on the seat is theirs: when its turn comes a fresh deadline runs for them
        for _ in range(20):
            if table.match.to_move == seat or table.status != "playing":
                break
            await act_for(client, table, table.match.to_move)
            await world.settle(client)
        if table.status == "playing":
            assert clock_of(table).seat == seat and clock_of(table).deadline == world.clock.now() + 60


async def test_when_everyone_is_away_the_table_waits_and_playing_brings_a_player_back(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        await advance(world, client, 61)
        await advance(world, client, 61)
        assert len(table.away) == 2 and table.status == "playing"
        seat = table.match.to_move
        actions = len(table.record.deals[-1].actions)
        await advance(world, client, 120)
        assert len(table.record.deals[-1].actions) == actions  # nobody plays a table of absent players
        assert clock_of(table).deadline is None
        await act_for(client, table, seat)  # the player is back by playing
        await client.clocks.settle()  # (the clocks hear the action as a table event)
        assert seat not in table.away
        await world.settle(client)


async def test_nudge_once_per_turn(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        seat = table.match.to_move
        mover = user_at(world, table, seat)
        other = world.bob if mover is world.alice else world.alice
        message = table_message(world, table)
        r = await world.click(mover, message, "nudge")
        assert r.ephemeral and "your own turn" in r.content
        r = await world.click(world.stranger, message, "nudge")
        assert r.ephemeral and "Only the players" in r.content
        mark = len(world.fake.messages(world.channel))
        r = await world.click(other, message, "nudge")
        assert r.ephemeral and "nudged" in r.content
        await client.clocks.settle()
        nudges = [t for t in channel_texts(world, mark) if "nudges you" in t]
        assert len(nudges) == 1 and f"<@{mover.id}>" in nudges[0] and "1 min left" in nudges[0]
        r = await world.slash(other, "table", {}, subcommand="nudge")
        assert r.ephemeral and "already nudged" in r.content


async def test_async_turns_come_by_dm_with_a_summary_and_a_reminder(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob, clock="async")
        seat = table.match.to_move
        mover = user_at(world, table, seat)
        other_seat = 1 - seat
        other = user_at(world, table, other_seat)
        dm = next(m.content for m in world.dms(mover) if "Your turn at" in m.content)
        assert f"Your turn at table #{table.id}" in dm and "Card Club" in dm and f"<#{world.channel.id}>" in dm
        await act_for(client, table, seat)
        await world.settle(client)
        await client.clocks.settle()
        if table.match.to_move == other_seat:
            dm = [m.content for m in world.dms(other) if "Your turn at" in m.content][-1]
            assert "Since your last move" in dm and mover.username in dm
        waiting = user_at(world, table, table.match.to_move)
        before = len(world.dms(waiting))
        await advance(world, client, 21 * 3600)
        reminder = world.dms(waiting)[before:]
        assert len(reminder) == 1 and "3 h left" in reminder[0].content and f"table #{table.id}" in reminder[0].content
        # and /tables lists the table with whose turn it is
        r = await world.slash(waiting, "table", {}, subcommand="list")
        assert r.ephemeral and f"#{table.id}" in r.content and "your turn" in r.content and "3 h left" in r.content
        idle = world.alice if waiting is world.bob else world.bob
        r = await world.slash(idle, "table", {}, subcommand="list")
        assert f"{waiting.username}'s turn" in r.content


async def test_a_seat_idle_for_turns_in_a_row_can_go_to_a_substitute(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob, options="target=5")
        bob_seat = table.seat_of(world.bob.id)
        # alice plays at once; bob never does
        for _ in range(200):
            if clock_of(table).idle_turns.get(bob_seat, 0) >= SUBSTITUTE_AFTER:
                break
            if table.match.to_move == bob_seat and bob_seat not in table.away:
                await advance(world, client, 61)
            elif table.match.to_move != bob_seat:
                await act_for(client, table, table.match.to_move)
            await world.settle(client)
        await client.clocks.settle()
        prompt = next(m for m in world.fake.messages(world.channel) if "turns in a row" in m.content)
        r = await world.click(world.carol, prompt, "offer")
        assert r.ephemeral and "Only the host" in r.content
        r = await world.click(world.alice, prompt, "offer")
        assert r.ephemeral and "offered" in r.content
        await client.clocks.settle()
        offer = next(m for m in world.fake.messages(world.channel) if "is open" in m.content)
        r = await world.click(world.alice, offer, "take")
        assert r.ephemeral and "already play" in r.content
        r = await world.click(world.carol, offer, "take")
        assert not r.ephemeral and "takes seat" in r.content
        await client.clocks.settle()
        assert table.seats[bob_seat].user_id == world.carol.id and bob_seat not in table.away
        assert "Your hand" in world.dms(world.carol)[-1].content
        r = await world.click(world.dan, offer, "take")
        assert r.ephemeral and "not open" in r.content
        r = await world.slash(world.bob, "table", {"table": table.id}, subcommand="back")
        assert r.ephemeral and "not seated" in r.content


async def test_a_restart_keeps_a_pending_deadline(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        table_id, seat = table.id, table.match.to_move
        deadline = clock_of(table).deadline
        await advance(world, client, 30)
    async with running(world, seed=9) as client:
        table = client.manager.tables[table_id]
        assert clock_of(table).deadline == deadline and clock_of(table).seat == seat
        assert world.clock.pending() and min(world.clock.pending()) <= deadline
        await advance(world, client, 31)
        assert seat in table.away
    async with running(world, seed=3) as client:
        table = client.manager.tables[table_id]
        assert seat in table.away  # the stand-in is remembered
        r = await world.click(user_at(world, table, seat), table_message(world, table), "back")
        assert "Welcome back" in r.content


async def test_an_abandoned_table_is_closed_and_its_record_kept(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        lobby = await world.new_table(world.carol, "toy")
        await advance(world, client, 5 * 60)
        assert table.status == "playing" and len(table.away) == 2  # both timed out: the table waits
        assert "Everyone is away" in table_message(world, table).content
        await advance(world, client, 10 * 60)
        assert table.status == "cancelled"
        assert any(f"Table #{table.id} was closed" in t for t in channel_texts(world))
        assert await closure_reason(client.store, table.id) == "abandoned"
        r = await world.slash(world.alice, "table", {"table": table.id}, subcommand="record")
        assert r.message.attachments[0].filename == f"table-{table.id}.json"
        # the lobby (casual clock, the default) is closed after two hours without a change
        lobby_table = client.manager.tables[int(lobby.custom_ids()[0].split(":")[1])]
        assert lobby_table.status == "lobby"
        await advance(world, client, 100 * 60)
        assert lobby_table.status == "lobby"
        await advance(world, client, 6 * 60)
        assert lobby_table.status == "cancelled"
        assert "cancelled" in world.fake.world.messages[lobby.id].content


async def test_only_an_admin_closes_a_running_table_and_its_players_are_pinged(world):
    import discord

    admin = world.fake.add_user("admin")
    world.fake.add_member(world.guild, admin, permissions=discord.Permissions(manage_guild=True).value)
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        for user in (world.alice, world.bob):  # the host alone may cancel only in the lobby
            r = await world.slash(user, "table", {"table": table.id}, subcommand="cancel")
            assert (
                r.ephemeral and f"Table #{table.id} has started: its host can cancel it only in the lobby" in r.content
            )
            assert "vote" in r.content and "server admin" in r.content
        assert table.status == "playing"
        mark = world.fake.mark()
        r = await world.slash(admin, "table", {"table": table.id}, subcommand="cancel")
        assert r.ephemeral and "cancelled" in r.content
        assert table.status == "cancelled"
        notice = await world.fake.wait_for_message(world.channel, lambda m: "ended by a server admin" in m.content,
                                                   since=mark)  # fmt: skip
        assert notice.content.startswith(f"<@{world.alice.id}> <@{world.bob.id}> table #{table.id}")
        assert "unrated" in notice.content
        await advance(world, client, 3600)  # no timer fires on a closed table
        assert not [t for t in channel_texts(world) if "ran out of time" in t]


@pytest.mark.parametrize("game", ["200", "500", "belote", "dabaifen"])
async def test_the_stand_in_plays_every_real_game_with_the_computer_player(world, game, caplog):
    async with running(world) as client:
        result = await world.slash(world.alice, "table", {"game": game, "clock": "live"}, subcommand="new")
        lobby = result.message
        await world.click(world.bob, lobby, "join")
        table = client.manager.tables[int(find_id(lobby, "join").split(":")[1])]
        while not table.is_full():
            await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        bob = table.seat_of(world.bob.id)
        played = 0
        for _ in range(300):
            if played >= 4 or table.status != "playing":
                break
            await world.settle(client)
            seat = table.match.to_move
            if seat == bob and bob not in table.away:
                await advance(world, client, 61)
            elif seat is not None and table.seats[seat].user_id == world.alice.id:
                await act_for(client, table, seat)
            played = clock_of(table).idle_turns.get(bob, 0)
        assert played >= 4
        assert "stand-in failed" not in caplog.text


async def test_tables_from_before_clocks_get_the_server_default_at_start_up(world):
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        table_id = table.id
        await client.store.write_one("DELETE FROM table_clocks WHERE table_id = ?", (table_id,))
    async with running(world) as client:
        table = client.manager.tables[table_id]
        clock = clock_of(table)
        assert clock.choice.kind == "casual" and clock.deadline == world.clock.now() + 600
        await advance(world, client, 601)
        assert table.away


async def test_the_table_image_carries_the_clock(tmp_path):
    from bot.presentation import images

    async with bot_world(tmp_path, images_on=True) as world:
        world.clock = FakeClock()
        calls = []
        real = images.table_image

        async def spy(state, names, **kwargs):
            calls.append(kwargs.get("clock"))
            return await real(state, names, **kwargs)

        images.table_image = spy
        try:
            async with running(world) as client:
                table = await started(world, client, world.alice, world.bob, clock="async")
                assert table_message(world, table).attachments
                assert calls and calls[-1] == "24 h / turn"
        finally:
            images.table_image = real
            images.enabled = False


async def test_a_clock_message_discord_refuses_costs_one_log_line_not_a_traceback(world, caplog):
    """The bot lost the right to post in the channel (Discord answers 403): a nudge cannot be said there; the clock
    goes on and the log says why in one line."""
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob)
        mover = user_at(world, table, table.match.to_move)
        other = world.bob if mover is world.alice else world.alice
        world.fake.faults.add(Fault(SERVER_ERROR, "POST", "/channels/{channel_id}/messages", times=None, status=403))
        with caplog.at_level(logging.WARNING):
            r = await world.click(other, table_message(world, table), "nudge")
            assert r.ephemeral and "nudged" in r.content
            await client.clocks.settle()
        failed = [rec for rec in caplog.records if "clock output" in rec.getMessage()]
        assert len(failed) == 1 and failed[0].levelno == logging.WARNING, [r.getMessage() for r in failed]
        assert "failed: Forbidden: 403" in failed[0].getMessage() and failed[0].exc_info is None
        assert not [rec for rec in caplog.records if rec.exc_info or rec.levelno >= logging.ERROR]
        assert clock_of(table).deadline is not None  # the clock still runs
