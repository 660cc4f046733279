"""A move made from a live hand whose answer never reaches the player still shows on that hand.

While a player's tap is answered, the bot's refreshes of their hand leave it to the answer (the answer is the hand,
edited in place).  When the answer fails — the interaction expired on a loaded bot, Discord refused the token — the
move is kept (bot/presentation/errors.py's ``saved_anyway``), and the hand must then be refreshed: otherwise it
keeps offering the turn just played until something else changes it, which may be nothing (the same player's turn
again: a contract won, a trick to lead), so that the player waits for a hand that never comes
(bench/bench_bot.py counted it as "the hand never showed the turn", on a loaded machine).
"""

from __future__ import annotations

import logging

from rules.game import GAME_OVER
from tests.botkit import postgres
from tests.botkit.harness import TIMEOUT, bot_world, eventually, plan_taps
from tests.fakediscord.faults import SERVER_ERROR, SLOW, TOKEN_SECONDS, Fault
from tests.test_shards import on_shard_one, until

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
ORIGINAL = "/webhooks/{app_id}/{token}/messages/{message_id}"


def live_hand(world, user, table_id: int):
    """The user's live hand for the table in their DMs (the last message offering its panel)."""
    for message in reversed(world.dms(user)):
        if any(c.startswith(f"ct:{table_id}:hp:") for c in message.custom_ids()):
            return message
    return None


def shows_version(message, version: int) -> bool:
    return any(f":hp:{version}:" in c for c in message.custom_ids())


def a_human_move(world, table):
    """The user to move, their live hand (showing this turn) and the custom id of a tap that makes a move."""
    seat = table.match.to_move
    user = world.fake.world.users[table.seats[seat].user_id]
    hand = live_hand(world, user, table.id)
    assert hand is not None and shows_version(hand, table.version), "the hand does not show the turn"
    for action in table.match.legal_json():
        if action.get("seat") != seat:
            continue
        taps = plan_taps(table, seat, {k: v for k, v in action.items() if k != "seat"})
        if len(taps) == 1:  # one tap (a bid, a pass): no selection to make first
            wanted = f":hp:{table.version}:{taps[0]}"
            return user, hand, next(c for c in hand.custom_ids() if c.endswith(wanted))
    raise AssertionError("no one-tap move")


async def test_a_tap_whose_answer_failed_leaves_the_live_hand_showing_the_move(tmp_path, caplog):
    """One process: Discord fails the tap's callback until the deadline passes (a 5xx each time); the move is kept,
    and the player's DM hand is edited to show the table after it."""
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        user, hand, tap = a_human_move(world, table)
        before = table.version
        failing = world.fake.faults.add(Fault(SERVER_ERROR, "POST", CALLBACK, times=None))
        with caplog.at_level(logging.WARNING):
            result = await world.fake.click(user, hand, tap)
            await eventually(lambda: "did not reach the player" in caplog.text, "the bot giving up", TIMEOUT)
        failing.times = failing.hits  # Discord is back
        await world.settle(client)
        assert result.callback_type != 7 and table.version > before  # the hand was not answered in place, the move made
        shown = live_hand(world, user, table.id)
        assert shown is not None and shows_version(shown, table.version), shown.custom_ids() if shown else None


async def test_a_forwarded_tap_whose_answer_failed_leaves_the_live_hand_showing_the_move(tmp_path, postgres_server):
    """Two processes: shard 0's process (A) acknowledges a DM tap and forwards it to the table's process (B), which
    stores the move, but the tap's token no longer takes its answer (Discord's 15 minutes were over when B answered:
    refused, 50027, after a slow round trip).  B keeps the move and edits the player's DM hand itself."""
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = world.bot(1, shard_id=0, shard_count=2), world.bot(2, shard_id=1, shard_count=2)
        async with world.fake.running(a), world.fake.running(b):
            await until(lambda: a.presenter.placement.alive == {1} and b.presenter.placement.alive == {0}, TIMEOUT)
            table = await world.seated_and_started(b, [world.alice, world.bob])
            await until(lambda: table.id in a.manager.tables, TIMEOUT)
            user, hand, tap = a_human_move(world, table)
            before = table.version
            claim = b.forwarder._claim

            async def claimed_too_late(interaction_id: int, table_id: int) -> None:
                world.fake.clock.advance(TOKEN_SECONDS + 1)  # the token dies before B answers through it
                await claim(interaction_id, table_id)

            b.forwarder._claim = claimed_too_late
            # (refused after a while: B's refreshes of the hand meanwhile leave it to the answer)
            world.fake.faults.add(Fault(SLOW, "PATCH", ORIGINAL, seconds=0.5))
            result = await world.fake.click(user, hand, tap)
            await until(lambda: table.version > before and world.fake.expired_tokens > 0, TIMEOUT)
            await world.settle(b)
            assert result.deferred and b.forwarder.answered_count == 1  # acknowledged by A, handled by B
            assert table.match.phase != GAME_OVER
            shown = live_hand(world, user, table.id)
            assert shown is not None and shows_version(shown, table.version), shown.custom_ids() if shown else None
