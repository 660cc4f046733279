"""The bot on PostgreSQL in 1, 2 and 3 processes sharing the shards, under the same table load, in one run.

For each process count N the benchmark starts a fresh database (a schema of its own on one PostgreSQL server), the
offline Discord with N shards (a server per shard, its tables spread evenly), and N real bot processes
(``bench_bot.py``'s bot side, each identifying with its shard: ``cardtable run --shards N --shard-ids i``).  The
simulated humans (``bench_bot.py``'s driver: one per table, thinking, then tapping their live DM hand) play the same
number of tables in every run.  Printed per process count: actions per second, tap → answer p50 / p99, interactions
expired (no answer within Discord's 3 s), CPU per action (the bot processes, their render workers, the PostgreSQL
server), each process's share of a core, and the machine's load average.

    .venv/bin/python bench/bench_processes.py                       # 1, 2, 3 processes; 150 tables; images on
    .venv/bin/python bench/bench_processes.py --images off --tables 300 --seconds 20
    .venv/bin/python bench/bench_processes.py --slash               # slash commands in the servers' channels

Images are on by default (the real configuration).  PostgreSQL: the tests' own (``tests/botkit/postgres.py``: initdb
and pg_ctl into a temporary directory, stopped at the end), or ``--database-url`` of a running server.  Discord's
global rate limit is not paced by default (``--global-requests 0``): one bot token's 50 requests a second would be
the figure otherwise, whatever the processes (bench_bot.py's "Discord's own ceiling").

A player's live hand is in their DMs, and Discord sends every DM interaction to shard 0: with taps, the first
process acknowledges each tap for a table of another process and forwards it there (bot/presentation/forwarding.py);
the table's process applies it and answers through the interaction's token, and does the rest of the table's work
(bot/tables/placement.py).  "tap → answer" is timed to the answer the player reads (for a tap acknowledged first,
the deferred response's edit or a follow-up), and the taps each process forwarded are printed.
``--slash`` has the players type in their table's channel instead, so each process answers its own servers' players.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_bot  # noqa: E402
from bench_bot import BotSide, Driver, honest_fake, load_text  # noqa: E402

from tests.botkit import postgres  # noqa: E402
from tests.fakediscord.gateway import shard_of  # noqa: E402


class ShardBotSide(BotSide):
    """``bench_bot.py``'s bot process on one shard of several.  A move may be applied by any process (a DM tap
    reaches shard 0's), so the turn notices come from whichever process applied the move, for every table."""

    def hook(self, client) -> None:
        super().hook(client)

        async def on_table_acted(table, outcome) -> None:
            if table.id not in self.human:  # a table another process opened: its host is the human
                self.human[table.id] = table.row.host_id
                self.notify_turn(table)

        client.add_listener(on_table_acted)

        async def on_table_caught_up(table, outcome) -> None:  # the owner shows moves another process applied
            self.unshown.setdefault(table.id, time.monotonic())

        client.add_listener(on_table_caught_up)


def run_bot_process(config_path: str) -> None:
    config = json.loads(Path(config_path).read_text())
    bench_bot.CardTableBot = functools.partial(  # type: ignore[misc]
        bench_bot.CardTableBot, shard_id=config["shard_id"], shard_count=config["shard_count"]
    )
    asyncio.run(ShardBotSide(config).run())


