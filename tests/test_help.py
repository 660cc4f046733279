"""/help and /rules through the offline Discord, and the table message's Rules button."""

from __future__ import annotations

import pytest

from rules import registry
from tests.botkit.harness import bot_world, embed_text, find_id, table_message


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def test_help_lists_every_command_of_the_tree(world):
    async with world.running() as client:
        r = await world.slash(world.alice, "help")
        assert r.ephemeral
        text = embed_text(r)
        assert "/table new game:200" in text and "Join" in text and "Start" in text
        for command in client.tree.get_commands():  # read from the tree: a new command cannot be forgotten
            assert f"`/{command.name}`" in text, command.name
        for sub in ("new", "cancel", "list"):
            assert f"`{sub}`" in text
        admins = text.split("Server admins (Manage Server):")[1]
        assert "`/cardtable`" in admins and "`/ratings`" in admins and "`/play`" not in admins


async def test_rules_pages_turn_with_buttons(world):
    async with world.running():
        r = await world.slash(world.alice, "rules", {"game": "belote"})
        assert r.ephemeral
        assert "Belote Contrée — Cards, partners and the bidding" in embed_text(r) and "Page 1 of 3" in embed_text(r)
        message = r.message
        click = await world.fake.click(world.alice, message, "rules:belote:0:2")
        await click.wait(10)
        text = embed_text(click)
        assert "Belote Contrée — The play" in text and "Page 2 of 3" in text
        assert "last trick can be seen" in text


async def test_every_game_has_a_paged_summary_that_fits_an_embed():
    built_in = [game for game in registry.games() if game.engine.startswith(registry.BUILT_IN)]
    assert len(built_in) == len(registry.BUILT_IN)
    for game in built_in:
        assert len(game.rules_summary) >= 2, game.id
        for title, text in game.rules_summary:
            assert title and len(title) + len(game.name()) < 250 and 100 < len(text) <= 4096, (game.id, title)


async def test_rules_at_a_table_show_its_options_and_the_table_has_a_rules_button(world):
    async with world.running() as client:
        lobby = await world.new_table(world.alice, "200", options="target=300")
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        table = client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]
        r = await world.slash(world.carol, "rules", {"table": table.id})  # anyone, seated or not
        text = embed_text(r)
        assert r.ephemeral and "Two Hundred — Cards, partners and the bidding" in text
        assert f"At table #{table.id}: Options: " in text and "target=300" in text
        r = await world.click(world.carol, table_message(world, table), "rules")
        assert r.ephemeral and f"At table #{table.id}" in embed_text(r) and "target=300" in embed_text(r)
        r = await world.slash(world.alice, "rules", {"game": "belote", "table": table.id})
        assert r.ephemeral and "plays Two Hundred, not Belote Contrée" in r.content
        r = await world.slash(world.alice, "rules", {"game": "chess"})
        assert r.ephemeral and "Unknown game 'chess'" in r.content
