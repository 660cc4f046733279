"""The command list and how commands answer: one tree error handler (refusals as their reason, faults logged once
and answered generically), arguments read by transformers with autocomplete, admin checks as decorators."""

from __future__ import annotations

import logging

import pytest

import cogs.acting
from bot.presentation.errors import OOPS
from tests.botkit.harness import bot_world


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def started(world, client, *users):
    return await world.seated_and_started(client, list(users))  # the toy game


async def test_the_command_list_keeps_the_short_forms_and_groups_the_rest(world):
    async with world.running() as client:
        top = {c.name: c for c in client.tree.get_commands()}
        assert set(top) == {
            "play", "bid", "pass", "hand", "hint", "leaderboard",  # typed every deal, or to see the board
            "help", "rules",  # what the bot does, and a game's rules
            "table", "move", "player", "tournament", "daylong",  # the rest, grouped
            "cardtable", "ratings",  # administrators only (hidden from others by default)
        }  # fmt: skip
        moves = {c.name for c in top["move"].commands}
        assert moves == {"trump", "discard", "counter", "keep", "call", "draw", "expose", "claim_draw"}
        assert {c.name for c in top["table"].commands} == {
            "new", "record", "cancel", "stop", "claim", "undo", "list", "back", "nudge", "review", "watch",
        }  # fmt: skip
        assert {c.name for c in top["player"].commands} == {"stats", "history", "globalrating", "settings"}


async def test_a_fault_is_logged_once_and_answered_with_the_generic_message(world, monkeypatch, caplog):
    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cogs.acting, "perform", broken)  # before the cogs load and import it
    async with world.running() as client:
        await started(world, client, world.alice, world.bob)
        with caplog.at_level(logging.INFO):
            r = await world.slash(world.alice, "pass")
        assert r.ephemeral and r.content == OOPS
        faults = [rec for rec in caplog.records if rec.exc_info and "a bug" in str(rec.exc_info[1])]
        assert len(faults) == 1 and "pass" in faults[0].getMessage()


async def test_a_fault_in_a_button_gets_the_same_answer(world, monkeypatch, caplog):
    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cogs.acting, "show_hand", broken)
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        message = world.fake.world.messages[table.row.message_id]
        r = await world.click(world.alice, message, "hand")
        assert r.ephemeral and r.content == OOPS
        assert len([rec for rec in caplog.records if rec.exc_info]) == 1


async def test_arguments_that_cannot_be_read_are_refused_with_the_reason(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        r = await world.slash(world.alice, "play", {"card": "banana"})
        assert r.ephemeral and r.content.startswith("⛔") and "banana" in r.content
        r = await world.slash(world.alice, "hand", {"table": table.id + 50})
        assert r.ephemeral and r.content == f"⛔ There is no table #{table.id + 50}."
        r = await world.slash(world.alice, "hand", {"table": table.id})
        assert r.ephemeral and "Your hand" in r.content


async def test_the_table_option_offers_the_users_tables(world):
    async with world.running() as client:
        first = await started(world, client, world.alice, world.bob)
        await world.new_table(world.alice, "toy")
        ac = await world.fake.autocomplete(world.alice, world.channel, "hand", "table", "")
        await ac.wait(10)
        assert [c["value"] for c in ac.choices] == [first.id, first.id + 1]
        assert ac.choices[0]["name"].startswith(f"#{first.id} ")
        ac = await world.fake.autocomplete(world.carol, world.channel, "hand", "table", "")
        await ac.wait(10)
        assert ac.choices == []


async def test_admin_commands_are_refused_by_their_check(world):
    async with world.running():
        r = await world.slash(world.alice, "cardtable", {}, subcommand="settings")
        assert r.ephemeral and r.content.startswith("⛔ Only members with the Manage Server permission")
