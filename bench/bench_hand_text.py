"""What working out one live hand costs the bot: ``hand_text`` as the live hands' refresh calls it.

At every move the bot works out every human seat's live hand to compare it with what their message shows
(bot/presentation/live_hands.py); most of the time nothing changed and nothing is sent, so this is paid per seat
per move whatever Discord does.  Four humans play whole deals through the offline Discord (their taps, as in
tests/botkit/harness.py); before each move every seat's hand is worked out once as at a new version of the table
(the views kept per version dropped first) and once more at the same version (the answer to a click, then the
refresh after it), each timed.

    .venv/bin/python bench/bench_hand_text.py                      # the four games, 60 moves each
    .venv/bin/python bench/bench_hand_text.py --games belote --moves 120

Wall time on a shared machine: run the code being compared back to back, and read the load average printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.presentation.live_hands import hand_text  # noqa: E402
from tests.botkit.harness import bot_world, tap_action  # noqa: E402

GAMES = ("two_hundred", "five_hundred", "belote", "da_bai_fen")


def a_legal_action(table) -> dict:
    seat = table.match.to_move
    mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
    action = next((a for a in mine if a["type"] != "pass"), mine[0])  # a bid: a deal that all pass is thrown in
    if "choose" in action:  # a discard is listed as how many cards from which: the first ones
        return {"type": action["type"], "cards": action["from"][: action["choose"]]}
    return {k: v for k, v in action.items() if k != "seat"}


def timed(table, seat: int) -> int:
    started = time.perf_counter_ns()
    hand = hand_text(table, seat)
    _ = hand.shown  # what the refresh compares
    return time.perf_counter_ns() - started


async def one_game(game: str, moves: int) -> tuple[list[int], list[int]]:
    first: list[int] = []
    again: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        async with bot_world(Path(tmp)) as world:
            users = [world.alice, world.bob, world.carol, world.dan]
            async with world.running() as client:
                table = await world.seated_and_started(client, users, game)
                for _move in range(moves):
                    if table.match.to_move is None:
                        break
                    for seat in table.seats:
                        table.extra.pop("views", None)  # as at a new version (bot/presentation/seat_views.py)
                        first.append(timed(table, seat))
                        again.append(timed(table, seat))
                    user = world.fake.world.users[table.seats[table.match.to_move].user_id]
                    deal = f"deal {table.match.deal_index + 1}"
                    hands = [m for m in world.dms(user) if "**Your hand**" in m.content and deal in m.content]
                    await tap_action(world, table, user, hands[-1], a_legal_action(table))
                    await world.settle(client)
    return first, again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    for game in args.games:
        first, again = asyncio.run(one_game(game, args.moves))
        print(
            f"{game}: {len(first)} hands; at a new version mean {statistics.mean(first) / 1000:.0f} µs, median "
            f"{statistics.median(first) / 1000:.0f} µs; again at the same version mean "
            f"{statistics.mean(again) / 1000:.0f} µs"
        )
    print(f"machine load average {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
