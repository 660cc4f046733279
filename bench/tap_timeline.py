"""Where a tap's time goes, in the bot's process (``bench_bot.py --timeline``).

Each interaction answered in the measuring window gets a timeline of moments (``time.monotonic()``, which is one
clock for every process of the machine, so the driver's "sent" and "received by the fake" line up with them):

    parsed     discord.py parsed the INTERACTION_CREATE (the gateway read is done)
    handler    the Tables cog's component handler started (after the dynamic item's tasks)
    act0/lock/act1   TableManager.act called / the table's lock held / act returned (the move saved, its events
               dispatched)
    img0/img1  the answer's hand picture asked for / received
    defer0/defer1  the acknowledgement sent / its HTTP call returned
    answer0    the answer's HTTP call started (update, edit of the deferred response, or a new message)

Nothing here changes what the bot does: the bench wraps a few of its functions (in the bot's process only).  The
driver joins these with its own times and prints the means of each segment for all taps and for the slowest.
"""

from __future__ import annotations

import asyncio
import bisect
import contextvars
import functools
import time
from typing import Any

import discord

_tap: contextvars.ContextVar[int | None] = contextvars.ContextVar("bench_tap", default=None)


class TapTimeline:
    def __init__(self) -> None:
        self.marks: dict[int, dict[str, float]] = {}
        self.kind: dict[int, str] = {}  # "move" (performs an action) or "step" (a selection shown again)
        self.counting = False
        self.samples: list[tuple[float, float, int]] = []  # (when, how late a 20-ms timer fired, handles ready)
        self._sampler: asyncio.Task | None = None
        self.pool: Any = None

    async def sample(self) -> None:
        """The event loop's lag and its queue of ready callbacks, every 20 ms while counting."""
        loop = asyncio.get_running_loop()
        while True:
            start = time.monotonic()
            await asyncio.sleep(0.02)
            now = time.monotonic()
            if self.counting:
                pool = self.pool
                waiting = getattr(pool, "_waiting", [])
                urgent = sum(1 for w in waiting if w[0] == 0)
                lanes = getattr(loop, "_cardtable_lanes", None)
                later = lanes.waiting if lanes is not None else ()
                head = later[0] if later else None
                age = time.perf_counter() - head[0] if isinstance(head, tuple) else 0.0
                self.samples.append(
                    (now, now - start - 0.02, len(loop._ready), pool.in_flight, urgent, len(later), age)  # type: ignore
                )

    def mark(self, interaction_id: int | None, name: str) -> None:
        if interaction_id is None or not self.counting:
            return
        marks = self.marks.setdefault(interaction_id, {})
        if name == "lane" and ("img0" not in marks or "img1" in marks):
            return  # another picture asked in the tap's context (a live hand's refresh it queued), not its answer's
        marks.setdefault(name, time.monotonic())

    def take(self) -> dict[str, Any]:
        out = {
            "marks": {str(k): v for k, v in self.marks.items()},
            "kind": {str(k): v for k, v in self.kind.items()},
            "samples": self.samples,
        }
        self.marks, self.kind, self.samples = {}, {}, []
        return out

    def install(self, client: discord.Client) -> None:
        import cogs.acting

        timeline = self
        self._sampler = asyncio.get_running_loop().create_task(self.sample())
        state = client._connection
        parse = state.parsers["INTERACTION_CREATE"]

        def parsed(data: dict) -> None:
            timeline.mark(int(data["id"]), "parsed")
            parse(data)

        state.parsers["INTERACTION_CREATE"] = parsed

        listeners = client.extra_events.get("on_table_component", [])

        def handler(listener):
            @functools.wraps(listener)
            async def wrapped(interaction, cid, values):
                _tap.set(interaction.id)
                timeline.mark(interaction.id, "handler")
                timeline.kind.setdefault(interaction.id, cid.verb)
                return await listener(interaction, cid, values)

            return wrapped

        listeners[:] = [handler(listener) for listener in listeners]

        manager = client.manager
        act, act_once = manager.act, manager._act_once

        async def timed_act(*args, **kwargs):
            tap = _tap.get()
            timeline.mark(tap, "act0")
            if tap is not None and timeline.counting:
                timeline.kind[tap] = "move"
            try:
                return await act(*args, **kwargs)
            finally:
                timeline.mark(tap, "act1")

        async def timed_act_once(*args, **kwargs):
            timeline.mark(_tap.get(), "lock")
            return await act_once(*args, **kwargs)

        manager.act, manager._act_once = timed_act, timed_act_once

        hand_image = cogs.acting.hand_image

        async def timed_image(*args, **kwargs):
            tap = _tap.get()
            timeline.mark(tap, "img0")
            try:
                return await hand_image(*args, **kwargs)
            finally:
                timeline.mark(tap, "img1")

        cogs.acting.hand_image = timed_image

        from bot.presentation import images

        pool = images.pool
        take_lane = pool._take_lane

        async def timed_lane(urgent: bool) -> None:
            await take_lane(urgent)
            timeline.mark(_tap.get(), "lane")

        pool._take_lane = timed_lane  # type: ignore[method-assign]
        self.pool = pool
        from bot.presentation import render_pool

        job_class = getattr(render_pool, "_Job", None)
        if job_class is not None:  # an answer's picture is sent by a callback, out of its tap's context

            class TappedJob(job_class):  # type: ignore[misc, valid-type]
                def __init__(self, *args: Any, **kwargs: Any) -> None:
                    super().__init__(*args, **kwargs)
                    self.tap = _tap.get()

            render_pool._Job = TappedJob  # type: ignore[attr-defined]
            send = pool._send

            def timed_send(job, **kwargs: Any) -> bool:
                timeline.mark(getattr(job, "tap", None), "lane")
                return send(job, **kwargs)

            pool._send = timed_send  # type: ignore[method-assign]

        response = discord.InteractionResponse
        defer = response.defer

        async def timed_defer(self, *args, **kwargs):
            tap = self._parent.id
            timeline.mark(tap, "defer0")
            try:
                return await defer(self, *args, **kwargs)
            finally:
                timeline.mark(tap, "defer1")

        response.defer = timed_defer  # type: ignore[method-assign]

        def answering(method):
            @functools.wraps(method)
            async def timed(self, *args, **kwargs):
                parent = getattr(self, "_parent", self)
                timeline.mark(parent.id, "answer0")
                return await method(self, *args, **kwargs)

            return timed

        response.edit_message = answering(response.edit_message)  # type: ignore[method-assign]
        response.send_message = answering(response.send_message)  # type: ignore[method-assign]
        discord.Interaction.edit_original_response = answering(  # type: ignore[method-assign]
            discord.Interaction.edit_original_response
        )


