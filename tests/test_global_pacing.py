"""The bot paces itself under Discord's global rate limit (about 50 requests a second per bot; interaction answers
and webhook follow-ups are not counted): many tables starting together wait in the bot's global budget
(bot/presentation/budget.py) instead of being answered 429 by Discord, and the most urgent requests go first.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random

import discord
from discord.http import Route

from bot.presentation import budget as budget_module
from bot.presentation.budget import DELETE, EDIT, HAND, NORMAL, PING, ChannelBudget
from rules.game import GAME_OVER
from tests.botkit.harness import act_through_ui, bot_world, find_id
from tests.fakediscord.faults import LOST_ANSWER, TOO_MANY, Fault, RateLimits

TABLES = 30
SCALE = 0.25  # Discord's windows shortened four times (the global one: 50 requests per 0.25 s), for a quick test


class RecordingHttp:
    """What ``install`` wraps: records each request's path, and holds the first until told to answer."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.release = asyncio.Event()

    async def request(self, route: Route, **kwargs: object) -> None:
        self.sent.append(route.path)
        if len(self.sent) == 1:
            await self.release.wait()


def route(path: str, channel_id: int) -> Route:
    return Route("POST", path, channel_id=channel_id)


async def test_waiting_requests_go_by_urgency_and_interaction_answers_never_wait():
    """One request a window in all: while the first is answered, a deletion, a table-message edit, a new message, a
    live hand and a turn ping queue (in that order, each to a channel of its own); they go ping and hand first (in
    the order they came), then the new message, the edit, the deletion.  An interaction's answer goes at once."""
    budget = ChannelBudget(5, 0.0, global_requests=1, global_window=0.02)
    http = RecordingHttp()
    budget.install(http)  # type: ignore[arg-type]
    first = asyncio.create_task(http.request(route("/channels/{channel_id}/messages", 1)))
    await asyncio.sleep(0)
    queued = []
    for channel_id, (level, name) in enumerate(
        [(DELETE, "delete"), (EDIT, "edit"), (NORMAL, "new"), (HAND, "hand"), (PING, "ping")], start=2
    ):
        with budget.priority(level):
            queued.append(asyncio.create_task(http.request(route(f"/channels/{{channel_id}}/{name}", channel_id))))
        await asyncio.sleep(0)
    answer = Route("POST", "/interactions/{interaction_id}/{token}/callback", interaction_id=1, token="t")
    await asyncio.wait_for(http.request(answer), 1.0)  # exempt: the budget is full, and it went anyway
    assert http.sent == ["/channels/{channel_id}/messages", "/interactions/{interaction_id}/{token}/callback"]
    http.release.set()
    await asyncio.wait_for(asyncio.gather(first, *queued), 5.0)
    order = [path.rsplit("/", 1)[1] for path in http.sent[2:]]
    assert order == ["hand", "ping", "new", "edit", "delete"], order


async def test_the_global_budget_keeps_its_window():
    """Three a window: a fourth request waits until the first answered one is a window old."""
    budget = ChannelBudget(5, 0.0, global_requests=3, global_window=0.2)
    http = RecordingHttp()
    http.release.set()
    budget.install(http)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    start = loop.time()
    for i in range(3):
        await http.request(Route("GET", "/users/{user_id}", user_id=i))
    assert loop.time() - start < 0.15
    await http.request(Route("GET", "/users/{user_id}", user_id=9))
    assert loop.time() - start >= 0.19  # waited for the window (a lower bound: never flaky)
    assert budget.everything is not None and budget.everything.in_flight == 0


async def first_deal(world, client, table, rng: random.Random) -> None:
    """The humans at ``table`` play random legal moves, as players tapping their hands, until the first deal ends."""
    users = world.fake.world.users
    while table.match.deal_index == 0 and table.match.phase != GAME_OVER:
        seat = table.match.to_move
        mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
        if seat is None or table.is_computer(seat) or not mine:
            await asyncio.sleep(0.02)
            continue
        action = {k: v for k, v in rng.choice(mine).items() if k != "seat"}
        try:
            await act_through_ui(world, table, users[table.seats[seat].user_id], action)
        except AssertionError:  # the bot played a forced last card for them meanwhile: look again
            await asyncio.sleep(0.02)


