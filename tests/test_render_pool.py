"""Drawing in worker processes: the same images as in a thread, a dead worker survived, the setting read."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import signal

import pytest

from bot.presentation import images
from bot.presentation.render_pool import RenderPool
from bot.process.settings import Settings, SettingsError
from rules.players import RandomPlayer
from rules.registry import games, new_match
from tests.fakediscord.server import FAKE_TOKEN


def a_table_state() -> tuple[dict, list[str], list[str]]:
    """A public view in mid-play, the players' names and the hand of the seat to move."""
    game = games()[0].id
    match, rng = new_match(game, {}), random.Random(3)
    match.start_deal(match.random_deal(rng))
    for _ in range(8):
        match.apply(RandomPlayer().choose(match, rng))
    names = [f"P{seat}" for seat in range(match.players)]
    return match.public_view(), names, match.seat_view(match.to_move)["hand"]


def die_in_a_worker() -> str:
    """Kills the worker process it runs in (as the OOM killer or a crash in C would); in a thread it just answers."""
    if multiprocessing.parent_process() is not None:
        os._exit(1)
    return "drawn in a thread"


async def test_images_from_worker_processes_match_images_drawn_in_a_thread(monkeypatch):
    monkeypatch.setattr(images, "enabled", True)  # the bot tests' harness turns drawing off
    state, names, hand = a_table_state()
    game = state["game"]
    drawn = {}
    for mode in ("processes", "threads"):
        images.start(mode)
        try:
            drawn[mode] = (
                await images.table_image(state, names, to_move=0, clock="0:30"),
                await images.hand_image(game, hand, state, None, "P0"),
            )
        finally:
            images.stop()
    assert drawn["processes"][0] and drawn["processes"][1]
    assert drawn["processes"] == drawn["threads"]


async def test_a_dead_worker_costs_one_log_line_and_the_next_image_uses_new_workers(caplog):
    pool = RenderPool("processes", workers=1)
    pool.start()
    try:
        with caplog.at_level(logging.WARNING):
            assert await pool.run(die_in_a_worker) == "drawn in a thread"
        assert pool.restarts == 1
        assert [r.getMessage() for r in caplog.records if r.name == "bot.presentation.render_pool"] == [
            "a render worker died; starting new workers (restart 1); this image is drawn in a thread"
        ]
        assert await pool.run(os.getpid) != os.getpid()  # a fresh worker process answers
    finally:
        pool.close()


async def test_render_off_draws_nothing_and_threads_draw_in_this_process():
    assert await RenderPool("off").run(os.getpid) is None
    assert await RenderPool("threads").run(os.getpid) == os.getpid()


def test_the_render_setting():
    assert Settings.load(
        {"DISCORD_TOKEN": FAKE_TOKEN, "CARDTABLE_RENDER": " Threads "}, env_file=None
    ).render_mode() == ("threads")
    assert Settings.load({"DISCORD_TOKEN": FAKE_TOKEN}, env_file=None).render_mode() in ("processes", "threads")
    with pytest.raises(SettingsError, match="CARDTABLE_RENDER must be processes, threads or off, not 'gpu'"):
        Settings.load({"DISCORD_TOKEN": FAKE_TOKEN, "CARDTABLE_RENDER": "gpu"}, env_file=None)


async def test_a_drawing_that_fails_in_a_worker_is_logged_by_the_bot_and_answered_with_text(monkeypatch, caplog):
    monkeypatch.setattr(images, "enabled", True)
    images.start("processes")
    try:
        with caplog.at_level(logging.WARNING):
            assert await images.render("render_hand", "no game", ["not a card"]) is None
            assert await images.render("render_nothing_by_this_name") is None
    finally:
        images.stop()
    logged = [(r.getMessage(), r.exc_info is not None) for r in caplog.records if r.name == "bot.presentation.images"]
    assert logged == [
        ("render.render_hand failed; sending text instead", True),
        ("render.render_nothing_by_this_name is not available; sending text instead", False),
    ]


