"""Through the offline Discord: each player reads the bot in their own language (their Discord client's locale, or
the one they set with /player settings), whatever the language of the others at the table."""

from __future__ import annotations

import pytest

from tests.botkit.harness import bot_world


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def _started(world, client, *users):
    return await world.seated_and_started(client, list(users))  # the toy game


def _not_to_move(world, table):
    mover = table.seats[table.match.to_move].user_id
    return world.bob if mover == world.alice.id else world.alice


async def test_a_refusal_comes_in_the_players_discord_language(world):
    world.alice.locale, world.bob.locale = "fr", "zh-CN"
    async with world.running() as client:
        table = await _started(world, client, world.alice, world.bob)
        waiting = _not_to_move(world, table)
        mover_name = table.seats[table.match.to_move].name
        r = await world.slash(waiting, "pass")
        expected = {"fr": f"⛔ ce n'est pas votre tour : c'est à {mover_name} de jouer",
                    "zh-CN": f"⛔ 还没轮到你：现在轮到 {mover_name}"}[waiting.locale]  # fmt: skip
        assert r.ephemeral and r.content == expected
        r = await world.slash(world.stranger, "pass")  # en-US
        assert r.content.startswith("⛔ You are not playing at any table")


async def test_a_language_set_in_player_settings_wins_over_the_discord_locale(world):
    world.alice.locale = "fr"
    async with world.running() as client:
        r = await world.slash(world.alice, "player", {"language": "zh"}, subcommand="settings")
        assert r.ephemeral and "语言：简体中文" in r.content
        r = await world.slash(world.alice, "pass")
        assert r.content.startswith("⛔ 你现在没有在任何牌桌上")
        r = await world.slash(world.alice, "player", {"language": "default"}, subcommand="settings")
        assert "Langue : la langue de votre Discord" in r.content
        r = await world.slash(world.alice, "pass")
        assert r.content.startswith("⛔ Vous ne jouez à aucune table")
        assert (await client.manager.player_settings(world.alice.id)).language is None
