"""A table's work belongs to the process that holds its server's shard (bot/tables/placement.py), and a message
never goes backwards when several processes edit it (bot/storage/shown.py): real bots on two shards of one offline
Discord and one PostgreSQL database, players tapping their live hands in their DMs (which reach shard 0)."""

from __future__ import annotations

import asyncio
import random

from bot.presentation.messages import table_content, table_state
from bot.storage.engines import open_store
from bot.storage.shown import claim_shown, shown_version
from bot.tables.placement import SWEEP_INTERVAL, Placement, shard_of
from bot.tables.service import Table
from rules.actions import action_from_json
from rules.game import GAME_OVER
from rules.records import replay
from tests.botkit import postgres
from tests.botkit.harness import TIMEOUT, bot_world, find_id, tap_action
from tests.test_processes import BotProcess
from tests.test_shards import on_shard_one, until


def test_a_process_owns_the_tables_of_its_shards_and_a_lone_process_owns_them_all():
    guilds = [(n << 22) + 5 for n in range(6)]  # on shards 0, 1, 2, 0, 1, 2 of 3
    assert [shard_of(g, 3) for g in guilds] == [0, 1, 2, 0, 1, 2] and shard_of(None, 3) == 0
    middle = Placement.of(3, [1], None)
    assert middle.shared and [middle.owns_guild(g) for g in guilds] == [False, True, False] * 2
    assert not middle.owns_guild(None)  # a table without a server: DMs are shard 0's
    first_two = Placement.of(3, [0, 1], None)
    assert [first_two.owns_guild(g) for g in guilds] == [True, True, False] * 2
    for alone in (Placement.of(None, None, None), Placement.of(1, [0], None), Placement.of(2, [0, 1], None)):
        assert not alone.shared and all(alone.owns_guild(g) for g in [*guilds, None])


async def test_a_message_shows_no_older_version_than_it_showed(database):
    store = await open_store(database)
    try:
        assert (await claim_shown(store, 7, 1001, 5)).won
        assert (await claim_shown(store, 7, 1001, 8)).won
        late = await claim_shown(store, 7, 1001, 6)  # a late edit of an older state: left out
        assert not late.won and late.version == 8
        assert (await claim_shown(store, 7, 1001, 8)).won  # the same state again (a clock's line)
        again = await claim_shown(store, 7, 1001, 8, again=False)  # a live hand: already shown at this version
        assert not again.won and again.version == 8
        assert (await claim_shown(store, 7, 1002, 1)).won  # each message on its own
        assert await shown_version(store, 1001) == 8 and await shown_version(store, 1003) is None
    finally:
        await store.close()


async def the_game(url: str, table_id: int):
    """The table as the database has it now, read only (a manager's ``get`` would deal a next deal itself if it read
    the table between a deal's last card and the next deal's cards); and a store to close."""
    store = await open_store(url)
    row = await store.load_table(table_id)
    record = await store.load_record(row)
    match = replay(record).match
    table = Table(row, match.players, record=record, match=match)
    table.version = len(record.deals) + sum(len(deal.actions) for deal in record.deals)
    return table, store


def hand_at(world, user, version: int):
    """The user's live hand in their DMs, once it offers the choices of table ``version``."""
    for message in reversed(world.dms(user)):
        if "**Your hand**" in message.content and message.custom_ids():
            return message if any(f":hp:{version}:" in c for c in message.custom_ids()) else None
    return None


def table_message_edits(world, message_id: int) -> list[dict]:
    return [
        c.json
        for c in world.fake.channel_calls(world.channel)
        if c.method == "PATCH" and c.path.endswith(f"/messages/{message_id}") and c.json
    ]


