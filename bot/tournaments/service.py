"""Running a tournament over the table service: registration, each round paired and its tables opened and started,
results taken from the tables as they end, standings, and the organiser's tools.  Knows nothing of Discord: what
players should see goes through ``TournamentOutput`` (implemented by cogs/tournaments.py).

Everything is saved (bot/storage/tournaments.py) before it is announced; after a restart ``resume_all`` finds the
running tournaments again, and a table that ends while the bot was down is picked up by ``check_round``.
"""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import io
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.clocks.clock import Clock
from bot.i18n import N_, _
from bot.storage import tournaments as ts
from bot.storage.store import CANCELLED, FINISHED, PLAYING, Store
from bot.tables.guild_settings import SettingsRefusal, parse_clock
from bot.tables.service import Refusal, Table, TableManager
from bot.tournaments import double, formats
from bot.tournaments.deadlines import COMPUTER, POLICIES, Deadlines, ts_text
from bot.tournaments.pairing import melee_round, swiss_round
from bot.tournaments.plan import Pairing, RoundPlan, seed_commitment
from bot.tournaments.progress import current_standings, history
from bot.tournaments.standings import CUMULATIVE, LEVELS, MATCH_POINTS, MATCHPOINTS, Line
from rules.boards import Board
from rules.dealing import DealCards
from rules.errors import Words
from rules.game import Match
from rules.registry import game_type, match_class

log = logging.getLogger(__name__)

MELEE, SWISS = "melee", "swiss"
ROUND_ROBIN, SINGLE, DOUBLE = formats.ROUND_ROBIN, formats.SINGLE, formats.DOUBLE
FORMATS = (MELEE, SWISS, ROUND_ROBIN, SINGLE, DOUBLE)
TEAM_ONLY = (ROUND_ROBIN, SINGLE, DOUBLE)  # entrants meet head to head: each is a fixed team
KNOCKOUTS = (SINGLE, DOUBLE)
INDIVIDUAL, TEAM = "individual", "team"
SEATS = 4
TEAM_SIZE = 2


class TournamentOutput(Protocol):
    async def open_table_channel(self, t: ts.TournamentRow, round_no: int, match_no: int, users: list[int]) -> int:
        """A private place for one table (a thread the players are added to); its channel id."""
        ...

    async def round_started(self, t: ts.TournamentRow, round_no: int, lines: list[str], commitment: str) -> None: ...

    async def changed(self, t: ts.TournamentRow) -> None:
        """The announcement and the standings message need editing."""
        ...

    async def say(self, t: ts.TournamentRow, text: str) -> None: ...

    async def table_language(self, t: ts.TournamentRow) -> str:
        """The language of the tournament's tables: the server's, as for a table opened with /table new."""
        ...

    async def table_opened(self, t: ts.TournamentRow, table: Table) -> None:
        """A table is seated and about to start: its turn clock is set (players who time out get the clocks'
        ordinary stand-ins)."""
        ...


@dataclass
class Settings:
    deals: int  # deals per round (0: each table plays to the game's target)
    cap: int  # 0: no cap
    duplicate: bool = False  # every table of a round plays the same deals (boards), scored by matchpoints
    entry: str = INDIVIDUAL  # or TEAM: fixed teams registered together
    best_of: int = 0  # a knock-out match is won by the majority of this many deals (0: not a best-of)
    groups: int = 1  # a round robin's groups (their winners then play a knock-out)
    round_minutes: int = 0  # each round's deadline, minutes after it starts (0: none)
    policy: str = COMPUTER  # at the deadline: the computer plays for the absent, or they forfeit

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Settings:
        return cls(
            int(data.get("deals", 0)), int(data.get("cap", 0)), bool(data.get("duplicate", False)),
            str(data.get("entry", INDIVIDUAL)), int(data.get("best_of", 0)), int(data.get("groups", 1)),
            int(data.get("round_minutes", 0)), str(data.get("policy", COMPUTER)),
        )  # fmt: skip

    @property
    def deal_limit(self) -> int:
        """Deals a table plays at most: a best-of goes on past N while deals are level, up to 3N."""
        return 3 * self.best_of if self.best_of else self.deals


@dataclass
class RoundBoards:
    """A tournament table's deals (``FixedDeals`` for the table service): how many, and in a duplicate the round's
    boards in order."""

    first: int  # the round's first board number
    count: int  # 0: the game to its end
    seed: int
    duplicate: bool = True

    @property
    def first_dealer(self) -> int | None:
        return Board(self.first, self.seed, SEATS).dealer if self.duplicate else None

    @property
    def deals(self) -> int | None:
        return self.count or None

    def cards(self, match: Match, deal_index: int) -> DealCards | None:
        if not self.duplicate or deal_index >= self.count:
            return None
        return Board(self.first + deal_index, self.seed, SEATS).cards(match)


def ranking_method(t: ts.TournamentRow) -> str:
    if Settings.of(t.settings).duplicate:
        return MATCHPOINTS
    if t.format in (SWISS, *TEAM_ONLY):
        return MATCH_POINTS
    return LEVELS if game_type(t.game).scores_are_levels else CUMULATIVE


