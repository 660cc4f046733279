"""A table's work belongs to the process that holds its server's shard (bot/tables/placement.py), and a message
never goes backwards when several processes edit it (bot/storage/shown.py): real bots on two shards of one offline
Discord and one PostgreSQL database, players tapping their live hands in their DMs (which reach shard 0)."""

from __future__ import annotations

import asyncio
import random

from bot.presentation.messages import table_content, table_state
from bot.storage.engines import open_store
from bot.storage.shard_leases import leases
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


def human_to_move(table) -> bool:
    seat = table.match.to_move
    return seat is not None and not table.is_computer(seat) and bool(table.match.legal_json())


def table_message_edits(world, message_id: int) -> list[dict]:
    return [
        c.json
        for c in world.fake.channel_calls(world.channel)
        if c.method == "PATCH" and c.path.endswith(f"/messages/{message_id}") and c.json
    ]


async def test_a_dm_tap_is_handed_to_the_tables_process_which_applies_it_and_answers_the_player(
    tmp_path, postgres_server
):
    """Shard 0's process (A) receives every DM tap; for a table on shard 1 it acknowledges the tap and forwards it.
    B, the table's process, stores the move, answers the player through the tap's token (their hand, edited in
    place), moves the computers and edits the table message.  A applies no move and draws nothing."""
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = world.bot(1, shard_id=0, shard_count=2), world.bot(2, shard_id=1, shard_count=2)
        # What each process does for the table: computer moves, table-message edits, players' moves applied.
        work = {name: {"computer": 0, "edit": 0, "act": 0} for name in "ab"}
        async with world.fake.running(a), world.fake.running(b):
            for name, bot in (("a", a), ("b", b)):
                move, edit, act = bot.manager._computer_move, bot.presenter._edit_table_message, bot.manager.act

                async def counted_move(table, seat, name=name, move=move):
                    work[name]["computer"] += 1
                    return await move(table, seat)

                async def counted_edit(table, name=name, edit=edit):
                    work[name]["edit"] += 1
                    await edit(table)

                async def counted_act(*args, name=name, act=act, **kwargs):
                    work[name]["act"] += 1
                    return await act(*args, **kwargs)

                bot.manager._computer_move, bot.presenter._edit_table_message = counted_move, counted_edit
                bot.manager.act = counted_act
            await until(lambda: a.presenter.placement.alive == {1} and b.presenter.placement.alive == {0}, TIMEOUT)
            lobby = await world.new_table(world.alice, "toy", options="players=3")  # on shard 1: process B
            await world.click(world.bob, lobby, "join")
            await world.click(world.alice, lobby, "cpu")
            await world.click(world.alice, lobby, "start")
            tb = b.manager.tables[max(b.manager.tables)]
            await until(lambda: tb.id in a.manager.tables)
            users = {u.id: u for u in (world.alice, world.bob)}
            rng, taps = random.Random(11), 0

            def hand_to_tap():  # the hand of the human to move, showing this turn (or None)
                if not human_to_move(tb) or b.manager.forced_play(tb) is not None:  # (a forced card: the bot's)
                    return None
                user = users[tb.seats[tb.match.to_move].user_id]
                found = hand_at(world, user, tb.version)
                return None if found is None else (found, user)

            for _ in range(300):
                if tb.match.phase == GAME_OVER:
                    break
                # (a forced card may be played for a player while their hand is awaited: looked at again)
                await until(lambda: tb.match.phase == GAME_OVER or hand_to_tap() is not None, TIMEOUT)
                if tb.match.phase == GAME_OVER:
                    break
                hand, user = hand_to_tap()
                seat = tb.match.to_move
                legal = [x for x in tb.match.legal_json() if x.get("seat") == seat]
                action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
                result = await tap_action(world, tb, user, hand, action)
                assert result.deferred  # acknowledged by A at once, answered by B through the token
                answer = result.message.content if result.message else ""
                assert "✅" in answer and "**Your hand**" in answer, answer
                taps += 1
            else:
                raise AssertionError("the game did not end")
            await world.settle(b)
            await world.settle(a)
            assert taps >= 4
            # Every move, computer move and table picture was the table's server's process's.
            assert work["a"] == {"computer": 0, "edit": 0, "act": 0}, work
            assert work["b"]["computer"] > 0 and work["b"]["edit"] > 0 and work["b"]["act"] >= taps, work
            assert a.forwarder.forwarded_count >= taps and a.forwarder.taken_back_count == 0
            assert b.forwarder.answered_count == a.forwarder.forwarded_count
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
            await until(lambda: tb.id in a.manager.tables)
            await world.settle(b)
            ta = await a.manager.get(tb.id)  # (A reads another process's table when it needs it)
            assert ta.version == tb.version
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
            await b.presenter.placement.flush()  # (what B showed is written within RECORD_EVERY)
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


