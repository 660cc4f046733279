"""``/cardtable settings`` through the offline Discord: refused to non-admins on the server side, shown back,
validated with clear messages, stored per server, and enforced by ``/table new`` and the lobby."""

from __future__ import annotations

import discord
import pytest

from tests.botkit.harness import bot_world


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        w.admin = w.fake.add_user("admin")
        w.fake.add_member(w.guild, w.admin, permissions=discord.Permissions(manage_guild=True).value)
        w.other = w.fake.add_text_channel(w.guild, "other")
        yield w


async def settings(world, user, **options):
    return await world.slash(user, "cardtable", options, subcommand="settings")


async def new_table(world, user, channel=None, **options):
    result = await world.fake.slash(user, channel or world.channel, "table", options, subcommand="new")
    await result.wait(10)
    return result


async def test_only_admins_see_or_change_settings_checked_by_the_bot(world):
    async with world.running():
        r = await settings(world, world.alice)
        assert r.ephemeral and "Manage Server" in r.content
        r = await settings(world, world.alice, max_tables=1)
        assert r.ephemeral and "Manage Server" in r.content
        r = await settings(world, world.admin)
        assert r.ephemeral and "Default clock:** casual" in r.content and "any channel" in r.content
        assert "Most tables per channel:** 5" in r.content and "fill seats:** yes" in r.content


async def test_settings_are_validated_with_clear_messages(world):
    async with world.running():
        cases = [
            ({"max_tables": 0}, "between 1 and 50"),
            ({"clock": "banana"}, "not a clock"),
            ({"clock": "2s"}, "between 15 s"),
            ({"allowed_clocks": "live,turbo"}, "'turbo' is not one"),
            ({"allowed_clocks": "live"}, "default clock is casual"),
            ({"channels": "banana"}, "not a channel"),
            ({"channels": "<#123>"}, "not a channel of this server"),
            ({"preset": "kitty"}, "which game"),
            ({"game": "200", "preset": "nope"}, "Unknown preset"),
            ({"game": "chess", "clock": "live"}, "Unknown game"),
            ({"game": "200"}, "what to set"),
        ]
        for options, message in cases:
            r = await settings(world, world.admin, **options)
            assert r.ephemeral and "⛔" in r.content and message in r.content, (options, r.content)
        r = await settings(world, world.admin)
        assert "Allowed clocks:** live, casual, async, custom" in r.content  # nothing was saved


async def test_settings_are_enforced_by_table_new_and_the_lobby(world):
    async with world.running():
        r = await settings(world, world.admin, allowed_clocks="live, casual", max_tables=1, computers=False)
        assert "Settings saved" in r.content and "Allowed clocks:** live, casual" in r.content
        assert "Most tables per channel:** 1" in r.content and "fill seats:** no" in r.content
        r = await new_table(world, world.alice, game="toy", clock="async")
        assert r.ephemeral and "does not allow async" in r.content
        r = await new_table(world, world.alice, game="toy", clock="live")
        assert not r.ephemeral and "Clock: live" in r.content
        lobby = r.message
        r = await new_table(world, world.bob, game="toy")
        assert r.ephemeral and "already has 1 open table" in r.content
        r = await world.click(world.alice, lobby, "cpu")
        assert r.ephemeral and "computer players" in r.content
        # channels: only #other may host tables now
        r = await settings(world, world.admin, channels=f"<#{world.other.id}>", max_tables=3)
        assert f"<#{world.other.id}>" in r.content
        r = await new_table(world, world.bob, game="toy")
        assert r.ephemeral and "cannot be opened in this channel" in r.content
        r = await new_table(world, world.bob, world.other, game="toy")
        assert not r.ephemeral
        # per game defaults: a rule preset and a clock
        r = await settings(world, world.admin, game="200", preset="kitty", clock="live")
        assert "**two_hundred:** preset kitty, clock live" in r.content
        r = await new_table(world, world.carol, world.other, game="200")
        assert "preset **kitty**" in r.content and "Clock: live" in r.content
        # an admin may cancel anyone's table; other players may not
        r = await world.click(world.bob, lobby, "cancel")
        assert r.ephemeral and "Only the host" in r.content
        r = await world.click(world.admin, lobby, "cancel")
        assert "cancelled" in r.message.content
    async with world.running():  # stored per server: a restart keeps them
        r = await settings(world, world.admin)
        assert "Most tables per channel:** 3" in r.content and f"<#{world.other.id}>" in r.content
        r = await settings(world, world.admin, channels="all", computers=True, allowed_clocks="all")
        assert "any channel" in r.content and "fill seats:** yes" in r.content
