"""A process that hears of another process's moves (PostgreSQL's NOTIFY) applies only what was appended to the
record since its copy's last action, deals included; what does not follow on (a gap, a card taken back) is replayed
whole."""

from __future__ import annotations

import asyncio
import random

import tests.botkit.toy  # noqa: F401  (registers the toy game)
from bot.storage.engines import open_store
from bot.tables import service
from bot.tables.catch_up import NewDeal, steps_after
from bot.tables.service import TableManager
from rules.game import GAME_OVER
from rules.records import GameRecord, replay
from tests.botkit import postgres
from tests.test_shared_store import BOB, HOST, body, wait_for


def a_move(table) -> dict:
    """A legal move that is no pass (all passing throws every deal in)."""
    legal = [a for a in table.match.legal_actions() if a.seat == table.match.to_move]
    return body(([a for a in legal if a.type != "pass"] or legal)[0])


async def move(manager, table) -> None:
    """One move of the player to move, then the cards played for a player by themselves (a forced card)."""
    await manager.act(table.id, table.seats[table.match.to_move].user_id, a_move(table))
    if table.computer_task is not None:
        await table.computer_task


def played(manager_table, moves: int) -> tuple[GameRecord, GameRecord]:
    """(the record after ``moves`` actions of its first deal, the whole record)."""
    whole = manager_table.record
    early = GameRecord(whole.game, whole.options, whole.first_dealer)
    early.add_deal(whole.deals[0].cards)
    early.deals[0].actions = list(whole.deals[0].actions[:moves])
    return early, whole


async def test_steps_follow_on_from_the_copy_or_there_are_none(database):
    store = await open_store(database)
    try:
        manager = TableManager(store, None, ai_delay=0, rng=random.Random(4))
        table = await manager.create(
            game="toy", options={"players": 2}, preset=None, host_id=HOST, host_name="Host", channel_id=5
        )
        await manager.join(table.id, BOB, "Bob")
        await manager.start(table.id, HOST)
        while len(table.record.deals) < 2 or len(table.record.deals[-1].actions) < 2:  # into the second deal
            await move(manager, table)
        early, whole = played(table, 1)
        deals, actions = await store.record_since(table.id, 0, 1)
        steps = steps_after(early, deals, actions)
        assert steps is not None and len(steps) == table.version - 1 - 1  # every action and deal after the first
        assert [type(s) for s in steps].count(NewDeal) == len(whole.deals) - 1
        # Applied to a copy of the early game, the steps give the game as it stands.
        copy = replay(early).match
        for step in steps:
            if isinstance(step, NewDeal):
                copy.start_deal(step.cards)
            else:
                copy.apply(step)
        assert copy.output() == table.match.output()
        # An action missing (a gap), or a card taken back, and there are no steps: the table is replayed whole.
        assert steps_after(early, deals, [a for a in actions if a[:2] != (1, 0)]) is None
        undo = [(0, 1, {"seat": 0, "type": "undo"})]
        assert steps_after(early, {}, undo) is None
        assert steps_after(early, {5: deals[1]}, []) is None
    finally:
        await store.close()


async def test_another_processes_moves_are_applied_without_replaying_the_record(postgres_server, monkeypatch):
    url = await postgres.new_schema(postgres_server)
    store_a, store_b = await open_store(url), await open_store(url)
    replays = []
    real_replay = service.replay
    monkeypatch.setattr(service, "replay", lambda record: replays.append(1) or real_replay(record))
    try:
        a = TableManager(store_a, None, ai_delay=0, rng=random.Random(1))
        b = TableManager(store_b, None, ai_delay=0, rng=random.Random(2))
        await b.listen_to_other_processes()
        table = await a.create(
            game="toy", options={"players": 2, "target": 3}, preset=None, host_id=HOST, host_name="Host", channel_id=5
        )
        await a.join(table.id, BOB, "Bob")
        await a.start(table.id, HOST)
        await wait_for(lambda: table.id in b.tables and b.tables[table.id].match is not None)
        seen_by_b = b.tables[table.id]
        await asyncio.sleep(0.5)  # B's late loads of the lobby's news (each replays the table as it is) are over
        replays.clear()
        deals = 0
        while table.match.phase != GAME_OVER and len(table.record.deals) < 4:
            await move(a, table)
            await wait_for(lambda: seen_by_b.version == table.version)
            assert seen_by_b.match.output() == table.match.output()
            assert seen_by_b.last_trick == table.last_trick
            deals = len(table.record.deals)
        assert deals >= 2 and replays == []  # new deals came too, and nothing was replayed whole
        # A card taken back (an undo rebuilds the deal) is replayed whole, there as here.
        while table.match.phase != GAME_OVER and [a["type"] for a in table.record.deals[-1].actions[-1:]] != ["play"]:
            await move(a, table)
        if table.match.phase != GAME_OVER:
            replays.clear()
            async with table.lock:
                await a.take_back(table, table.record.deals[-1].actions[-1]["seat"])
            await wait_for(lambda: len(replays) >= 2)  # A's own, then B's
            await wait_for(lambda: seen_by_b.version == table.version)
            assert seen_by_b.match.output() == table.match.output()
        await a.close()
        await b.close()
        await asyncio.sleep(0)
    finally:
        await store_a.close()
        await store_b.close()