async def test_workers_that_keep_dying_leave_the_drawing_to_threads(caplog):
    pool = RenderPool("processes", workers=1)
    pool.start()
    try:
        with caplog.at_level(logging.WARNING):
            for _ in range(4):
                assert await pool.run(die_in_a_worker) == "drawn in a thread"
        assert pool.mode == "threads" and pool.restarts == 3
        assert caplog.records[-1].getMessage() == "render workers died 4 times in 60 s; drawing in threads from now on"
        assert await pool.run(os.getpid) == os.getpid()
    finally:
        pool.close()


async def test_a_worker_killed_while_idle_is_replaced_by_the_next_image(caplog):
    pool = RenderPool("processes", workers=1)
    pool.start()
    try:
        first = await pool.run(os.getpid)
        os.kill(first, signal.SIGKILL)  # it owed no image: the next one sent to it finds it dead
        await asyncio.sleep(0.2)
        with caplog.at_level(logging.WARNING):
            assert await pool.run(os.getpid) == os.getpid()  # that image is drawn in a thread, not lost
            assert await pool.run(os.getpid) not in (os.getpid(), first)  # a fresh worker process answers
        assert pool.restarts == 1
        assert [r.getMessage() for r in caplog.records if r.name == "bot.presentation.render_pool"] == [
            "a render worker died; starting new workers (restart 1); this image is drawn in a thread"
        ]
    finally:
        pool.close()


async def test_the_workers_are_shut_down_from_another_thread_as_the_client_does():
    pool = RenderPool("processes", workers=2)
    pool.start()
    pids = {await pool.run(os.getpid) for _ in range(4)}
    await asyncio.to_thread(pool.close)
    await asyncio.sleep(0)  # the readers are removed on the loop's thread
    assert pids and os.getpid() not in pids
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_answers_larger_than_the_pipe_arrive_whole_and_in_order():
    pool = RenderPool("processes", workers=1)
    pool.start()
    try:
        sizes = [3_000_000, 10, 200_000, 0]  # a pipe holds 64 KB: the big ones are read in many pieces
        answers = await asyncio.gather(*(pool.run(bytes, size) for size in sizes))
        assert [len(answer) for answer in answers] == sizes
    finally:
        pool.close()


async def test_one_tables_pictures_go_to_one_worker_while_it_has_room():
    pool = RenderPool("processes", workers=2)
    pool.start()
    try:
        one = {await pool.run(os.getpid, affinity=7) for _ in range(5)}
        other = {await pool.run(os.getpid, affinity=8) for _ in range(5)}
        assert len(one) == 1 and len(other) == 1 and one != other  # each table keeps its worker
        # Its worker busy with three pictures (one more than PIPELINE: the pool's share of a worker), a fourth of
        # that table goes to the idle worker rather than wait (an urgent one: the last lane is kept for those).
        busy = [asyncio.create_task(pool.run(time_sleep_pid, 0.5, affinity=7)) for _ in range(3)]
        await asyncio.sleep(0.1)
        assert await pool.run(os.getpid, affinity=7, urgent=True) == next(iter(other))
        assert {await task for task in busy} == one
    finally:
        pool.close()


async def test_an_answers_picture_goes_before_the_waiting_table_pictures_and_every_lane_is_given_back():
    pool = RenderPool("processes", workers=1)  # two lanes (PIPELINE)
    pool.start()
    try:
        finished: list[str] = []

        async def draw(name: str, seconds: float, urgent: bool = False) -> None:
            finished.append(await pool.run(named_nap, name, seconds, urgent=urgent))

        tables = [asyncio.create_task(draw(f"table {n}", 0.3 if n == 1 else 0.0)) for n in range(1, 5)]
        await asyncio.sleep(0.1)  # table 1 is in a lane; the other lane is kept for an answer's picture
        assert pool.backlog_seconds(urgent=True) == 0  # behind only the one the worker draws, as with a free lane
        hand = asyncio.create_task(draw("hand", 0.0, urgent=True))
        await asyncio.gather(hand, *tables)
        assert finished == ["table 1", "hand", "table 2", "table 3", "table 4"]
        assert pool.in_flight == 0 and pool.backlog_seconds() == 0 == pool.backlog_seconds(urgent=True)
        assert await pool.run(named_nap, "after", 0.0, urgent=True) == "after"  # every lane was given back
        assert await asyncio.gather(*(pool.run(named_nap, str(n), 0.0) for n in range(5))) == list("01234")
    finally:
        pool.close()


