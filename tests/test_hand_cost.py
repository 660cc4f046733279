"""What keeps a live hand cheap to work out at every move (issue 16: the bot's CPU per action) without changing what
the player sees: the views kept per table version, the panel kept while what it is made from is the same, and the
buttons built only for a message that is sent."""

from __future__ import annotations

import pytest

from bot.presentation import panel as panel_module
from bot.presentation.choices import card_label
from bot.presentation.live_hands import hand_text
from bot.presentation.panel import PANEL_VERB, hand_panel, panel_rows
from bot.presentation.seat_views import public_view, seat_view
from bot.presentation.table_menu import with_more
from tests.botkit.harness import bot_world, tap_action

GAMES = ("two_hundred", "five_hundred", "belote", "da_bai_fen")


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


def hand_message(world, user):
    (message,) = [m for m in world.dms(user) if "**Your hand**" in m.content and "deal 1" in m.content]
    return message


def mover(world, table):
    return world.fake.world.users[table.seats[table.match.to_move].user_id]


def a_legal_action(table) -> dict:
    seat = table.match.to_move
    mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
    action = next((a for a in mine if a["type"] != "pass"), mine[0])  # a bid: a deal that all pass is thrown in
    if "choose" in action:  # a discard is listed as how many cards from which: choose the first ones
        return {"type": action["type"], "cards": action["from"][: action["choose"]]}
    return {k: v for k, v in action.items() if k != "seat"}


def built_as_before(table, seat: int) -> list[dict]:
    """The components as the live hand built them before it kept its buttons as data: the panel's view, with the
    More button."""
    return with_more(table, hand_panel(table, seat, "")[1]).to_components()


@pytest.mark.parametrize("game", GAMES)
async def test_the_buttons_built_when_sent_are_the_ones_built_at_once_before(world, game):
    """For every seat (waiting or to move) at each move of the auction and the first tricks: the same components,
    custom ids and all, as ``with_more(hand_panel(...))`` gives."""
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, users, game)
        checked = 0
        for _move in range(14):
            if table.match.to_move is None or table.match.deal_index != 0:
                break
            for seat in table.seats:
                assert hand_text(table, seat).view.to_components() == built_as_before(table, seat)
                checked += 1
            user = mover(world, table)
            await tap_action(world, table, user, hand_message(world, user), a_legal_action(table))
            await world.settle(client)
        assert checked >= 4 * 8


async def test_the_buttons_carry_the_version_the_hand_was_worked_out_at(world):
    """A hand worked out before a move and sent after it (its picture was being drawn) offers what it says: its
    buttons are for the version it shows, so a click on them is recognised as stale, not applied blindly."""
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, users, "two_hundred")
        seat = table.match.to_move
        hand = hand_text(table, seat)
        version = table.version
        user = mover(world, table)
        await tap_action(world, table, user, hand_message(world, user), a_legal_action(table))
        await world.settle(client)
        assert table.version > version
        ids = [c["custom_id"] for row in hand.view.to_components() for c in row["components"]]
        panel_ids = [i for i in ids if f":{PANEL_VERB}:" in i]
        assert panel_ids and all(i.split(":")[3] == str(version) for i in panel_ids)


async def test_views_are_derived_once_per_version_and_again_after_a_move(world):
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, users, "two_hundred")
        seat = table.match.to_move
        first = seat_view(table, seat)
        assert seat_view(table, seat) is first and public_view(table) is public_view(table)
        assert first == table.match.seat_view(seat)
        user = mover(world, table)
        await tap_action(world, table, user, hand_message(world, user), a_legal_action(table))
        await world.settle(client)
        after = seat_view(table, seat)
        assert after is not first and after == table.match.seat_view(seat) and after["legal"] != first["legal"]
        assert public_view(table) == table.match.public_view()


async def test_a_replaced_match_at_the_same_version_is_read_afresh(world):
    """A table reloaded from the store gets a new match whose version number may be one already seen: the views
    follow the match, not only the number."""
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, users, "two_hundred")
        seat = table.match.to_move
        before = seat_view(table, seat)
        replacement = table.match.clone()
        replacement.apply(replacement.legal_actions()[0])
        table.match = replacement  # the same version, another game
        assert seat_view(table, seat) == replacement.seat_view(seat) != before


async def test_a_waiting_seats_panel_is_made_once_while_its_cards_and_choices_stay(world, monkeypatch):
    """The others' cards change nothing on a waiting player's panel: it is not made again at each of their moves
    (the hand is still worked out, and compared).  When the player's turn comes, their choices changed: the panel
    is made anew, and their DM hand is edited to offer exactly the legal cards."""
    made: list[int] = []
    real = panel_module._panel

    def counting(table, match, seat, selection):
        made.append(seat)
        return real(table, match, seat, selection)

    monkeypatch.setattr(panel_module, "_panel", counting)
    users = [world.alice, world.bob, world.carol, world.dan]
    async with world.running() as client:
        table = await world.seated_and_started(client, users, "two_hundred")
        while table.match.phase != "play":  # the auction, as the players tap it
            user = mover(world, table)
            await tap_action(world, table, user, hand_message(world, user), a_legal_action(table))
            await world.settle(client)
        watcher = (table.match.to_move + 2) % 4  # two moves until their turn: the first is another's
        watcher_user = world.fake.world.users[table.seats[watcher].user_id]
        panel_rows(table, watcher)
        made.clear()
        edits = len(hand_message(world, watcher_user).edits)
        while table.match.to_move != watcher:
            cards = seat_view(table, watcher)["hand"]
            user = mover(world, table)
            await tap_action(world, table, user, hand_message(world, user), a_legal_action(table))
            await world.settle(client)
            if table.match.to_move != watcher:
                assert seat_view(table, watcher)["hand"] == cards
                assert watcher not in made, "the waiting seat's panel was made again"
                assert len(hand_message(world, watcher_user).edits) == edits, "a hand that did not change was edited"
        assert watcher in made  # their turn: new choices, a new panel
        assert len(hand_message(world, watcher_user).edits) > edits  # and their hand says so
        legal_cards = {a["cards"][0] for a in seat_view(table, watcher)["legal"] if a["type"] == "play"}
        shown = hand_message(world, watcher_user)
        assert "**Your turn**" in shown.content
        held = {card_label(c) for c in seat_view(table, watcher)["hand"]}
        enabled = {
            c["label"]
            for row in shown.components
            for c in row["components"]
            if f":{PANEL_VERB}:" in c.get("custom_id", "") and not c.get("disabled")
        }
        assert enabled & held == {card_label(c) for c in legal_cards}