def server_cpu_seconds(data_directory: Path | None) -> float | None:
    """CPU seconds the PostgreSQL server has used: the postmaster and its finished children, and its live
    backends (read from /proc; None when the server is not ours)."""
    if data_directory is None:
        return None
    try:
        postmaster = int((data_directory / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, parent = int(entry), int(fields[1])
        if pid == postmaster:
            total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
        elif parent == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / tick


class BotHandle:
    """One bot process of the run, and what it said on its pipe."""

    def __init__(self, driver: MultiDriver, process: asyncio.subprocess.Process):
        self.process = process
        self.reports: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self.read(driver))

    async def read(self, driver: MultiDriver) -> None:
        assert self.process.stdout is not None
        while line := await self.process.stdout.readline():
            message = json.loads(line)
            if "t" not in message:
                await self.reports.put(message)
                continue
            driver.turns[message["t"]] = message
            if "v" in message:
                driver.turn_at[message["t"]] = (message["v"], time.monotonic())
            event = driver.turn_events.get(message["t"])
            if event is not None:
                event.set()

    async def command(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command.encode() + b"\n")
        await self.process.stdin.drain()

    async def quit(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(Exception):
                await self.command("quit")
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        self.reader.cancel()


def combined(reports: list[dict]) -> dict:
    """The processes' reports as one bot's (``Driver.report`` reads it): counts and CPU summed, lists joined."""
    out: dict = {}
    for report in reports:
        for key, value in report.items():
            if isinstance(value, bool) or key in ("render", "worker_count"):
                out[key] = value
            elif isinstance(value, int | float):
                out[key] = out.get(key, 0) + value
            elif isinstance(value, list):
                out.setdefault(key, []).extend(value)
            elif isinstance(value, dict):
                merged = out.setdefault(key, {})
                for k, v in value.items():
                    merged[k] = merged.get(k, 0) + v if isinstance(v, int) and key == "drawn" else v
    return out


class MultiDriver(Driver):
    """``bench_bot.py``'s driver (fake Discord, simulated players), for N bot processes on N shards."""

    def __init__(self, args: argparse.Namespace, processes: int, database_url: str, data_directory: Path | None):
        super().__init__(args)
        self.processes = processes
        self.database_url = database_url
        self.data_directory = data_directory

    async def run(self) -> dict:
        args, n = self.args, self.processes
        fake = self.fake = honest_fake(args)
        self.hook_fake(fake)
        async with fake:
            guilds = []
            for shard in range(n):
                guild = fake.add_guild(f"Bench Club {shard}")
                while shard_of(guild.id, n) != shard:
                    guild = fake.add_guild(f"Bench Club {shard}")
                guilds.append(guild)
            users, channels, seats_by_shard = {}, {}, [[] for _ in range(n)]
            for i in range(args.tables):
                shard = i % n
                guild = guilds[shard]
                user = fake.add_user(f"player{i}")
                fake.add_member(guild, user)
                channel = fake.add_text_channel(guild, f"tables-{i}")
                users[user.id], channels[channel.id] = user, channel
                seats_by_shard[shard].append([user.id, user.username, channel.id, channel.name])
            bots: list[BotHandle] = []
            try:
                t0 = time.monotonic()
                for shard in range(n):
                    config = {
                        "api_base": fake.api_base,
                        "gateway_url": fake.gateway_url,
                        "token": fake.token,
                        "guild_id": guilds[shard].id,
                        "guild_name": guilds[shard].name,
                        "seats": seats_by_shard[shard],
                        "game": args.game,
                        "ai_delay": args.ai_delay,
                        "edit_interval": args.edit_interval,
                        "hold_limit": args.hold_limit,
                        "images": args.images == "on",
                        "render": args.render,
                        "seed": args.seed + shard,
                        "freeze": False,
                        "profile": f"{args.profile}.{n}p.{shard}" if args.profile else None,
                        "database_url": self.database_url,
                        "global_requests": args.global_requests,
                        "shard_id": shard,
                        "shard_count": n,
                    }
                    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                        json.dump(config, f)
                    process = await asyncio.create_subprocess_exec(
                        sys.executable, __file__, "--bot-process", f.name,
                        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 24,
                    )  # fmt: skip
                    bots.append(BotHandle(self, process))
                    ready = await asyncio.wait_for(bots[-1].reports.get(), 300)
                    os.unlink(f.name)
                    for table_id, user_id, channel_id in ready["ready"]:
                        self.players.append(
                            asyncio.create_task(self.player(fake, channels[channel_id], users[user_id], table_id))
                        )
                print(f"{n} process(es): set up {args.tables} tables in {time.monotonic() - t0:.1f} s", flush=True)
                await asyncio.sleep(args.warmup)
                trimmer = asyncio.create_task(self.trim_fake(fake))
                measured = await self.measure(bots, fake, args.seconds)
                trimmer.cancel()
                self.stop = True
                for task in self.players:
                    task.cancel()
                await asyncio.gather(*self.players, return_exceptions=True)
                if args.details:
                    window, calls, report, driver_cpu, latencies, expired = measured[:6]
                    self.report(args, window, calls, report, driver_cpu, latencies, expired)
                return self.summary(measured)
            finally:
                await asyncio.gather(*(bot.quit() for bot in bots), return_exceptions=True)

    players: list[asyncio.Task]

    async def measure(self, bots: list[BotHandle], fake, seconds: float) -> tuple:
        """``Driver.window`` for several bot processes: every process measures the same window."""
        expired_start = self.begin_window(fake)
        server_start = server_cpu_seconds(self.data_directory)
        await asyncio.gather(*(bot.command("measure") for bot in bots))
        window_start, cpu_start = time.monotonic(), time.process_time()
        await asyncio.sleep(seconds)
        await asyncio.gather(*(bot.command("report") for bot in bots))
        reports = [(await asyncio.wait_for(bot.reports.get(), 60))["report"] for bot in bots]
        window = time.monotonic() - window_start
        server_end = server_cpu_seconds(self.data_directory)
        driver_cpu = (time.process_time() - cpu_start) / window
        self.measuring = False
        self.flush_rest_log(fake)
        report = combined(reports)
        report["taps"] = self.taps
        report["hand_delays"] = list(self.hand_delays)
        report["busiest_channel"] = bench_bot.busiest_5s(self.channel_times, self.dm_channels)
        server = None if server_start is None or server_end is None else server_end - server_start
        expired = fake.expired_interactions - expired_start
        return window, dict(self.rest_calls), report, driver_cpu, list(self.latencies), expired, reports, server

    def summary(self, measured: tuple) -> dict:
        window, _, report, driver_cpu, latencies, expired, reports, server = measured
        actions = report["actions"]
        lat = sorted(latencies)

        def pct(values: list[float], p: float) -> float:
            return values[min(len(values) - 1, int(p * len(values)))] * 1000 if values else float("nan")

        per_action = 1000 / max(actions, 1)
        shown = sorted(report.get("table_delays", []))
        return {
            "processes": self.processes,
            "actions_per_second": actions / window,
            "p50": pct(lat, 0.5),
            "p99": pct(lat, 0.99),
            "interactions": len(lat),
            "expired": expired,
            "bot_ms": (report["user"] + report["system"]) * per_action,
            "workers_ms": report["workers"] * per_action,
            "server_ms": None if server is None else server * per_action,
            "shares": [r["cpu"] for r in reports],
            "applied": [r["actions"] for r in reports],
            "forwarded": [r.get("forwarded", 0) for r in reports],
            "taken_back": sum(r.get("taken_back", 0) for r in reports),
            "table_p99": pct(shown, 0.99),
            "driver": driver_cpu,
            "load": os.getloadavg()[0],
            "problems": dict(self.refusals),
        }


def print_summaries(args: argparse.Namespace, rows: list[dict]) -> None:
    print()
    print(f"game {args.game}, {args.tables} tables, one human each ({'slash commands' if args.slash else 'DM taps'}), "
          f"think {args.think} s, ai delay {args.ai_delay} s, images {args.images}, PostgreSQL; "
          f"{os.cpu_count()} cores")  # fmt: skip
    print(
        "| processes | actions/s | tap → answer p50 / p99 | expired | CPU per action: bots + render workers + "
        "PostgreSQL | each process's share of a core (actions it applied) | move → table message p99 "
        "| load (1 min) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    base = rows[0]["actions_per_second"] if rows else 1.0
    for r in rows:
        server = "n/a" if r["server_ms"] is None else f"{r['server_ms']:.2f}"
        shares = ", ".join(f"{s:.0%} ({a})" for s, a in zip(r["shares"], r["applied"], strict=True))
        print(f"| {r['processes']} | {r['actions_per_second']:.0f} ({r['actions_per_second'] / base:.2f}×) "
              f"| {r['p50']:.0f} / {r['p99']:.0f} ms | {r['expired']} "
              f"| {r['bot_ms']:.2f} + {r['workers_ms']:.2f} + {server} ms | {shares} "
              f"| {r['table_p99'] / 1000:.1f} s | {r['load']:.1f} |")  # fmt: skip
        if r["problems"]:
            print(f"    problems with {r['processes']} process(es): {r['problems']}")
        if any(r["forwarded"]) or r["taken_back"]:
            print(f"    DM taps forwarded to their table's process: {r['forwarded']} (cumulative, per process); "
                  f"taken back for want of an answer: {r['taken_back']}")  # fmt: skip
    print(load_text())


async def run_all(args: argparse.Namespace) -> None:
    server = None if args.database_url else postgres.start()
    url = args.database_url or server.url
    data = server.directory / "data" if server is not None and server.directory is not None else None
    rows = []
    try:
        for n in args.processes:
            driver = MultiDriver(args, n, await postgres.new_schema(postgres.Server(url)), data)
            driver.players = []
            rows.append(await driver.run())
            print_summaries(args, rows[-1:])
    finally:
        if server is not None:
            server.stop()
    print_summaries(args, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=lambda s: [int(x) for x in s.split(",")], default=[1, 2, 3],
                        help="the process counts to run, in order (default 1,2,3)")  # fmt: skip
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--seconds", type=float, default=20.0, help="each measuring window")
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--game", default="two_hundred")
    parser.add_argument("--ai-delay", type=float, default=1.0)
    parser.add_argument("--edit-interval", type=float, default=1.0)
    parser.add_argument("--hold-limit", type=float, default=4.0)
    parser.add_argument("--think", type=float, default=3.0)
    parser.add_argument("--images", choices=("on", "off"), default="on")
    parser.add_argument("--render", choices=("auto", "processes", "threads"), default="auto")
    parser.add_argument("--slash", action="store_true", help="players type slash commands in their table's channel")
    parser.add_argument("--global-requests", type=int, default=0, metavar="N")
    parser.add_argument("--rate-limits", action="store_true")
    parser.add_argument("--faults", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="a running PostgreSQL (a schema is made per run) instead of our own")
    parser.add_argument("--profile", metavar="PREFIX",
                        help="a cProfile of each bot process's window, to PREFIX.<N>p.<shard>")  # fmt: skip
    parser.add_argument("--details", action="store_true", help="bench_bot.py's full report for each run too")
    parser.add_argument("--bot-process", metavar="CONFIG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bot_process:
        run_bot_process(args.bot_process)
        return
    asyncio.run(run_all(args))


if __name__ == "__main__":
    main()
