"""The bot under load, through the offline fake Discord, in one process.

N tables of Two Hundred (by default) play at once: one human per table (a simulated user who thinks, then acts by
slash command, as in steady play) and computer players.  After a warm-up the benchmark counts, over a window:

- REST calls the bot makes per card played (interaction replies, table-message edits, posts, DMs), and
- the latency from INTERACTION_CREATE (the fake sends it) to the bot's reply (the fake receives the callback).

    .venv/bin/python bench/bench_bot.py                    # 500 tables, 30 s window
    .venv/bin/python bench/bench_bot.py --tables 50 --seconds 10 --images

Images are off by default (the render benchmark measures drawing); ``--images`` turns them on.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from bot import images  # noqa: E402
from bot.choices import encode  # noqa: E402
from bot.client import CardTableBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from rules.game import GAME_OVER  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

SLASH_OPTION = {"play": "card", "bid": "value", "discard": "cards", "expose": "card", "call": "card", "trump": "suit"}


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


class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.rng = random.Random(args.seed)
        self.callback_at: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Future] = {}
        self.latencies: list[float] = []
        self.delivery: list[float] = []  # INTERACTION_CREATE sent → the bot's client parsed it
        self.refusals = Counter()
        self.measuring = False
        self.turn_events: dict[int, asyncio.Event] = {}
        self.stop = False
        self.rest_calls: Counter = Counter()
        self.actions_done = self.cards_done = 0  # counted as the bot reports them (ended tables leave memory)
        self._answered_before: set[str] = set()

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

    def hook_bot(self, client: CardTableBot) -> None:
        self.received_at: dict[int, float] = {}

        async def on_interaction(interaction):
            self.received_at[interaction.id] = time.monotonic()

        client.add_listener(on_interaction)
        presenter = client.presenter
        acted, started = presenter.acted, presenter.game_started

        async def on_acted(table, outcome):
            self.actions_done += 1
            if outcome.action.type == "play":
                self.cards_done += len(outcome.action.cards)
            self._wake(table.id)
            await acted(table, outcome)

        async def on_started(table):
            self._wake(table.id)
            await started(table)

        presenter.acted, presenter.game_started = on_acted, on_started

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
            action = {k: v for k, v in rng.choice(mine).items() if k != "seat"}
            if action["type"] == "discard":
                action = {"type": "discard", "cards": rng.sample(action["from"], action["choose"])}
            name, options = slash_for(action)
            sent = time.monotonic()
            result = await fake.slash(user, channel, name, options)
            waiter = asyncio.get_running_loop().create_future()
            if result.id in self.callback_at:
                waiter.set_result(self.callback_at[result.id])
            else:
                self.waiters[result.id] = waiter
            try:
                replied = await asyncio.wait_for(waiter, 10.0)
            except TimeoutError:
                self.refusals["no reply in 10 s"] += 1
                continue
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
        fake = FakeDiscord()
        self.hook_fake(fake)
        async with fake:
            with fake.patched(), tempfile.TemporaryDirectory() as tmp:
                guild = fake.add_guild("Bench Club")
                channels = [fake.add_text_channel(guild, f"tables-{i}") for i in range(max(1, args.tables // 50))]
                users = []
                for i in range(args.tables):
                    user = fake.add_user(f"player{i}")
                    fake.add_member(guild, user)
                    users.append(user)
                settings = Settings(
                    token=fake.token,
                    db_path=str(Path(tmp) / "bench.db"),
                    dev_guild_id=guild.id,
                    ai_delay=args.ai_delay,
                    edit_interval=args.edit_interval,
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
                        gc.freeze()  # what a long-running bot does after start-up (bot/client.py)
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
            answered = {t for t, r in fake.interactions_by_token.items() if r.callback_type is not None}
            for token in answered & self._answered_before:  # answered a while ago: no follow-up is coming
                del fake.interactions_by_token[token]
            self._answered_before = answered

    def flush_rest_log(self, fake: FakeDiscord) -> None:
        for call in fake.rest.log:
            self.rest_calls[f"{call.method} {call.route}"] += 1
        fake.rest.log.clear()

    async def loop_lag(self) -> None:
        self.lags = []
        while True:
            start = time.monotonic()
            await asyncio.sleep(0.05)
            self.lags.append(time.monotonic() - start - 0.05)

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
        for route, n in by_route.most_common(8):
            print(f"   {n:6d}  {route}")
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
        print(f"this process used {self.cpu:.0%} of one core (bot, fake Discord and simulated players together); "
              f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")  # fmt: skip
        if self.gc_pauses:
            print(f"full garbage collections: {len(self.gc_pauses)}, longest {max(self.gc_pauses) * 1000:.0f} ms")
        if self.refusals:
            print(f"problems: {dict(self.refusals)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=30.0, help="the measuring window")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--game", default="two_hundred")
    parser.add_argument("--ai-delay", type=float, default=1.0, help="computer players' pause before acting")
    parser.add_argument("--edit-interval", type=float, default=1.0, help="seconds between table-message edits")
    parser.add_argument("--think", type=float, default=3.0, help="a human's mean thinking time (s)")
    parser.add_argument("--images", action="store_true", help="draw table and hand images (render/)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() after the warm-up")
    parser.add_argument("--profile", help="write a cProfile of the measuring window to this file")
    asyncio.run(Bench(parser.parse_args()).run())


if __name__ == "__main__":
    main()
