"""Running a tournament over the table service: registration, each round paired and its tables opened and started,
results taken from the tables as they end, standings, and the organiser's tools.  Knows nothing of Discord: what
players should see goes through ``TournamentOutput`` (implemented by cogs/tournaments.py).

Everything is saved (bot/storage/tournaments.py) before it is announced; after a restart ``resume_all`` finds the
running tournaments again, and a table that ends while the bot was down is picked up by ``check_round``.
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage import tournaments as ts
from bot.storage.store import CANCELLED, FINISHED, PLAYING, Store
from bot.tables.guild_settings import SettingsRefusal, parse_clock
from bot.tables.service import Refusal, Table, TableManager
from bot.tournaments.pairing import melee_round
from bot.tournaments.plan import Pairing, RoundPlan, seed_commitment
from bot.tournaments.progress import current_standings, history
from bot.tournaments.standings import CUMULATIVE, LEVELS, MATCH_POINTS, MATCHPOINTS, Line
from rules.boards import Board
from rules.dealing import DealCards
from rules.game import Match
from rules.registry import game_type, match_class

log = logging.getLogger(__name__)

MELEE, SWISS = "melee", "swiss"
FORMATS = (MELEE, SWISS)  # run end to end here; round robin and elimination exist as pairings (pairing.py) only
SEATS = 4


class TournamentOutput(Protocol):
    async def open_table_channel(self, t: ts.TournamentRow, round_no: int, match_no: int, users: list[int]) -> int:
        """A private place for one table (a thread the players are added to); its channel id."""
        ...

    async def round_started(self, t: ts.TournamentRow, round_no: int, lines: list[str], commitment: str) -> None: ...

    async def changed(self, t: ts.TournamentRow) -> None:
        """The announcement and the standings message need editing."""
        ...

    async def say(self, t: ts.TournamentRow, text: str) -> None: ...

    async def table_opened(self, t: ts.TournamentRow, table: Table) -> None:
        """A table is seated and about to start: its turn clock is set (players who time out get the clocks'
        ordinary stand-ins)."""
        ...


@dataclass
class Settings:
    deals: int  # deals per round (0: each table plays to the game's target)
    cap: int  # 0: no cap
    duplicate: bool = False  # every table of a round plays the same deals (boards), scored by matchpoints

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Settings:
        return cls(int(data.get("deals", 0)), int(data.get("cap", 0)), bool(data.get("duplicate", False)))


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
    if t.format == SWISS:
        return MATCH_POINTS
    return LEVELS if game_type(t.game).scores_are_levels else CUMULATIVE


class TournamentService:
    def __init__(self, store: Store, manager: TableManager, output: TournamentOutput, rng: random.Random):
        self.store = store
        self.manager = manager
        self.output = output
        self.rng = rng
        self.locks: dict[int, asyncio.Lock] = {}
        self.by_table: dict[int, tuple[int, int, int]] = {}  # table id -> (tournament, round, match)
        manager.record_guards.append(self.board_record_withheld)

    def lock(self, tid: int) -> asyncio.Lock:
        return self.locks.setdefault(tid, asyncio.Lock())

    async def get(self, tid: int) -> ts.TournamentRow:
        t = await ts.load_tournament(self.store, tid)
        if t is None:
            raise Refusal(f"There is no tournament #{tid}.")
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
    ) -> ts.TournamentRow:
        if format not in FORMATS:
            raise Refusal(f"The format must be one of: {', '.join(FORMATS)}.")
        if SEATS not in game_type(game).seat_counts:
            raise Refusal("Tournaments are for games of four at a table.")
        if any(o.name == "players" for o in match_class(game).OPTIONS):
            options = {**options, "players": SEATS}
        if not 1 <= rounds <= 20:
            raise Refusal("A tournament has 1 to 20 rounds.")
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
            raise Refusal(f"In {game_type(game).name()} a board is one deal: set deals to 1 for a duplicate.")
        teams = game_type(game).teams(SEATS, options)
        if len(teams) != 2 or any(len(team) != 2 for team in teams):
            raise Refusal("Tournaments are for partnership games: two sides of two at each table.")
        tid = await ts.create_tournament(
            self.store, guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id, name=name, game=game,
            preset=preset, options=options, format=format, rounds=rounds, seed=self.rng.getrandbits(62),
            settings={"deals": deals, "cap": cap, "duplicate": duplicate, "clock": clock},
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
            if t.status != ts.REGISTRATION:
                raise Refusal(f"Registration for {t.name} is closed.")
            if self.entrant_of(t, user_id) is not None:
                raise Refusal(f"You are already registered for {t.name}.")
            cap = Settings.of(t.settings).cap
            taken = sum(1 for e in t.entrants if e.status == ts.REGISTERED)
            status = ts.WAITLIST if cap and taken >= cap else ts.REGISTERED
            await ts.add_entrant(self.store, tid, name, [ts.Member(user_id, name)], status, user_id)
            t = await self.get(tid)
        await self.output.changed(t)
        return status

    async def withdraw(self, tid: int, user_id: int) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            entrant = self.entrant_of(t, user_id)
            if entrant is None:
                raise Refusal(f"You are not registered for {t.name}.")
            if t.status not in (ts.REGISTRATION, ts.CHECK_IN, ts.RUNNING, ts.PAUSED):
                raise Refusal(f"{t.name} is over.")
            await ts.set_entrant_status(self.store, tid, entrant.id, ts.WITHDRAWN, user_id, f"{entrant.name} withdrew")
            waiting = [e for e in t.entrants if e.status == ts.WAITLIST]
            if (
                entrant.status in (ts.REGISTERED, ts.CHECKED_IN)
                and waiting
                and t.status in (ts.REGISTRATION, ts.CHECK_IN)
            ):
                first = waiting[0]
                await ts.set_entrant_status(
                    self.store, tid, first.id, ts.REGISTERED, None, f"{first.name} in from the waiting list"
                )
            t = await self.get(tid)
        await self.output.changed(t)

    # --- rounds --------------------------------------------------------------------------------------------

    def _organiser(self, t: ts.TournamentRow, user_id: int, manager: bool) -> None:
        if user_id != t.organiser_id and not manager:
            raise Refusal("Only the organiser (or someone who may manage the server) can do that.")

    async def open_check_in(self, tid: int, user_id: int, *, manager: bool = False) -> None:
        """Registration closes; each registered player confirms they are here, and whoever has not by the start
        is dropped as a no-show (the waiting list moves up in their place)."""
        async with self.lock(tid):
            t = await self.get(tid)
            self._organiser(t, user_id, manager)
            if t.status != ts.REGISTRATION:
                raise Refusal(f"{t.name} is not taking registrations, so there is nothing to check in to.")
            await ts.set_status(self.store, tid, ts.CHECK_IN, user_id, "check-in open")
        await self.output.changed(await self.get(tid))

    async def check_in(self, tid: int, user_id: int) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            if t.status != ts.CHECK_IN:
                raise Refusal(f"Check-in for {t.name} is not open.")
            entrant = self.entrant_of(t, user_id)
            if entrant is None or entrant.status not in (ts.REGISTERED, ts.CHECKED_IN):
                raise Refusal(f"You have no place in {t.name} to check in to.")
            if entrant.status == ts.CHECKED_IN:
                raise Refusal("You are already checked in.")
            await ts.set_entrant_status(self.store, tid, entrant.id, ts.CHECKED_IN, user_id, f"{entrant.name} is here")
        await self.output.changed(await self.get(tid))

    async def start(self, tid: int, user_id: int, *, manager: bool = False) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            self._organiser(t, user_id, manager)
            if t.status not in (ts.REGISTRATION, ts.CHECK_IN):
                raise Refusal(f"{t.name} has already started.")
            if t.status == ts.CHECK_IN:
                here = [e for e in t.entrants if e.status == ts.CHECKED_IN]
                if len(here) < SEATS:
                    raise Refusal(f"{t.name} needs at least {SEATS} players checked in; {len(here)} are.")
                for e in t.entrants:
                    if e.status == ts.REGISTERED:
                        await ts.set_entrant_status(self.store, tid, e.id, ts.DROPPED, user_id, f"{e.name}: no-show")
                t = await self.get(tid)
            playing = [e for e in t.entrants if e.status in (ts.REGISTERED, ts.CHECKED_IN)]
            if len(playing) < SEATS:
                raise Refusal(f"{t.name} needs at least {SEATS} players to start; {len(playing)} registered.")
            await ts.set_status(self.store, tid, ts.RUNNING, user_id, f"{len(playing)} players")
            t = await self.get(tid)
            await self._start_round(t, 0)
            t = await self.get(tid)
        await self.output.changed(t)

    def _active(self, t: ts.TournamentRow) -> list[int]:
        return [e.id for e in t.entrants if e.status in (ts.REGISTERED, ts.CHECKED_IN)]

    def _pair(self, t: ts.TournamentRow, round_no: int, seed: int) -> RoundPlan:
        field = self._active(t)
        past = history(t)
        if t.format == SWISS:
            scores = {ln.entrant: ln.score for ln in current_standings(t, ranking_method(t))}
            return melee_round(field, past, seed, round_no, scores=scores)
        started = t.played[0].plan if t.played else None
        at_start = sorted(RoundPlan.from_json(started).entrants()) if started else field
        return melee_round(field, past, seed, round_no, field_at_start=at_start, placement_seed=t.seed)

    def seats_of(self, t: ts.TournamentRow, table: Pairing) -> dict[int, int]:
        """Seat -> entrant: side i sits at the game's team i's seats."""
        teams = game_type(t.game).teams(SEATS, t.options)
        return {seat: side[k] for side, team in zip(table.sides, teams, strict=True) for k, seat in enumerate(team)}

    async def _start_round(self, t: ts.TournamentRow, round_no: int) -> None:
        seed = self.rng.getrandbits(62)
        plan = self._pair(t, round_no, seed)
        users = {e.id: e.members[0].user_id for e in t.entrants if e.members}
        seats = [{s: (e, users.get(e)) for s, e in self.seats_of(t, table).items()} for table in plan.tables]
        commitment = seed_commitment(seed)
        settings = Settings.of(t.settings)
        boards = self.boards(t, round_no, seed)
        numbers = range(boards.first, boards.first + boards.count) if settings.duplicate else range(0)
        await ts.save_round(
            self.store, t.id, round_no, seed=seed, commitment=commitment, plan=plan.to_json(),
            boards=[(n, Board(n, seed, SEATS).dealer) for n in numbers], matches=seats,
        )  # fmt: skip
        t = await self.get(t.id)
        names = {e.id: e.name for e in t.entrants}
        lines = [
            f"Table {i + 1}: " + " vs ".join(" & ".join(names[e] for e in side) for side in table.sides)
            for i, table in enumerate(plan.tables)
        ]
        if plan.byes:
            lines.append("Bye: " + ", ".join(names[e] for e in plan.byes))
        await self.output.round_started(t, round_no, lines, commitment)
        for match_no in range(len(plan.tables)):
            await self._try_open_table(t, round_no, match_no)

    async def _try_open_table(self, t: ts.TournamentRow, round_no: int, match_no: int) -> None:
        """One table that cannot be opened (Discord refusing a thread, say) does not stop the others: it stays
        waiting, is said in the channel, and is tried again when the bot next starts."""
        try:
            await self._open_table(t, round_no, match_no)
        except Exception:
            log.exception("tournament %d: could not open table %d of round %d", t.id, match_no + 1, round_no + 1)
            await self.output.say(t, f"Table {match_no + 1} could not be opened; it will be tried again.")

    @staticmethod
    def boards(t: ts.TournamentRow, round_no: int, seed: int) -> RoundBoards:
        settings = Settings.of(t.settings)
        return RoundBoards(round_no * settings.deals, settings.deals, seed, settings.duplicate)

    def _table_options(self, t: ts.TournamentRow, round_no: int) -> dict[str, Any]:
        if not Settings.of(t.settings).duplicate:
            return dict(t.options)
        first = self.boards(t, round_no, t.played[round_no].seed).first
        return Board(first, t.played[round_no].seed, SEATS).options(t.game, t.options)

    async def _open_table(self, t: ts.TournamentRow, round_no: int, match_no: int) -> None:
        match_row = t.played[round_no].matches[match_no]
        names = {e.id: e.name for e in t.entrants}
        users = [u for _, u in match_row.seats.values() if u is not None]
        channel = await self.output.open_table_channel(t, round_no, match_no, users)
        # The table's host is the player in seat 0 (create seats its host there); the others take their seats.
        seats = sorted(match_row.seats.items())
        host_entrant, host = seats[0][1]
        assert host is not None
        table = await self.manager.create(
            game=t.game, options=self._table_options(t, round_no), preset=t.preset, host_id=host,
            host_name=names[host_entrant], channel_id=channel, guild_id=t.guild_id,
            channel_name=f"{t.name} r{round_no + 1} t{match_no + 1}",
        )  # fmt: skip
        for seat, (entrant, user) in seats[1:]:
            assert user is not None
            await self.manager.join(table.id, user, names[entrant], seat)
        await ts.set_match_table(self.store, t.id, round_no, match_no, table.id, channel)
        self.by_table[table.id] = (t.id, round_no, match_no)
        self.manager.fixed_deals[table.id] = self.boards(t, round_no, t.played[round_no].seed)
        await self.output.table_opened(t, table)
        await self.manager.start(table.id, host)

    # --- results -------------------------------------------------------------------------------------------

    async def table_acted(self, table: Table, deals_finished: list[int]) -> None:
        """Listener: a tournament table that has played its round's deals is done."""
        key = self.by_table.get(table.id)
        if key is None or not deals_finished:
            return
        t = await self.get(key[0])
        deals = Settings.of(t.settings).deals
        finished = len(table.match.deal_results) if table.match is not None else 0
        if deals and finished >= deals:
            await self._finish_match(key, table)

    async def table_closed(self, table: Table) -> None:
        key = self.by_table.get(table.id)
        if key is not None and table.status == FINISHED:
            await self._finish_match(key, table)

    def _result(self, t: ts.TournamentRow, table: Table) -> list[tuple[int, bool | None]]:
        match = table.match
        assert match is not None
        deals = Settings.of(t.settings).deals
        results = match.deal_results[:deals] if deals else match.deal_results
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
        return [(totals[side], None if winner is None else winner == side) for side in (0, 1)]

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
                f"round {round_no + 1} table {match_no + 1}: {sides[0][0]} to {sides[1][0]}",
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
            await self.output.say(t, f"Round {current.round_no + 1} is over. Its seed was {current.seed}.")
        if t.status == ts.PAUSED:
            await self.output.changed(await self.get(tid))
            return
        if current.round_no + 1 >= t.rounds:
            await ts.set_status(self.store, tid, ts.FINISHED, None, "all rounds played")
        else:
            await self._start_round(await self.get(tid), current.round_no + 1)
        await self.output.changed(await self.get(tid))

    async def check_round(self, tid: int) -> None:
        """After a restart: tables of the current round that ended while the bot was down are scored now, and the
        map from tables to matches is rebuilt."""
        t = await self.get(tid)
        if not t.played:
            if t.status == ts.RUNNING:  # stopped between starting and pairing round 1
                await self._start_round(t, 0)
            return
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
            deals = Settings.of(t.settings).deals
            played = len(table.match.deal_results) if table.match is not None else 0
            if table.status == FINISHED or (deals and played >= deals):
                await self._finish_match(key, table)
            elif table.status == CANCELLED:
                await self.output.say(t, f"Table {m.match_no + 1} was closed without a result; the organiser decides.")
        if t.status == ts.RUNNING:
            async with self.lock(tid):
                await self._maybe_next_round(tid)

    async def resume_all(self) -> None:
        for tid in await ts.tournaments_with_status(self.store, ts.RUNNING, ts.PAUSED):
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
                return (
                    f"Table #{table.id} played this round's boards, which you have still to play: its record is "
                    "yours to see when your own table has finished."
                )
        return None

    # --- the organiser's tools -----------------------------------------------------------------------------

    async def pause(self, tid: int, user_id: int, *, manager: bool = False, resume: bool = False) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            self._organiser(t, user_id, manager)
            want, now = (ts.PAUSED, ts.RUNNING) if not resume else (ts.RUNNING, ts.PAUSED)
            if t.status != now:
                raise Refusal(f"{t.name} is not {'running' if not resume else 'paused'}.")
            await ts.set_status(self.store, tid, want, user_id, "no new round starts" if not resume else "")
        if resume:
            await self._maybe_next_round(tid)
        else:
            await self.output.changed(await self.get(tid))

    async def adjust(self, tid: int, user_id: int, entrant_name: str, delta: float, reason: str, *, manager=False):
        if not reason.strip():
            raise Refusal("An adjustment needs a reason; everyone can read it in the audit log.")
        async with self.lock(tid):
            t = await self.get(tid)
            self._organiser(t, user_id, manager)
            entrant = self._named(t, entrant_name)
            await ts.add_adjustment(self.store, tid, entrant.id, delta, reason.strip(), user_id)
        await self.output.changed(await self.get(tid))

    async def drop(self, tid: int, user_id: int, entrant_name: str, reason: str, *, manager: bool = False) -> None:
        async with self.lock(tid):
            t = await self.get(tid)
            self._organiser(t, user_id, manager)
            entrant = self._named(t, entrant_name)
            await ts.set_entrant_status(self.store, tid, entrant.id, ts.DROPPED, user_id, f"{entrant.name}: {reason}")
        await self.output.changed(await self.get(tid))

    async def replace(
        self, tid: int, user_id: int, entrant_name: str, new_user: int, new_name: str, reason: str, *, manager=False
    ) -> None:
        """Another player takes an entrant's place from the next round on (the entrant keeps its results)."""
        async with self.lock(tid):
            t = await self.get(tid)
            self._organiser(t, user_id, manager)
            entrant = self._named(t, entrant_name)
            if self.entrant_of(t, new_user) is not None:
                raise Refusal(f"{new_name} already plays in {t.name}.")
            old = entrant.members[0].user_id
            await ts.replace_member(self.store, tid, entrant.id, old, ts.Member(new_user, new_name), user_id, reason)
        await self.output.changed(await self.get(tid))

    @staticmethod
    def _named(t: ts.TournamentRow, name: str) -> ts.EntrantRow:
        found = [e for e in t.entrants if e.name.lower() == name.strip().lower()]
        if len(found) != 1:
            raise Refusal(f"No entrant of {t.name} is called {name!r}.")
        return found[0]

    async def standings(self, tid: int) -> tuple[ts.TournamentRow, list[Line]]:
        t = await self.get(tid)
        return t, current_standings(t, ranking_method(t))

    async def export_records(self, tid: int, user_id: int, *, manager: bool = False) -> str:
        """Every finished round's table records, one JSON record a line (``cardtable replay --batch`` reads them);
        a round under way is left out, since its boards may still be in play."""
        t = await self.get(tid)
        self._organiser(t, user_id, manager)
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
