"""The event loop's two lanes (bot/process/lanes.py): players' answers before work that may wait, which still runs."""

from __future__ import annotations

import asyncio

from bot.process.lanes import install
from bot.tables.urgency import AHEAD, LATER, ahead_if, later_context, start_later, start_now


async def test_an_answer_does_not_queue_behind_a_burst_of_work_that_may_wait():
    install(asyncio.get_running_loop(), slice_seconds=0.0)  # one waiting callback per round of the loop
    steps: list[str] = []

    async def work(n: int) -> None:  # a computer's move, a table edit: a few steps each
        for step in range(3):
            steps.append(f"work {n}.{step}")
            await asyncio.sleep(0)

    async def answer() -> None:  # a tap's answer: as many steps
        for step in range(3):
            steps.append(f"answer {step}")
            await asyncio.sleep(0)

    waiting = [start_later(work(n)) for n in range(10)]
    await asyncio.create_task(answer())
    # In one lane the answer's last step would come after some twenty steps of the work queued before it.
    assert steps.index("answer 2") <= 3 + 2, steps
    await asyncio.gather(*waiting)
    assert len(steps) == 33  # the waiting work ran to its end: slowed, not starved


async def test_what_waiting_work_starts_may_wait_too_unless_a_player_waits_for_it_and_a_cancelled_callback_never_runs():
    loop = asyncio.get_running_loop()
    install(loop)

    async def inner() -> bool:
        return LATER.get()

    async def outer() -> bool:
        return await asyncio.create_task(inner())

    async def hand_for_the_player() -> bool:  # a computer's move gave a player the turn: their hand may not wait
        return await start_now(inner())

    assert await start_later(outer()) is True
    assert await asyncio.create_task(inner()) is False
    assert await start_later(hand_for_the_player()) is False
    ran: list[int] = []
    handle = loop.call_soon(ran.append, 1, context=later_context())
    loop.call_soon(ran.append, 2, context=later_context())
    handle.cancel()
    await asyncio.sleep(0.01)
    assert ran == [2]


async def test_installing_twice_keeps_one_waiting_lane():
    loop = asyncio.get_running_loop()
    assert install(loop) is install(loop)


async def test_waiting_work_that_waited_long_enough_goes_ahead_of_the_rest_which_still_runs():
    install(asyncio.get_running_loop(), slice_seconds=0.0)  # one waiting callback per round, and one of the rest
    steps: list[str] = []

    async def work(n: int) -> None:  # computers' moves
        for step in range(3):
            steps.append(f"work {n}.{step}")
            await asyncio.sleep(0)

    async def late_edit() -> None:  # a table message seconds behind the game
        with ahead_if(True):
            for step in range(3):
                steps.append(f"edit {step}")
                await asyncio.sleep(0)
        steps.append("edit done")

    others = [start_later(work(n)) for n in range(5)]
    edit = start_later(late_edit())
    await asyncio.gather(edit, *others)
    # In one line the edit's every step would wait for a step of each of the five others.
    assert steps.index("edit 2") < steps.index("work 2.1"), steps
    assert len(steps) == 15 + 4  # the rest ran to its end too
    assert AHEAD.get() is False
