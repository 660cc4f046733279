"""A card played for its player (auto-play of their only legal card, issue 14's leftover): the table message and
that player's own hand say so, while it is the last move or lies in the trick on the table."""

from __future__ import annotations

import random

from rules.game import GAME_OVER, PLAY
from tests.botkit.harness import act_through_ui, bot_world, table_message


async def test_the_table_and_the_hand_say_a_card_was_played_for_its_player(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        users = [world.alice, world.bob, world.carol, world.dan]
        table = await world.seated_and_started(client, users, "belote")
        rng, seen = random.Random(5), 0
        while table.match.deal_index == 0 and table.match.phase != GAME_OVER:
            found = table.extra.get("played_for")
            if found is not None and found[0] == table.version and table.match.phase == PLAY:
                _, seat, cards = found
                name = table.names()[seat]
                assert f"was played for {name} (their only legal card)" in table_message(world, table).content
                user = world.fake.world.users[table.seats[seat].user_id]
                hand = next(m for m in reversed(world.dms(user)) if "**Your hand**" in m.content)
                assert hand.content.startswith("🤖 Your only legal card"), hand.content
                others = [u for u in users if u is not user]
                for other in others:  # the others' hands do not say it is theirs
                    theirs = next(m for m in reversed(world.dms(other)) if "**Your hand**" in m.content)
                    assert "Your only legal card" not in theirs.content
                seen += 1
            seat = table.match.to_move
            mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
            if not mine:
                await world.settle(client)
                continue
            action = {k: v for k, v in rng.choice(mine).items() if k != "seat"}
            user = world.fake.world.users[table.seats[seat].user_id]
            await act_through_ui(world, table, user, action)
            await world.settle(client)
        assert seen, "no card was played for its player in this deal"
