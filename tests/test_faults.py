"""When Discord itself fails: the offline Discord as strict as Discord (expiry, rate limits) and failing on purpose
(5xx, 429, slow answers, a dropped gateway), and the bot keeping every move and answering every player in time.

Each test ends the same way: nothing a player did is lost or applied twice, every interaction was answered (or
expired on Discord's side), and the player can see the true state.  The bot killed mid-action, as its own process,
is in tests/test_fault_restarts.py.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random

import discord
import pytest

from bot.presentation import deadline
from tests.botkit.harness import (
    TIMEOUT,
    answer_text,
    bot_world,
    eventually,
    play_to_the_end,
    table_message,
    tap_action,
)
from tests.fakediscord.faults import LOST_ANSWER, SERVER_ERROR, SLOW, TOO_MANY, Fault, RateLimits

CALLBACK = "/interactions/{interaction_id}/{token}/callback"


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        yield w


async def started(world, client, *users):
    return await world.seated_and_started(client, list(users))  # the toy game


def user_to_move(world, table):
    return world.fake.world.users[table.seats[table.match.to_move].user_id]


def tracebacks(caplog) -> list[str]:
    """Log records of ours (and discord.py's) that carry a traceback or are errors: none is expected."""
    return [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def first_legal_slash(world, table):
    """The player to move sends their first legal move as a slash command (a bid or a card); returns what they
    sent and the interaction."""
    user = user_to_move(world, table)
    move = next(a for a in table.match.legal_json() if a["seat"] == table.match.to_move and a["type"] != "pass")
    if move["type"] == "bid":
        result = await world.fake.slash(user, world.channel, "bid", {"value": str(move["value"])})
    elif move["type"] == "trump":
        result = await world.fake.slash(user, world.channel, "move", {"suit": move["suit"]}, subcommand="trump")
    else:
        result = await world.fake.slash(user, world.channel, "play", {"card": move["cards"][0]})
    return move, result


def expiry_logged(caplog) -> bool:
    return any("expired before it was answered" in r.getMessage() for r in caplog.records)


def gave_up(caplog) -> bool:
    return any("Discord failed" in r.getMessage() or "did not reach" in r.getMessage() for r in caplog.records)


# --- 1. the offline Discord is as strict as Discord ---------------------------------------------------------------


async def test_a_first_answer_after_three_seconds_is_refused_and_costs_one_log_line(world, caplog):
    """Discord's 3 s are measured from when the interaction was sent to when the answer arrives; the fake's clock is
    moved on so that the bot's answer (made at once) arrives "late" without the test waiting."""
    async with world.running():
        with caplog.at_level(logging.INFO):
            result = await world.fake.slash(world.alice, world.channel, "table", {"game": "toy"}, subcommand="new")
            world.fake.clock.advance(world.fake.interaction_deadline * world.fake.deadline_slack + 0.1)
            await world.fake.wait_until(lambda: world.fake.expired_interactions == 1, what="the expiry")
            await eventually(lambda: expiry_logged(caplog), "the bot's one line about the expiry")
    assert result.callback_type is None and world.fake.unanswered() == [result]
    assert not tracebacks(caplog)


async def test_edits_with_an_interaction_token_stop_after_fifteen_minutes(world, caplog):
    """A live hand is an interaction's message: after 15 minutes its token no longer edits it (50027); the bot
    keeps the move, says nothing wrong, and the next "My hand" shows the hand as it is."""
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        hands = {}
        for user in (world.alice, world.bob):
            hands[user] = await world.click(user, table_message(world, table), "hand")
        world.fake.clock.advance(15 * 60 + 1)
        with caplog.at_level(logging.INFO):
            move, result = await first_legal_slash(world, table)
            await result.wait_for_answer(TIMEOUT)
            await world.settle(client)
        assert "✅" in answer_text(result), answer_text(result)  # a fresh interaction: answered as ever
        assert world.fake.expired_tokens >= 1  # the old hands could not be edited any more
        assert not tracebacks(caplog)
        again = await world.click(world.alice, table_message(world, table), "hand")
        assert f":hp:{table.version}:" in " ".join(again.message.custom_ids()) or "hp" not in str(again.components)


async def test_rate_limits_answer_429_with_retry_after_and_nothing_is_lost(tmp_path):
    """Tighter limits than Discord's (3 requests per route or channel, 5 a second in all), their windows scaled to
    1/20: the bot's requests are refused with 429 and Retry-After, discord.py waits and retries, and every message
    arrives."""
    async with bot_world(tmp_path) as world:
        world.fake.rate_limits = RateLimits(time_scale=0.05, global_per_second=5, route=(3, 5.0), channel=(3, 5.0))
        async with world.running() as client:
            table = await started(world, client, world.alice, world.bob)
            finished = await play_to_the_end(world, client, table.id, seed=3)
            await world.settle(client)
        limits = world.fake.rate_limits
        refused = {(c.route, c.status) for c in world.fake.rest.refused}
    assert finished.status == "finished" and limits.refused > 0, refused
    assert {status for _route, status in refused} == {429}
    # everything refused was sent again and carried out: the last table message shows the game's end
    assert "won" in table_message(world, finished).content.lower() or finished.status == "finished"


async def test_fault_rules_hit_what_they_name_and_count_it(world):
    """The fault switches themselves: a 5xx, a 429, a slow answer and a lost answer, each on one named route."""
    fake = world.fake
    fake.faults.add(Fault(SERVER_ERROR, "POST", "/channels/{channel_id}/messages", times=1, status=502))
    fake.faults.add(Fault(TOO_MANY, "POST", "/channels/{channel_id}/messages", times=1, seconds=0.05))
    fake.faults.add(Fault(SLOW, "POST", "/channels/{channel_id}/messages", times=1, seconds=0.2))
    async with world.running() as client:
        channel = client.get_partial_messageable(world.channel.id)
        message = await channel.send("hello")  # 502 (discord.py sleeps 1 s), 429, then a slow answer
    assert fake.faults.count() == 3 and [k for k, _m, _p in fake.faults.injected] == [SERVER_ERROR, TOO_MANY, SLOW]
    assert [m.content for m in fake.messages(world.channel)] == ["hello"] and message.content == "hello"


# --- 2. answered in time, whatever Discord does -------------------------------------------------------------------


async def test_two_errors_from_the_callback_endpoint_still_answer_within_three_seconds(world, caplog):
    """The measured failure: discord.py sleeps 1 s then 3 s between retries of a callback answered 500; the bot's
    adapter retries within the deadline, so the player sees "✅" for the move that was made, in time."""
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        world.fake.faults.add(Fault(SERVER_ERROR, "POST", CALLBACK, times=2))
        before = len(table.record.deals[-1].actions)
        with caplog.at_level(logging.WARNING):
            move, result = await first_legal_slash(world, table)
            await result.wait_for_answer(TIMEOUT)
    assert world.fake.faults.count(SERVER_ERROR) == 2
    assert result.answered_after is not None and result.answered_after < deadline.DISCORD_DEADLINE
    assert "✅" in answer_text(result) and len(table.record.deals[-1].actions) == before + 1
    assert not tracebacks(caplog)


async def test_a_lost_answer_is_not_mistaken_for_a_failure(world, caplog):
    """Discord carried the first callback out but its answer was lost (500): the retry hears "already
    acknowledged", which is the success it is; the move is made once and the player sees it."""
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        world.fake.faults.add(Fault(LOST_ANSWER, "POST", CALLBACK, times=1))
        before = len(table.record.deals[-1].actions)
        with caplog.at_level(logging.WARNING):
            move, result = await first_legal_slash(world, table)
            await result.wait_for_answer(TIMEOUT)
            await world.settle(client)
    assert "✅" in answer_text(result) and len(table.record.deals[-1].actions) == before + 1
    assert not tracebacks(caplog)


async def test_a_callback_failing_past_the_deadline_keeps_the_move_and_never_says_it_failed(world, caplog):
    """Discord answers every callback 500 for a while: the bot stops retrying at the deadline (one warning, no
    traceback), the move stays made, nothing tells the player it failed, and their hand shows the move."""
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        failing = world.fake.faults.add(Fault(SERVER_ERROR, "POST", CALLBACK, times=None))
        before = len(table.record.deals[-1].actions)
        with caplog.at_level(logging.WARNING):
            move, result = await first_legal_slash(world, table)
            loop = asyncio.get_running_loop()
            started_at = loop.time()
            await world.fake.wait_until(lambda: gave_up(caplog), what="the bot giving up")
            gave_up_after = loop.time() - started_at
            await asyncio.sleep(deadline.DISCORD_DEADLINE + 0.2 - gave_up_after)  # still failing at the deadline
        failing.times = failing.hits  # then Discord recovers
        await world.settle(client)
        assert result.callback_type is None  # Discord shows "interaction failed"; nothing said it failed
        assert len(table.record.deals[-1].actions) == before + 1  # the move is kept
        assert gave_up_after < deadline.DISCORD_DEADLINE + 1
        assert not tracebacks(caplog)
        mover = world.fake.world.users[table.seats[move["seat"]].user_id]
        hand = await world.click(mover, table_message(world, table), "hand")
        assert hand.ephemeral and "✅" not in (hand.content or "") and "⛔" not in (hand.content or "")


async def test_a_slow_save_is_acknowledged_in_time_and_answered_after(world, monkeypatch):
    """Saving takes longer than Discord's 3 s allow (a busy disk, say): the bot acknowledges first ("thinking…",
    or a deferred update of the hand tapped) and edits the answer in when the move is saved."""
    from bot.storage.store import Store

    slow = Store.append_action

    async def slow_append(self, *args, **kwargs):
        await asyncio.sleep(3.1)  # past the deadline: only an early acknowledgement keeps the interaction
        return await slow(self, *args, **kwargs)

    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        monkeypatch.setattr(Store, "append_action", slow_append)
        user = user_to_move(world, table)
        by_slash = await world.fake.slash(user, world.channel, "pass")
        await by_slash.wait()
        assert by_slash.deferred and by_slash.answered_after < deadline.DISCORD_DEADLINE
        answer = await by_slash.wait_for_followup() if not by_slash.followups else by_slash.followups[0]
        assert "✅" in (answer.content or "") or "✅" in (by_slash.content or ""), (answer.content, by_slash.content)
        await world.settle(client)
        user = user_to_move(world, table)
        hand = await world.click(user, table_message(world, table), "hand")
        move = next(a for a in table.match.legal_json() if a["seat"] == table.match.to_move)
        tapped = await tap_action(world, table, user, hand.message, {k: v for k, v in move.items() if k != "seat"})
        assert tapped.deferred and tapped.answered_after < deadline.DISCORD_DEADLINE
        shown = await tapped.wait_for_edit()
        assert "✅" in shown.content, shown.content
    assert world.fake.unanswered() == [] and world.fake.late_answers() == []


async def test_a_failed_edit_after_the_acknowledgement_says_the_move_was_saved(world, caplog, monkeypatch):
    """The answer that shows the hand fails after the move was made (an edit Discord refuses): the player is told
    the move is saved, in a follow-up; never that it failed."""
    import cogs.acting

    async def refused(*args, **kwargs):
        raise RuntimeError("the hand could not be drawn")

    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        monkeypatch.setattr(cogs.acting, "_answer_made", refused)
        user = user_to_move(world, table)
        before = len(table.record.deals[-1].actions)
        with caplog.at_level(logging.WARNING):
            result = await (await world.slash(user, "pass")).wait_for_answer(TIMEOUT)
            await world.settle(client)
    said = answer_text(result)
    assert len(table.record.deals[-1].actions) == before + 1
    assert result.ephemeral and "Your move is saved" in said and "✅" in said, said
    assert "went wrong" not in said


def nth_on_each_route(n: int):
    """A fault's ``when``: the ``n``-th request it sees on each route (method and template)."""
    seen: dict[tuple[str, str], int] = {}

    def hit(method: str, route: str, path: str) -> bool:
        seen[(method, route)] = seen.get((method, route), 0) + 1
        return seen[(method, route)] == n

    return hit


async def test_errors_and_rate_limits_on_every_route_the_bot_uses_lose_nothing(world, caplog):
    """A whole game in which every route the bot uses answers once with a 500 and once with a 429 (and a few
    callbacks slowly): every move made once, every interaction answered in time."""
    fake = world.fake
    fake.faults.add(Fault(SERVER_ERROR, times=None, when=nth_on_each_route(2)))
    fake.faults.add(Fault(TOO_MANY, times=None, seconds=0.05, when=nth_on_each_route(3)))
    fake.faults.add(Fault(SLOW, "POST", CALLBACK, times=3, seconds=0.3))
    with caplog.at_level(logging.WARNING):
        async with world.running() as client:
            table = await started(world, client, world.alice, world.bob)
            finished = await play_to_the_end(world, client, table.id, seed=5)
            await world.settle(client)
    used: dict[tuple[str, str], int] = {}
    for call in fake.rest.log + fake.rest.refused:
        used[(call.method, call.route)] = used.get((call.method, call.route), 0) + 1
    busy = {route for route, n in used.items() if n >= 4}  # a route used 4 times has met both faults
    for method, route in busy:
        assert (SERVER_ERROR, method, route) in fake.faults.injected, (method, route)
        assert (TOO_MANY, method, route) in fake.faults.injected, (method, route)
    assert {("POST", CALLBACK), ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}")} <= busy, busy
    assert ("PATCH", "/channels/{channel_id}/messages/{message_id}") in busy, busy
    assert finished.status == "finished"
    # Every interaction answered, none refused as too late (a loaded machine's slack allowed: see
    # FakeDiscord.deadline_slack); how many took longer than Discord's 3 s is a figure, not a test of the machine.
    assert fake.unanswered() == [] and fake.expired_interactions == 0
    assert not [m for m in tracebacks(caplog) if "rate limited" not in m]
    print(
        f"\nfaults on {len(busy)} routes: {fake.faults.count(SERVER_ERROR)} x 5xx, {fake.faults.count(TOO_MANY)} x 429;"
        f" {len(fake.interactions_by_token)} interactions, all answered, {len(fake.late_answers())} after 3 s"
    )


# --- the gateway --------------------------------------------------------------------------------------------------


async def test_a_dropped_gateway_is_resumed_and_a_click_made_meanwhile_is_answered(world, caplog):
    """The connection breaks (no warning from Discord); a player clicks while it is down; the bot reconnects,
    RESUMEs, receives the click it missed and answers it; the move is made once."""
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        before = len(table.record.deals[-1].actions)
        identifies = world.fake.identify_count
        drop = asyncio.create_task(world.fake.drop_connection(down_for=0.3))
        await eventually(lambda: not world.fake.connected, "the connection to drop")
        move, result = await first_legal_slash(world, table)
        await drop
        await result.wait_for_answer(TIMEOUT)  # a loaded machine may defer the answer, then edit it in
        await world.settle(client)
    assert world.fake.gateway.drops == 1 and world.fake.identify_count == identifies  # resumed, not re-identified
    assert "✅" in answer_text(result) and len(table.record.deals[-1].actions) == before + 1


@pytest.mark.parametrize("seed", [11])
async def test_random_faults_through_a_whole_game(world, seed, caplog):
    """Random 5xx on interaction callbacks (15 %; elsewhere discord.py's own 1 s pauses would only slow the test),
    random 429s on every request (10 %), and a dropped connection: the game ends, each move once, every interaction
    answered in time."""
    rng = random.Random(seed)
    fake = world.fake

    def sometimes(p: float, only: str = ""):
        return lambda method, route, path: only in route and rng.random() < p

    fake.faults.add(Fault(SERVER_ERROR, times=None, when=sometimes(0.15, "/callback")))
    fake.faults.add(Fault(TOO_MANY, times=None, seconds=0.02, when=sometimes(0.1)))
    async with world.running() as client:
        table = await started(world, client, world.alice, world.bob)
        await play_to_the_end(world, client, table.id, seed=seed, stop=lambda t: t.version > 8)
        await fake.drop_connection()
        finished = await play_to_the_end(world, client, table.id, seed=seed)
        await world.settle(client)
    assert finished.status == "finished" and fake.faults.count(SERVER_ERROR) and fake.faults.count(TOO_MANY)
    assert fake.unanswered() == [] and fake.expired_interactions == 0  # (the figure of late ones: printed)
    late = len(fake.late_answers())
    print(f"\nrandom faults: {fake.faults.count(SERVER_ERROR)} x 5xx, {fake.faults.count(TOO_MANY)} x 429, 1 drop;"
          f" {len(fake.interactions_by_token)} interactions, all answered, {late} after 3 s")  # fmt: skip


async def test_a_message_refused_more_often_than_discord_py_retries_still_arrives(world, caplog):
    """discord.py sends a request refused with 429 five times, then raises.  A busy channel once refused all five
    tries of a tournament's "Board 1 played" (CI, a Five Hundred day-long board): the budget sends it again, and the
    caller never hears of it; a request refused past those rounds raises as before."""
    caplog.set_level(logging.INFO, "bot.presentation.budget")
    refusing = world.fake.faults.add(Fault(TOO_MANY, "POST", "/channels/{channel_id}/messages", times=7, seconds=0.01))
    async with world.running() as client:
        channel = client.get_partial_messageable(world.channel.id)
        message = await channel.send("Board 1 played")
        assert refusing.hits == 7 and message.content == "Board 1 played"
        assert [m.content for m in world.fake.messages(world.channel)] == ["Board 1 played"]
        assert "refused with 429 five times" in caplog.text and "Traceback" not in caplog.text

        picture = world.fake.faults.add(Fault(TOO_MANY, "POST", "/channels/{channel_id}/messages", times=5,
                                              seconds=0.01))  # fmt: skip
        await channel.send("a picture", file=discord.File(io.BytesIO(b"the whole picture"), "p.png"))
        assert picture.hits == 5
        posted = [c for c in world.fake.rest.log if c.method == "POST" and c.route == "/channels/{channel_id}/messages"]
        assert posted[-1].files[0].data == b"the whole picture"  # rewound for the round after discord.py's five

        world.fake.faults.add(Fault(TOO_MANY, "POST", "/channels/{channel_id}/messages", times=None, seconds=0.01))
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("never")
        assert refused.value.status == 429


async def test_output_queued_as_the_bot_shuts_down_is_one_line_not_a_traceback(world, caplog):
    """A table edit still queued when the bot closes its HTTP session fails with aiohttp's "Session is closed": one
    warning line (the benchmark's shut-down logged a traceback for each)."""
    async with world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        await world.settle(client)
        await client.close()
        with caplog.at_level(logging.WARNING):
            client.presenter.refresh(table)
            await client.presenter.drain_all()
    ours = [r for r in caplog.records if r.name.startswith(("bot", "cogs"))]
    assert [r.getMessage() for r in ours] == [f"table {table.id}: could not update Discord: not sent, the bot is "
                                              "shutting down"]  # fmt: skip
    assert not [r for r in caplog.records if r.exc_info]
