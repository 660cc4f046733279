"""A tournament's timers: the check-in's reminder and close, and each round's reminder and deadline.

They are stored (the check-in's closing time in the tournament's settings, a round's deadline on its row), armed
again from the store when the bot starts, and each is acted on once: ``claim_firing`` (migration 0012) lets one
process act, however many armed it.  An extended deadline is a new firing (its due time differs).

At a round's deadline each table still playing gets the organiser's policy (docs/tournaments.md):
- ``computer``: the computer stands in for the seat the table waits on and for every seat whose player has not
  made a move there; they take their seat back like any away player (**I'm back**, or a move of their own).
- ``forfeit``: the side the table waits on (the seat to move; when it waits on nobody, the side behind on points)
  loses the match, and the table closes.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from bot.clocks.clock import Clock, Timers
from bot.i18n import _
from bot.storage import clocks as clock_store
from bot.storage import tournaments as ts
from bot.storage.store import PLAYING
from bot.tables.service import Refusal, Table
from rules.errors import Words

if TYPE_CHECKING:
    from bot.tournaments.service import Settings, TournamentService

log = logging.getLogger(__name__)

COMPUTER, FORFEIT = "computer", "forfeit"
POLICIES = (COMPUTER, FORFEIT)
CHECK_IN_REMIND, CHECK_IN_CLOSE, ROUND_REMIND, ROUND_DEADLINE = "checkin_remind", "checkin_close", "remind", "deadline"
LONGEST_LEAD = 15 * 60  # a reminder comes this long before a deadline, or a quarter of the time given if shorter


def ts_text(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds")


def ts_epoch(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def lead(window_seconds: float) -> float:
    return min(LONGEST_LEAD, window_seconds / 4)


class Deadlines:
    def __init__(self, service: TournamentService, clock: Clock):
        self.service = service
        self.clock = clock
        self.timers = Timers(clock)

    def now(self) -> float:
        return self.clock.now()

    # --- check-in ----------------------------------------------------------------------------------------------

    def check_in_times(self, minutes: int) -> dict[str, Any]:
        closes = self.now() + minutes * 60
        return {"checkin_closes": closes, "checkin_remind": closes - lead(minutes * 60)}

    def arm_check_in(self, t: ts.TournamentRow) -> None:
        closes, remind = t.settings.get("checkin_closes"), t.settings.get("checkin_remind")
        if closes is None or t.status != ts.CHECK_IN:
            return
        self._arm(t.id, CHECK_IN_REMIND, 0, float(remind or closes), self._check_in_remind)
        self._arm(t.id, CHECK_IN_CLOSE, 0, float(closes), self._check_in_close)

    def cancel_check_in(self, tid: int) -> None:
        for kind in (CHECK_IN_REMIND, CHECK_IN_CLOSE):
            self.timers.cancel(("tournament", tid, kind))

    async def _check_in_remind(self, tid: int, round_no: int, due: float) -> None:
        t = await self.service.get(tid)
        if t.status != ts.CHECK_IN:
            return
        missing = [m.user_id for e in t.entrants if e.status == ts.REGISTERED for m in e.members]
        if not missing:
            return
        closes = int(float(t.settings["checkin_closes"]))
        await self.service.output.say(
            t,
            _(
                "{players}: check-in closes <t:{when}:R> (<t:{when}:t>). Press **Check in** on the announcement, "
                "or you are dropped as a no-show.",
                players=" ".join(f"<@{u}>" for u in missing),
                when=closes,
            ),
        )

    async def _check_in_close(self, tid: int, round_no: int, due: float) -> None:
        service = self.service
        async with service.lock(tid):
            t = await service.get(tid)
            if t.status != ts.CHECK_IN:
                return
            try:
                await service.start_locked(t)
            except Refusal as refusal:
                await service.output.say(t, _(refusal.msgid, **refusal.fields))
                return
        await service.output.changed(await service.get(tid))

    # --- rounds ------------------------------------------------------------------------------------------------

    def round_deadline(self, settings: Settings) -> float | None:
        return self.now() + settings.round_minutes * 60 if settings.round_minutes else None

    def arm_round(self, t: ts.TournamentRow, round_no: int) -> None:
        if round_no >= len(t.played):
            return
        r = t.played[round_no]
        if r.deadline is None or r.status == ts.ROUND_FINISHED:
            return
        deadline = ts_epoch(r.deadline)
        minutes = int(t.settings.get("round_minutes") or 0) or 60
        self._arm(t.id, ROUND_REMIND, round_no, deadline - lead(minutes * 60), self._round_remind)
        self._arm(t.id, ROUND_DEADLINE, round_no, deadline, self._round_deadline)

    def cancel_round(self, tid: int, round_no: int) -> None:
        for kind in (ROUND_REMIND, ROUND_DEADLINE):
            self.timers.cancel(("tournament", tid, kind))

    async def extend(self, tid: int, user_id: int, minutes: int, *, manager: bool = False) -> float:
        """The organiser gives more time: to the round under way, or to the check-in."""
        if not 1 <= minutes <= 7 * 24 * 60:
            raise Refusal("Extend by 1 to 10080 minutes.")
        service = self.service
        async with service.lock(tid):
            t = await service.get(tid)
            service.check_organiser(t, user_id, manager)
            if t.status == ts.CHECK_IN and t.settings.get("checkin_closes") is not None:
                closes = float(t.settings["checkin_closes"]) + minutes * 60
                remind = closes - lead(closes - self.now())  # a reminder for the new close, from what is left
                await ts.update_settings(
                    service.store, tid, {"checkin_closes": closes, "checkin_remind": max(remind, self.now())},
                    user_id, "extend", Words("Check-in extended until {when}.", when=ts_text(closes)),
                )  # fmt: skip
                self.arm_check_in(await service.get(tid))
                return closes
            current = t.played[-1] if t.played else None
            if t.status not in (ts.RUNNING, ts.PAUSED) or current is None or current.status == ts.ROUND_FINISHED:
                raise Refusal("{name} has no round under way to extend.", name=t.name)
            if current.deadline is None:
                raise Refusal("Round {number} has no deadline to extend.", number=current.round_no + 1)
            deadline = max(ts_epoch(current.deadline), self.now()) + minutes * 60
            await ts.set_deadline(service.store, tid, current.round_no, ts_text(deadline), user_id)
            self.arm_round(await service.get(tid), current.round_no)
            return deadline

    async def _round_remind(self, tid: int, round_no: int, due: float) -> None:
        t = await self.service.get(tid)
        r = t.played[round_no]
        if r.status == ts.ROUND_FINISHED or r.deadline is None:
            return
        users = sorted({u for m in r.matches if m.status != ts.MATCH_FINISHED for _, u in m.seats.values() if u})
        if not users:
            return
        await self.service.output.say(
            t,
            _(
                "{players}: round {number} ends <t:{when}:R> (<t:{when}:t>). At the deadline, {policy}",
                players=" ".join(f"<@{u}>" for u in users),
                number=round_no + 1,
                when=int(ts_epoch(r.deadline)),
                policy=self.policy_words(str(t.settings.get("policy", COMPUTER))),
            ),
        )

    @staticmethod
    def policy_words(policy: str) -> str:
        if policy == FORFEIT:
            return _("a table still playing is lost by the side it waits on.")
        return _("the computer plays for whoever has not played.")

    async def _round_deadline(self, tid: int, round_no: int, due: float) -> None:
        service = self.service
        t = await service.get(tid)
        r = t.played[round_no]
        if r.status == ts.ROUND_FINISHED:
            return
        policy = str(t.settings.get("policy", COMPUTER))
        late: list[int] = []
        forfeits: list[int] = []
        for m in r.matches:
            if m.status == ts.MATCH_FINISHED or m.table_id is None:
                continue
            table = await service.manager.get(m.table_id)
            if table.status != PLAYING:
                continue
            late.append(m.match_no + 1)
            if policy == COMPUTER and await self.stand_in(table):
                continue
            # Forfeit, or nobody at the table would be left playing: the side the table waits on loses.
            forfeits.append(m.match_no + 1)
            await service.record_forfeit((tid, round_no, m.match_no), table, self.absent_side(table))
        stood_in = [n for n in late if n not in forfeits]
        if stood_in:
            text = _(
                "Round {number}'s deadline: at table(s) {tables} the computer now plays for whoever has not played; "
                "they take their seat back with **I'm back** or a move of their own.",
                number=round_no + 1, tables=", ".join(map(str, stood_in)),
            )  # fmt: skip
            await service.output.say(await service.get(tid), text)
        if forfeits:
            text = _("Round {number}'s deadline: table(s) {tables} forfeited by the side they waited on.",
                     number=round_no + 1, tables=", ".join(map(str, forfeits)))  # fmt: skip
            await service.output.say(await service.get(tid), text)

    @staticmethod
    def absent_side(table: Table) -> int:
        match = table.match
        if match is not None and match.to_move is not None:
            return 0 if match.to_move % 2 == 0 else 1
        scores = match.scores() if match is not None else [0, 0]
        return 0 if scores[0] < scores[1] else 1

    async def stand_in(self, table: Table) -> bool:
        """The computer takes the seat the table waits on and every seat whose player has made no move there.
        False (and nothing changed) when that would leave no human playing: a table of stand-ins alone waits, so
        the forfeit rule decides it instead."""
        moved: set[int] = set()
        for deal in table.record.deals if table.record is not None else []:
            moved |= {a["seat"] for a in deal.actions if isinstance(a.get("seat"), int)}
        async with table.lock:
            match = table.match
            waiting = match.to_move if match is not None else None
            humans = {s for s, r in table.seats.items() if r.user_id is not None and not r.computer}
            absent = {s for s in humans if s == waiting or s not in moved}
            if not humans - absent - table.away:
                return False
            for seat in sorted(absent - table.away):
                table.away.add(seat)
                await clock_store.save_idle_seat(
                    self.service.store, clock_store.IdleSeat(table.id, seat, True, 0, False)
                )
            self.service.manager.schedule_computers(table)
            if table.computer_task is not None:
                self.clock.track(table.computer_task)
        return True

    # --- the timers themselves ---------------------------------------------------------------------------------

    def _arm(self, tid: int, kind: str, round_no: int, when: float, act: Any) -> None:
        async def fire() -> None:
            if not await ts.claim_firing(self.service.store, tid, kind, round_no, when):
                return  # acted on already (before a restart, or by another process)
            try:
                await act(tid, round_no, when)
            except Exception:
                log.exception("tournament %d: its %s timer failed", tid, kind)

        self.timers.at(("tournament", tid, kind), when, fire)

    async def close(self) -> None:
        await self.timers.close()