async def test_thirty_tables_starting_together_stay_under_the_global_limit(tmp_path, caplog):
    """Discord's global limit (50 requests a window; the windows shortened, and the bot's budgets alike, so that
    the test is quick), 30 tables of two in 30 channels, all started at once: the bot's requests queue in its
    global budget, none is answered 429 by the global limit, nothing is logged as an error, and every table plays
    its first deal through."""
    async with bot_world(tmp_path) as world:
        fake = world.fake
        fake.rate_limits = RateLimits(time_scale=SCALE, global_per_second=50, route=(5, 1.0), channel=(5, 1.0))
        lobbies = []
        for i in range(TABLES):
            channel = fake.add_text_channel(world.guild, f"tables-{i}")
            host, guest = fake.add_user(f"host{i}"), fake.add_user(f"guest{i}")
            fake.add_member(world.guild, host)
            fake.add_member(world.guild, guest)
            lobbies.append((channel, host, guest))
        async with world.running(channel_requests=5, channel_window=SCALE, global_window=SCALE) as client:
            with caplog.at_level(logging.WARNING):
                messages = []
                for channel, host, guest in lobbies:
                    new = await fake.slash(host, channel, "table", {"game": "toy"}, subcommand="new")
                    await new.wait(30)
                    await world.click(guest, new.message, "join")
                    messages.append(new.message)
                mark = len(fake.rest.log)
                hosts = [host for _channel, host, _guest in lobbies]
                results = await asyncio.gather(
                    *(fake.click(host, m, find_id(m, "start")) for host, m in zip(hosts, messages, strict=True))
                )
                await asyncio.gather(*(r.wait(30) for r in results))
                tables = [client.manager.tables[int(find_id(m, "hand").split(":")[1])] for m in messages]
                rng = random.Random(17)
                await asyncio.wait_for(
                    asyncio.gather(*(first_deal(world, client, t, random.Random(rng.random())) for t in tables)), 120
                )
                await world.settle(client)
        counted = [c for c in fake.rest.log[mark:] if not c.route.startswith(("/interactions/", "/webhooks/"))]
        refused = fake.rate_limits.refused_by
    assert all(t.match.deal_index >= 1 or t.match.phase == GAME_OVER for t in tables)
    assert not [key for key in refused if key.startswith("global")], refused
    assert len(counted) > 2 * 50, len(counted)  # more than the limit lets through at once: the budget was needed
    logged = [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    assert not [m for m in logged if "voice will NOT be supported" not in m], logged
    print(f"\n{len(counted)} requests counted by the global limit after the starts; 429s: {refused}")


async def test_a_request_still_refused_after_discords_retries_is_one_warning_line(tmp_path, caplog):
    """Discord answers 429 to every message edit: discord.py tries each five times and gives up; the bot says so in
    one warning line per request, without a traceback, and the move stays made (the next edit shows it)."""
    async with bot_world(tmp_path) as world:
        fake = world.fake
        async with world.running() as client:
            table = await world.seated_and_started(client, [world.alice, world.bob])
            refusing = fake.faults.add(
                Fault(TOO_MANY, "PATCH", "/channels/{channel_id}/messages/{message_id}", times=None, seconds=0.01)
            )
            before = table.version
            with caplog.at_level(logging.WARNING):
                user = world.fake.world.users[table.seats[table.match.to_move].user_id]
                action = next(a for a in table.match.legal_json() if a["seat"] == table.match.to_move)
                await act_through_ui(world, table, user, {k: v for k, v in action.items() if k != "seat"})
                await world.settle(client)
            fake.faults.clear()
            assert table.version > before and refusing.hits >= 5
            ours = [r for r in caplog.records if r.name.startswith(("bot", "cogs"))]
            # one line per request given up (the table message, and the players' hands in their DMs), five tries each
            # in discord.py, in 1 + REFUSED_ROUNDS rounds
            tries = 5 * (1 + budget_module.REFUSED_ROUNDS)
            assert len(ours) == refusing.hits // tries and refusing.hits % tries == 0, [r.getMessage() for r in ours]
            assert all(r.levelno == logging.WARNING and r.exc_info is None for r in ours)
            assert any("could not update Discord" in r.getMessage() for r in ours)
            assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_a_message_whose_answer_was_lost_is_posted_once(tmp_path):
    """Discord posts the message, then its answer is lost (502): discord.py sends the request again after 1 s.  Every
    ``send`` carries a nonce with ``enforce_nonce`` (discord.py 2.7 adds one), and Discord (the fake, as Discord
    documents) then returns the first message instead of posting a second one, with or without a file."""
    async with bot_world(tmp_path) as world:
        fake = world.fake
        route = "/channels/{channel_id}/messages"
        fake.faults.add(Fault(LOST_ANSWER, "POST", route, times=2, status=502))
        async with world.running() as client:
            channel = client.get_partial_messageable(world.channel.id)
            text = await channel.send("hello")
            picture = await channel.send("a picture", file=discord.File(io.BytesIO(b"not really a png"), "p.png"))
        assert fake.faults.count(LOST_ANSWER) == 2
        posts = [c for c in fake.rest.log if c.method == "POST" and c.route == route]
        assert len(posts) == 4  # each sent twice...
        assert [m.content for m in fake.messages(world.channel)] == ["hello", "a picture"]  # ...and posted once
        assert (text.content, picture.content) == ("hello", "a picture")


async def test_a_request_that_waited_long_goes_before_a_more_urgent_newcomer(monkeypatch):
    """A table-message edit waits while the budget is full: once it has waited more than its levels' worth of
    seconds it goes before a ping asked for just then, so that a bot at its budget updates its tables late rather
    than never.  (A level counts as 0.05 s here; the edit waits at least 0.2 s, so the order cannot flake.)"""
    monkeypatch.setattr(budget_module, "LEVEL_SECONDS", 0.05)
    budget = ChannelBudget(5, 0.0, global_requests=1, global_window=0.01)
    http = RecordingHttp()
    budget.install(http)  # type: ignore[arg-type]
    first = asyncio.create_task(http.request(route("/channels/{channel_id}/first", 1)))
    await asyncio.sleep(0)
    with budget.priority(EDIT):
        edit = asyncio.create_task(http.request(route("/channels/{channel_id}/edit", 2)))
    await asyncio.sleep(0.2)
    with budget.priority(PING):
        ping = asyncio.create_task(http.request(route("/channels/{channel_id}/ping", 3)))
    await asyncio.sleep(0)
    http.release.set()
    await asyncio.wait_for(asyncio.gather(first, edit, ping), 5.0)
    assert [path.rsplit("/", 1)[1] for path in http.sent[1:]] == ["edit", "ping"]
