"""Under load: when the bot acknowledges first, which images wait, and what an expired interaction costs."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from datetime import UTC, datetime, timedelta

from bot.presentation import images, overload
from bot.presentation.render_pool import RenderPool
from bot.tables.urgency import ahead_if
from tests.botkit.harness import bot_world

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def test_the_answer_may_take_what_is_left_of_discords_three_seconds_after_a_margin():
    assert overload.defer_after(NOW, NOW) == overload.PATIENCE
    assert overload.defer_after(NOW - timedelta(seconds=1.5), NOW) == 0.5  # delivered late: less time left
    assert overload.defer_after(NOW - timedelta(seconds=5), NOW) == 0.0
    assert overload.defer_after(NOW + timedelta(seconds=30), NOW) == overload.PATIENCE  # a clock ahead of ours


async def test_acknowledging_at_once_when_the_answers_pictures_are_backed_up_not_the_tables(monkeypatch):
    pool = RenderPool("threads", workers=1)
    pool.seconds_per_image = 0.1
    monkeypatch.setattr(images, "pool", pool)
    monkeypatch.setattr(images, "enabled", True)
    release = threading.Event()
    first = asyncio.create_task(pool.run(release.wait, 5))
    await asyncio.sleep(0.05)  # it holds the only lane
    tables = [asyncio.create_task(pool.run(release.wait, 5)) for _ in range(40)]
    await asyncio.sleep(0)
    # Forty table pictures wait, but an answer's picture would go before them: one call answers.
    assert pool.backlog_seconds() > overload.BACKED_UP
    assert overload.defer_after(NOW, NOW) == overload.PATIENCE
    hands = [asyncio.create_task(pool.run(release.wait, 5, urgent=True)) for _ in range(3)]
    await asyncio.sleep(0)
    # Three answers' pictures ahead of the next one, 0.1 s each: acknowledge at once.
    assert overload.defer_after(NOW, NOW) == 0.0
    release.set()
    await asyncio.gather(first, *tables, *hands)
    assert pool.backlog_seconds(urgent=True) == 0.0
    assert overload.defer_after(NOW, NOW) == overload.PATIENCE


async def test_an_image_that_answers_a_player_goes_before_the_waiting_table_images():
    pool = RenderPool("threads", workers=1)
    finished: list[str] = []

    def draw(name: str, seconds: float) -> None:
        time.sleep(seconds)
        finished.append(name)

    first = asyncio.create_task(pool.run(draw, "table 1", 0.2))
    await asyncio.sleep(0.05)  # table 1 holds the only lane
    queued = [asyncio.create_task(pool.run(draw, "table 2", 0)), asyncio.create_task(pool.run(draw, "table 3", 0))]
    await asyncio.sleep(0)
    hand = asyncio.create_task(pool.run(draw, "hand", 0, urgent=True))
    await asyncio.gather(first, hand, *queued)
    assert finished == ["table 1", "hand", "table 2", "table 3"]
    assert pool.in_flight == 0 and pool.backlog_seconds() == 0


async def test_an_interaction_discord_already_expired_costs_one_log_line(tmp_path, caplog):
    async with bot_world(tmp_path) as world, world.running():
        world.fake.interaction_deadline = 0.0  # every answer arrives too late
        with caplog.at_level(logging.INFO):
            await world.fake.slash(world.alice, world.channel, "table", {"game": "500"}, subcommand="new")
            for _ in range(200):
                if world.fake.expired_interactions:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)  # time for anything else the bot would log or send
    assert world.fake.expired_interactions == 1
    ours = [r for r in caplog.records if r.name.startswith(("bot", "cogs")) and r.levelno >= logging.WARNING]
    assert len(ours) == 1 and ours[0].exc_info is None, [r.getMessage() for r in ours]
    assert ours[0].getMessage().startswith("interaction expired before it was answered (table new, ")


async def test_a_late_table_edits_picture_goes_after_the_answers_but_before_the_other_table_pictures():
    pool = RenderPool("threads", workers=1)
    finished: list[str] = []

    def draw(name: str, seconds: float) -> None:
        time.sleep(seconds)
        finished.append(name)

    async def late(name: str) -> None:  # a table message seconds behind the game (bot/presentation/presenter.py)
        with ahead_if(True):
            await pool.run(draw, name, 0)

    first = asyncio.create_task(pool.run(draw, "table 1", 0.2))
    await asyncio.sleep(0.05)  # table 1 holds the only lane
    queued = [asyncio.create_task(pool.run(draw, f"table {n}", 0)) for n in (2, 3)]
    await asyncio.sleep(0)
    behind = asyncio.create_task(late("late table"))
    await asyncio.sleep(0)
    hand = asyncio.create_task(pool.run(draw, "hand", 0, urgent=True))
    await asyncio.gather(first, hand, behind, *queued)
    assert finished == ["table 1", "hand", "late table", "table 2", "table 3"]
