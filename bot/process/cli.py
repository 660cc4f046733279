"""The ``cardtable`` command: ``replay``, ``simulate``, ``demo``, ``run`` and ``migrate-db``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TextIO

from rules import registry
from rules.records import replay_text


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def cmd_replay(args: argparse.Namespace) -> int:
    if args.batch:
        for line in sys.stdin:
            if not line.strip():
                continue
            status, out = replay_text(line)
            out["exit"] = status
            sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        return 0
    if args.file is None:
        print("cardtable replay: give a record FILE (or - for standard input), or --batch", file=sys.stderr)
        return 2
    try:
        text = _read(args.file)
    except OSError as e:
        print(json.dumps({"error": {"message": f"cannot read {args.file}: {e.strerror}"}}))
        return 2
    except UnicodeDecodeError:
        print(json.dumps({"error": {"message": f"{args.file} is not UTF-8 text"}}))
        return 2
    status, out = replay_text(text)
    print(json.dumps(out, ensure_ascii=False, indent=args.indent))
    return status


def _parse_options(pairs: list[str]) -> dict:
    options: dict = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"--option takes key=value, not {pair!r}")
        key, raw = pair.split("=", 1)
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def cmd_simulate(args: argparse.Namespace) -> int:
    from rules.errors import RecordError
    from rules.players import make_player
    from rules.registry import new_match
    from rules.simulate import simulate

    try:
        options = json.loads(args.options) if args.options else {}
        if not isinstance(options, dict):
            raise ValueError("--options must be a JSON object")
        options.update(_parse_options(args.option))
        if getattr(args, "arena", None):
            from rules.simulate import run_arena_cli

            return run_arena_cli(args, options)
        players_count = new_match(args.game, options).players
        levels = args.players_ai.split(",")
        if len(levels) == 1:
            levels = levels * players_count
        if len(levels) != players_count:
            raise ValueError(f"--players-ai needs one level, or {players_count} separated by commas")
        players = [make_player(level) for level in levels]
    except (RecordError, ValueError, json.JSONDecodeError) as e:
        print(f"cardtable simulate: {getattr(e, 'message', e)}", file=sys.stderr)
        return 2
    summary, records = simulate(args.game, options, args.deals, args.seed, players)
    written = ""
    # ``--record -``: standard output carries the records alone (for ``replay -`` or ``replay --batch``), and the
    # summary goes to standard error.
    to_stdout = args.record == "-"
    out = sys.stderr if to_stdout else sys.stdout
    if to_stdout:
        _write_records_to(sys.stdout, records)
    elif args.record:
        try:
            written = write_records(args.record, records)
        except OSError as e:
            print(f"cardtable simulate: cannot write {args.record}: {e.strerror}", file=sys.stderr)
            return 2
    info = summary.as_dict()
    if args.json:
        print(json.dumps(info), file=out)
        if written:
            print(written, file=sys.stderr)  # standard output stays one JSON object
    else:
        print(f"game: {info['game']}  games: {info['games']} ({info['games_finished']} finished)", file=out)
        print(f"deals: {info['deals']}  thrown in: {info['thrown_in']}", file=out)
        print(f"contracts made: {info['contracts_made']} of {info['contracts']} ({info['made_rate']})", file=out)
        print(f"average final scores: {info['average_final_scores']}", file=out)
        print(f"time: {info['seconds']} s  ({info['deals_per_second']} deals/second)", file=out)
        print(f"players: {', '.join(player.name for player in players)}", file=out)
        if written:
            print(written, file=out)
    return 0


def write_records(path: str, records: list) -> str:
    """Every game played: one game as a JSON record (what ``replay FILE`` reads), several as JSON Lines, one record
    a line (what ``replay --batch`` reads), whatever the file's name; returns the sentence that says which."""
    with open(path, "w", encoding="utf-8") as f:
        _write_records_to(f, records)
    if len(records) == 1:
        return f"record of the game written to {path}"
    return (
        f"records of all {len(records)} games written to {path} as JSON Lines, one record a line "
        f"(replay them with: cardtable replay --batch < {path})"
    )


def _write_records_to(f: TextIO, records: list) -> None:
    if len(records) == 1:
        f.write(records[0].dumps(indent=1) + "\n")
    else:
        f.writelines(record.dumps() + "\n" for record in records)