class TournamentService:
    def __init__(self, store: Store, manager: TableManager, output: TournamentOutput, rng: random.Random, clock: Clock):
        self.store = store
        self.manager = manager
        self.output = output
        self.rng = rng
        self.locks: dict[int, asyncio.Lock] = {}
        self.by_table: dict[int, tuple[int, int, int]] = {}  # table id -> (tournament, round, match)
        self.deadlines = Deadlines(self, clock)
        manager.record_guards.append(self.board_record_withheld)
        manager.watch_guards.append(self.board_watch_withheld)

    def lock(self, tid: int) -> asyncio.Lock:
        return self.locks.setdefault(tid, asyncio.Lock())

    async def get(self, tid: int) -> ts.TournamentRow:
        t = await ts.load_tournament(self.store, tid)
        if t is None:
            raise Refusal("There is no tournament #{tid}.", tid=tid)
        if t.format == formats.DAYLONG:  # played board by board, not in rounds: its own commands
            raise Refusal("#{tid} is a daylong: see it with /daylong standings.", tid=tid)
        return t

    # --- set-up and registration ---------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        preset: str | None,
        options: dict[str, Any],
        format: str,
        rounds: int,
        deals: int,
        cap: int,
        duplicate: bool = False,
        clock: str = "live",
        entry: str = INDIVIDUAL,
        best_of: int = 3,
        groups: int = 1,
        round_minutes: int = 0,
        policy: str = COMPUTER,
    ) -> ts.TournamentRow:
        if format not in FORMATS:
            raise Refusal("The format must be one of: {formats}.", formats=", ".join(FORMATS))
        if SEATS not in game_type(game).seat_counts:
            raise Refusal("Tournaments are for games of four at a table.")
        if any(o.name == "players" for o in match_class(game).OPTIONS):
            options = {**options, "players": SEATS}
        if format in TEAM_ONLY:
            entry = TEAM
        if entry not in (INDIVIDUAL, TEAM) or (format == MELEE and entry == TEAM):
            raise Refusal("Entry is individual or team; a mêlée is always individual (partners are redrawn).")
        if format in (MELEE, SWISS) and not 1 <= rounds <= 20:
            raise Refusal("A tournament has 1 to 20 rounds.")
        if format in KNOCKOUTS or (format == ROUND_ROBIN and groups > 1):
            if best_of < 1 or best_of > 9 or best_of % 2 == 0:
                raise Refusal("A knock-out match is best of an odd number of deals, 1 to 9.")
        else:
            best_of = 0
        if format in KNOCKOUTS and duplicate:
            raise Refusal("A knock-out is not played in duplicate: choose Swiss, mêlée or round robin for that.")
        if not 1 <= groups <= 8:
            raise Refusal("A round robin has 1 to 8 groups.")
        if not 0 <= round_minutes <= 14 * 24 * 60 or policy not in POLICIES:
            raise Refusal(
                "A round's deadline is 0 (none) to 20160 minutes, and at it the computer stands in or the absent "
                "side forfeits."
            )
        if not 0 <= deals <= 30 or cap < 0:
            raise Refusal("Deals per round are 0 (play to the target) to 30, and the cap is a number of players.")
        try:
            clock = parse_clock(clock).spec()
        except SettingsRefusal as e:
            raise Refusal(str(e)) from None
        if duplicate and deals < 1:
            raise Refusal("A duplicate tournament plays a number of boards each round: give deals (1 or more).")
        if duplicate and game_type(game).has_trump_rank and deals != 1:
            # Only a game's first deal can be fixed for every table: the next one's trump rank depends on the play.
            raise Refusal("In {game} a board is one deal: set deals to 1 for a duplicate.", game=game_type(game).name())
        teams = game_type(game).teams(SEATS, options)
        if len(teams) != 2 or any(len(team) != 2 for team in teams):
            raise Refusal("Tournaments are for partnership games: two sides of two at each table.")
        tid = await ts.create_tournament(
            self.store, guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id, name=name, game=game,
            preset=preset, options=options, format=format, rounds=rounds, seed=self.rng.getrandbits(62),
            settings={"deals": deals, "cap": cap, "duplicate": duplicate, "clock": clock, "entry": entry,
                      "best_of": best_of, "groups": groups, "round_minutes": round_minutes, "policy": policy},
        )  # fmt: skip
        return await self.get(tid)

    @staticmethod
    def entrant_of(t: ts.TournamentRow, user_id: int) -> ts.EntrantRow | None:
        for e in t.entrants:
            if any(m.user_id == user_id for m in e.members) and e.status not in (ts.WITHDRAWN,):
                return e
        return None

    async def register(self, tid: int, user_id: int, name: str) -> str:
        async with self.lock(tid):
            t = await self.get(tid)
            if Settings.of(t.settings).entry == TEAM:
                raise Refusal("{name} is for teams: press **Register team** and name your partner.", name=t.name)
            return await self._enter(t, [ts.Member(user_id, name)], user_id)

    async def register_team(self, tid: int, captain: ts.Member, partners: list[ts.Member], confirmed_by: int) -> str:
        """A fixed team enters: its captain named the partners, and the last of them confirmed (``confirmed_by``)."""
        async with self.lock(tid):
            t = await self.get(tid)
            if Settings.of(t.settings).entry != TEAM:
                raise Refusal("{name} is for individual players: press **Register**.", name=t.name)
            members = [captain, *partners]
            if len(members) != TEAM_SIZE or len({m.user_id for m in members}) != TEAM_SIZE:
                raise Refusal("A team is two different players: you and one partner.")
            return await self._enter(t, members, confirmed_by)

    async def check_team(self, tid: int, members: list[ts.Member]) -> ts.TournamentRow:
        """Whether these players could enter as a team now (before the partner is asked to confirm)."""
        t = await self.get(tid)
        if Settings.of(t.settings).entry != TEAM:
            raise Refusal("{name} is for individual players: press **Register**.", name=t.name)
        if len({m.user_id for m in members}) != TEAM_SIZE:
            raise Refusal("A team is two different players: you and one partner.")
        self._refuse_entered(t, members)
        return t

    def _refuse_entered(self, t: ts.TournamentRow, members: list[ts.Member]) -> None:
        if t.status != ts.REGISTRATION:
            raise Refusal("Registration for {name} is closed.", name=t.name)
        for m in members:
            if self.entrant_of(t, m.user_id) is not None:
                raise Refusal("{player} is already entered in {name}.", player=m.name, name=t.name)

    async def _enter(self, t: ts.TournamentRow, members: list[ts.Member], actor: int) -> str:
        if len(members) == 1 and self.entrant_of(t, members[0].user_id) is not None:
            raise Refusal("You are already registered for {name}.", name=t.name)
        self._refuse_entered(t, members)
        cap = Settings.of(t.settings).cap
        taken = sum(1 for e in t.entrants if e.status == ts.REGISTERED)
        status = ts.WAITLIST if cap and taken >= cap else ts.REGISTERED
        name = " & ".join(m.name for m in members)
        await ts.add_entrant(self.store, t.id, name, members, status, actor)
        t = await self.get(t.id)
        await self.output.changed(t)
        return status

    async def withdraw(self, tid: int, user_id: int) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            entrant = self.entrant_of(t, user_id)
            if entrant is None:
                raise Refusal("You are not registered for {name}.", name=t.name)
            if t.status not in (ts.REGISTRATION, ts.CHECK_IN, ts.RUNNING, ts.PAUSED):
                raise Refusal("{name} is over.", name=t.name)
            await ts.set_entrant_status(
                self.store, tid, entrant.id, ts.WITHDRAWN, user_id, Words("{name} withdrew.", name=entrant.name)
            )
            waiting = [e for e in t.entrants if e.status == ts.WAITLIST]
            if (
                entrant.status in (ts.REGISTERED, ts.CHECKED_IN)
                and waiting
                and t.status in (ts.REGISTRATION, ts.CHECK_IN)
            ):
                first = waiting[0]
                await ts.set_entrant_status(
                    self.store,
                    tid,
                    first.id,
                    ts.REGISTERED,
                    None,
                    Words("{name} is in, from the waiting list.", name=first.name),
                )
            t = await self.get(tid)
        await self.output.changed(t)

    # --- rounds --------------------------------------------------------------------------------------------

    @staticmethod
    def check_organiser(t: ts.TournamentRow, user_id: int, manager: bool) -> None:
        if user_id != t.organiser_id and not manager:
            raise Refusal("Only the organiser (or someone who may manage the server) can do that.")

    async def open_check_in(self, tid: int, user_id: int, *, manager: bool = False, minutes: int = 0) -> float | None:
        """Registration closes; each registered player confirms they are here, and whoever has not by the start
        is dropped as a no-show (the waiting list moves up in their place).  With ``minutes`` the check-in closes
        by itself then (a reminder to those not yet checked in before) and the tournament starts.  Returns when
        it closes."""
        if not 0 <= minutes <= 7 * 24 * 60:
            raise Refusal("Check-in lasts 0 (until the organiser starts) to 10080 minutes.")
        async with self.lock(tid):
            t = await self.get(tid)
            self.check_organiser(t, user_id, manager)
            if t.status != ts.REGISTRATION:
                raise Refusal("{name} is not taking registrations, so there is nothing to check in to.", name=t.name)
            if minutes:
                times = self.deadlines.check_in_times(minutes)
                await ts.update_settings(
                    self.store,
                    tid,
                    times,
                    user_id,
                    "check-in",
                    Words("Check-in closes at {when}.", when=ts_text(times["checkin_closes"])),
                )
            await ts.set_status(self.store, tid, ts.CHECK_IN, user_id, Words("Check-in is open."))
            t = await self.get(tid)
            self.deadlines.arm_check_in(t)
        await self.output.changed(t)
        closes = t.settings.get("checkin_closes")
        return None if closes is None else float(closes)

    async def start_locked(self, t: ts.TournamentRow) -> None:
        """The check-in closed by itself: the tournament starts (the caller holds its lock)."""
        await self._start(t, None)

    async def extend(self, tid: int, user_id: int, minutes: int, *, manager: bool = False) -> float:
        return await self.deadlines.extend(tid, user_id, minutes, manager=manager)

    async def repair(self, tid: int, user_id: int, reason: str, *, manager: bool = False) -> None:
        """The organiser pairs the current round again (after dropping a no-show, say), only while none of its
        tables has a move: its tables are closed, its pairing and seed taken back, and it is paired afresh with a
        new seed, audit-logged with the reason."""
        if not reason.strip():
            raise Refusal("Re-pairing needs a reason; everyone can read it in the audit log.")
        async with self.lock(tid):
            t = await self.get(tid)
            self.check_organiser(t, user_id, manager)
            current = t.played[-1] if t.played else None
            if t.status not in (ts.RUNNING, ts.PAUSED) or current is None or current.status == ts.ROUND_FINISHED:
                raise Refusal("{name} has no round waiting to be played.", name=t.name)
            tables = []
            for m in current.matches:
                if m.status == ts.MATCH_FINISHED:
                    raise Refusal("Round {number} has a result already: it cannot be paired again.",
                                  number=current.round_no + 1)  # fmt: skip
                if m.table_id is None:
                    continue
                table = await self.manager.get(m.table_id)
                record = table.record
                if record is not None and (len(record.deals) > 1 or any(d.actions for d in record.deals)):
                    raise Refusal(
                        "Table {number} of round {round} has started playing: the round cannot be paired again.",
                        number=m.match_no + 1, round=current.round_no + 1,
                    )  # fmt: skip
                tables.append(table)
            # The new pairing is worked out before anything is undone, so a round that cannot be paired stays as it was.
            before = dataclasses.replace(t, played=t.played[:-1])
            plan = self._next_plan(before, current.round_no, self.rng.getrandbits(62))
            if plan is None or not plan[0]["tables"]:
                raise Refusal("There is no one left to pair.")
            for table in tables:
                self.by_table.pop(table.id, None)
                self.manager.fixed_deals.pop(table.id, None)
                if table.status == PLAYING:
                    await self.manager.cancel(table.id, user_id, admin=True)
            self.deadlines.cancel_round(tid, current.round_no)
            await ts.delete_round(self.store, tid, current.round_no, user_id, reason.strip())
            t = await self.get(tid)
            await self.output.say(
                t, _("Round {number} is paired again: {reason}", number=current.round_no + 1, reason=reason.strip())
            )
            await self._start_round(t, current.round_no, *plan)
        await self.output.changed(await self.get(tid))

    async def check_in(self, tid: int, user_id: int) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            if t.status != ts.CHECK_IN:
                raise Refusal("Check-in for {name} is not open.", name=t.name)
            entrant = self.entrant_of(t, user_id)
            if entrant is None or entrant.status not in (ts.REGISTERED, ts.CHECKED_IN):
                raise Refusal("You have no place in {name} to check in to.", name=t.name)
            if entrant.status == ts.CHECKED_IN:
                raise Refusal("You are already checked in.")
            await ts.set_entrant_status(
                self.store, tid, entrant.id, ts.CHECKED_IN, user_id, Words("{name} checked in.", name=entrant.name)
            )
        await self.output.changed(await self.get(tid))

    async def start(self, tid: int, user_id: int, *, manager: bool = False) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            self.check_organiser(t, user_id, manager)
            await self._start(t, user_id)
        await self.output.changed(await self.get(tid))

    def _least(self, t: ts.TournamentRow) -> int:
        """The fewest entrants a tournament starts with: one table's worth."""
        return SEATS // TEAM_SIZE if Settings.of(t.settings).entry == TEAM else SEATS

    async def _start(self, t: ts.TournamentRow, actor: int | None) -> None:
        """Under the tournament's lock: check-in's no-shows dropped, and round 1 paired."""
        tid = t.id
        if t.status not in (ts.REGISTRATION, ts.CHECK_IN):
            raise Refusal("{name} has already started.", name=t.name)
        least = self._least(t)
        if t.status == ts.CHECK_IN:
            here = [e for e in t.entrants if e.status == ts.CHECKED_IN]
            if len(here) < least:
                raise Refusal(
                    "{name} needs at least {least} entrants checked in; {count} are.",
                    name=t.name, least=least, count=len(here),
                )  # fmt: skip
            for e in t.entrants:
                if e.status == ts.REGISTERED:
                    await ts.set_entrant_status(
                        self.store, tid, e.id, ts.DROPPED, actor, Words("{name}: no-show.", name=e.name)
                    )
            t = await self.get(tid)
        playing = [e for e in t.entrants if e.status in (ts.REGISTERED, ts.CHECKED_IN)]
        if len(playing) < least:
            raise Refusal(
                "{name} needs at least {least} entrants to start; {count} registered.",
                name=t.name, least=least, count=len(playing),
            )  # fmt: skip
        self.deadlines.cancel_check_in(tid)
        await ts.set_status(
            self.store, tid, ts.RUNNING, actor, Words("Started with {count} entrants.", count=len(playing))
        )
        t = await self.get(tid)
        plan = self._next_plan(t, 0, self.rng.getrandbits(62))
        assert plan is not None
        await self._start_round(t, 0, *plan)

    def _active(self, t: ts.TournamentRow) -> list[int]:
        return [e.id for e in t.entrants if e.status in (ts.REGISTERED, ts.CHECKED_IN)]

    def _played(self, t: ts.TournamentRow) -> list[formats.Played]:
        out = []
        for r in t.played:
            winners: list[int | None] = []
            for m in r.matches:
                sides = m.results.get(ts.WHOLE_MATCH)
                won = [i for i, (_, w) in enumerate(sides or []) if w]
                winners.append(won[0] if len(won) == 1 else None)
            out.append(formats.Played(r.plan, winners))
        return out

    def _field_at_start(self, t: ts.TournamentRow) -> list[int]:
        started = t.played[0].plan if t.played else None
        if started is None:
            return self._active(t)
        return sorted(RoundPlan.from_json(started).entrants())

    def _next_plan(self, t: ts.TournamentRow, round_no: int, seed: int) -> tuple[dict, int] | None:
        """Round ``round_no``'s plan (and its seed), or None when the tournament is over."""
        field = self._active(t)
        past = history(t)
        settings = Settings.of(t.settings)
        played = self._played(t)
        last = played[-1] if played else None
        if t.format in (MELEE, SWISS):
            if round_no >= t.rounds:
                return None
            if t.format == SWISS and settings.entry == TEAM:
                scores = {ln.entrant: ln.score for ln in current_standings(t, ranking_method(t))}
                return swiss_round(field, scores, past, seed, round_no).to_json(), seed
            return self._pair(t, round_no, seed).to_json(), seed
        if t.format == DOUBLE:
            plan = formats.double_elimination_next(field, played)
            return None if plan is None else (plan, seed)
        if t.format == SINGLE:
            if last is None:
                return formats.knockout_plan(formats.knockout_seeds(field)), seed
            knockout = formats.next_knockout(last)
            return None if knockout is None else (knockout, seed)
        # A round robin: the groups' schedule (fixed by the tournament's seed), then the group winners' knock-out.
        at_start = self._field_at_start(t)
        schedule = formats.group_schedule(at_start, settings.groups, t.seed)
        if round_no < len(schedule):
            return self._without_dropped(schedule[round_no], set(field)).to_json(), seed
        if len(formats.group_of(at_start, settings.groups)) < 2:
            return None
        if last is not None and last.plan.get("stage") == formats.KNOCKOUT:
            knockout = formats.next_knockout(last)
            return None if knockout is None else (knockout, seed)
        places = {ln.entrant: ln.place for ln in current_standings(t, ranking_method(t))}
        winners = formats.group_winners(formats.group_of(at_start, settings.groups), places)
        winners = [e for e in winners if e in field]
        if len(winners) < 2:
            return None
        return formats.knockout_plan(formats.knockout_seeds(winners)), seed

    @staticmethod
    def _without_dropped(plan: RoundPlan, field: set[int]) -> RoundPlan:
        """A scheduled round with dropped entrants taken out: their opponents have a bye."""
        tables, byes = [], [e for e in plan.byes if e in field]
        for table in plan.tables:
            present = [side for side in table.sides if all(e in field for e in side)]
            if len(present) == len(table.sides):
                tables.append(table)
            else:
                byes.extend(e for side in present for e in side)
        return RoundPlan(tuple(tables), tuple(byes))

    def _pair(self, t: ts.TournamentRow, round_no: int, seed: int) -> RoundPlan:
        field = self._active(t)
        past = history(t)
        if t.format == SWISS:
            scores = {ln.entrant: ln.score for ln in current_standings(t, ranking_method(t))}
            return melee_round(field, past, seed, round_no, scores=scores)
        started = t.played[0].plan if t.played else None
        at_start = sorted(RoundPlan.from_json(started).entrants()) if started else field
        return melee_round(field, past, seed, round_no, field_at_start=at_start, placement_seed=t.seed)

    def seats_of(self, t: ts.TournamentRow, table: Pairing) -> dict[int, tuple[int, int | None]]:
        """Seat -> (entrant, player): side i sits at the game's team i's seats, a fixed team's members in turn."""
        teams = game_type(t.game).teams(SEATS, t.options)
        members: dict[int, list[int | None]] = {e.id: [m.user_id for m in e.members] or [None] for e in t.entrants}
        out: dict[int, tuple[int, int | None]] = {}
        for side, team in zip(table.sides, teams, strict=True):
            people = [(e, u) for e in side for u in members.get(e, [None])]
            out.update(zip(team, people, strict=False))
        return out

    def _plan_lines(self, t: ts.TournamentRow, plan: RoundPlan) -> list[str]:
        names = {e.id: e.name for e in t.entrants}
        lines = [
            _("Table {number}: {sides}", number=i + 1,
              sides=_(" vs ").join(" & ".join(names[e] for e in side) for side in table.sides))
            for i, table in enumerate(plan.tables)
        ]  # fmt: skip
        if plan.byes:
            lines.append(_("Bye: {names}", names=", ".join(names[e] for e in plan.byes)))
        return lines

    async def _start_round(self, t: ts.TournamentRow, round_no: int, plan_json: dict, seed: int) -> None:
        plan = RoundPlan.from_json(plan_json)
        seats = [self.seats_of(t, table) for table in plan.tables]
        commitment = seed_commitment(seed)
        settings = Settings.of(t.settings)
        boards = self.boards(t, round_no, seed)
        numbers = range(boards.first, boards.first + boards.count) if settings.duplicate else range(0)
        deadline = self.deadlines.round_deadline(settings)
        await ts.save_round(
            self.store, t.id, round_no, seed=seed, commitment=commitment, plan=plan_json,
            boards=[(n, Board(n, seed, SEATS).dealer) for n in numbers], matches=seats,
            deadline=None if deadline is None else ts_text(deadline),
        )  # fmt: skip
        t = await self.get(t.id)
        lines = self._plan_lines(t, plan)
        if deadline is not None:
            lines.append(_("The round ends <t:{when}:R> (<t:{when}:f>).", when=int(deadline)))
        await self.output.round_started(t, round_no, lines, commitment)
        self.deadlines.arm_round(t, round_no)
        for match_no in range(len(plan.tables)):
            await self._try_open_table(t, round_no, match_no)
        if not plan.tables:  # everyone had a bye (a dropped opponent): the round is over at once
            await self._maybe_next_round(t.id)

    async def _try_open_table(self, t: ts.TournamentRow, round_no: int, match_no: int) -> None:
        """One table that cannot be opened (Discord refusing a thread, say) does not stop the others: it stays
        waiting, is said in the channel, and is tried again when the bot next starts."""
        try:
            await self._open_table(t, round_no, match_no)
        except Exception:
            log.exception("tournament %d: could not open table %d of round %d", t.id, match_no + 1, round_no + 1)
            await self.output.say(
                t, _("Table {number} could not be opened; it will be tried again.", number=match_no + 1)
            )

    @staticmethod
    def boards(t: ts.TournamentRow, round_no: int, seed: int) -> RoundBoards:
        settings = Settings.of(t.settings)
        return RoundBoards(round_no * settings.deals, settings.deal_limit, seed, settings.duplicate)

    def _table_options(self, t: ts.TournamentRow, round_no: int) -> dict[str, Any]:
        if not Settings.of(t.settings).duplicate:
            return dict(t.options)
        first = self.boards(t, round_no, t.played[round_no].seed).first
        return Board(first, t.played[round_no].seed, SEATS).options(t.game, t.options)

    async def _open_table(self, t: ts.TournamentRow, round_no: int, match_no: int) -> None:
        match_row = t.played[round_no].matches[match_no]
        names = {m.user_id: m.name for e in t.entrants for m in e.members}
        users = [u for _, u in match_row.seats.values() if u is not None]
        channel = await self.output.open_table_channel(t, round_no, match_no, users)
        # The table's host is the player in seat 0 (create seats its host there); the others take their seats.
        seats = sorted(match_row.seats.items())
        host = seats[0][1][1]
        assert host is not None
        table = await self.manager.create(
            game=t.game, options=self._table_options(t, round_no), preset=t.preset, host_id=host,
            host_name=names.get(host, str(host)), channel_id=channel, guild_id=t.guild_id,
            channel_name=f"{t.name} r{round_no + 1} t{match_no + 1}", language=await self.output.table_language(t),
        )  # fmt: skip
        for seat, (_entrant, user) in seats[1:]:
            assert user is not None
            await self.manager.join(table.id, user, names.get(user, str(user)), seat)
        await ts.set_match_table(self.store, t.id, round_no, match_no, table.id, channel)
        self.by_table[table.id] = (t.id, round_no, match_no)
        self.manager.fixed_deals[table.id] = self.boards(t, round_no, t.played[round_no].seed)
        await self.output.table_opened(t, table)
        await self.manager.start(table.id, host)

    # --- results -------------------------------------------------------------------------------------------

    async def table_acted(self, table: Table, deals_finished: list[int]) -> None:
        """Listener: a tournament table that has played its round's deals (or won its best-of) is done."""
        key = self.by_table.get(table.id)
        if key is None or not deals_finished:
            return
        t = await self.get(key[0])
        if table.status == FINISHED or self._table_done(Settings.of(t.settings), table):
            await self._finish_match(key, table)

    @staticmethod
    def _table_done(settings: Settings, table: Table) -> bool:
        results = table.match.deal_results if table.match is not None else []
        if (
            settings.best_of
            and formats.best_of_winner([formats.deal_winner(r["score_change"]) for r in results], settings.best_of)
            is not None
        ):
            return True
        return bool(settings.deal_limit) and len(results) >= settings.deal_limit

    async def table_closed(self, table: Table) -> None:
        key = self.by_table.get(table.id)
        if key is not None and table.status == FINISHED:
            await self._finish_match(key, table)

    def _result(self, t: ts.TournamentRow, table: Table) -> list[tuple[int, bool | None]]:
        match = table.match
        assert match is not None
        settings = Settings.of(t.settings)
        deals = settings.deal_limit
        results = match.deal_results[:deals] if deals else match.deal_results
        if settings.best_of:
            # A best-of's score is the deals each side won; the majority wins, else more deals won, else points.
            won = [formats.deal_winner(r["score_change"]) for r in results]
            counts = [sum(1 for w in won if w == side) for side in (0, 1)]
            points = [sum(int(r["score_change"][side]) for r in results) for side in (0, 1)]
            winner = formats.best_of_winner(won, settings.best_of)
            if winner is None and counts[0] != counts[1]:
                winner = 0 if counts[0] > counts[1] else 1
            if winner is None and points[0] != points[1]:
                winner = 0 if points[0] > points[1] else 1
            return [(counts[side], None if winner is None else winner == side) for side in (0, 1)]
        base = match_class(t.game)(dict(t.options)).scores() if game_type(t.game).scores_are_levels else [0, 0]
        totals = [0, 0]
        for r in results:
            for side in (0, 1):
                totals[side] += int(r["score_change"][side])
        if not results and match.winner is None:
            totals = [s - b for s, b in zip(match.scores(), base, strict=False)]
        winner = match.winner if not deals and match.winner is not None else None
        if winner is None and totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
        if winner is None and t.format in KNOCKOUTS:
            winner = self._knockout_draw(t, table)
        return [(totals[side], None if winner is None else winner == side) for side in (0, 1)]

    @staticmethod
    def _knockout_draw(t: ts.TournamentRow, table: Table) -> int:
        """A knock-out match level after all its deals: someone must go through, so the side that won the last
        deal (if any), else the draw of the round's seed."""
        results = table.match.deal_results if table.match is not None else []
        for r in reversed(results):
            w = formats.deal_winner(r["score_change"])
            if w is not None:
                return w
        return random.Random(f"{t.seed}:{table.id}").randrange(2)

    async def _finish_match(self, key: tuple[int, int, int], table: Table) -> None:
        tid, round_no, match_no = key
        async with self.lock(tid):
            t = await self.get(tid)
            match_row = t.played[round_no].matches[match_no]
            if match_row.status == ts.MATCH_FINISHED:
                return
            sides = self._result(t, table)
            results: dict[int, list[tuple[int, bool | None]]] = {ts.WHOLE_MATCH: sides}
            settings = Settings.of(t.settings)
            if settings.duplicate and table.match is not None:
                boards = self.boards(t, round_no, t.played[round_no].seed)
                for k, deal in enumerate(table.match.deal_results[: boards.count]):
                    results[boards.first + k] = [(int(deal["score_change"][side]), None) for side in (0, 1)]
            await ts.record_result(
                self.store, tid, round_no, match_no, results,
                Words("Round {round}, table {table}: {first} to {second}.", round=round_no + 1, table=match_no + 1,
                      first=sides[0][0], second=sides[1][0]),
            )  # fmt: skip
            self.by_table.pop(table.id, None)
            self.manager.fixed_deals.pop(table.id, None)
            if table.status == PLAYING:
                # Stopped at its round's deals: the game is finished as played, and rated like any other.
                winner = next((i for i, (_, won) in enumerate(sides) if won), None)
                await self.manager.finish_as_played(table, winner)
            await self._maybe_next_round(tid)

    async def record_forfeit(self, key: tuple[int, int, int], table: Table, absent: int) -> None:
        """The round's deadline passed with ``absent``'s side holding its table up: the match is lost for that side
        (its score so far kept, the present side's too), and the table closes."""
        tid, round_no, match_no = key
        async with self.lock(tid):
            t = await self.get(tid)
            if t.played[round_no].matches[match_no].status == ts.MATCH_FINISHED:
                return
            played = self._result(t, table) if table.match is not None else [(0, None), (0, None)]
            sides: list[tuple[int, bool | None]] = [(score, side != absent) for side, (score, _) in enumerate(played)]
            await ts.record_result(
                self.store, tid, round_no, match_no, {ts.WHOLE_MATCH: sides},
                Words("Round {round}, table {table}: side {side} forfeits at the deadline.", round=round_no + 1,
                      table=match_no + 1, side=absent + 1),
            )  # fmt: skip
            self.by_table.pop(table.id, None)
            self.manager.fixed_deals.pop(table.id, None)
            if table.status == PLAYING:
                await self.manager.cancel(table.id, t.organiser_id, admin=True)
            await self._maybe_next_round(tid)

    async def _maybe_next_round(self, tid: int) -> None:
        t = await self.get(tid)
        current = t.played[-1]
        if any(m.status != ts.MATCH_FINISHED for m in current.matches):
            await self.output.changed(t)
            return
        if current.status != ts.ROUND_FINISHED:  # (after a restart it may already be: then only what follows)
            await ts.finish_round(self.store, tid, current.round_no)
            self.deadlines.cancel_round(tid, current.round_no)
            await self.output.say(
                t, _("Round {number} is over. Its seed was {seed}.", number=current.round_no + 1, seed=current.seed)
            )
        if t.status == ts.PAUSED:
            await self.output.changed(await self.get(tid))
            return
        t = await self.get(tid)
        plan = self._next_plan(t, current.round_no + 1, self.rng.getrandbits(62))
        if plan is None:
            await ts.set_status(self.store, tid, ts.FINISHED, None, Words("All rounds played."))
            played = self._played(t)
            champion = formats.champion(played[-1], self._active(t), played)
            if champion is not None:
                name = next(e.name for e in t.entrants if e.id == champion)
                await self.output.say(t, _("🏆 {name} win the tournament.", name=name))
        else:
            await self._start_round(t, current.round_no + 1, *plan)
        await self.output.changed(await self.get(tid))

    async def check_round(self, tid: int) -> None:
        """After a restart: tables of the current round that ended while the bot was down are scored now, and the
        map from tables to matches is rebuilt."""
        t = await self.get(tid)
        if not t.played:
            if t.status == ts.RUNNING:  # stopped between starting and pairing round 1
                plan = self._next_plan(t, 0, self.rng.getrandbits(62))
                if plan is not None:
                    await self._start_round(t, 0, *plan)
            elif t.status == ts.CHECK_IN:
                self.deadlines.arm_check_in(t)
            return
        self.deadlines.arm_round(t, t.played[-1].round_no)
        for m in t.played[-1].matches:
            if m.status == ts.MATCH_WAITING and m.table_id is None:
                await self._try_open_table(t, m.round_no, m.match_no)
                continue
            if m.status != ts.MATCH_PLAYING or m.table_id is None:
                continue
            key = (tid, m.round_no, m.match_no)
            self.by_table[m.table_id] = key
            self.manager.fixed_deals[m.table_id] = self.boards(t, m.round_no, t.played[m.round_no].seed)
            table = await self.manager.get(m.table_id)
            if table.status == FINISHED or (
                table.status == PLAYING and self._table_done(Settings.of(t.settings), table)
            ):
                await self._finish_match(key, table)
            elif table.status == CANCELLED:
                await self.output.say(
                    t, _("Table {number} was closed without a result; the organiser decides.", number=m.match_no + 1)
                )
        if t.status == ts.RUNNING:
            async with self.lock(tid):
                await self._maybe_next_round(tid)

    async def resume_all(self) -> None:
        for tid in await ts.tournaments_with_status(self.store, ts.RUNNING, ts.PAUSED, ts.CHECK_IN):
            await self.check_round(tid)

    async def board_record_withheld(self, table: Table, user_id: int) -> str | None:
        """A duplicate round's table record shows its boards' hands: not to a player of that round whose own table
        has yet to finish."""
        key = self.by_table.get(table.id) or await ts.match_of_table(self.store, table.id)
        if key is None:
            return None
        t = await self.get(key[0])
        if not Settings.of(t.settings).duplicate:
            return None
        for m in t.played[key[1]].matches:
            if m.status != ts.MATCH_FINISHED and any(u == user_id for _, u in m.seats.values()):
                return _(
                    "Table #{table} played this round's boards, which you have still to play: its record is yours to "
                    "see when your own table has finished.",
                    table=table.id,
                )
        return None

    async def board_watch_withheld(self, table: Table, user_id: int) -> str | None:
        """A duplicate round's table plays the round's boards: a player of that round whose own table has yet to
        finish may not watch it (and so never plays a board they have watched: each round has its own boards)."""
        if await self.board_record_withheld(table, user_id) is None:
            return None
        return _(
            "Table #{table} plays this round's boards, which you have still to play: you may watch it once your own "
            "table has finished.",
            table=table.id,
        )

    # --- the organiser's tools -----------------------------------------------------------------------------

    async def pause(self, tid: int, user_id: int, *, manager: bool = False, resume: bool = False) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            self.check_organiser(t, user_id, manager)
            want, now = (ts.PAUSED, ts.RUNNING) if not resume else (ts.RUNNING, ts.PAUSED)
            if t.status != now:
                if resume:
                    raise Refusal("{name} is not paused.", name=t.name)
                raise Refusal("{name} is not running.", name=t.name)
            await ts.set_status(
                self.store,
                tid,
                want,
                user_id,
                Words("Paused: no new round starts.") if not resume else Words("Resumed."),
            )
        if resume:
            await self._maybe_next_round(tid)
        else:
            await self.output.changed(await self.get(tid))

    async def adjust(self, tid: int, user_id: int, entrant_name: str, delta: float, reason: str, *, manager=False):
        if not reason.strip():
            raise Refusal("An adjustment needs a reason; everyone can read it in the audit log.")
        async with self.lock(tid):
            t = await self.get(tid)
            self.check_organiser(t, user_id, manager)
            entrant = self._named(t, entrant_name)
            await ts.add_adjustment(self.store, tid, entrant.id, delta, reason.strip(), user_id)
        await self.output.changed(await self.get(tid))

    async def drop(self, tid: int, user_id: int, entrant_name: str, reason: str, *, manager: bool = False) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            self.check_organiser(t, user_id, manager)
            entrant = self._named(t, entrant_name)
            await ts.set_entrant_status(
                self.store,
                tid,
                entrant.id,
                ts.DROPPED,
                user_id,
                Words("{name} dropped: {reason}.", name=entrant.name, reason=reason),
            )
        await self.output.changed(await self.get(tid))

    async def replace(
        self, tid: int, user_id: int, entrant_name: str, new_user: int, new_name: str, reason: str, *, manager=False
    ) -> None:
        """Another player takes an entrant's place from the next round on (the entrant keeps its results)."""
        async with self.lock(tid):
            t = await self.get(tid)
            self.check_organiser(t, user_id, manager)
            entrant = self._named(t, entrant_name)
            if self.entrant_of(t, new_user) is not None:
                raise Refusal("{player} already plays in {name}.", player=new_name, name=t.name)
            old = entrant.members[0].user_id
            await ts.replace_member(self.store, tid, entrant.id, old, ts.Member(new_user, new_name), user_id, reason)
        await self.output.changed(await self.get(tid))

    @staticmethod
    def _named(t: ts.TournamentRow, name: str) -> ts.EntrantRow:
        found = [e for e in t.entrants if e.name.lower() == name.strip().lower()]
        if len(found) != 1:
            raise Refusal("No entrant of {tournament} is called '{name}'.", tournament=t.name, name=name)
        return found[0]

    async def standings(self, tid: int) -> tuple[ts.TournamentRow, list[Line]]:
        t = await self.get(tid)
        return t, current_standings(t, ranking_method(t))

    def match_lines(self, t: ts.TournamentRow) -> list[str]:
        """Every match so far in words, round by round (a knock-out's bracket read down): who beat whom, by what."""
        names = {e.id: e.name for e in t.entrants}
        out = []
        for r in t.played:
            plan = RoundPlan.from_json(r.plan)
            stage = (
                _("knock-out")
                if r.plan.get("stage") == formats.KNOCKOUT
                else _("round {number}", number=r.round_no + 1)
            )
            out.append(f"**{stage}**")
            brackets = _bracket_labels(r.plan, len(plan.tables))
            for m, table, bracket in zip(r.matches, plan.tables, brackets, strict=True):
                sides = [" & ".join(names.get(e, str(e)) for e in side) for side in table.sides]
                result = m.results.get(ts.WHOLE_MATCH)
                if result is None:
                    out.append(bracket + _("{a} vs {b}: playing", a=sides[0], b=sides[1]))
                else:
                    mark = ["✅ " if won else "" for _, won in result]
                    out.append(f"{bracket}{mark[0]}{sides[0]} {result[0][0]}–{result[1][0]} {mark[1]}{sides[1]}")
            for e in plan.byes:
                out.append(_("{name}: bye", name=names.get(e, str(e))))
        return out

    async def export_records(self, tid: int, user_id: int, *, manager: bool = False) -> str:
        """Every finished round's table records, one JSON record a line (``cardtable replay --batch`` reads them);
        a round under way is left out, since its boards may still be in play."""
        t = await self.get(tid)
        self.check_organiser(t, user_id, manager)
        lines = []
        for r in t.played:
            if r.status != ts.ROUND_FINISHED:
                continue
            for m in r.matches:
                if m.table_id is None:
                    continue
                table = await self.manager.get(m.table_id)
                if table.record is not None:
                    lines.append(table.record.dumps())
        return "\n".join(lines) + ("\n" if lines else "")

    async def export_csv(self, tid: int) -> str:
        t, lines = await self.standings(tid)
        names = {e.id: e.name for e in t.entrants}
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["place", "entrant", "score", "played", "won", "drawn", "byes", "for", "against",
                         "buchholz", "adjustment"])  # fmt: skip
        for ln in lines:
            writer.writerow([ln.place, names.get(ln.entrant, ln.entrant), ln.score, ln.played, ln.won, ln.drawn,
                             ln.byes, ln.points_for, ln.points_against, ln.buchholz, ln.adjustment])  # fmt: skip
        return out.getvalue()


def _bracket_labels(plan: dict, tables: int) -> list[str]:
    """A double elimination's tables named by bracket ("winners' bracket: "), other formats' by nothing."""
    if plan.get("stage") != double.STAGE:
        return [""] * tables
    words = {
        "winners": N_("winners' bracket"),
        "losers": N_("losers' bracket"),
        "final": N_("grand final"),
        "reset": N_("grand final, replayed"),
    }
    return [_(words[kind]) + ": " for kind in double.DoubleState.from_json(plan["double"]).table_kinds()]
