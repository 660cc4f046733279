"""Every input answered, and a command means what the player saw (issue 17, parts 3 and 4).

Whatever a player types (within what Discord lets them type) or a modified client sends as a component, the bot
answers with a short refusal in players' words: never silence, never a traceback in the log.  A command whose
meaning depends on the moment (/move counter, an autocomplete pick) is refused once the table moved on.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.presentation.choices import encode
from bot.tables.presets import OptionsError, parse_options_text
from tests.botkit.harness import bot_world, find_id


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


def faults_logged(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def started(world, client, *users, game="toy"):
    lobby = await world.new_table(users[0], game)
    for user in users[1:]:
        await world.click(user, lobby, "join")
    await world.click(users[0], lobby, "start")
    await world.settle(client)
    return client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]


# --- option values and slash arguments ------------------------------------------------------------------------


def test_a_five_thousand_digit_option_is_refused_in_words():
    """Python refuses to read an int of more than 4,300 digits (ValueError, not a JSON error): it reached the user
    as "Something went wrong" and the log as a traceback."""
    for text in ("target=" + "9" * 5000, "target=-" + "9" * 20, "target=1" + "0" * 12 + ".5"):
        with pytest.raises(OptionsError, match="too large"):
            parse_options_text(text)
    assert parse_options_text("target=300 kitty=true") == {"target": 300, "kitty": True}
    # JSON that is no single value, or no finite number, stays text for the engine to refuse by name
    assert parse_options_text("target=[1] x=NaN y=1e999") == {"target": "[1]", "x": "NaN", "y": "1e999"}


async def test_option_texts_are_bounded_and_huge_numbers_refused(world, caplog):
    async with world.running():
        with caplog.at_level(logging.INFO):
            r = await world.slash(
                world.alice, "table", {"game": "200", "options": "target=" + "9" * 290}, subcommand="new"
            )
            assert r.ephemeral and "too large" in r.content, r.content
            r = await world.slash(world.alice, "table", {"game": "200", "options": "target=[1]"}, subcommand="new")
            assert r.ephemeral and r.content.startswith("⛔"), r.content
            r = await world.slash(world.alice, "table", {"game": "🂡" * 40}, subcommand="new")
            assert r.ephemeral and "Unknown game" in r.content
        # what Discord itself refuses to send (the registered schema bounds every text and number)
        with pytest.raises(ValueError, match="refuses a text"):
            await world.fake.slash(world.alice, world.channel, "table", {"game": "200", "options": "x" * 301},
                                   subcommand="new")  # fmt: skip
        with pytest.raises(ValueError, match="refuses a text"):
            await world.fake.slash(world.alice, world.channel, "play", {"card": "A" * 301})
        with pytest.raises(ValueError, match="refuses"):
            await world.fake.slash(world.alice, world.channel, "hand", {"table": 2**60})
        r = await world.slash(world.alice, "play", {"card": "ZZ " * 99})
        assert r.ephemeral and r.content.startswith("⛔"), r.content
        r = await world.slash(world.alice, "hand", {"table": 2**53})
        assert r.ephemeral and "no table" in r.content, r.content
    assert faults_logged(caplog) == []


def carrying(world, custom_id: str, values: list[str] | None):
    """A message of the bot's with one component of this id, as an older version of the bot could have posted."""
    if values is None:
        component = {"type": 2, "style": 2, "label": "old", "custom_id": custom_id}
    else:
        options = [{"label": v[:100] or "-", "value": v[:100] or "-"} for v in values] or [{"label": "-", "value": "-"}]
        component = {"type": 3, "custom_id": custom_id, "options": options, "min_values": 0, "max_values": 25}
    body = {"content": "an older message", "components": [{"type": 1, "components": [component]}]}
    return world.fake.world.create_message(world.channel, world.fake.bot_user, body)


# --- components the bot never issued ----------------------------------------------------------------------------


async def test_every_component_id_the_bot_did_not_issue_gets_a_short_refusal(world, caplog):
    async with world.running() as client:
        lobby = await world.new_table(world.alice, "toy")
        table_id = int(find_id(lobby, "join").split(":")[1])
        forged = [
            ("hello", None),  # not the bot's format at all
            ("ct:1", None),
            (f"ct:{table_id}", None),
            ("ct:99999999999999999999:hand", None),  # a table number beyond 2^63
            (f"ct:{table_id}:hand:9999999999:x", None),  # a version beyond any
            (f"ct:{table_id}:bogus", None),
            ("ct:123456:hand", None),  # no such table
            (f"cs:{table_id}:seat", ["abc"]),  # a seat that is no number
            (f"cs:{table_id}:seat", ["99"]),
            (f"cs:{table_id}:seat", []),
            (f"cs:{table_id}:cpu", ["grandmaster"]),
            (f"cs:{table_id}:pick:1", ["{not json"]),
            (f"ct:{table_id}:act:1:" + "{" * 80, None),
            ("rules:nosuchgame:0:1", None),
            ("rules:toy:99999999999999999999:1", None),
            ("lb:n:9999999999999999999:toy:all::2", None),  # another (impossible) server's board
            ("lb:n:1:toy:all::99999999999", None),
        ]
        with caplog.at_level(logging.INFO):
            for custom_id, values in forged:
                kind = 3 if values is not None else 2
                # on the message clicked (an older message's), and on no message at all (a modified client)
                for message in (carrying(world, custom_id, values), lobby):
                    result = await world.fake.forged_component(world.bob, message, custom_id, values, kind=kind)
                    await result.wait(timeout=3)
                    assert result.ephemeral and result.content.startswith("⛔"), (custom_id, result.content)
            await world.settle(client)
        assert faults_logged(caplog) == [], faults_logged(caplog)
        lobby_now = world.fake.world.messages[lobby.id]
        assert "bob" not in lobby_now.content  # nothing was half-applied: bob never sat down


