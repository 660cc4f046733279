"""A card typed with ``/play`` (no autocomplete pick, so no version of the table it was meant for) is judged on the
game as it is when it arrives: played if it is legal then, else refused in the player's words, nothing applied —
whatever moved meanwhile (here the player's own card, played for them first, as a stand-in or a second device
would)."""

from __future__ import annotations

import logging

from bot.presentation.choices import card_label
from rules.game import PLAY
from tests.botkit.harness import TIMEOUT, answer_text, bot_world, play_to_the_end


async def test_a_typed_card_is_judged_on_the_game_as_it_is_when_it_arrives(tmp_path, caplog):
    async with bot_world(tmp_path) as world, world.running() as client:
        players = [world.alice, world.bob, world.carol, world.dan]
        table = await world.seated_and_started(client, players, game="belote")
        await play_to_the_end(
            world, client, table.id, stop=lambda t: t.match.phase == PLAY and not t.match.state_json()["trick"]
        )
        users = {u.id: u for u in players}
        seat = table.match.to_move
        leader = users[table.seats[seat].user_id]
        card = next(a["cards"][0] for a in table.match.legal_json() if a["seat"] == seat)
        # The leader's card is played before their typed /play of it arrives.
        await client.manager.act(table.id, leader.id, {"type": "play", "cards": [card]})
        await world.settle(client)
        before = table.version
        with caplog.at_level(logging.INFO):
            stale = await (await world.slash(leader, "play", {"card": card})).wait_for_answer(TIMEOUT)
        assert stale.ephemeral and answer_text(stale).startswith("⛔ it is not your turn"), answer_text(stale)
        assert table.version == before  # nothing applied
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        # The next player's typed card, legal now, is played.
        seat = table.match.to_move
        nxt = users[table.seats[seat].user_id]
        card = next(a["cards"][0] for a in table.match.legal_json() if a["seat"] == seat)
        played = await (await world.slash(nxt, "play", {"card": card})).wait_for_answer(TIMEOUT)
        assert "✅" in answer_text(played) and table.version == before + 1, answer_text(played)
        # A typed card that is not legal now (one the player does not hold) is refused with the reason.
        seat = table.match.to_move
        nxt = users[table.seats[seat].user_id]
        elsewhere = next(c for c in table.match.hand_mask_names((seat + 1) % 4))
        refused = await (await world.slash(nxt, "play", {"card": elsewhere})).wait_for_answer(TIMEOUT)
        assert answer_text(refused) == f"⛔ you do not hold {card_label(elsewhere)}" and table.version == before + 1
