"""The bot under load, through the offline fake Discord.

N tables of Two Hundred (by default) play at once: one human per table (a simulated user who thinks, then acts by
slash command, as in steady play) and computer players.  After a warm-up the benchmark counts, over a window:

- REST calls the bot makes per card played (interaction replies, table-message edits, posts, DMs), by route, and
- the latency from INTERACTION_CREATE (the fake sends it) to the bot's reply (the fake receives the callback).

By default the bot runs in a process of its own, holding only its N tables, as it would in production: this process
hosts the fake Discord and the simulated users and talks to the bot over loopback (REST and gateway, as Discord
would).  The only thing the bot's process does for the benchmark is tell this one, in one short line on a pipe,
when a human's turn comes and what they may do (a real player reads that off the table message), and count the
cards played.  ``--single-process`` runs everything in one process as before (the fake's and the players' work
then lands on the bot's core).

    .venv/bin/python bench/bench_bot.py                    # 500 tables, 30 s window
    .venv/bin/python bench/bench_bot.py --tables 50 --seconds 10 --images
    .venv/bin/python bench/bench_bot.py --profile /tmp/bot.prof   # cProfile of the bot process's window

Images are on by default, drawn where the bot draws them in production (worker processes when it may use more than
one core; ``--render`` chooses).  With ``--compare`` the same tables also play with images off, for the CPU ratio:
the window is cut into ``--rounds`` images-off stretches between ``--rounds`` + 1 images-on ones (on, off, on, …,
on; ``--settle`` seconds after each switch are not counted), and each mode's figures are summed over its stretches,
so that the deal's phase and the run's drift weigh on both alike.  ``--no-images`` measures with images off only.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import pickle
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

import discord  # noqa: E402

from bot.presentation import images  # noqa: E402
from bot.presentation.choices import encode  # noqa: E402
from bot.presentation.panel import PANEL_VERB  # noqa: E402
from bot.process.client import CardTableBot  # noqa: E402
from bot.process.settings import Settings  # noqa: E402
from rules.game import GAME_OVER  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fakediscord.faults import SERVER_ERROR, TOO_MANY, Fault, RateLimits  # noqa: E402
from tests.fakediscord.interactions import UPDATE_MESSAGE, InteractionResult  # noqa: E402

FOLLOW_UPS_WITHIN = 30.0  # seconds the fake keeps an answered interaction for its follow-ups (Discord: 15 min)
SLASH_OPTION = {"play": "card", "bid": "value", "discard": "cards", "expose": "card", "call": "card", "trump": "suit"}


def honest_fake(args: argparse.Namespace) -> FakeDiscord:
    """The offline Discord as Discord: a first answer after 3 s refused and counted (no test slack); Discord's rate
    limits at its own scale with --rate-limits, and faults with --faults RATE."""
    fake = FakeDiscord(interaction_deadline=3.0, slack=1.0, rate_limits=RateLimits(enabled=args.rate_limits))
    if args.faults:
        rng = random.Random(args.seed)
        fake.faults.add(Fault(SERVER_ERROR, times=None, when=lambda m, r, p: rng.random() < args.faults))
        fake.faults.add(Fault(TOO_MANY, times=None, seconds=0.5, when=lambda m, r, p: rng.random() < args.faults))
    return fake


def busiest_5s(times: dict[int, list[float]], dms: set[int]) -> tuple[str, int]:
    """The most REST calls one channel received within any 5 s (Discord's per-channel budget is 5 per 5 s for
    messages), and what kind of channel that was."""
    best, kind = 0, "none"
    for channel, stamps in times.items():
        stamps.sort()
        start = 0
        for end, stamp in enumerate(stamps):
            while stamp - stamps[start] >= 5.0:
                start += 1
            if end - start + 1 > best:
                best, kind = end - start + 1, "a DM" if channel in dms else "a table channel"
    return kind, best


GLOBAL_BUDGET = 45  # CARDTABLE_GLOBAL_REQUESTS' default: requests a second the bot allows itself under Discord's 50
EXEMPT_ROUTES = ("/interactions/", "/webhooks/{app_id}/{token}")  # interaction answers and their follow-ups


def counted_requests(calls: dict[str, int]) -> int:
    """The REST calls that Discord's global limit counts: everything but the answers to interactions (their
    callback, and edits or follow-ups through the interaction's token), which are exempt."""
    return sum(n for route, n in calls.items() if not any(part in route for part in EXEMPT_ROUTES))


def tables_per_token(counted: int, window: float, tables: int) -> float:
    """How many tables playing at the measured pace one bot token carries within ``GLOBAL_BUDGET`` requests a
    second."""
    per_table_second = counted / max(window, 1e-9) / max(tables, 1)
    return GLOBAL_BUDGET / per_table_second if per_table_second else float("inf")


def merged(windows: list[tuple]) -> tuple:
    """Windows of one mode (``Driver.window``'s tuples) as one: counts and CPU summed, latencies and delays pooled."""
    if len(windows) == 1:
        return windows[0]
    seconds = sum(w[0] for w in windows)
    calls: Counter = Counter()
    for w in windows:
        calls.update(w[1])
    reports = [w[2] for w in windows]
    bot = dict(reports[0])
    for key in ("user", "system", "workers", "cards", "actions", "human_actions", "kept", "taps"):
        bot[key] = sum(r[key] for r in reports)
    bot["cpu"] = sum(r["cpu"] * w[0] for r, w in zip(reports, windows, strict=True)) / seconds
    bot["drawn"] = dict(sum((Counter(r["drawn"]) for r in reports), Counter()))
    for key in ("table_delays", "lags", "gc_pauses", "hand_delays"):
        bot[key] = [x for r in reports for x in r[key]]
    for key in ("outrun", "stale_pictures"):
        bot[key] = [sum(pair) for pair in zip(*(r[key] for r in reports), strict=True)]
    bot["received"] = {k: v for r in reports for k, v in r["received"].items()}
    bot["busiest_channel"] = max((r["busiest_channel"] for r in reports), key=lambda c: c[1])
    for key in ("live_tables", "objects", "forwarded", "taken_back"):  # as at the last window's end
        bot[key] = reports[-1][key]
    timelines = [r["timeline"] for r in reports if r.get("timeline")]
    if timelines:
        bot["timeline"] = {
            "marks": {k: v for t in timelines for k, v in t["marks"].items()},
            "kind": {k: v for t in timelines for k, v in t["kind"].items()},
            "samples": [s for t in timelines for s in t["samples"]],
        }
    driver_cpu = sum(w[3] * w[0] for w in windows) / seconds
    latencies = [x for w in windows for x in w[4]]
    return seconds, dict(calls), bot, driver_cpu, latencies, sum(w[5] for w in windows)


def pick_action(rng: random.Random, mine: list[dict]) -> dict:
    """A simulated human's choice among their legal actions (record-style dicts with ``seat``)."""
    action = {k: v for k, v in rng.choice(mine).items() if k != "seat"}
    if action["type"] == "discard":
        action = {"type": "discard", "cards": rng.sample(action["from"], action["choose"])}
    return action


def load_text() -> str:
    one, five, _ = os.getloadavg()
    return f"machine load average {one:.1f} (1 min) / {five:.1f} (5 min) on {os.cpu_count()} cores"


def slash_for(action: dict) -> tuple[str, dict]:
    """The slash command a player would type for an action (the encoded form is what autocomplete fills in)."""
    kind = action["type"]
    if kind == "discard":
        return "discard", {"cards": " ".join(action["cards"])}
    if kind == "trump":
        return "trump", {"suit": action["suit"]}
    if kind in SLASH_OPTION:
        return kind, {SLASH_OPTION[kind]: encode(action)}
    return ("counter" if kind == "recounter" else kind), {}