async def test_an_answers_picture_needs_no_lane_when_table_pictures_hold_them_all():
    """A table picture's task runs in the waiting lane of a busy event loop: handed a lane, it may hold it for a
    while before it sends its image.  An answer's picture does not wait for that."""
    pool = RenderPool("processes", workers=1)
    pool.start()
    try:
        pool._free_lanes = 0  # every lane handed to a table picture whose task has not run yet
        assert await asyncio.wait_for(pool.run(named_nap, "hand", 0.0, urgent=True), 5) == "hand"
        assert pool._free_lanes == 0  # it took none, and gave none back
        assert pool.backlog_seconds(urgent=True) == 0.0  # the worker owes nothing: the next one is drawn at once
        pool._free_lanes = 2
        tables = [asyncio.create_task(pool.run(named_nap, f"table {n}", 0.2)) for n in range(3)]
        await asyncio.sleep(0.05)  # one table picture in the worker; the last lane is kept for answers
        assert await pool.run(named_nap, "hand 2", 0.0, urgent=True) == "hand 2"
        assert [await t for t in tables] == ["table 0", "table 1", "table 2"]
        assert pool._free_lanes == 2 and pool.in_flight == 0 and not pool._laneless
    finally:
        pool.close()


def named_nap(name: str, seconds: float) -> str:
    import time

    time.sleep(seconds)
    return name


def time_sleep_pid(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


async def test_a_tables_pictures_share_an_affinity(monkeypatch):
    """Every picture of one table asks the pool for the same worker; another table's title, another number."""
    asked: list[int | None] = []

    async def run(function, *args, urgent=False, affinity=None):
        asked.append(affinity)
        return function(*args)

    monkeypatch.setattr(images, "enabled", True)
    monkeypatch.setattr(images.pool, "run", run)
    images.pictures.clear()
    public, names, _ = a_table_state()
    await images.table_image(public, names, title="Two Hundred · table #1", to_move=0)
    await images.table_image({**public, "deal": 1}, names, title="Two Hundred · table #1", to_move=1)
    await images.table_image(public, names, title="Two Hundred · table #2", to_move=0)
    assert asked[0] == asked[1] != asked[2] and None not in asked


async def test_a_worker_keeps_the_memory_a_picture_frees_where_the_c_library_allows():
    import platform

    from bot.presentation import render_pool

    pool = RenderPool("processes", workers=1)
    pool.start()
    try:  # glibc takes both settings (a refused one, such as a threshold over 32 MB, would say False)
        assert await pool.run(render_pool._steady_heap) is (platform.libc_ver()[0] == "glibc")
    finally:
        pool.close()


async def test_a_picture_asked_for_as_the_bot_closes_costs_one_line_not_a_traceback(monkeypatch, caplog):
    """The bot closes: its workers stop, then its event loop's threads; a table's last edit still running asks for
    its picture, which can no longer be drawn anywhere.  A warning says so, as for the edit itself."""
    monkeypatch.setattr(images, "enabled", True)
    state, names, _ = a_table_state()
    images.start("threads")
    images.stop()
    await asyncio.get_running_loop().shutdown_default_executor()  # what asyncio.run does once the bot is closed
    with caplog.at_level(logging.WARNING):
        assert await images.table_image(state, names, to_move=0, title="closing") is None
    logged = [(r.getMessage(), r.exc_info is not None) for r in caplog.records if r.name == "bot.presentation.images"]
    assert logged == [("render.render_table not drawn: the bot is shutting down", False)]
    images.start("threads")  # as the next bot of this test process starts it (with a loop of its own)
    assert not images.stopped
