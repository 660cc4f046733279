"""The live hand, end to end through the offline Discord: one hand message per player per deal, kept current by
edits; the player's own click updates that message; closed DMs play from one ephemeral hand; stale clicks are
answered with the fresh hand; a restart edits the same DM."""

from __future__ import annotations

import pytest

from bot.presentation.messages import describe_cards
from bot.presentation.panel import PANEL_VERB, encode_action
from tests.botkit.harness import bot_world, find_id, table_message, tap_action

DM_EDIT = "/channels/{channel_id}/messages/{message_id}"
ORIGINAL_EDIT = "/webhooks/{app_id}/{token}/messages/{message_id}"


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def started(world, client, *users):
    lobby = await world.new_table(users[0], "toy", options=f"players={len(users)}")
    for user in users[1:]:
        await world.click(user, lobby, "join")
    await world.click(users[0], lobby, "start")
    await world.settle(client)
    return client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]


def hand_messages(world, user, deal: int = 1):
    return [m for m in world.dms(user) if "**Your hand**" in m.content and f"deal {deal}" in m.content]


def mover(world, table):
    return world.fake.world.users[table.seats[table.match.to_move].user_id]


def legal_action(table) -> dict:
    seat = table.match.to_move
    mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
    action = next((a for a in mine if a["type"] != "pass"), mine[0])  # a bid: a deal that all pass is thrown in
    return {k: v for k, v in action.items() if k != "seat"}


async def act_on(world, table, user, message, action: dict):
    """Choose ``action`` on a hand message, as its player would: the panel's taps."""
    return await tap_action(world, table, user, message, action)


async def test_four_players_play_a_deal_from_one_dm_hand_each(world):
    users = (world.alice, world.bob, world.carol, world.dan)
    async with world.running() as client:
        table = await started(world, client, *users)
        hands = {}
        for user in users:
            (hands[user.id],) = hand_messages(world, user)  # one hand message each, sent at the deal's start
        calls = world.fake.rest_mark()
        turns = 0
        while table.match.deal_index == 0 and table.match.to_move is not None:
            user = mover(world, table)
            message = hands[user.id]
            assert "**Your turn**" in message.content, message.content
            for other in users:  # the others' hands say they wait (not for whom: they are not edited for each move)
                if other is not user:
                    assert "Waiting for the others" in hands[other.id].content, hands[other.id].content
                    assert "**Your turn**" not in hands[other.id].content and "Trick:" not in hands[other.id].content
            result = await act_on(world, table, user, message, legal_action(table))
            assert result.callback_type == 7 and result.message.id == message.id  # the same message, updated
            assert "✅ You" in result.message.content
            await world.settle(client)
            turns += 1
        assert turns >= 4
        for user in users:
            assert len(hand_messages(world, user)) == 1  # still one: everything else was an edit
        # nobody got a new DM during the deal but the next deal's hand
        new_dms = [c for c in world.fake.calls("POST", "/channels/{channel_id}/messages", since=calls)]
        assert all(
            c.path.split("/")[-2] == str(world.channel.id) or "deal 2" in (c.json or {}).get("content", "")
            for c in new_dms
        ), [c.json for c in new_dms]