async def slash_and_time(owner, fake: FakeDiscord, user, channel, name: str, options: dict):
    """Send one slash command as ``user`` and wait for the bot's reply: (result, sent, replied) in monotonic time,
    or None (counted in ``owner.refusals``) when no reply comes within 10 s.  ``owner`` keeps the reply times the
    fake reports (``callback_at``) and the futures of replies still awaited (``waiters``)."""
    sent = time.monotonic()
    result = await fake.slash(user, channel, name, options)
    return await _replied(owner, result, sent)


async def _replied(owner, result: InteractionResult, sent: float):
    waiter = asyncio.get_running_loop().create_future()
    if result.id in owner.callback_at:
        waiter.set_result(owner.callback_at[result.id])
    else:
        owner.waiters[result.id] = waiter
    try:
        replied = await asyncio.wait_for(waiter, 10.0)
    except TimeoutError:
        owner.refusals["no reply in 10 s"] += 1
        return None
    with contextlib.suppress(TimeoutError):  # the fake applies the reply (an updated hand) just after timing it
        await result.wait(2.0)
    if result.deferred:  # acknowledged first (a busy bot, or a tap forwarded to its table's process): the answer
        answered = owner.answered_at.get(result.id)  # is the deferred response's edit, or a follow-up
        if answered is None:
            waiter = owner.answer_waiters[result.id] = asyncio.get_running_loop().create_future()
            try:
                answered = await asyncio.wait_for(waiter, 10.0)
            except TimeoutError:
                owner.refusals["acknowledged, no answer in 10 s"] += 1
                return None
            finally:
                owner.answer_waiters.pop(result.id, None)
        replied = answered
    return result, sent, replied


async def tap_and_time(owner, fake: FakeDiscord, user, message, custom_id: str):
    """Tap one button of ``message`` as ``user`` and wait for the bot's reply, like ``slash_and_time``."""
    sent = time.monotonic()
    result = await fake.click(user, message, custom_id)
    return await _replied(owner, result, sent)


def hand_message(fake: FakeDiscord, dm, table_id: int, version: int):
    """The player's live hand in their DMs when it shows the table at ``version`` or later, else None."""
    prefix = f"ct:{table_id}:{PANEL_VERB}:"
    for message in reversed(fake.messages(dm)):
        ids = [c for c in message.custom_ids() if c.startswith(prefix)]
        if ids:
            return message if int(ids[0].split(":")[3]) >= version else None
    return None


def choose_tap(message, rng: random.Random) -> tuple[str, bool] | None:
    """A player's next tap on a live hand (custom id, whether it performs a move): a random move among the
    enabled buttons that make one, else a random step (a card not yet chosen, a range), else nothing."""
    performs, steps = [], []
    for row in message.components:
        for button in row.get("components", []):
            custom_id = button.get("custom_id", "")
            parts = custom_id.split(":", 4)
            if button.get("disabled") or len(parts) < 5 or parts[2] != PANEL_VERB:
                continue
            if parts[4].startswith("="):
                performs.append(custom_id)
            elif button.get("style") != discord.ButtonStyle.success.value:  # green: chosen already, or "Back"
                steps.append(custom_id)
    if performs:
        return rng.choice(performs), True
    if steps:
        return rng.choice(steps), False
    return None


async def sample_lag(into: list[float], every: float = 0.05) -> None:
    """How late this event loop wakes a task that sleeps ``every`` seconds, until cancelled."""
    while True:
        start = time.monotonic()
        await asyncio.sleep(every)
        into.append(time.monotonic() - start - every)


