"""Ratings with computer stand-ins and substitutes (bot/ratings/standins.py): the policy on its own, then whole games
through the offline Discord with a FakeClock — a stand-in for most of a seat (unrated), a stand-in for one turn (rated),
a substitute who plays on (rated in place of the player who left) — each decided again from stored data alike."""

from __future__ import annotations

import random

import pytest

import bot.storage.results as rs
from bot.clocks.clock import FakeClock
from bot.clocks.service import SUBSTITUTE_AFTER
from bot.presentation.clock_view import clock_of
from bot.ratings.rating import SeatInfo, rating_eligibility
from bot.ratings.standins import SeatPlay, standin_reason, tally
from tests.botkit.harness import bot_world
from tests.test_clocks import act_for, advance, running, started

# --- the policy ------------------------------------------------------------------------------------------------


def moves(*seats_and_flags):
    return [({"seat": s, "type": t}, flag) for s, t, flag in seats_and_flags]


def test_tally_counts_moves_stand_ins_and_the_players_own_but_no_draws():
    actions = moves((0, "bid", False), (1, "bid", True), (0, "draw", False), (1, "draw", True), (1, "play", False))
    play = tally(actions, {0: 10, 1: 11})
    assert play == {0: SeatPlay(1, 0, 1), 1: SeatPlay(2, 1, 1)}


def test_a_takeover_counts_only_when_its_user_holds_the_seat_at_the_end():
    actions = moves((1, "play", False), (1, "play", True), (1, "play", False), (1, "play", False))
    assert tally(actions, {1: 12}, [(1, 12, 2)])[1] == SeatPlay(4, 1, 2, substituted=True)
    # a takeover noted but whose seat change was never saved (a crash between the two writes) is ignored
    assert tally(actions, {1: 11}, [(1, 12, 2)])[1] == SeatPlay(4, 1, 3, substituted=False)


@pytest.mark.parametrize(
    "play, reason",
    [
        ({0: SeatPlay(8, 2, 6)}, None),  # exactly a quarter: still rated
        ({0: SeatPlay(8, 3, 5)}, "a computer stood in for more than a quarter of seat 1's moves (3 of 8)"),
        ({2: SeatPlay(8, 0, 2, substituted=True)}, None),  # a substitute with a quarter of the seat's moves
        ({2: SeatPlay(8, 0, 1, substituted=True)},
         "the substitute in seat 3 played fewer than a quarter of its moves (1 of 8)"),
        ({0: SeatPlay(0, 0, 0)}, None),
    ],
)  # fmt: skip
def test_the_quarter_rules(play, reason):
    assert standin_reason(play) == reason


def test_eligibility_names_hints_and_stand_ins():
    seats = [SeatInfo(s, 100 + s) for s in range(4)]
    assert rating_eligibility(guild_id=1, players=4, seats=seats, hints=True).reason == "hints were allowed"
    e = rating_eligibility(guild_id=1, players=4, seats=seats, play={3: SeatPlay(10, 6, 4)})
    assert not e.rated and e.notice().endswith(
        "a computer stood in for more than a quarter of seat 4's moves (6 of 10)."
    )
    assert rating_eligibility(guild_id=1, players=4, seats=seats, play={3: SeatPlay(10, 2, 8)}).rated


# --- through the bot ---------------------------------------------------------------------------------------------


@pytest.fixture
async def world(tmp_path, database):
    async with bot_world(tmp_path, database=database) as w:
        w.clock = FakeClock()
        yield w


async def finish(world, client, table, rng):
    """Every human seat that is not away plays random legal moves until the game ends."""
    for _ in range(2000):
        await world.settle(client)
        if table.status != "playing":
            return
        seat = table.match.to_move
        if seat is not None and seat not in table.away:
            await act_for(client, table, seat, rng)
    raise AssertionError("the game did not end")


async def seat_rows(client, table_id):
    result = await rs.result_for_table(client.store, table_id)
    found = await client.store.fetch_all(
        "SELECT seat, user_id, moves, standin_moves, player_moves FROM result_players WHERE result_id = ?"
        " ORDER BY seat",
        (result["id"],),
    )
    return result, [dict(r) for r in found]


async def ratings_snapshot(client):
    return [
        tuple(r) for r in await client.store.fetch_all("SELECT * FROM ratings ORDER BY guild_id, scope, game, user_id")
    ]