async def test_dm_taps_are_stored_by_shard_0_and_the_tables_computers_and_message_are_its_servers_process(
    tmp_path, postgres_server
):
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = world.bot(1, shard_id=0, shard_count=2), world.bot(2, shard_id=1, shard_count=2)
        # What each process does for the table: computer moves and table-message edits.
        work = {name: {"computer": 0, "edit": 0} for name in "ab"}
        async with world.fake.running(a), world.fake.running(b):
            for name, bot in (("a", a), ("b", b)):
                move, edit = bot.manager._computer_move, bot.presenter._edit_table_message

                async def counted_move(table, seat, name=name, move=move):
                    work[name]["computer"] += 1
                    return await move(table, seat)

                async def counted_edit(table, name=name, edit=edit):
                    work[name]["edit"] += 1
                    await edit(table)

                bot.manager._computer_move, bot.presenter._edit_table_message = counted_move, counted_edit
            lobby = await world.new_table(world.alice, "toy", options="players=3")  # on shard 1: process B
            await world.click(world.bob, lobby, "join")
            await world.click(world.alice, lobby, "cpu")
            await world.click(world.alice, lobby, "start")
            tb = b.manager.tables[max(b.manager.tables)]
            await until(lambda: tb.id in a.manager.tables)
            ta = a.manager.tables[tb.id]
            users = {u.id: u for u in (world.alice, world.bob)}
            rng, taps = random.Random(11), 0
            for _ in range(300):
                if tb.match.phase == GAME_OVER:
                    break
                # B moves the computer and edits the human's hand; A hears of it.
                await until(lambda: ta.version == tb.version and not tb.is_computer(tb.match.to_move), TIMEOUT)
                if tb.match.phase == GAME_OVER:
                    break
                seat = tb.match.to_move
                user = users[tb.seats[seat].user_id]
                await until(lambda user=user: hand_at(world, user, tb.version) is not None, TIMEOUT)
                legal = [x for x in tb.match.legal_json() if x.get("seat") == seat]
                action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
                result = await tap_action(world, tb, user, hand_at(world, user, tb.version), action)  # (as B showed it)
                answer = (result.content or "") + (result.message.content if result.message else "")
                assert "✅" in answer, (answer, ta.version, tb.version, ta.match.phase, tb.match.phase, action)
                taps += 1
            else:
                raise AssertionError("the game did not end")
            await world.settle(b)
            await world.settle(a)
            assert taps >= 4
            # Every computer move and every table picture was the table's server's process's.
            assert work["a"] == {"computer": 0, "edit": 0}, work
            assert work["b"]["computer"] > 0 and work["b"]["edit"] > 0, work
            # The table message's last edit shows the game as it ended.
            edits = table_message_edits(world, tb.row.message_id)
            assert edits and edits[-1]["content"] == table_content(tb, table_state(tb))[:2000]

    store = await open_store(url)
    try:
        results = await store.fetch_all("SELECT COUNT(*) FROM game_results WHERE table_id = ?", (tb.id,))
        assert results[0][0] == 1
    finally:
        await store.close()


async def test_a_late_table_message_edit_from_a_process_that_is_behind_is_left_out(tmp_path, postgres_server):
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = world.bot(1, shard_id=0, shard_count=2), world.bot(2, shard_id=1, shard_count=2)
        async with world.fake.running(a), world.fake.running(b):
            tb = await world.seated_and_started(b, [world.alice, world.bob])
            await until(lambda: tb.id in a.manager.tables and a.manager.tables[tb.id].version == tb.version)
            ta = a.manager.tables[tb.id]
            hearing = a.manager.refresh

            async def deaf(table_id, seen_version=None):  # A stops hearing of B's moves: its copy falls behind
                return a.manager.tables.get(table_id)

            a.manager.refresh = deaf
            for _ in range(2):  # two moves B applies and shows (its player's, say)
                seat = tb.match.to_move
                legal = [x for x in tb.match.legal_json() if x.get("seat") == seat]
                chosen = next(x for x in legal if x["type"] != "pass")  # (two passes would throw the deal in)
                await b.manager.act(tb.id, tb.seats[seat].user_id, {k: v for k, v in chosen.items() if k != "seat"})
            await world.settle(b)
            assert ta.version < tb.version and ta.match.deal_index == tb.match.deal_index
            message_id = tb.row.message_id
            latest = table_content(tb, table_state(tb))[:2000]
            before = table_message_edits(world, message_id)
            assert before[-1]["content"] == latest

            a.presenter.refresh(ta)  # A, behind, edits the table message (a clock's refresh, say)
            await world.settle(a)
            after = table_message_edits(world, message_id)
            assert after == before  # left out: the message already shows a newer version

            a.manager.refresh = hearing  # A hears again and catches up: the same version may be shown again
            await a.manager.refresh(tb.id)
            await a.clocks.settle()  # (the table's clock too)
            assert ta.version == tb.version
            a.presenter.refresh(ta)
            await world.settle(a)
            again = table_message_edits(world, message_id)
            assert len(again) == len(before) + 1 and again[-1]["content"] == latest


