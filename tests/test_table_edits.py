"""The table message while computers play: the cards they add to a trick in a row are shown by one edit (each human
sees the trick in their own hand at their turn), and an edit is never held longer than the hold limit."""

from __future__ import annotations

import asyncio

import pytest

from tests.botkit.harness import bot_world, table_message, tap_action

TABLE_EDIT = "/channels/{channel_id}/messages/{message_id}"


async def one_human_three_computers(world, client):
    lobby = await world.new_table(world.alice, "two_hundred")
    for _ in range(3):
        await world.click(world.alice, lobby, "cpu")
    await world.click(world.alice, lobby, "start")
    table = client.manager.tables[1]
    return table


async def until(predicate, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)
    await asyncio.sleep(0.02)  # the last move's event reaches the presenter (discord.py dispatches it as a task)


def her_choice(client, table, seat: int) -> bool:
    return table.match.to_move == seat and not client.manager.plays_itself(table)


def legal_for(table, seat: int) -> dict:
    mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
    action = next((a for a in mine if a["type"] != "pass"), mine[0])
    return {k: v for k, v in action.items() if k != "seat"}


def table_edits(world, table, since: int) -> list:
    path = f"/channels/{world.channel.id}/messages/{table.row.message_id}"
    return [c for c in world.fake.calls("PATCH", TABLE_EDIT, since=since) if c.path == path]


async def play_until_alices_card(world, client, table) -> None:
    """Alice bids and plays whatever she may until it is her turn to play a card."""
    alice_seat = table.seat_of(world.alice.id)
    while not (table.match.phase == "play" and table.match.to_move == alice_seat):
        if table.match.to_move == alice_seat:
            await world.settle(client)  # her hand shows her turn
            hand = next(m for m in world.dms(world.alice) if "**Your hand**" in m.content and m.custom_ids())
            await tap_action(world, table, world.alice, hand, legal_for(table, alice_seat))
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("hold_limit", [0.0, 30.0])
async def test_computers_cards_in_a_row_make_one_table_edit(tmp_path, hold_limit):
    async with bot_world(tmp_path) as world, world.running(ai_delay=0.02, hold_limit=hold_limit) as client:
        table = await one_human_three_computers(world, client)
        alice_seat = table.seat_of(world.alice.id)
        await until(lambda: table.match.to_move == alice_seat or table.match.deal_index > 0)
        await play_until_alices_card(world, client, table)
        for _ in range(3):  # three of Alice's cards, and what the computers play between them
            await client.presenter.drain(table)
            mark = world.fake.rest_mark()
            hand = next(m for m in world.dms(world.alice) if "**Your hand**" in m.content and m.custom_ids())
            deal = table.match.deal_index
            await tap_action(world, table, world.alice, hand, legal_for(table, alice_seat))
            # (a card she is forced to play, the bot plays for her: her turn comes when she has a choice)
            await until(lambda d=deal: table.match.deal_index > d or her_choice(client, table, alice_seat))
            await client.presenter.drain(table)
            if table.match.deal_index > deal:
                break
            edits = table_edits(world, table, mark)
            content = table_message(world, table).content
            # the table message shows Alice's turn: the state she chooses from
            assert f"➡️ <@{world.alice.id}>" in content, content
            shown = [c.json["content"] for c in edits]
            in_passing = [c for c in shown if "Trick: " in c and f"➡️ <@{world.alice.id}>" not in c]
            if hold_limit:  # every edit shows a finished trick or her turn, never a computer about to add a card
                assert not in_passing, shown
                assert 1 <= len(shown) <= 2 * (1 + sum("— won by" in c for c in shown)), shown
            else:  # every card its own edit (edit interval 0): a computer about to play is shown too
                assert in_passing or len(shown) >= 3, shown


async def test_a_held_edit_is_made_by_the_hold_limit(tmp_path):
    """A computer slower than the hold limit: the table shows Alice's card before the computer's comes."""
    async with bot_world(tmp_path) as world, world.running(ai_delay=1.5, hold_limit=0.2) as client:
        table = await one_human_three_computers(world, client)
        alice_seat = table.seat_of(world.alice.id)
        await until(lambda: table.match.to_move == alice_seat, timeout=30)
        await play_until_alices_card(world, client, table)
        await client.presenter.drain(table)
        hand = next(m for m in world.dms(world.alice) if "**Your hand**" in m.content and m.custom_ids())
        action = legal_for(table, alice_seat)
        await tap_action(world, table, world.alice, hand, action)
        played = len(table.match.public_view()["trick"])
        await asyncio.sleep(0.6)  # past the hold limit, before the computer's 1.5 s
        assert len(table.match.public_view()["trick"]) == played  # the computer has not played yet
        content = table_message(world, table).content
        trick_line = next(line for line in content.splitlines() if line.startswith(("Trick:", "Last trick:")))
        assert world.alice.username in trick_line, content