async def test_forged_clicks_during_play_are_refused_and_nothing_is_recorded(world, caplog):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        before = len(table.record.deals[-1].actions)
        forged = [
            (f"ct:{table.id}:hp:{table.version}:" + "?" * 60, None),
            (f"ct:{table.id}:hp:{table.version}:zz", None),
            (f"cs:{table.id}:multi:{table.version}:play", ["XX#1", "YY#2"]),
            (f"cs:{table.id}:pick:{table.version}", [encode({"type": "play", "cards": ["2C"]})]),
            (f"ct:{table.id}:throw:{table.version}", None),
        ]
        with caplog.at_level(logging.INFO):
            for custom_id, values in forged:
                kind = 3 if values is not None else 2
                message = carrying(world, custom_id, values)
                result = await world.fake.forged_component(world.carol, message, custom_id, values, kind=kind)
                await result.wait(timeout=3)
                assert result.ephemeral and result.content.startswith("⛔"), (custom_id, result.content)
        assert len(table.record.deals[-1].actions) == before
        assert faults_logged(caplog) == [], faults_logged(caplog)


# --- a command means what the player saw ------------------------------------------------------------------------


async def test_an_autocomplete_pick_is_refused_once_the_table_moved_on(world):
    """The bid offered at the start of the deal is not applied after the bidding went round: the choice carries the
    version it was offered at."""
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        first = world.fake.world.users[table.seats[table.match.to_move].user_id]
        ac = await world.fake.autocomplete(first, world.channel, "bid", "value", "")
        await ac.wait()
        offered = ac.choices[0]["value"]
        assert f'"v":{table.version}' in offered
        await world.slash(first, "pass")
        second = world.fake.world.users[table.seats[table.match.to_move].user_id]
        await world.slash(second, "pass")  # all passed: a new deal, and the same player may be first again
        await world.settle(client)
        before = table.version
        r = await world.slash(first, "bid", {"value": offered})
        assert r.ephemeral and "out of date" in r.content, r.content
        assert table.version == before


async def test_two_counters_at_once_never_make_a_recounter(world):
    """The measured failure: two Belote players sent /move counter at the same moment (an opponent of the bidder,
    and the bidder's partner, whose turn comes next); the partner's was applied as a recounter (×4).  Now it is
    refused, in players' words, with a Recounter button for that moment only."""
    players = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, players, "belote")
        match = table.match
        taker_seat = match.to_move
        bid = next(a for a in match.legal_json() if a["seat"] == taker_seat and a["type"] == "bid")
        taker = world.fake.world.users[table.seats[taker_seat].user_id]
        r = await world.slash(taker, "bid", {"value": encode(bid)})
        assert "✅" in r.content, r.content
        # the next seat, an opponent, may counter; then the taker's partner may recounter (each in turn)
        defender = world.fake.world.users[table.seats[(taker_seat + 1) % 4].user_id]
        partner_seat = (taker_seat + 2) % 4
        partner = world.fake.world.users[table.seats[partner_seat].user_id]
        assert any(a["type"] == "counter" for a in legal(table, (taker_seat + 1) % 4))

        # both at once: dispatched before either is answered
        first = await world.fake.slash(defender, world.channel, "move", {}, subcommand="counter")
        second = await world.fake.slash(partner, world.channel, "move", {}, subcommand="counter")
        await asyncio.gather(first.wait(), second.wait())
        await world.settle(client)
        kinds = [a["type"] for a in table.record.deals[-1].actions]
        assert kinds.count("counter") == 1 and "recounter" not in kinds, kinds
        assert "✅" in first.content and "countered" in first.content
        assert second.ephemeral and "already countered" in second.content and "Recounter" in second.content
        assert "⛔" in second.content

        # the button offers the recounter for this moment of the table; pressed, it is the player's choice
        r = await world.click(partner, second.message, "act")
        assert "recountered" in (r.content or ""), r.content
        assert [a["type"] for a in table.record.deals[-1].actions].count("recounter") == 1


def legal(table, seat):
    return [a for a in table.match.legal_json() if a.get("seat") == seat]