ORDER = ("sent", "parsed", "handler", "act0", "lock", "act1", "img0", "lane", "img1", "answer0", "replied")
NAMES = {
    ("sent", "parsed"): "gateway (sent → parsed)",
    ("parsed", "handler"): "to the handler (dynamic item, dispatch)",
    ("handler", "act0"): "handler → act",
    ("act0", "lock"): "the table's lock",
    ("lock", "act1"): "apply + save + dispatch",
    ("act1", "img0"): "act → picture asked (hand text)",
    ("img0", "img1"): "the hand picture (kept, or drawn by another's ask)",
    ("img0", "lane"): "the picture: waiting for a render lane",
    ("lane", "img1"): "the picture: drawn and sent back",
    ("img1", "answer0"): "picture → answer sent",
    ("act1", "answer0"): "act → answer sent (no picture)",
    ("handler", "img0"): "handler → picture asked (a step)",
    ("handler", "answer0"): "handler → answer sent (a step, no picture)",
    ("answer0", "replied"): "answer's HTTP (→ the fake)",
}


def breakdown(marks: dict[str, dict[str, float]], kinds: dict[str, str], sent: dict[int, float],
              replied: dict[int, float], deferred: set[int], samples: list) -> list[str]:  # fmt: skip
    """Lines for the report: each tap's moments in order, and the gaps between them averaged over all taps and over
    the slowest 5 % and 1 % (a gap's share: its sum over the taps divided by their number, so the shares add up to
    the mean latency)."""
    rows = []
    for key, tap_marks in marks.items():
        tap = int(key)
        if tap not in sent or tap not in replied:
            continue
        moments = {**tap_marks, "sent": sent[tap], "replied": replied[tap]}
        rows.append((replied[tap] - sent[tap], tap, moments))
    if not rows:
        return ["timeline: no taps"]
    rows.sort()
    samples.sort()
    when = [s[0] for s in samples]
    lines = []
    if samples:
        lags = sorted(s[1] for s in samples)
        ready = sorted(s[2] for s in samples)
        flight = sorted(s[3] for s in samples)
        urgent = sorted(s[4] for s in samples)
        lines.append(f"event loop, every 20 ms: lag p50 {lags[len(lags) // 2] * 1000:.1f} ms, p90 "
                     f"{lags[int(len(lags) * 0.9)] * 1000:.1f}, p99 {lags[int(len(lags) * 0.99)] * 1000:.1f} ms; "
                     f"callbacks ready p50 {ready[len(ready) // 2]}, p90 {ready[int(len(ready) * 0.9)]}, "
                     f"max {ready[-1]}; images in the render pool p50 {flight[len(flight) // 2]}, max {flight[-1]}; "
                     f"urgent ones waiting p50 {urgent[len(urgent) // 2]}, max {urgent[-1]}")  # fmt: skip
        if len(samples[0]) > 5:
            depth = sorted(s[5] for s in samples)
            ages = sorted(s[6] for s in samples)
            lines.append(f"the waiting lane (work that may wait): callbacks p50 {depth[len(depth) // 2]}, p90 "
                         f"{depth[int(len(depth) * 0.9)]}; its oldest had waited p50 {ages[len(ages) // 2] * 1000:.0f} "
                         f"ms, p90 {ages[int(len(ages) * 0.9)] * 1000:.0f} ms")  # fmt: skip

    def lag_during(start: float, end: float) -> list[float]:
        return [s[1] for s in samples[bisect.bisect_left(when, start) : bisect.bisect_right(when, end)]]

    def describe(title: str, chosen: list) -> None:
        n = len(chosen)
        kinds_seen: dict[str, int] = {}
        gaps: dict[tuple[str, str], list[float]] = {}
        for _, tap, moments in chosen:
            kind = kinds.get(str(tap), "?")
            kinds_seen[kind] = kinds_seen.get(kind, 0) + 1
            present = [name for name in ORDER if name in moments]
            for a, b in zip(present, present[1:], strict=False):
                gaps.setdefault((a, b), []).append(moments[b] - moments[a])
        during = [lag for _, _, m in chosen for lag in lag_during(m["sent"], m["replied"])]
        if during:
            mean = sum(during) / len(during) * 1000
            lines.append(f"     the loop's lag while they were answered: mean {mean:.1f} ms, max "
                         f"{max(during) * 1000:.1f} ms over {len(during)} samples")  # fmt: skip
        share_deferred = sum(tap in deferred for _, tap, _ in chosen) / n
        with_image = sum("img0" in m for _, _, m in chosen) / n
        lines.append(f"{title}: {n} taps, mean {sum(r[0] for r in chosen) / n * 1000:.0f} ms, from "
                     f"{chosen[0][0] * 1000:.0f} ms; deferred {share_deferred:.0%}; with a picture "
                     f"{with_image:.0%}; kinds {kinds_seen}")  # fmt: skip
        for pair, spans in sorted(gaps.items(), key=lambda kv: ORDER.index(kv[0][0]) * 20 + ORDER.index(kv[0][1])):
            label = NAMES.get(pair, f"{pair[0]} → {pair[1]}")
            share, mean = sum(spans) / n * 1000, sum(spans) / len(spans) * 1000
            lines.append(f"     {label:44s} share {share:7.1f} ms   mean {mean:7.1f} ms in {len(spans)}")
        spans = [m["defer1"] - m["defer0"] for _, _, m in chosen if "defer0" in m and "defer1" in m]
        if spans:
            waited = [m["defer0"] - m["handler"] for _, _, m in chosen if "defer0" in m and "handler" in m]
            lines.append(f"     acknowledgements: {len(spans)}, sent {sum(waited) / max(len(waited), 1) * 1000:.0f} ms "
                         f"after the handler started, their HTTP {sum(spans) / len(spans) * 1000:.0f} ms")  # fmt: skip

    describe("timeline, all taps", rows)
    describe("timeline, slowest 5 %", rows[-max(1, len(rows) // 20) :])
    describe("timeline, slowest 1 %", rows[-max(1, len(rows) // 100) :])
    return lines
