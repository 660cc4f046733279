"""Manners at a table (issue 15 items 3 and 5), end to end through the offline Discord as players: the host cancels
only in the lobby; a running game stops by a vote of its players (pinged, unrated, recorded); a claim of the
remaining tricks is played out at once when the engine proves it, else put to the opponents; a card is taken back
at unrated tables when the opponents agree; a finished table offers a rematch with the same seats and options."""

from __future__ import annotations

import json
import random
import threading

from bot.storage.requests import requests_of
from bot.storage.results import result_for_table
from bot.tables.manners import is_unrated
from rules.claims import can_claim, check_claim
from rules.game import GAME_OVER, PLAY
from rules.records import effective_actions, replay, replay_text
from tests.botkit.harness import (
    TIMEOUT,
    act_through_ui,
    answer_text,
    bot_world,
    eventually,
    find_id,
    play_to_the_end,
    table_message,
)


async def _play_until(world, client, table, stop, *, seed: int = 3, max_steps: int = 400):
    """The seated humans play random legal moves from their hands until ``stop(table)``."""
    rng = random.Random(seed)
    users = {u.id: u for u in world.fake.world.users.values()}
    for _ in range(max_steps):
        await world.settle(client, rounds=1)
        if table.status != "playing" or stop(table):
            return
        match = table.match
        seat = match.to_move
        mine = [a for a in match.legal_json() if a.get("seat") == seat]
        if seat is None or table.is_computer(seat) or not mine:
            continue
        action = {k: v for k, v in rng.choice(mine).items() if k != "seat"}
        await act_through_ui(world, table, users[table.seats[seat].user_id], action)
    raise AssertionError("the situation never came")


def _claim_state(table, want_proven: bool):
    """A stop condition: the seat to play has a claim the engine proves (or only a possible one)."""

    def stop(t) -> bool:
        match = t.match
        if match.phase != PLAY or t.is_computer(match.to_move):
            return False
        check = check_claim(match, match.to_move)
        return check.proven if want_proven else (check.possible is True and not check.proven)

    return stop


def _asked(world, words: str):
    """The question the bot put to the table, in its channel."""
    return next(m for m in reversed(world.fake.messages(world.channel)) if words in m.content and not m.ephemeral)


def _user(world, table, seat):
    return next(u for u in world.fake.world.users.values() if u.id == table.seats[seat].user_id)