class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.rng = random.Random(args.seed)
        self.callback_at: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Future] = {}
        self.answered_at: dict[int, float] = {}  # a deferred interaction's answer (edit or follow-up) reached the fake
        self.answer_waiters: dict[int, asyncio.Future] = {}
        self.latencies: list[float] = []
        self.delivery: list[float] = []  # INTERACTION_CREATE sent → the bot's client parsed it
        self.refusals = Counter()
        self.measuring = False
        self.turn_events: dict[int, asyncio.Event] = {}
        self.stop = False
        self.rest_calls: Counter = Counter()
        self.actions_done = self.cards_done = 0  # counted as the bot reports them (ended tables leave memory)

    def hook_fake(self, fake: FakeDiscord) -> None:
        """Note when each interaction's reply reaches the fake (before the fake does anything with it)."""
        original = fake.rest.interaction_callback

        async def timed(request):
            interaction_id = int(request.match_info["interaction_id"])
            now = time.monotonic()
            self.callback_at[interaction_id] = now
            waiter = self.waiters.pop(interaction_id, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(now)
            return await original(request)

        fake.rest.interaction_callback = timed

        def answer_timed(route):
            async def timed_answer(request):  # the answer to an acknowledged interaction, through its token
                with contextlib.suppress(Exception):
                    interaction_id = fake.rest._interaction(request.match_info["token"]).id
                    if interaction_id not in self.answered_at:
                        now = self.answered_at[interaction_id] = time.monotonic()
                        waiter = self.answer_waiters.pop(interaction_id, None)
                        if waiter is not None and not waiter.done():
                            waiter.set_result(now)
                return await route(request)

            return timed_answer

        fake.rest.edit_webhook_message = answer_timed(fake.rest.edit_webhook_message)
        fake.rest.create_followup = answer_timed(fake.rest.create_followup)

    def hook_bot(self, client: CardTableBot) -> None:
        self.received_at: dict[int, float] = {}

        async def on_interaction(interaction):
            self.received_at[interaction.id] = time.monotonic()

        client.add_listener(on_interaction)

        async def on_table_acted(table, outcome):  # beside the presenter's own listener (bot.dispatch)
            self.actions_done += 1
            if outcome.action.type == "play":
                self.cards_done += len(outcome.action.cards)
            self._wake(table.id)

        async def on_table_game_started(table):
            self._wake(table.id)

        client.add_listener(on_table_acted)
        client.add_listener(on_table_game_started)

    def _wake(self, table_id: int) -> None:
        event = self.turn_events.get(table_id)
        if event is not None:
            event.set()

    async def player(self, fake: FakeDiscord, client: CardTableBot, channel, user, table_id: int) -> None:
        """One human: wait for their turn, think, act by slash command; time the reply."""
        event = self.turn_events.setdefault(table_id, asyncio.Event())
        rng = random.Random(table_id)
        while not self.stop:
            table = client.manager.tables.get(table_id)
            if table is None or table.match is None or table.match.phase == GAME_OVER:
                return
            seat = table.seat_of(user.id)
            mine = [] if table.match.to_move != seat else [a for a in table.match.legal_json() if a.get("seat") == seat]
            if not mine:
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), 2.0)
                continue
            await asyncio.sleep(rng.uniform(0.5, 1.5) * self.args.think)
            table = client.manager.tables.get(table_id)
            mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
            if not mine:
                continue
            action = pick_action(rng, mine)
            name, options = slash_for(action)
            timed = await slash_and_time(self, fake, user, channel, name, options)
            if timed is None:
                continue
            result, sent, replied = timed
            if self.measuring:
                self.latencies.append(replied - sent)
                received = self.received_at.pop(result.id, None)
                if received is not None:
                    self.delivery.append(received - sent)

    async def run(self) -> None:
        args = self.args
        images.enabled = args.images
        logging.basicConfig(level=logging.WARNING)
        logging.getLogger("discord").setLevel(logging.ERROR)
        fake = self.fake = honest_fake(args)
        self.hook_fake(fake)
        async with fake:
            with fake.patched(), tempfile.TemporaryDirectory() as tmp:
                guild = fake.add_guild("Bench Club")
                channels = [
                    fake.add_text_channel(guild, f"tables-{i}") for i in range(-(-args.tables // args.per_channel))
                ]
                users = []
                for i in range(args.tables):
                    user = fake.add_user(f"player{i}")
                    fake.add_member(guild, user)
                    users.append(user)
                settings = Settings(
                    token=fake.token,
                    db_path=str(Path(tmp) / "bench.db"),
                    database_url=args.database_url,
                    dev_guild_id=guild.id,
                    ai_delay=args.ai_delay,
                    draw_interval=args.ai_delay / 4,  # the draw as fast as before the human pace
                    kitty_pause=args.ai_delay / 4,
                    edit_interval=args.edit_interval,
                    hold_limit=args.hold_limit,
                    global_requests=max(args.global_requests, 1),
                    global_window=1.0 if args.global_requests > 0 else 0.0,
                )
                client = CardTableBot(settings, rng=random.Random(args.seed), guild_ready_timeout=0.05)
                async with fake.running(client, timeout=60):
                    self.hook_bot(client)
                    t0 = time.monotonic()
                    manager = client.manager
                    table_ids = []
                    for i, user in enumerate(users):
                        channel = channels[i % len(channels)]
                        table = await manager.create(
                            game=args.game,
                            options={},
                            preset=None,
                            host_id=user.id,
                            host_name=user.username,
                            channel_id=channel.id,
                            channel_name=channel.name,
                            guild_id=guild.id,
                            guild_name=guild.name,
                        )
                        while not table.is_full():
                            await manager.add_computer(table.id, user.id)
                        await manager.start(table.id, user.id)
                        table_ids.append((table.id, user, channel))
                    print(f"set up {args.tables} tables in {time.monotonic() - t0:.1f} s", flush=True)
                    players = [
                        asyncio.create_task(self.player(fake, client, channel, user, tid))
                        for tid, user, channel in table_ids
                    ]
                    await asyncio.sleep(args.warmup)
                    if args.freeze:
                        gc.freeze()  # what a long-running bot does after start-up (bot/process/client.py)
                    self.measuring = True
                    trimmer = asyncio.create_task(self.trim_fake(fake))
                    self.flush_rest_log(fake)
                    self.rest_calls.clear()
                    cards_start, actions_start = self.cards_done, self.actions_done
                    window_start = time.monotonic()
                    cpu_start = time.process_time()
                    lag = asyncio.create_task(self.loop_lag())
                    gc_pauses: list[float] = []
                    gc_started: list[float] = []

                    def on_gc(phase, info):
                        if phase == "start":
                            gc_started[:] = [time.perf_counter()]
                        elif gc_started and info.get("generation") == 2:
                            gc_pauses.append(time.perf_counter() - gc_started[0])

                    gc.callbacks.append(on_gc)
                    profiler = None
                    if args.profile:
                        import cProfile

                        profiler = cProfile.Profile()
                        profiler.enable()
                    await asyncio.sleep(args.seconds)
                    if profiler is not None:
                        profiler.disable()
                        profiler.dump_stats(args.profile)
                    window = time.monotonic() - window_start
                    gc.callbacks.remove(on_gc)
                    self.gc_pauses = gc_pauses
                    kinds = Counter(type(o).__name__ for o in gc.get_objects())
                    print(f"objects tracked by the garbage collector: {sum(kinds.values())}, most: "
                          f"{kinds.most_common(6)}")  # fmt: skip
                    self.cpu = (time.process_time() - cpu_start) / window
                    self.measuring = False
                    self.flush_rest_log(fake)
                    trimmer.cancel()
                    calls = dict(self.rest_calls)
                    cards, actions = self.cards_done - cards_start, self.actions_done - actions_start
                    self.stop = True
                    lag.cancel()
                    for task in players:
                        task.cancel()
                    await asyncio.gather(*players, return_exceptions=True)
                    self.report(args, window, calls, cards, actions)

    async def trim_fake(self, fake: FakeDiscord) -> None:
        """The fake keeps every REST call and every old version of every message for tests to inspect; over a long
        run that is millions of objects for the garbage collector to walk, which the bot would be blamed for.
        Count the calls as they come and drop what the benchmark does not need."""
        while True:
            await asyncio.sleep(1.0)
            self.flush_rest_log(fake)
            for message in fake.world.messages.values():
                message.edits.clear()
            # Answered more than FOLLOW_UPS_WITHIN seconds ago: no follow-up or edit is coming (dropping them sooner
            # made the bot's late edits of deferred answers fail with "unknown interaction").
            old = time.monotonic() - FOLLOW_UPS_WITHIN
            for token, result in list(fake.interactions_by_token.items()):
                if result.callback_type is not None and result.created < old:
                    del fake.interactions_by_token[token]

    def flush_rest_log(self, fake: FakeDiscord) -> None:
        for call in fake.rest.log:
            self.rest_calls[f"{call.method} {call.route}"] += 1
        fake.rest.log.clear()

    async def loop_lag(self) -> None:
        self.lags = []
        await sample_lag(self.lags)

    @staticmethod
    def print_discord_faults(fake: FakeDiscord, args: argparse.Namespace) -> None:
        errors, limited = fake.faults.count(SERVER_ERROR), fake.faults.count(TOO_MANY)
        budget = f"{args.global_requests} a second" if args.global_requests > 0 else "none"
        print(f"Discord's rate limits {'on' if fake.rate_limits.enabled else 'off'} "
              f"(the bot's global budget: {budget}): "
              f"{fake.rate_limits.refused} requests answered 429 in all; injected faults: "
              f"{errors} x 5xx, {limited} x 429 (--faults {args.faults}); first answers later than 3 s: "
              f"{len(fake.late_answers())}, expired: {fake.expired_interactions}")  # fmt: skip
        for key, n in sorted(fake.rate_limits.refused_by.items(), key=lambda kv: -kv[1]):
            print(f"   {n:6d}  429 ({key})")

    def report(self, args, window, calls, cards, actions) -> None:
        by_route = Counter(calls)
        total = sum(calls.values())
        lat = sorted(self.latencies)

        def pct(p: float) -> float:
            return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

        print(f"game {args.game}, {args.tables} tables, ai delay {args.ai_delay} s, think {args.think} s, "
              f"edit interval {args.edit_interval} s, "
              f"images {'on' if args.images else 'off'}")  # fmt: skip
        print(f"window {window:.1f} s: {actions} actions ({actions / window:.0f}/s), {cards} cards played")
        print(f"REST calls: {total} → {total / max(cards, 1):.2f} per card played "
              f"({total / max(actions, 1):.2f} per action)")  # fmt: skip
        for route, n in by_route.most_common():
            print(f"   {n:6d}  {route}  ({n / max(cards, 1):.2f} per card)")
        print(f"interaction → reply latency over {len(lat)} slash commands: p50 {pct(0.5):.1f} ms, "
              f"p90 {pct(0.9):.1f} ms, p99 {pct(0.99):.1f} ms, max {pct(1.0):.1f} ms")  # fmt: skip
        if self.delivery:
            d = sorted(self.delivery)
            print(f"   of which gateway delivery (fake → discord.py event): p50 {d[len(d) // 2] * 1000:.1f} ms, "
                  f"p99 {d[int(0.99 * (len(d) - 1))] * 1000:.1f} ms")  # fmt: skip
        if getattr(self, "lags", None):
            lags = sorted(self.lags)
            print(f"event loop lag: median {statistics.median(lags) * 1000:.1f} ms, "
                  f"p99 {lags[int(0.99 * (len(lags) - 1))] * 1000:.1f} ms")  # fmt: skip
        Bench.print_discord_faults(self.fake, args)
        print(f"this process used {self.cpu:.0%} of one core (bot, fake Discord and simulated players together); "
              f"{load_text()}")  # fmt: skip
        if self.gc_pauses:
            print(f"full garbage collections: {len(self.gc_pauses)}, longest {max(self.gc_pauses) * 1000:.0f} ms")
        if self.refusals:
            print(f"problems: {dict(self.refusals)}")


# --- two processes: the bot alone in one, the fake Discord and the players in the other -------------------------


class BotSide:
    """Runs in the bot's own process: the bot, its tables, and a pipe to the driver (stdout out, stdin in)."""

    def __init__(self, config: dict):
        self.config = config
        self.counting = False
        self.cards = self.actions = self.human_actions = 0
        self.drawn: Counter = Counter()  # images asked of the render pool in the window, by render function
        self.unshown: dict[int, float] = {}  # table id → its first move that its table message does not show yet
        self.table_delays: list[float] = []  # such a move → the edit that shows it
        self.received_at: dict[int, float] = {}
        self.human: dict[int, int] = {}  # table id → the human's user id
        self.outrun = self.edits = 0  # table-message edits in the window; of them, outrun by a move while under way
        self.pictures_made = self.stale_pictures = 0  # table pictures made for messages; of them, outrun when drawn

    def send(self, message: dict) -> None:
        # Buffered by the event loop: a busy driver never blocks the bot on a full pipe.
        self.out.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def notify_turn(self, table) -> None:
        """A human's turn came (or their game ended): what a real player reads off the table message."""
        match = table.match
        if match is None or match.phase == GAME_OVER:
            self.send({"t": table.id, "end": 1})
            return
        seat = table.seat_of(self.human[table.id])
        if match.to_move != seat:
            return
        mine = [a for a in match.legal_json() if a.get("seat") == seat]
        if mine:
            self.send({"t": table.id, "v": table.version, "a": mine})

    def hook(self, client: CardTableBot) -> None:
        async def on_interaction(interaction):
            if self.counting:
                self.received_at[interaction.id] = time.monotonic()

        client.add_listener(on_interaction)

        async def on_table_acted(table, outcome):  # beside the presenter's own listener (bot.dispatch)
            self.unshown.setdefault(table.id, time.monotonic())
            if self.counting:
                self.actions += 1
                self.human_actions += not outcome.by_computer
                if outcome.action.type == "play":
                    self.cards += len(outcome.action.cards)
            if table.id in self.human:
                self.notify_turn(table)

        client.add_listener(on_table_acted)
        edit_table_message = client.presenter._edit_table_message

        async def timed_edit(table):  # the edit shows every move made before it starts
            moved = self.unshown.pop(table.id, None)
            version = table.version
            await edit_table_message(table)
            if moved is not None and self.counting:
                self.table_delays.append(time.monotonic() - moved)
            if self.counting:
                self.outrun += table.version != version
                self.edits += 1

        client.presenter._edit_table_message = timed_edit
        post_table_message = client.presenter._post_table_message

        async def new_message(table, *args, **kwargs):  # a new deal's message shows it all too (not timed)
            self.unshown.pop(table.id, None)
            await post_table_message(table, *args, **kwargs)

        client.presenter._post_table_message = new_message
        import bot.presentation.presenter as presenter_module

        table_file = presenter_module.table_file

        async def counted_file(table, *args, **kwargs):  # a table picture outrun by a move before its upload
            version = table.version
            file = await table_file(table, *args, **kwargs)
            if file is not None and self.counting:
                self.pictures_made += 1
                self.stale_pictures += table.version != version
            return file

        presenter_module.table_file = counted_file

    async def run(self) -> None:
        from tests.fakediscord import point_discord_at

        cfg = self.config
        images.enabled = cfg["images"]
        draw = images.render

        async def counted(name, *args, **kwargs):
            if self.counting and images.enabled:
                self.drawn[name] += 1
                if cfg["dump_pictures"]:
                    self.dumped.append((name, args, kwargs, time.monotonic() - self.dump_base))
            return await draw(name, *args, **kwargs)

        images.render = counted
        self.dumped: list[tuple] = []  # the pictures drawn in the images-on windows, as asked (--dump-pictures)
        # The dump's clock runs only inside images-on windows, so that their pictures replay back to back.
        self.dump_clock = self.dump_base = 0.0
        logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
        logging.getLogger("discord").setLevel(logging.ERROR)
        loop = asyncio.get_running_loop()
        commands = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
        self.out, _ = await loop.connect_write_pipe(asyncio.Protocol, os.fdopen(os.dup(sys.stdout.fileno()), "wb"))
        with point_discord_at(cfg["api_base"], cfg["gateway_url"]), tempfile.TemporaryDirectory() as tmp:
            settings = Settings(
                token=cfg["token"],
                db_path=str(Path(tmp) / "bench.db"),
                database_url=cfg.get("database_url"),  # PostgreSQL instead of the SQLite file
                dev_guild_id=cfg["guild_id"],
                ai_delay=cfg["ai_delay"],
                draw_interval=cfg["ai_delay"] / 4,  # the draw as fast as before the human pace
                kitty_pause=cfg["ai_delay"] / 4,
                edit_interval=cfg["edit_interval"],
                hold_limit=cfg["hold_limit"],
                render=cfg["render"],
                global_requests=max(cfg["global_requests"], 1),
                global_window=1.0 if cfg["global_requests"] > 0 else 0.0,
            )
            client = CardTableBot(settings, rng=random.Random(cfg["seed"]), guild_ready_timeout=0.05)
            running = asyncio.create_task(client.start(cfg["token"]))
            await asyncio.wait_for(client.wait_until_ready(), 60)
            self.hook(client)
            timeline = None
            if cfg.get("timeline"):
                from tap_timeline import TapTimeline

                timeline = TapTimeline()
                timeline.install(client)
            manager = client.manager
            started = []
            for user_id, username, channel_id, channel_name in cfg["seats"]:
                table = await manager.create(
                    game=cfg["game"],
                    options={},
                    preset=None,
                    host_id=user_id,
                    host_name=username,
                    channel_id=channel_id,
                    channel_name=channel_name,
                    guild_id=cfg["guild_id"],
                    guild_name=cfg["guild_name"],
                )
                while not table.is_full():
                    await manager.add_computer(table.id, user_id)
                self.human[table.id] = user_id
                await manager.start(table.id, user_id)
                started.append([table.id, user_id, channel_id])
            self.send({"ready": started})
            for table_id, _, _ in started:
                table = manager.tables.get(table_id)
                if table is not None:
                    self.notify_turn(table)
            profilers: dict[bool, Any] = {}  # images on or off → its windows' profile
            while True:
                line = await commands.readline()
                command = line.decode().strip()
                if command == "measure":
                    if cfg["freeze"]:
                        gc.freeze()
                    lag = asyncio.create_task(Bench.loop_lag(self))
                    self.gc_pauses, gc_started = [], []

                    def on_gc(phase, info, gc_started=gc_started):
                        if phase == "start":
                            gc_started[:] = [time.perf_counter()]
                        elif gc_started and info.get("generation") == 2:
                            self.gc_pauses.append(time.perf_counter() - gc_started[0])

                    gc.callbacks.append(on_gc)
                    profiler = None
                    if cfg["profile"]:
                        import cProfile

                        # One file per mode, its windows' profiles summed: images on as named, off with ".off".
                        profile_path = cfg["profile"] + (".off" if not images.enabled else "")

                        # The event loop's thread's CPU clock: on a shared machine a wall clock charges the waits
                        # for a core (a pipe write that wakes a worker, a socket write) to whatever was running.
                        cpu_clock = cfg["profile_clock"] == "cpu"
                        if images.enabled not in profilers:
                            profilers[images.enabled] = (
                                cProfile.Profile(time.thread_time) if cpu_clock else cProfile.Profile()
                            )
                        profiler = profilers[images.enabled]
                        profiler.enable()
                    self.cards = self.actions = self.human_actions = 0
                    self.drawn.clear()
                    kept_start = images.pictures.hits
                    self.table_delays = []
                    self.outrun = self.edits = 0
                    self.pictures_made = self.stale_pictures = 0
                    self.dump_base = time.monotonic() - self.dump_clock
                    self.counting = True
                    if timeline is not None:
                        timeline.counting = True
                    cpu_start, wall_start, times_start = time.process_time(), time.monotonic(), os.times()
                    workers_start = images.pool.worker_cpu_seconds()
                elif command == "report":
                    self.counting = False
                    if timeline is not None:
                        timeline.counting = False
                    if images.enabled:
                        self.dump_clock = time.monotonic() - self.dump_base
                    if self.dumped:  # rewritten after each images-on window: it holds them all so far
                        Path(cfg["dump_pictures"]).write_bytes(pickle.dumps(self.dumped))
                    wall = time.monotonic() - wall_start
                    cpu = (time.process_time() - cpu_start) / wall
                    times = os.times()
                    user, system = times.user - times_start.user, times.system - times_start.system
                    workers = images.pool.worker_cpu_seconds() - workers_start
                    if profiler is not None:
                        profiler.disable()
                        profiler.dump_stats(profile_path)
                    gc.callbacks.remove(on_gc)
                    lag.cancel()
                    self.send({
                        "report": {
                            "cpu": cpu,
                            "user": user,
                            "system": system,
                            "workers": workers,
                            "render": images.pool.mode if images.enabled else "off",
                            "worker_count": images.pool.workers if images.pool.mode == "processes" else 0,
                            "cards": self.cards,
                            "actions": self.actions,
                            "human_actions": self.human_actions,
                            "drawn": dict(self.drawn),
                            "kept": images.pictures.hits - kept_start,
                            "table_delays": self.table_delays,
                            "outrun": (self.outrun, self.edits),
                            "stale_pictures": (self.stale_pictures, self.pictures_made),
                            "lags": self.lags,
                            "gc_pauses": self.gc_pauses,
                            "received": self.received_at,
                            "live_tables": len(manager.tables),
                            # DM taps this process handed to their tables' processes, and took back (bench_processes)
                            "forwarded": getattr(getattr(client, "forwarder", None), "forwarded_count", 0),
                            "taken_back": getattr(getattr(client, "forwarder", None), "taken_back_count", 0),
                            "objects": len(gc.get_objects()),
                            "timeline": timeline.take() if timeline is not None else None,
                        }
                    })  # fmt: skip
                elif command == "images off":
                    images.enabled = False
                    # The pictures asked for before the switch are still drawn: say when the last is done, so
                    # that the images-off window does not count them (at 500 tables seconds of them wait for a lane).
                    switched = time.monotonic()
                    while images.pool.in_flight and time.monotonic() - switched < 60:
                        await asyncio.sleep(0.02)
                    self.send({"drained": time.monotonic() - switched})
                elif command == "images on":
                    images.enabled = True
                elif command in ("quit", ""):
                    break
            await client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(running, 10)


class Driver:
    """This process: the fake Discord, the simulated users, and the bot started in a process of its own."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.callback_at: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Future] = {}
        self.answered_at: dict[int, float] = {}  # a deferred interaction's answer (edit or follow-up) reached the fake
        self.answer_waiters: dict[int, asyncio.Future] = {}
        self.sent_at: dict[int, float] = {}
        self.replied_at: dict[int, float] = {}  # the tap's answer (after an acknowledgement: the real one)
        self.deferred: set[int] = set()
        self.latencies: list[float] = []
        self.refusals = Counter()
        self.measuring = False
        self.stop = False
        self.rest_calls: Counter = Counter()
        self.taps = 0  # interactions answered in the window (taps, or slash commands)
        self.window_opened = float("inf")  # when the measuring window opened (taps sent from then on are counted)
        self.dm_channels: set[int] = set()
        self.channel_times: dict[int, list[float]] = {}  # channel id → its REST calls' times in the window
        self.turns: dict[int, dict] = {}  # table id → the latest turn notice from the bot
        self.turn_at: dict[int, tuple[int, float]] = {}  # table id → (version, when) of a turn its hand has not shown
        self.hand_delays: list[float] = []  # a turn's notice → the player's DM hand showing it
        self.turn_events: dict[int, asyncio.Event] = {}
        self.reports: asyncio.Queue = asyncio.Queue()
        self.drain_waits: list[float] = []  # seconds the last pictures took to be drawn after each switch to off

    trim_fake = Bench.trim_fake

    def hook_fake(self, fake: FakeDiscord) -> None:
        """Time the replies (as ``Bench``), and note when a player's DM hand first shows their turn: what a player
        waits for before they can tap."""
        Bench.hook_fake(self, fake)
        world = fake.world
        create, edit = world.create_message, world.edit_message

        def shown(message) -> None:
            if message.channel.id not in self.dm_channels:
                return
            for custom_id in message.custom_ids():
                parts = custom_id.split(":", 4)
                if len(parts) == 5 and parts[2] == PANEL_VERB:
                    waiting = self.turn_at.get(int(parts[1]))
                    if waiting is not None and int(parts[3]) >= waiting[0]:
                        del self.turn_at[int(parts[1])]
                        if self.measuring:
                            self.hand_delays.append(time.monotonic() - waiting[1])
                    return

        def created(*args, **kwargs):
            message = create(*args, **kwargs)
            shown(message)
            return message

        def edited(message, *args, **kwargs):
            edit(message, *args, **kwargs)
            shown(message)

        world.create_message, world.edit_message = created, edited

    def flush_rest_log(self, fake: FakeDiscord) -> None:
        """Count the bot's REST calls by what they are for (a DM is a live hand, a channel message a table's),
        and keep each channel's call times for its busiest 5 s."""
        for call in fake.rest.log:
            parts = call.path.strip("/").split("/")
            channel = int(parts[1]) if parts[0] == "channels" and len(parts) > 1 and parts[1].isdigit() else None
            where = "" if channel is None else " (DM)" if channel in self.dm_channels else " (channel)"
            self.rest_calls[f"{call.method} {call.route}{where}"] += 1
            if channel is not None:
                self.channel_times.setdefault(channel, []).append(call.timestamp)
        fake.rest.log.clear()

    async def read_bot(self, stdout: asyncio.StreamReader) -> None:
        while line := await stdout.readline():
            message = json.loads(line)
            if "t" in message:
                self.turns[message["t"]] = message
                if "v" in message:
                    self.turn_at[message["t"]] = (message["v"], time.monotonic())
                event = self.turn_events.get(message["t"])
                if event is not None:
                    event.set()
            else:
                await self.reports.put(message)

    async def player(self, fake: FakeDiscord, channel, user, table_id: int) -> None:
        """One human: wait for the bot to say it is their turn, think, then tap their live DM hand's buttons until
        the move is made (or, with ``--slash``, type the slash command); time every reply."""
        event = self.turn_events.setdefault(table_id, asyncio.Event())
        rng = random.Random(table_id)
        done_version = -1
        dm = fake.dm_channel(user)
        self.dm_channels.add(dm.id)
        while not self.stop:
            notice = self.turns.get(table_id)
            if notice is not None and notice.get("end"):
                return
            if notice is None or notice["v"] <= done_version:
                event.clear()
                await event.wait()
                continue
            done_version = notice["v"]
            await asyncio.sleep(rng.uniform(0.5, 1.5) * self.args.think)
            if self.args.slash:
                name, options = slash_for(pick_action(rng, notice["a"]))
                await self.timed(slash_and_time(self, fake, user, channel, name, options))
            else:
                await self.tap_move(fake, user, dm, table_id, notice["v"], rng)

    async def timed(self, interaction) -> InteractionResult | None:
        """Await one interaction's reply (``slash_and_time`` or ``tap_and_time``) and keep its latency."""
        timed = await interaction
        if timed is None:
            return None
        result, sent, replied = timed
        if self.measuring and sent >= self.window_opened:  # a tap sent before the window belongs to the one before
            self.latencies.append(replied - sent)
            self.sent_at[result.id] = sent
            self.replied_at[result.id] = replied
            if result.deferred:
                self.deferred.add(result.id)
            self.taps += 1
        return result

    async def tap_move(self, fake: FakeDiscord, user, dm, table_id: int, version: int, rng: random.Random) -> None:
        """Tap the live hand until a tap performs a move: an action's button when the hand offers one, else a step
        towards one (a card to toggle for a discard, a bid range).  The hand is the one a player sees: its latest
        edit, waited for (as a player waits for the screen) when it does not show this turn yet."""
        message = None
        for _ in range(50):  # a hand shows its turn within the presenter's refresh; a player gives up after 5 s
            message = hand_message(fake, dm, table_id, version)
            if message is not None or self.stop:
                break
            await asyncio.sleep(0.1)
        if message is None:
            self.refusals["the hand never showed the turn"] += 1
            return
        for _ in range(40):  # at most a discard's cards and its Confirm, with room for a stale panel
            tap = choose_tap(message, rng)
            if tap is None:
                return
            custom_id, performs = tap
            result = await self.timed(tap_and_time(self, fake, user, message, custom_id))
            if result is None or performs:
                return
            if result.callback_type != UPDATE_MESSAGE or result.message is None:
                return  # not answered on the hand (a refusal in words): the next turn notice brings a fresh look
            message = result.message

    async def run(self) -> None:
        args = self.args
        logging.basicConfig(level=logging.WARNING)
        fake = self.fake = honest_fake(args)
        self.hook_fake(fake)
        async with fake:
            guild = fake.add_guild("Bench Club")
            channels = [fake.add_text_channel(guild, f"tables-{i}") for i in range(-(-args.tables // args.per_channel))]
            users = {}
            seats = []
            for i in range(args.tables):
                user = fake.add_user(f"player{i}")
                fake.add_member(guild, user)
                users[user.id] = user
                channel = channels[i % len(channels)]
                seats.append([user.id, user.username, channel.id, channel.name])
            config = {
                "api_base": fake.api_base,
                "gateway_url": fake.gateway_url,
                "token": fake.token,
                "guild_id": guild.id,
                "guild_name": guild.name,
                "seats": seats,
                "game": args.game,
                "ai_delay": args.ai_delay,
                "edit_interval": args.edit_interval,
                "hold_limit": args.hold_limit,
                "images": args.images,
                "render": args.render,
                "seed": args.seed,
                "freeze": args.freeze,
                "profile": args.profile,
                "profile_clock": args.profile_clock,
                "dump_pictures": args.dump_pictures,
                "database_url": args.database_url,
                "global_requests": args.global_requests,
                "timeline": args.timeline,
            }
            by_channel = {c.id: c for c in channels}
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(config, f)
            t0 = time.monotonic()
            bot = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--bot-process",
                f.name,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=1 << 24,
            )
            reader = asyncio.create_task(self.read_bot(bot.stdout))
            try:
                ready = await asyncio.wait_for(self.reports.get(), 300)
                os.unlink(f.name)
                print(f"set up {args.tables} tables in {time.monotonic() - t0:.1f} s (bot process {bot.pid})",
                      flush=True)  # fmt: skip
                players = [
                    asyncio.create_task(self.player(fake, by_channel[channel_id], users[user_id], table_id))
                    for table_id, user_id, channel_id in ready["ready"]
                ]
                await asyncio.sleep(args.warmup)
                # This process stands in for Discord: its pauses are not the bot's.  Its collector as the bot's own
                # (bot/process/client.py): untuned, its full passes over 500 tables' state took up to 295 ms (12 in a
                # run), its loop lagged as long, and the taps it was answering counted that in their p99.
                gc.freeze()
                gc.set_threshold(50_000, 20, 100)
                trimmer = asyncio.create_task(self.trim_fake(fake))
                # This process answers the bot's REST calls: when its loop lags, the bot's answers seem slow.
                driver_lags: list[float] = []
                driver_lag = asyncio.create_task(sample_lag(driver_lags))
                on_windows, off_windows = await self.windows(bot, fake)
                driver_lag.cancel()
                measured = merged(on_windows)
                without = merged(off_windows) if off_windows else None
                trimmer.cancel()
                self.stop = True
                for task in players:
                    task.cancel()
                await asyncio.gather(*players, return_exceptions=True)
                self.report(args, *measured)
                if driver_lags:
                    lags = sorted(driver_lags)
                    p99 = lags[min(len(lags) - 1, int(0.99 * len(lags)))]
                    print(f"this driver's event loop lag (the fake Discord's REST and gateway, the players): median "
                          f"{statistics.median(lags) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
                          f"max {lags[-1] * 1000:.1f} ms")  # fmt: skip
                if without is not None:
                    self.compare(measured, without, on_windows, off_windows)
            finally:
                if bot.returncode is None:
                    with contextlib.suppress(Exception):
                        bot.stdin.write(b"quit\n")
                        await bot.stdin.drain()
                    try:
                        await asyncio.wait_for(bot.wait(), 20)
                    except TimeoutError:
                        bot.kill()
                        await bot.wait()
                reader.cancel()

    async def windows(self, bot, fake: FakeDiscord) -> tuple[list[tuple], list[tuple]]:
        """The measuring windows: images on for ``--seconds`` (the real configuration); with ``--compare``, images
        off for that long too, in ``--rounds`` stretches between ``--rounds`` + 1 images-on ones (on, off, …, on), so
        that the images-on stretches surround the others and a steady drift (the deals' phase, the machine's load)
        weighs on both modes alike."""
        args = self.args
        if not (args.images and args.compare > 0):
            return [await self.window(bot, fake, args.seconds)], []
        rounds = max(args.rounds, 1)
        on_windows, off_windows = [], []
        for i in range(rounds + 1):
            if i:
                await self.switch(bot, "images on")
            on_windows.append(await self.window(bot, fake, args.seconds / (rounds + 1)))
            if i < rounds:
                await self.switch(bot, "images off")
                off_windows.append(await self.window(bot, fake, args.compare / rounds))
        return on_windows, off_windows

    async def switch(self, bot, command: str) -> None:
        """Switch images off or on, then let what the switch leaves under way settle before counting again: the
        pictures asked for before images went off are all drawn (the bot says when), and each table message's first
        edit after the switch (which takes its picture away, or brings one back) is mostly made."""
        await self.command(bot, command)
        if command == "images off":
            self.drain_waits.append((await asyncio.wait_for(self.reports.get(), 90))["drained"])
        await asyncio.sleep(self.args.settle)

    async def command(self, bot, command: str) -> None:
        bot.stdin.write(command.encode() + b"\n")
        await bot.stdin.drain()

    def begin_window(self, fake: FakeDiscord) -> int:
        """Forget what was counted before a measuring window and start counting; the fake's expired interactions
        so far (the window counts those after)."""
        self.latencies = []
        self.flush_rest_log(fake)
        self.rest_calls.clear()
        self.channel_times.clear()
        self.hand_delays = []
        self.taps = 0
        self.measuring = True
        self.window_opened = time.monotonic()
        return fake.expired_interactions

    async def window(self, bot, fake: FakeDiscord, seconds: float) -> tuple:
        """Measure ``seconds`` of play: (window, REST calls, the bot's report, this process's CPU share, the
        latencies, the expired interactions)."""
        expired_start = self.begin_window(fake)
        await self.command(bot, "measure")
        window_start = time.monotonic()
        cpu_start = time.process_time()
        await asyncio.sleep(seconds)
        await self.command(bot, "report")
        report = (await asyncio.wait_for(self.reports.get(), 60))["report"]
        window = time.monotonic() - window_start
        driver_cpu = (time.process_time() - cpu_start) / window
        self.measuring = False
        self.flush_rest_log(fake)
        expired = fake.expired_interactions - expired_start
        report["taps"] = self.taps
        report["hand_delays"] = list(self.hand_delays)
        report["busiest_channel"] = busiest_5s(self.channel_times, self.dm_channels)
        return window, dict(self.rest_calls), report, driver_cpu, list(self.latencies), expired

    @staticmethod
    def cpu_per_action(bot: dict) -> tuple[float, float]:
        """Milliseconds of CPU per action: the bot's process, and its render workers."""
        per_action = 1000 / max(bot["actions"], 1)
        return (bot["user"] + bot["system"]) * per_action, bot["workers"] * per_action

    def compare(self, with_images: tuple, without: tuple, on_windows: list[tuple], off_windows: list[tuple]) -> None:
        on_bot, on_workers = self.cpu_per_action(with_images[2])
        off_bot, off_workers = self.cpu_per_action(without[2])
        on, off = on_bot + on_workers, off_bot + off_workers
        lat = sorted(without[4])
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else float("nan")
        print(f"CPU per action, images on: {on:.2f} ms (bot {on_bot:.2f} + render workers {on_workers:.2f}); "
              f"images off ({without[0]:.0f} s in {len(off_windows)} windows between the images-on ones, same "
              f"tables): {off:.2f} ms, p99 {p99:.0f} ms; ratio {on / max(off, 1e-9):.2f}x")  # fmt: skip
        # Window by window, in run order: how much each mode's figure moves within one run.
        steps = [("on", on_windows[0])] + [w for pair in zip(off_windows, on_windows[1:], strict=True)
                                            for w in zip(("off", "on"), pair, strict=True)]  # fmt: skip
        if self.drain_waits:
            print(f"   after each switch to images off, the pictures asked for before it were drawn within "
                  f"{max(self.drain_waits):.2f} s (mean {statistics.fmean(self.drain_waits):.2f} s), then "
                  f"{self.args.settle:g} s more before counting")  # fmt: skip
        print("   window by window (CPU ms per action, bot + render workers): " + ", ".join(
            "{} {:.2f}+{:.2f}".format(mode, *self.cpu_per_action(w[2])) for mode, w in steps))  # fmt: skip
        # The bot's work per action also depends on how many calls it makes: a table edit waiting for its picture
        # lets later moves join it, so images on may edit less often than off.
        per_action = [sum(window[1].values()) / max(window[2]["actions"], 1) for window in (with_images, without)]
        print(f"REST calls per action, images on: {per_action[0]:.2f}; off: {per_action[1]:.2f}")
        # What each window did per action, route by route: work that only one window does (the off window's first
        # edit of each table message takes its picture away) or does more often changes the divisor, not the images.
        routes = sorted(set(with_images[1]) | set(without[1]), key=lambda r: -with_images[1].get(r, 0))
        for route in routes:
            on_n, off_n = (window[1].get(route, 0) / max(window[2]["actions"], 1) for window in (with_images, without))
            print(f"   {on_n:6.3f} / {off_n:6.3f}  {route}")
        for name, window in (("on", with_images), ("off", without)):
            outrun, edits = window[2]["outrun"]
            stale, made = window[2].get("stale_pictures", (0, 0))
            print(
                f"table-message edits per action, images {name}: {edits / max(window[2]['actions'], 1):.3f}, "
                f"of which the table moved while one was made: {outrun / max(window[2]['actions'], 1):.3f}; "
                f"table pictures made {made}, of which outrun by a move before their upload: {stale}"
            )

    def report(self, args, window, calls, bot: dict, driver_cpu: float, latencies: list, expired: int) -> None:
        cards, actions = bot["cards"], bot["actions"]
        total = sum(calls.values())
        lat = sorted(latencies)

        def pct(values, p: float) -> float:
            return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")

        workers = f" ({bot['worker_count']} workers)" if bot["worker_count"] else ""
        print(f"game {args.game}, {args.tables} tables, ai delay {args.ai_delay} s, think {args.think} s, "
              f"edit interval {args.edit_interval} s, images {bot['render']}{workers}, "
              f"bot in its own process, Python {sys.version.split()[0]}")  # fmt: skip
        print(f"window {window:.1f} s: {actions} actions ({actions / window:.0f}/s), {cards} cards played")
        print(f"REST calls: {total} → {total / max(actions, 1):.2f} per action "
              f"({total / max(cards, 1):.2f} per card played)")  # fmt: skip
        for route, n in Counter(calls).most_common():
            print(f"   {n:6d}  {route}  ({n / max(actions, 1):.3f} per action)")
        counted = counted_requests(calls)
        print(f"requests counted by Discord's global limit (all but interaction answers): {counted} → "
              f"{counted / max(actions, 1):.2f} per action, {counted / window / max(args.tables, 1):.2f} per table "
              f"per second; one bot token (global budget {GLOBAL_BUDGET}/s) carries about "
              f"{tables_per_token(counted, window, args.tables):.0f} tables at this pace")  # fmt: skip
        channel, busiest = bot["busiest_channel"]
        print(f"the most REST calls any channel received in a 5-s window: {busiest} ({channel})")
        drawn = bot["drawn"]
        if drawn:
            print("images drawn per action: " + ", ".join(
                f"{name} {n / max(actions, 1):.3f}" for name, n in sorted(drawn.items()))
                + f"; asked for again, not drawn: {bot['kept'] / max(actions, 1):.3f}")  # fmt: skip
        print(f"interactions: {bot['taps']} answered in the window, {bot['taps'] / max(bot['human_actions'], 1):.2f} "
              f"per human action ({'slash commands' if args.slash else 'taps on the live DM hand'})")  # fmt: skip
        print(f"interaction → reply latency over {len(lat)} interactions: p50 {pct(lat, 0.5):.1f} ms, "
              f"p90 {pct(lat, 0.9):.1f} ms, p99 {pct(lat, 0.99):.1f} ms, max {pct(lat, 1.0):.1f} ms; "
              f"expired (no answer within Discord's 3 s): {expired}")  # fmt: skip
        Bench.print_discord_faults(self.fake, args)
        shows = sorted(bot["hand_delays"])
        if shows and not args.slash:
            print(f"a turn → the player's DM hand showing it (before they can tap): p50 {pct(shows, 0.5):.0f} ms, "
                  f"p90 {pct(shows, 0.9):.0f} ms, p99 {pct(shows, 0.99):.0f} ms, "
                  f"max {pct(shows, 1.0):.0f} ms")  # fmt: skip
        outrun, edits = bot["outrun"]
        print(f"table-message edits: {edits}, of which the table moved again while one was drawn and sent: {outrun}")
        behind = sorted(bot["table_delays"])
        if behind:
            print(f"a move → the table message showing it (a new deal's message aside): p50 {pct(behind, 0.5):.0f} ms, "
                  f"p90 {pct(behind, 0.9):.0f} ms, p99 {pct(behind, 0.99):.0f} ms, "
                  f"max {pct(behind, 1.0):.0f} ms")  # fmt: skip
        received = bot["received"]
        delivery = sorted(received[str(i)] - t for i, t in self.sent_at.items() if str(i) in received)
        if delivery:
            print(f"   of which gateway delivery (fake → discord.py event): p50 {pct(delivery, 0.5):.1f} ms, "
                  f"p99 {pct(delivery, 0.99):.1f} ms")  # fmt: skip
        lags = sorted(bot["lags"])
        if lags:
            print(f"bot's event loop lag: median {statistics.median(lags) * 1000:.1f} ms, p99 {pct(lags, 0.99):.1f} ms")
        per_action = 1000 / max(actions, 1)
        print(f"the bot's CPU time per action: {bot['user'] * per_action:.2f} ms user + "
              f"{bot['system'] * per_action:.2f} ms system + {bot['workers'] * per_action:.2f} ms in render workers "
              f"(a per-core figure: it grows when other jobs share the cores)")  # fmt: skip
        print(f"the bot's process used {bot['cpu']:.0%} of one core ({bot['live_tables']} live tables, "
              f"{bot['objects']} objects tracked by the garbage collector); this driver process (fake Discord and "
              f"simulated players) used {driver_cpu:.0%}; {load_text()}")  # fmt: skip
        if bot["gc_pauses"]:
            print(f"bot's full garbage collections: {len(bot['gc_pauses'])}, "
                  f"longest {max(bot['gc_pauses']) * 1000:.0f} ms")  # fmt: skip
        if self.refusals:
            print(f"problems: {dict(self.refusals)}")
        timeline = bot.get("timeline")
        if timeline:
            from tap_timeline import breakdown

            for line in breakdown(
                timeline["marks"], timeline["kind"], self.sent_at, self.replied_at, self.deferred, timeline["samples"]
            ):
                print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0, help="the measuring window")
    # 15 s: after 5 s the first images-on window still cost 20-25 % more than the later ones in the bot and in the
    # workers alike (each table's first pictures: caches not yet holding its parts), which the images-off windows,
    # all later, never paid: the CPU ratio came out ~0.1 too high (docs/running.md, eleventh session).
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds of play before counting starts")
    parser.add_argument("--game", default="two_hundred")
    parser.add_argument("--ai-delay", type=float, default=1.0, help="computer players' pause before acting")
    parser.add_argument("--edit-interval", type=float, default=1.0, help="seconds between table-message edits")
    parser.add_argument(
        "--hold-limit",
        type=float,
        default=4.0,
        help="seconds the computers' cards in a row may wait to join one table edit (0: each its own)",
    )
    parser.add_argument("--think", type=float, default=3.0, help="a human's mean thinking time (s)")
    parser.add_argument("--images", action=argparse.BooleanOptionalAction, default=True,
                        help="draw table and hand images (render/), as players see them")  # fmt: skip
    parser.add_argument("--render", choices=("auto", "processes", "threads"), default="auto",
                        help="where the bot draws (CARDTABLE_RENDER)")  # fmt: skip
    parser.add_argument("--compare", type=float, default=15.0, metavar="SECONDS",
                        help="images off for this long too, between the images-on windows, for the CPU ratio "
                             "(0: none)")  # fmt: skip
    # Short windows, many of them: the tables start together, so their deals end together (a few seconds of deal
    # summaries and new deals' messages), and with 3 rounds that stretch fell in the last images-on window.
    parser.add_argument("--rounds", type=int, default=10,
                        help="with --compare: images-off windows, each between two images-on ones")  # fmt: skip
    parser.add_argument("--settle", type=float, default=1.0, metavar="SECONDS",
                        help="not counted after each switch of images off or on")  # fmt: skip
    parser.add_argument("--per-channel", type=int, default=1, metavar="TABLES",
                        help="tables sharing a channel (the bot keeps to 5 requests per 5 s per channel)")  # fmt: skip
    parser.add_argument("--slash", action="store_true",
                        help="humans type slash commands (the earlier model), not tap their DM hand")  # fmt: skip
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rate-limits", action=argparse.BooleanOptionalAction, default=False,
                        help="Discord's rate limits in the fake (429, Retry-After), at Discord's scale.  Off by "
                             "default: the bot keeps under them, but 100 tables of Two Hundred ask for about 120 "
                             "requests a second, and Discord's global 50 then measures Discord, not the bot (the "
                             "table messages lag by seconds)")  # fmt: skip
    parser.add_argument("--global-requests", type=int, default=45, metavar="N",
                        help="the bot's global budget: N requests a second (CARDTABLE_GLOBAL_REQUESTS; 0: none, "
                             "to see what Discord's global limit does to a bot that does not pace itself)")  # fmt: skip
    parser.add_argument("--faults", type=float, default=0.0, metavar="RATE",
                        help="inject a 5xx and a 429 each on this share of all requests (e.g. 0.05)")  # fmt: skip
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() after the warm-up")
    parser.add_argument(
        "--profile", help="write a cProfile of the measuring window (of the bot's process) to this file"
    )
    parser.add_argument(
        "--profile-clock", choices=("wall", "cpu"), default="wall",
        help="the profile's clock: wall time, or the CPU time of the bot's event-loop thread (steadier under load)",
    )  # fmt: skip
    parser.add_argument(
        "--dump-pictures",
        metavar="FILE",
        help="write the pictures the bot asked its render workers for in the images-on window (what to draw, when) "
        "to FILE, for bench/bench_pictures.py --replay",
    )
    parser.add_argument(
        "--database-url", help="run the bot on an empty PostgreSQL database (postgresql://…) instead of SQLite"
    )
    parser.add_argument("--timeline", action="store_true",
                        help="time each tap's steps in the bot: where its time goes")  # fmt: skip
    parser.add_argument("--single-process", action="store_true", help="bot, fake Discord and players in one process")
    parser.add_argument("--bot-process", metavar="CONFIG", help=argparse.SUPPRESS)  # the bot's side of the default
    args = parser.parse_args()
    if args.bot_process:
        asyncio.run(BotSide(json.loads(Path(args.bot_process).read_text())).run())
    elif args.single_process:
        asyncio.run(Bench(args).run())
    else:
        asyncio.run(Driver(args).run())


if __name__ == "__main__":
    main()