async def test_a_stand_in_for_most_of_a_seat_leaves_the_game_unrated(world):
    rng = random.Random(5)
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob, options="target=2")
        bob = table.seat_of(world.bob.id)
        while table.match.to_move != bob:
            await act_for(client, table, table.match.to_move, rng)
            await world.settle(client)
        await advance(world, client, 61)  # bob runs out of time and never comes back
        assert bob in table.away
        table_id = table.id
    async with running(world, seed=4) as client:  # the stand-in's moves are kept over a restart
        table = client.manager.tables[table_id]
        assert bob in table.away
        await finish(world, client, table, rng)
        result, rows = await seat_rows(client, table.id)
        assert result["status"] == "finished" and not result["rated"]
        assert result["unrated_reason"].startswith(f"a computer stood in for more than a quarter of seat {bob + 1}'s")
        assert rows[bob]["standin_moves"] > rows[bob]["moves"] / 4 and rows[1 - bob]["standin_moves"] == 0
        assert (await rs.stored_eligibility(client.store, table.id)).reason == result["unrated_reason"]
        assert await ratings_snapshot(client) == []
        notice = [m.content for m in world.fake.messages(world.channel) if "not rated after all" in m.content]
        assert notice == [f"Table #{table.id}: this game is not rated after all: {result['unrated_reason']}."]
        r = await world.slash(world.bob, "player", {}, subcommand="history")
        assert "a computer stood in" in str(r.embeds)


async def test_a_stand_in_for_one_turn_keeps_the_game_rated(world):
    rng = random.Random(2)
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob, options="target=4")
        bob = table.seat_of(world.bob.id)
        while table.match.to_move != bob:
            await act_for(client, table, table.match.to_move, rng)
            await world.settle(client)
        await advance(world, client, 61)
        r = await world.slash(world.bob, "table", {"table": table.id}, subcommand="back")
        assert "Welcome back" in r.content
        await finish(world, client, table, rng)
        result, rows = await seat_rows(client, table.id)
        assert 1 <= rows[bob]["standin_moves"] <= rows[bob]["moves"] / 4
        assert rows[bob]["player_moves"] == rows[bob]["moves"] - rows[bob]["standin_moves"]
        assert result["rated"], result["unrated_reason"]
        assert (await rs.stored_eligibility(client.store, table.id)).rated
        assert not [m for m in world.fake.messages(world.channel) if "not rated after all" in m.content]
        before = await ratings_snapshot(client)
        assert {r[3] for r in before} == {world.alice.id, world.bob.id}
        await rs.recompute(client.store)
        assert await ratings_snapshot(client) == before


async def test_a_substitute_is_rated_for_the_seat_they_took(world):
    rng = random.Random(3)
    async with running(world) as client:
        table = await started(world, client, world.alice, world.bob, options="target=5")
        bob = table.seat_of(world.bob.id)
        for _ in range(200):  # alice plays at once; bob never does
            if clock_of(table).idle_turns.get(bob, 0) >= SUBSTITUTE_AFTER:
                break
            if table.match.to_move == bob and bob not in table.away:
                await advance(world, client, 61)
            elif table.match.to_move != bob:
                await act_for(client, table, table.match.to_move, rng)
            await world.settle(client)
        await client.clocks.settle()
        prompt = next(m for m in world.fake.messages(world.channel) if "turns in a row" in m.content)
        await world.click(world.alice, prompt, "offer")
        await client.clocks.settle()
        offer = next(m for m in world.fake.messages(world.channel) if "is open" in m.content)
        r = await world.click(world.carol, offer, "take")
        assert "takes seat" in r.content
        taken = sum(len(d.actions) for d in table.record.deals)
        takeovers = await client.store.fetch_all(
            "SELECT seat, user_id, previous_user_id, at_action FROM seat_takeovers"
        )
        assert [tuple(x) for x in takeovers] == [(bob, world.carol.id, world.bob.id, taken)]
        await finish(world, client, table, rng)
        result, rows = await seat_rows(client, table.id)
        assert rows[bob]["user_id"] == world.carol.id
        assert rows[bob]["standin_moves"] >= SUBSTITUTE_AFTER
        assert rows[bob]["player_moves"] == rows[bob]["moves"] - rows[bob]["standin_moves"] >= rows[bob]["moves"] / 4
        assert result["rated"], result["unrated_reason"]
        assert (await rs.stored_eligibility(client.store, table.id)).rated
        rated = {r[3] for r in await ratings_snapshot(client)}
        assert rated == {world.alice.id, world.carol.id}  # carol in place of bob, who left