async def test_the_host_cannot_cancel_a_running_game_alone(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        r = await world.slash(world.alice, "table", {}, subcommand="cancel")
        assert r.ephemeral and "only in the lobby" in r.content and "/table stop" in r.content
        assert table.status == "playing"


async def test_a_vote_of_the_players_stops_a_running_game_unrated(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        r = await world.slash(world.alice, "table", {}, subcommand="stop")
        assert r.ephemeral and "Asked at the table" in r.content
        question = _asked(world, "proposes to")
        assert f"<@{world.bob.id}>" in question.content  # the other player is pinged
        assert "2 of 2" in question.content and table.status == "playing"
        # Only the table's players answer.
        r = await world.click(world.stranger, question, "agree")
        assert r.ephemeral and "not yours to answer" in r.content
        r = await world.click(world.bob, question, "agree")
        assert "stopped by a vote" in r.message.content and r.message.components == []
        await world.settle(client)
        assert table.status == "cancelled"
        result = await result_for_table(client.manager.store, table.id)
        assert result is not None and not result["rated"]
        (stored,) = await requests_of(client.manager.store, table.id)
        assert (stored.kind, stored.outcome, sorted(stored.yes)) == (
            "stop",
            "accepted",
            sorted([world.alice.id, world.bob.id]),
        )


async def test_a_vote_to_stop_fails_once_a_majority_is_out_of_reach(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob, world.carol], options="players=3")
        await world.slash(world.bob, "table", {}, subcommand="stop")
        question = _asked(world, "proposes to")
        assert "2 of 3" in question.content
        assert f"<@{world.alice.id}>" in question.content and f"<@{world.carol.id}>" in question.content
        r = await world.click(world.alice, question, "disagree")
        assert "refused: alice" in r.message.content  # one refusal: two of three can still agree
        r = await world.click(world.carol, question, "disagree")
        assert "plays on" in r.message.content
        assert table.status == "playing"
        # A new vote may be proposed afterwards, and play went on meanwhile.
        r = await world.slash(world.carol, "table", {}, subcommand="stop")
        assert "Asked at the table" in r.content
        r = await world.slash(world.alice, "table", {}, subcommand="stop")
        assert r.ephemeral and "already answering" in r.content


async def test_a_proven_claim_is_played_out_at_once(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=5")
        await _play_until(world, client, table, _claim_state(table, want_proven=True))
        seat, deal = table.match.to_move, table.deal_index()
        before = len(table.match.deal_results)
        r = await world.slash(_user(world, table, seat), "table", {}, subcommand="claim")
        said = await r.wait_for_followup(1)
        assert said.ephemeral and "no play could stop it" in said.content, said.content
        assert "no play could stop it" in _asked(world, "claimed every remaining trick").content  # told to all
        await world.settle(client)
        result = table.match.deal_results[before]
        assert table.deal_index() > deal or table.match.phase == GAME_OVER
        # The record holds every card, each trick after the claim won by the claimer's side.
        replayed = replay(table.record).match
        assert replayed.deal_results[before] == result
        (stored,) = await requests_of(client.manager.store, table.id)
        assert (stored.kind, stored.outcome) == ("claim", "proven")


async def test_a_claim_that_could_fail_goes_to_the_opponents(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=5")
        await _play_until(world, client, table, _claim_state(table, want_proven=False), seed=5)
        seat = table.match.to_move
        claimer, opponent = _user(world, table, seat), _user(world, table, 1 - seat)
        version = table.version
        r = await world.slash(claimer, "table", {}, subcommand="claim")
        await r.wait_for_followup(1)
        question = _asked(world, "claims every remaining trick")
        assert f"<@{opponent.id}>" in question.content and "claims every remaining trick" in question.content
        assert table.version == version  # nothing played: the claim waits for the opponent
        r = await world.click(claimer, question, "agree")  # the claimer is not asked
        assert r.ephemeral and "not yours" in r.content
        r = await world.click(opponent, question, "agree")
        assert "accepted" in r.message.content
        await world.settle(client)
        (stored,) = await requests_of(client.manager.store, table.id)
        assert (stored.kind, stored.outcome, stored.yes) == ("claim", "accepted", [opponent.id])


async def test_a_refused_claim_lets_play_go_on(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=5")
        await _play_until(world, client, table, _claim_state(table, want_proven=False), seed=5)
        seat = table.match.to_move
        claimer, opponent = _user(world, table, seat), _user(world, table, 1 - seat)
        version = table.version
        r = await world.slash(claimer, "table", {}, subcommand="claim")
        await r.wait_for_followup(1)
        r = await world.click(opponent, _asked(world, "claims every remaining trick"), "disagree")
        assert "refused" in r.message.content and table.version == version
        (stored,) = await requests_of(client.manager.store, table.id)
        assert stored.outcome == "refused"


async def test_an_impossible_claim_is_refused_outright(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=5")

        def hopeless(t) -> bool:
            match = t.match
            return match.phase == PLAY and check_claim(match, match.to_move).possible is False

        await _play_until(world, client, table, hopeless, seed=7)
        r = await world.slash(_user(world, table, table.match.to_move), "table", {}, subcommand="claim")
        said = await r.wait_for_followup(1)
        assert said.ephemeral and "cannot take every remaining trick" in said.content  # the claimer alone is told
        assert not any("claim" in m.content for m in world.fake.messages(world.channel) if not m.ephemeral)


async def test_an_undo_needs_an_unrated_table_and_the_opponents(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        # A rated table: no undo.
        rated = await world.seated_and_started(client, [world.alice, world.bob])
        assert not is_unrated(rated)
        await _play_until(
            world,
            client,
            rated,
            lambda t: (
                t.match.phase == PLAY
                and bool(effective_actions(t.record.deals[-1].actions))
                and t.record.deals[-1].actions[-1]["type"] == "play"
            ),
        )
        last = rated.record.deals[-1].actions[-1]
        r = await world.slash(_user(world, rated, last["seat"]), "table", {}, subcommand="undo")
        assert r.ephemeral and "rated table" in r.content
        await world.slash(world.alice, "table", {}, subcommand="stop")
        stop_question = client.manager.tables[rated.id].extra["request"]
        assert stop_question.kind == "stop"


async def test_a_card_taken_back_stays_in_the_record_and_replays(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        result = await world.slash(world.alice, "table", {"game": "toy", "hints": True}, subcommand="new")
        lobby = result.message
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        table = client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]
        assert is_unrated(table)

        def just_played(t) -> bool:
            actions = t.record.deals[-1].actions
            return t.match.phase == PLAY and bool(actions) and actions[-1]["type"] == "play"

        await _play_until(world, client, table, just_played)
        last = table.record.deals[-1].actions[-1]
        player, opponent = _user(world, table, last["seat"]), _user(world, table, 1 - last["seat"])
        # Only the player who played it may ask.
        r = await world.slash(opponent, "table", {}, subcommand="undo")
        assert r.ephemeral and "Only your own card" in r.content
        hand_before = list(table.match.hand(last["seat"]))
        await world.slash(player, "table", {}, subcommand="undo")
        question = _asked(world, "take back")
        assert f"<@{opponent.id}>" in question.content
        r = await world.click(opponent, question, "agree")
        assert "took back their last card" in r.message.content
        await world.settle(client)
        assert table.match.to_move == last["seat"]
        assert len(table.match.hand(last["seat"])) == len(hand_before) + 1
        assert table.record.deals[-1].actions[-1] == {"seat": last["seat"], "type": "undo"}
        # The record is the truth: replaying it (as `cardtable replay` does) gives the table as it is now.
        code, out = replay_text(table.record.dumps())
        assert code == 0 and out == table.match.output()
        assert [sorted(table.match.hand(s)) for s in range(2)] == [
            sorted(replay(table.record).match.hand(s)) for s in range(2)
        ]
        stored = await client.manager.store.load_record(table.row)
        assert json.dumps(stored.to_json()) == json.dumps(table.record.to_json())


async def test_a_finished_table_offers_a_rematch_with_the_same_seats_and_options(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=1")
        old = await play_to_the_end(world, client, table.id)
        await world.settle(client)
        message = table_message(world, old)
        r = await world.click(world.bob, message, "rematch")
        lobby = r.message
        assert not r.ephemeral and "Rematch of table" in lobby.content and f"<@{world.alice.id}>" in lobby.content
        new = client.manager.tables[int(find_id(lobby, "join").split(":")[1])]
        assert new.id != old.id and new.status == "lobby" and new.row.options == old.row.options
        assert new.seat_of(world.bob.id) == old.seat_of(world.bob.id)
        r = await world.click(world.bob, message, "rematch")
        assert r.ephemeral and "already seated" in r.content
        r = await world.click(world.stranger, message, "rematch")
        assert r.ephemeral and "Only the players" in r.content
        r = await world.click(world.alice, message, "rematch")
        assert "has started" in r.content
        await world.settle(client)
        assert new.status == "playing" and new.seat_of(world.alice.id) == old.seat_of(world.alice.id)
        assert "hand" in " ".join(table_message(world, new).custom_ids())  # the lobby became the table message


async def test_a_rematch_keeps_the_computers_and_starts_when_the_humans_are_back(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        result = await world.slash(world.alice, "table", {"game": "toy", "options": "target=1"}, subcommand="new")
        lobby = result.message
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        table = client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]
        old = await play_to_the_end(world, client, table.id)
        await world.settle(client)
        r = await world.click(world.alice, table_message(world, old), "rematch")
        assert not r.ephemeral
        await world.settle(client)
        new = next(t for t in client.manager.tables.values() if t.id != old.id)
        assert new.status == "playing"
        assert {s: (r.computer, r.name) for s, r in new.seats.items() if r.computer} == {
            s: (r.computer, r.name) for s, r in old.seats.items() if r.computer
        }


async def test_the_table_plays_on_while_a_claim_is_checked_and_a_stale_claim_is_refused(tmp_path, monkeypatch):
    """The search that checks a claim does not hold the table: the player to move plays meanwhile, and the claim,
    proven for a position that is gone, is refused in words (claim again)."""
    import bot.tables.manners

    searching, go_on = threading.Event(), threading.Event()

    def slow_check(match, seat):
        searching.set()
        go_on.wait(TIMEOUT)
        return check_claim(match, seat)

    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob], options="target=5")
        await _play_until(
            world, client, table, lambda t: t.match.phase == PLAY and can_claim(t.match, 1 - t.match.to_move)
        )
        mover = _user(world, table, table.match.to_move)
        claimer = _user(world, table, 1 - table.match.to_move)
        monkeypatch.setattr(bot.tables.manners, "check_claim", slow_check)
        claimed = await world.fake.slash(claimer, world.channel, "table", {}, subcommand="claim")
        await eventually(searching.is_set, "the claim's search to start")
        move = next(a for a in table.match.legal_json() if a["seat"] == table.match.to_move)
        played = await act_through_ui(world, table, mover, {k: v for k, v in move.items() if k != "seat"})
        assert "✅" in answer_text(played), answer_text(played)  # not held up by the search
        go_on.set()
        said = await claimed.wait_for_followup(1)
        assert said.ephemeral and "moved on while your claim was being checked" in said.content, said.content
        assert await requests_of(client.manager.store, table.id) == []  # nothing asked, nothing played for it
