"""The table's "… More" menu (issue 15's manners, from where players are): on the live hand and the table message,
one tap opens Claim / Take back / Propose to stop / Look back for the player alone, and each does what its slash
command does, end to end through the offline Discord.  The button never displaces a card or a choice of the hand's
panel, so no common action costs a tap more."""

from __future__ import annotations

from bot.presentation.live_hands import hand_text
from bot.presentation.panel import hand_panel
from bot.storage.requests import requests_of
from rules.game import PLAY
from rules.records import effective_actions
from tests.botkit.harness import bot_world, component_ids, find_id, table_message
from tests.test_manners import _asked, _claim_state, _play_until, _user


async def _menu_from_hand(world, table, user):
    """The player opens their hand from the table message, then taps More on it: the menu, for them alone."""
    hand = await world.click(user, table_message(world, table), "hand")
    assert hand.ephemeral
    opened = await world.click(user, hand.message, "more")
    assert opened.ephemeral
    return opened


async def test_a_vote_to_stop_is_proposed_from_the_hand_s_menu(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        opened = await _menu_from_hand(world, table, world.alice)
        assert "Claim the rest" in opened.content and "Propose to stop" in opened.content
        for verb in ("m_claim", "m_undo", "m_stop", "look"):
            find_id(opened.message, verb)
        r = await world.click(world.alice, opened.message, "m_stop")
        assert r.ephemeral and "Asked at the table" in r.content
        question = _asked(world, "proposes to")
        assert f"<@{world.bob.id}>" in question.content
        await world.click(world.bob, question, "agree")
        await world.settle(client)
        assert table.status == "cancelled"
        (stored,) = await requests_of(client.manager.store, table.id)
        assert (stored.kind, stored.outcome) == ("stop", "accepted")
        # A menu tapped after the game ended says so, in words.
        r = await world.click(world.alice, opened.message, "m_claim")
        assert r.ephemeral and "not being played any more" in r.content


async def test_a_claim_from_the_menu_is_checked_as_the_command_s(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=5")
        await _play_until(world, client, table, _claim_state(table, want_proven=False), seed=5)
        seat = table.match.to_move
        claimer, opponent = _user(world, table, seat), _user(world, table, 1 - seat)
        version = table.version
        opened = await _menu_from_hand(world, table, claimer)
        r = await world.click(claimer, opened.message, "m_claim")
        await r.wait_for_followup(1)
        question = _asked(world, "claims every remaining trick")
        assert f"<@{opponent.id}>" in question.content and table.version == version  # put to the opponent
        await world.click(opponent, question, "agree")
        await world.settle(client)
        (stored,) = await requests_of(client.manager.store, table.id)
        assert (stored.kind, stored.outcome) == ("claim", "accepted")


async def test_an_undo_from_the_menu_and_look_back(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        result = await world.slash(world.alice, "table", {"game": "toy", "hints": True}, subcommand="new")
        lobby = result.message
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        table = client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]

        def just_played(t) -> bool:
            actions = t.record.deals[-1].actions
            return t.match.phase == PLAY and bool(effective_actions(actions)) and actions[-1]["type"] == "play"

        await _play_until(world, client, table, just_played)
        last = table.record.deals[-1].actions[-1]
        player, opponent = _user(world, table, last["seat"]), _user(world, table, 1 - last["seat"])
        opened = await _menu_from_hand(world, table, player)
        looked = await world.click(player, opened.message, "look")
        assert looked.ephemeral and looked.message.embeds  # what the rules let a player see of this deal
        await world.click(player, opened.message, "m_undo")
        question = _asked(world, "take back")
        await world.click(opponent, question, "agree")
        await world.settle(client)
        assert table.match.to_move == last["seat"]
        assert table.record.deals[-1].actions[-1] == {"seat": last["seat"], "type": "undo"}


async def test_a_spectator_s_menu_offers_the_history_not_the_manners(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        message = table_message(world, table)
        opened = await world.click(world.stranger, message, "more")
        assert opened.ephemeral and "you do not play here" in opened.content
        ids = component_ids(opened.message)
        assert not any(":m_" in cid for cid in ids)
        find_id(opened.message, "look")
        find_id(opened.message, "watch")


async def test_the_more_button_never_displaces_a_choice_of_the_hand(tmp_path):
    """At every position of a game, the live hand holds every button of the panel, in the same place; More is added
    only where a row has room."""
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=5")
        positions = 0

        def check(t) -> bool:
            nonlocal positions
            for seat in range(t.players):
                _, panel = hand_panel(t, seat, "")
                hand = hand_text(t, seat).view
                panel_rows = [[c["custom_id"] for c in row["components"]] for row in panel.to_components()]
                hand_rows = [[c["custom_id"] for c in row["components"]] for row in hand.to_components()]
                more = [cid for row in hand_rows for cid in row if ":more" in cid]
                without_more = [[cid for cid in row if ":more" not in cid] for row in hand_rows]
                assert [row for row in without_more if row] == panel_rows
                assert len(more) == (1 if len(panel_rows) < 5 or len(panel_rows[-1]) < 5 else 0)
                positions += 1
            return t.match.phase == PLAY and t.match.tricks_completed() >= 3

        await _play_until(world, client, table, check, seed=2)
        assert positions > 10
