"""Issue 18's fairness, "spectators of a board cannot play it", through the offline Discord: a daylong player may
not watch a board of their own instance that they have still to play (refused in words), and someone who watched
a board being played is never dealt that board of that instance afterwards (the next unwatched board instead);
a player of a duplicate round may not watch the round's tables before their own has finished."""

from __future__ import annotations

from bot.storage import daylong as ds
from bot.storage import tournaments as ts
from bot.storage.watchers import watchers_of
from tests.botkit.harness import bot_world, play_to_the_end
from tests.test_tournament_daylong import _board_table, _create, _play
from tests.test_tournament_flow import _create as _create_tournament
from tests.test_tournament_flow import _entry, _players, start


async def test_a_daylong_board_watched_is_not_played_and_one_still_to_play_is_not_watched(tmp_path):
    async with bot_world(tmp_path) as world:
        alice, bob, carol = world.alice, world.bob, world.carol
        async with world.running() as client:
            announcement, tid = await _create(world, alice, name="Mardi", game="belote", boards=8, level="random",
                                              instances=1)  # fmt: skip
            await _play(world, alice, announcement)
            await play_to_the_end(world, client, await _board_table(client, tid, alice), seed=3)
            await world.settle(client)
            await _play(world, carol, announcement)  # carol is in the field, board 1 under way, board 2 to come
            await _play(world, alice, announcement)
            alices_second = await _board_table(client, tid, alice)

            refused = await world.slash(carol, "table", {"table": alices_second}, subcommand="watch")
            assert refused.ephemeral and "board 2 of Mardi, which you have still to play" in refused.content
            assert "cannot watch it" in refused.content
            assert carol.id not in await watchers_of(client.store, alices_second), "nothing half-applied"

            watched = await world.slash(bob, "table", {"table": alices_second}, subcommand="watch")
            assert "You are watching table" in watched.content, watched.content  # bob has not entered yet
            await _play(world, bob, announcement)
            await play_to_the_end(world, client, await _board_table(client, tid, bob), seed=4)
            await world.settle(client)
            await _play(world, bob, announcement)
            bobs = sorted(b.board_no for b in await ds.boards(client.store, tid) if b.user_id == bob.id)
            assert bobs == [0, 2], "board 2, which bob watched being played, is skipped: he is dealt board 3"


async def test_a_duplicate_rounds_player_may_not_watch_its_boards_until_their_own_table_is_over(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 8)
        async with world.running() as client:
            announcement = await _create_tournament(world, world.alice, name="Dup", game="belote", format="melee",
                                                    rounds=1, deals=1, duplicate=True)  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            await start(world, world.alice, tid)
            await world.settle(client)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and len(t.played[0].matches) == 2
            first, second = t.played[0].matches
            player = next(u for u in users if u.id == second.seats[0][1])

            refused = await world.slash(player, "table", {"table": first.table_id}, subcommand="watch")
            assert refused.ephemeral and "this round's boards, which you have still to play" in refused.content
            assert player.id not in await watchers_of(client.store, first.table_id)
            outsider = await world.slash(world.stranger, "table", {"table": first.table_id}, subcommand="watch")
            assert "You are watching table" in outsider.content, "someone not in the round may watch"

            await play_to_the_end(world, client, second.table_id, seed=second.table_id)
            await world.settle(client)
            allowed = await world.slash(player, "table", {"table": first.table_id}, subcommand="watch")
            assert "You are watching table" in allowed.content, "their own table is over: the boards are played"