async def test_a_table_whose_owner_is_dead_takes_taps_and_waits_for_it_and_its_restart_takes_it_over(
    tmp_path, postgres_server
):
    """The table's server is on shard 1 (process B); B is killed at a human's turn that a computer follows.  The
    human's tap in their DMs is still stored and answered by A (shard 0), but A does not move the table's computer:
    the table waits for its owner.  B, started again (a supervisor's job), takes the table over at once."""
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = BotProcess(world, url, 0, 1), BotProcess(world, url, 1, 2)
        try:
            await a.start()
            await b.start()
            lobby = await world.new_table(world.alice, "toy", options="players=3")
            await world.click(world.bob, lobby, "join")
            await world.click(world.alice, lobby, "cpu")
            await world.click(world.alice, lobby, "start")
            table_id = int(find_id(lobby, "hand").split(":")[1])
            users = {u.id: u for u in (world.alice, world.bob)}
            rng = random.Random(4)
            loop = asyncio.get_running_loop()
            give_up = loop.time() + 90  # (a loaded machine: the owner's hand edits may lag)
            for step in range(100_000):
                if loop.time() > give_up:
                    raise AssertionError("no human's move was followed by a computer's")
                table, store = await the_game(url, table_id)
                await store.close()
                assert table.match.phase != GAME_OVER, "the game ended before a human's move was followed by a computer"
                seat = table.match.to_move
                user = users.get(table.seats[seat].user_id) if seat is not None else None
                hand = hand_at(world, user, table.version) if user is not None else None
                if hand is None:  # a computer's turn, or the hand not yet edited for it
                    await asyncio.sleep(0.05)
                    continue
                legal = [x for x in table.match.legal_json() if x.get("seat") == seat]
                action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
                version = table.version
                after, store = await the_game(url, table_id)  # a copy to try the move on
                await store.close()
                after.match.apply_observed(action_from_json({**action, "seat": seat}))
                computer_next = after.is_computer(after.match.to_move) and after.match.phase != GAME_OVER
                if computer_next and step >= 3:
                    await b.kill()
                    edits = len(table_message_edits(world, table.row.message_id))
                result = await tap_action(world, table, user, hand, action)
                answer = (result.content or "") + (result.message.content if result.message else "")
                assert "✅" in answer, answer
                if not (computer_next and step >= 3):
                    continue
                await asyncio.sleep(1.5)  # (the computers move at once: ai_delay 0)
                waiting, store = await the_game(url, table_id)
                await store.close()
                assert waiting.version == version + 1 and waiting.is_computer(waiting.match.to_move)
                assert len(table_message_edits(world, table.row.message_id)) == edits  # nobody shows it
                await b.start()  # the supervisor restarts the shard's process: it takes the table over
                for _ in range(200):
                    moved, store = await the_game(url, table_id)
                    await store.close()
                    if moved.version > version + 1:
                        break
                    await asyncio.sleep(0.05)
                else:
                    raise AssertionError("the restarted owner did not move the table's computer")
                message_id = table.row.message_id
                await until(lambda: len(table_message_edits(world, message_id)) > edits, TIMEOUT)  # noqa: B023
                break
        finally:
            await a.stop()
            await b.stop()


async def test_the_owner_catches_up_a_move_whose_announcement_it_missed(tmp_path, postgres_server):
    """A NOTIFY can be missed; the owner's sweep (``SWEEP_INTERVAL``) finds the move in the store all the same, shows
    it and moves its computer."""
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = world.bot(1, shard_id=0, shard_count=2), world.bot(2, shard_id=1, shard_count=2)
        async with world.fake.running(a), world.fake.running(b):
            lobby = await world.new_table(world.alice, "toy", options="players=3")
            await world.click(world.bob, lobby, "join")
            await world.click(world.alice, lobby, "cpu")
            await world.click(world.alice, lobby, "start")
            tb = b.manager.tables[max(b.manager.tables)]
            await until(lambda: tb.id in a.manager.tables)
            ta = a.manager.tables[tb.id]
            users = {u.id: u for u in (world.alice, world.bob)}
            await until(lambda: ta.version == tb.version and not tb.is_computer(tb.match.to_move), TIMEOUT)
            seat = tb.match.to_move
            user = users[tb.seats[seat].user_id]
            await until(lambda: hand_at(world, user, tb.version) is not None, TIMEOUT)

            async def unheard(table_id: int) -> None:  # A's announcements are lost on the way
                return None

            a.store.announce_table = unheard
            before = tb.version
            legal = [x for x in tb.match.legal_json() if x.get("seat") == seat]
            action = {k: v for k, v in legal[0].items() if k != "seat"}
            result = await tap_action(world, tb, user, hand_at(world, user, tb.version), action)  # (as B showed it)
            assert "✅" in (result.content or "") + (result.message.content if result.message else "")
            await until(lambda: tb.version > before, 5 * SWEEP_INTERVAL)  # B found the move without the NOTIFY