async def holders(url: str) -> dict[int, str | None]:
    store = await open_store(url)
    try:
        return {lease.shard_id: lease.holder for lease in await leases(store)}
    finally:
        await store.close()


async def test_a_dead_owners_tables_move_on_in_another_process_until_it_is_back(tmp_path, postgres_server):
    """The table's server is on shard 1 (process B); B is SIGKILLed at a human's turn that a computer follows.  The
    human's tap, forwarded by A (shard 0) to a B that will never claim it, is answered by A after ``CLAIM_WAIT``; once
    B's lease is stale A takes shard 1 over and moves the table's computer and edits its table message.  B, started
    again, asks for its shard back; A hands it over and B drives the table again.  No move is made twice."""
    url = await postgres.new_schema(postgres_server)
    env = {"CARDTABLE_LEASE_SECONDS": "2"}
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = BotProcess(world, url, 0, 1, env=env), BotProcess(world, url, 1, 2, env=env)
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

            async def tap_a_human_move(kill_first: bool = False) -> tuple[int, Table, int]:
                """Tap a human's move (``kill_first``: one a computer's follows, B killed just before): the table
                before it (its version and itself), and the tap's interaction id."""
                give_up = loop.time() + 60
                while loop.time() < give_up:
                    table, store = await the_game(url, table_id)
                    await store.close()
                    assert table.match.phase != GAME_OVER, "the game ended first"
                    seat = table.match.to_move
                    user = users.get(table.seats[seat].user_id) if seat is not None else None
                    hand = hand_at(world, user, table.version) if user is not None else None
                    if hand is None:  # a computer's turn, or the hand not yet edited for it
                        await asyncio.sleep(0.05)
                        continue
                    legal = [x for x in table.match.legal_json() if x.get("seat") == seat]
                    action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
                    after, store = await the_game(url, table_id)  # a copy to try the move on
                    await store.close()
                    after.match.apply_observed(action_from_json({**action, "seat": seat}))
                    follows = after.is_computer(after.match.to_move) and after.match.phase != GAME_OVER
                    if kill_first and not follows:  # (any human move keeps the game going until one is found)
                        result = await tap_action(world, table, user, hand, action)
                        assert "✅" in (result.message.content if result.message else ""), result.content
                        continue
                    if kill_first:
                        await b.kill()
                    result = await tap_action(world, table, user, hand, action)
                    answer = result.message.content if result.message else ""
                    assert "✅" in answer, answer
                    return table.version, table, result.id
                raise AssertionError("no such move came")

            async def moved_past(version: int, seconds: float) -> None:
                for _ in range(int(seconds / 0.05)):
                    game, store = await the_game(url, table_id)
                    await store.close()
                    if game.version > version:
                        return
                    await asyncio.sleep(0.05)
                raise AssertionError(f"the table stayed at version {version}")

            for _ in range(3):
                await tap_a_human_move()
            before = await holders(url)
            version, table, killed_tap = await tap_a_human_move(
                kill_first=True
            )  # B is killed first: A answers the tap itself
            edits = len(table_message_edits(world, table.row.message_id))
            await moved_past(version + 1, 20)  # A took shard 1 over and moved the computer
            message_id = table.row.message_id
            await until(lambda: len(table_message_edits(world, message_id)) > edits, TIMEOUT)  # and showed it
            taken = await holders(url)
            assert taken[1] == taken[0] == before[0] != before[1]  # A holds both shards now

            await b.start()  # the supervisor restarts B: A hands shard 1 back
            for _ in range(400):
                back = await holders(url)
                if back[1] not in (None, taken[1]):
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("B did not get its shard back")
            assert back[0] == taken[0]
            version, _, _ = await tap_a_human_move()  # forwarded to B again, which answers it
            await moved_past(version, 20)

            # The tap made while B died is stored, once; the record replays.
            game, store = await the_game(url, table_id)
            try:
                rows = await store.fetch_all(
                    "SELECT COUNT(*) FROM actions WHERE interaction_id = ?", (str(killed_tap),)
                )
                assert rows[0][0] == 1
                assert replay(game.record).error is None
            finally:
                await store.close()
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