async def test_others_moves_edit_the_hand_and_several_moves_make_one_edit(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        user = mover(world, table)
        other = world.bob if user is world.alice else world.alice
        (waiting,) = hand_messages(world, other)
        assert "Waiting for the others" in waiting.content
        result = await world.slash(user, "pass")  # the keyboard path: the other's hand follows by an edit
        assert "✅" in result.content
        await world.settle(client)
        (waiting,) = hand_messages(world, other)
        assert "**Your turn**" in waiting.content and waiting.edits
        assert waiting.find_component(find_id(waiting, PANEL_VERB, "=" + encode_action({"type": "pass"}))) is not None


async def test_a_closed_dm_player_plays_from_one_ephemeral_hand(world):
    async with world.running() as client:
        table = await started(world, client, world.closed, world.alice)
        assert hand_messages(world, world.alice) and not world.dms(world.closed)
        opened = await world.click(world.closed, table_message(world, table), "hand")
        assert opened.ephemeral and opened.callback_type == 4
        hand = opened.message
        calls = world.fake.rest_mark()
        moves = 0
        while table.match.deal_index == 0 and table.match.to_move is not None:
            user = mover(world, table)
            if user is world.closed:
                assert "**Your turn**" in hand.content, hand.content
                result = await act_on(world, table, user, hand, legal_action(table))
                assert result.callback_type == 7 and result.message.id == hand.id
                moves += 1
            else:
                (alice_hand,) = hand_messages(world, world.alice)
                await act_on(world, table, user, alice_hand, legal_action(table))
            await world.settle(client)
        assert moves >= 2
        # the other player's moves reached the ephemeral hand through its interaction's token
        assert world.fake.calls("PATCH", ORIGINAL_EDIT, since=calls)
        ephemeral = world.fake.messages(world.channel, include_ephemeral=True)
        assert [m.id for m in ephemeral if m.ephemeral and "**Your hand**" in m.content] == [hand.id]


async def test_a_stale_click_shows_the_fresh_hand_and_applies_nothing(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        first = mover(world, table)
        old = (await world.click(first, table_message(world, table), "hand")).message
        live = (await world.click(first, table_message(world, table), "hand")).message  # the live one now
        await world.slash(first, "pass")  # the table moves on; the first ephemeral hand is not kept current
        await world.settle(client)
        actions = len(table.record.deals[0].actions)
        result = await world.click(first, old, PANEL_VERB, "=" + encode_action({"type": "pass"}))
        assert result.callback_type == 7 and result.message.id == old.id
        assert "Your hand was out of date" in result.message.content and "**Your hand**" in result.message.content
        assert "Waiting for the others" in result.message.content
        assert len(table.record.deals[0].actions) == actions  # nothing applied
        assert live.edits and "Waiting for the others" in live.content  # kept current


async def test_a_restart_edits_the_dm_hand_instead_of_sending_another(world):
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        user = mover(world, table)
    (alice_hand,) = hand_messages(world, world.alice)
    (bob_hand,) = hand_messages(world, world.bob)
    edits = len(alice_hand.edits) + len(bob_hand.edits)
    async with world.running() as client:
        await world.settle(client)
        table = await client.manager.get(table.id)
        await world.slash(user, "pass")
        await world.settle(client)
        assert len(hand_messages(world, world.alice)) == 1 and len(hand_messages(world, world.bob)) == 1
        assert len(alice_hand.edits) + len(bob_hand.edits) > edits


@pytest.mark.parametrize("game", ["two_hundred", "belote"])
async def test_the_dm_hand_shows_the_contract_and_the_trick_so_far(world, game):
    """On a phone the channel's table is a tap away from the DM hand: while choosing a card the player reads the
    contract, trump and the cards already in the trick in the hand message itself."""
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, users, game)
        checked = 0
        while table.match.deal_index == 0 and table.match.to_move is not None and checked < 8:
            seat = table.match.to_move
            user = world.fake.world.users[table.seats[seat].user_id]
            (hand,) = hand_messages(world, user)
            state = table.match.public_view()
            if table.match.phase == "play":
                trick = state["trick"]
                line = next(line for line in hand.content.splitlines() if line.startswith("Trick: "))
                if not trick:
                    assert line == "Trick: (none yet)"
                for play in trick:  # every card played to this trick, with its player
                    name = table.names()[play["seat"]]
                    assert f"{name} {describe_cards(play['cards'])}" in line, (line, play)
                contract = state["contract"]
                assert f"Contract: {table.names()[contract['seat']]}" in hand.content, hand.content
                checked += 1
            else:
                assert "Trick:" not in hand.content  # nothing about tricks before the play
            await tap_action(world, table, user, hand, legal_action(table))
            await world.settle(client)
        assert checked == 8


async def test_a_waiting_hand_is_edited_only_when_its_player_needs_it(world):
    """Each edit of a DM counts against Discord's global request limit (issue 16): a player's hand is not edited
    for the others' cards while they wait, only when their turn comes (then it shows the whole trick) or what they
    hold or may do changes."""
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, users, "two_hundred")
        while table.match.phase != "play":  # the auction, as the players tap it
            user = mover(world, table)
            (hand,) = hand_messages(world, user)
            await tap_action(world, table, user, hand, legal_action(table))
            await world.settle(client)
        quiet = turns = 0
        while table.match.phase == "play" and turns < 10:
            user = mover(world, table)
            (hand,) = hand_messages(world, user)
            assert "**Your turn**" in hand.content and "Trick: " in hand.content, hand.content  # current as they act
            trick = table.match.public_view()["trick"]
            for play in trick:  # every card of the trick so far, though the hand was not edited for each
                assert describe_cards(play["cards"]) in hand.content, (hand.content, play)
            edits = {u.id: len(hand_messages(world, u)[0].edits) for u in users}
            held = {u.id: table.match.seat_view(table.seat_of(u.id))["hand"] for u in users}
            # A hand saying its only legal card was played for it says so while that card is on the table: the
            # edit that takes the note away when the trick is gathered is needed (tests/test_played_for.py).
            noted = {u.id: "Your only legal card" in hand_messages(world, u)[0].content for u in users}
            await tap_action(world, table, user, hand, legal_action(table))
            await world.settle(client)
            turns += 1
            if table.match.phase != "play":
                break
            for other in users:  # still waiting, holding the same cards (a lone legal card may be auto-played)
                seat = table.seat_of(other.id)
                if (
                    other is not user
                    and table.match.to_move != seat
                    and table.match.seat_view(seat)["hand"] == held[other.id]
                    and not noted[other.id]
                ):
                    assert len(hand_messages(world, other)[0].edits) == edits[other.id], other.username
                    quiet += 1
        assert turns == 10 and quiet >= 10