def cmd_demo(args: argparse.Namespace) -> int:
    """A game between computer players, written out as pictures (``bot/process/demo.py``); no token needed."""
    from pathlib import Path

    from bot.process import demo
    from rules.errors import RecordError

    try:
        game = demo.find_game(args.game)
        record_and_pictures = demo.run(
            game, _parse_options(args.option), Path(args.out), args.seed, args.players, args.deals
        )
    except (RecordError, ValueError) as e:
        print(f"cardtable demo: {getattr(e, 'message', e)}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"cardtable demo: cannot write to {args.out}: {e.strerror}", file=sys.stderr)
        return 2
    print("\n".join(demo.summary_lines(record_and_pictures)))
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    """Start the bot; configuration problems and a refused token end it with one clear line, not a traceback."""
    import asyncio

    import aiohttp
    import discord

    from bot.process.client import bot_for
    from bot.process.logs import setup_logging
    from bot.process.settings import Settings, SettingsError

    try:
        settings = Settings.load(env_file=args.env_file)
    except SettingsError as e:
        print(f"cardtable run: {e}", file=sys.stderr)
        return 2
    if args.db:
        settings = settings.model_copy(update={"db_path": args.db})
    try:
        settings = settings.with_shards(args.shards, args.shard_ids)
        shards = settings.shards()
    except SettingsError as e:
        print(f"cardtable run: {e}", file=sys.stderr)
        return 2
    if shards is not None and len(shards[1]) < shards[0] and settings.database_url is None:
        print("cardtable run: several processes share the shards only with DATABASE_URL (PostgreSQL)", file=sys.stderr)
        return 2
    setup_logging(settings.log_level)

    async def run() -> None:
        async with bot_for(settings) as bot:
            await bot.start(settings.token)

    try:
        asyncio.run(run())
    except discord.LoginFailure:
        print("cardtable run: Discord refused the token (DISCORD_TOKEN is invalid or was reset)", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("cardtable run: the bot asked for an intent not enabled in the Developer Portal", file=sys.stderr)
        return 2
    except (OSError, aiohttp.ClientError) as e:
        print(f"cardtable run: cannot reach Discord ({e.__class__.__name__}: {e})", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


def cmd_migrate_db(args: argparse.Namespace) -> int:
    """Copy the SQLite database into an empty PostgreSQL one; one line says what was copied or why not."""
    import asyncio
    import os

    from asyncpg import PostgresError

    from bot.storage.engines import open_store
    from bot.storage.postgres import PostgresStore
    from bot.storage.store import is_database_url
    from bot.storage.transfer import TransferRefused, copy_database

    source = args.source or os.environ.get("CARDTABLE_DB") or "cardtable.db"
    target = args.target or os.environ.get("DATABASE_URL") or ""
    if not is_database_url(target):
        print(
            "cardtable migrate-db: give --to postgresql://user:password@host/db (or set DATABASE_URL)", file=sys.stderr
        )
        return 2
    if not os.path.isfile(source):
        print(f"cardtable migrate-db: no SQLite database at {source}", file=sys.stderr)
        return 2

    async def copy() -> str:
        old = await open_store(source)
        try:
            new = await open_store(target)
            try:
                assert isinstance(new, PostgresStore)
                copied = await copy_database(old, new)
            finally:
                await new.close()
        finally:
            await old.close()
        counts = ", ".join(f"{c.table} {c.rows}" for c in copied if c.rows)
        return f"copied {sum(c.rows for c in copied)} rows from {source} to PostgreSQL ({counts or 'no rows'})"

    try:
        print(asyncio.run(copy()))
    except TransferRefused as e:
        print(f"cardtable migrate-db: {e}", file=sys.stderr)
        return 1
    except (OSError, PostgresError) as e:
        print(f"cardtable migrate-db: cannot use PostgreSQL ({e.__class__.__name__}: {e})", file=sys.stderr)
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardtable", description="Trick-taking card games for Discord.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay a game record and print the resulting state as JSON")
    p.add_argument("file", nargs="?", help="the record file, or - for standard input")
    p.add_argument("--batch", action="store_true", help="read JSON Lines records from stdin, print one output each")
    p.add_argument("--indent", type=int, default=None, help="indent the JSON output")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play games between computer players")
    p.add_argument("--game", required=True, choices=[game.id for game in registry.games()])
    p.add_argument("--deals", type=int, default=100, help="how many deals to play in all (default 100)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--players-ai",
        default="heuristic",
        help="a level for every seat, or one per seat: random, heuristic (the default), expert or master",
    )
    p.add_argument("--options", default="", help="table options as JSON, e.g. '{\"kitty\": true}'")
    p.add_argument("--option", action="append", default=[], help="one option as key=value (repeatable)")
    p.add_argument(
        "--record",
        help="write every game's record here (- for standard output): one game as JSON, several as JSON Lines",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--arena", help="two levels, e.g. heuristic,random: duplicate matches and win rate (rules/ai)")
    p.add_argument("--matches", type=int, default=20, help="arena: duplicate matches to play (default 20)")
    p.add_argument("--deals-per-match", type=int, default=4, help="arena: deals in each duplicate match (default 4)")
    p.add_argument("--budget", type=float, default=None, help="arena: seconds per decision of expert and master (0.5)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("demo", help="play a game between computer players and write the pictures players would see")
    p.add_argument("--game", required=True, help=f"a game id, or what players type: {registry.choices_text()}")
    p.add_argument("--out", required=True, help="the folder to write the pictures to (made if missing)")
    p.add_argument("--seed", type=int, default=1, help="the same seed plays the same game (default 1)")
    p.add_argument("--players", default="heuristic", help="the computer players' level: heuristic (default) or expert")
    p.add_argument("--deals", type=int, default=None, help="stop after this many deals (default: the whole game)")
    p.add_argument("--option", action="append", default=[], help="one table option as key=value (repeatable)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("run", help="run the Discord bot (DISCORD_TOKEN from the environment or .env)")
    p.add_argument("--db", help="the SQLite database file (default: CARDTABLE_DB or cardtable.db)")
    p.add_argument("--env-file", default=".env", help="read settings from this file too (default .env)")
    p.add_argument("--shards", type=int, help="how many shards the bot has in all (default: CARDTABLE_SHARDS or 1)")
    p.add_argument("--shard-ids", help="the shards this process runs, a-b or a (default: CARDTABLE_SHARD_IDS or all)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("migrate-db", help="copy the SQLite database into an empty PostgreSQL database")
    p.add_argument("--from", dest="source", help="the SQLite file (default: CARDTABLE_DB or cardtable.db)")
    p.add_argument("--to", dest="target", help="the PostgreSQL URL (default: DATABASE_URL)")
    p.set_defaults(func=cmd_migrate_db)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # The reader went away (``cardtable simulate | head``): not an error of ours, and no traceback. Python's
        # documented recipe: point stdout at devnull so the interpreter's final flush does not raise again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
