"""Every end of a table is heard as ``table_closed`` by its listeners (tournaments, the daylong, spectators, the
clocks), a game played to its target score as much as a cancelled one, once, after the game's last move."""

from __future__ import annotations

import discord

from tests.botkit.harness import TIMEOUT, bot_world, play_to_the_end


def _listen(client) -> list[tuple[str, int, str]]:
    heard: list[tuple[str, int, str]] = []

    async def acted(table, outcome) -> None:
        if outcome.game_over:
            heard.append(("game over", table.id, table.status))

    async def closed(table) -> None:
        heard.append(("closed", table.id, table.status))

    client.add_listener(acted, "on_table_acted")
    client.add_listener(closed, "on_table_closed")
    return heard


async def test_a_game_played_to_its_target_closes_its_table(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        heard = _listen(client)
        table = await world.seated_and_started(client, [world.alice, world.bob])
        table = await play_to_the_end(world, client, table.id)
        await world.settle(client)
        assert table.status == "finished"
        await world.fake.wait_until(lambda: len(heard) >= 2, TIMEOUT, "the game's end and its close")
        assert heard == [("game over", table.id, "finished"), ("closed", table.id, "finished")]
        assert table.id not in client.manager.tables  # the ended table left memory


async def test_a_cancelled_game_is_closed_once_too(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        admin = world.fake.add_user("admin")
        world.fake.add_member(world.guild, admin, permissions=discord.Permissions(manage_guild=True).value)
        heard = _listen(client)
        table = await world.seated_and_started(client, [world.alice, world.bob])
        cancelled = await world.slash(admin, "table", {"table": str(table.id)}, subcommand="cancel")
        assert "cancelled" in cancelled.content
        await world.settle(client)
        await world.fake.wait_until(lambda: heard, TIMEOUT, "the table's close")
        assert heard == [("closed", table.id, "cancelled")]
