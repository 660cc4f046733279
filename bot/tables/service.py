"""The table manager: every table's lobby and match, one lock per table, the record written before any reply.

Everything a player does to a table goes through ``TableManager`` under that table's lock, so that actions are
applied one at a time and a double click is applied once.  An action is validated by the engine, appended to the
record in SQLite, and only then acknowledged; the engine's ``apply`` is atomic, and if saving fails the table is
rebuilt from the store, so memory never runs ahead of what was saved.

The manager knows nothing of Discord.  It says what changed through ``TableEvents``, a callback the client wires to
``bot.dispatch`` (so the presenter, the clocks and any cog hear ``on_table_acted`` and the rest as discord.py
listeners), and the caller of each method answers the player.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.i18n import N_
from bot.storage.player_settings import PlayerSettings, load_player_settings, save_player_settings
from bot.storage.results import close_game, finish_game, reconcile, record_played
from bot.storage.store import CANCELLED, FINISHED, LOBBY, PLAYING, SeatRow, Store, TableRow, is_conflict
from bot.tables.catch_up import NewDeal, Step, steps_after
from bot.tables.urgency import start_later
from rules.actions import Action, action_from_json
from rules.boards import probe
from rules.dealing import DealCards
from rules.errors import IllegalAction, RecordError, Words
from rules.events import Event
from rules.game import BETWEEN_DEALS, DEAL, GAME_OVER, Match
from rules.players import PLAYERS, SEARCHING, make_player
from rules.records import DealRecord, GameRecord, deal_cards, effective_actions, replay
from rules.registry import lookup, match_class

log = logging.getLogger(__name__)


def computers_know(game: str) -> bool:
    """Whether the computer players beyond ``random`` (rules/ai) know this game: its registry entry says."""
    found = lookup(game)
    return found is not None and found.computer_strategy


# Actions whose meaning does not depend on the state the player saw, so a stale view may still send them: exposing
# and claiming are open to other seats while someone else acts, and a draw takes the next card whatever it is (the
# engine refuses it when it is not the player's turn).
UNVERSIONED_TYPES = ("expose", "claim_draw", "draw")


class Refusal(Exception):
    """A player's request that cannot be done; the message is shown to them (ephemerally).  ``seat_names``: the
    message is the engine's, which says "seat 2" and "10H"; the presentation puts it in players' words.  Like the
    engine's ``IllegalAction``, the message is a message id (English) with ``fields``, translated for each player
    (bot/i18n/refusals.py); ``message`` is the English text."""

    def __init__(self, message: str, *, seat_names: list[str] | None = None, **fields: Any):
        self.msgid = message
        self.fields = fields
        self.message = message.format(**{k: str(v) for k, v in fields.items()}) if fields else message
        super().__init__(self.message)
        self.seat_names = seat_names

    @classmethod
    def of(cls, error: IllegalAction | RecordError, seat_names: list[str] | None = None) -> Refusal:
        if isinstance(error, RecordError):
            return cls(error.message, seat_names=seat_names)
        return cls(error.msgid, seat_names=seat_names, **error.fields)


class StaleTable(Refusal):
    """Another process stored an action at the place this one was saving to: the table was reloaded from the store
    and the move must be checked again against it."""

    def __init__(self) -> None:
        super().__init__("That choice is out of date: the game has moved on. Press **My hand** to see it now.")


@dataclass
class Outcome:
    """What one applied action did, for the presenter and for the reply."""

    action: Action
    deals_finished: list[int] = field(default_factory=list)  # deal indices whose result is now known
    new_deal: bool = False
    game_over: bool = False
    by_computer: bool = False
    for_player: bool = False  # the seat's only legal card, played for its player (their auto-play setting)
    undone: bool = False  # ``action`` was taken back (bot/tables/manners.py)
    events: list[Event] = field(default_factory=list)  # what the engine says the action made happen


# What the manager says, with its arguments: (table), (table), (table, outcome), (table).  The bot dispatches each as
# a discord.py event, heard by ``on_<name>`` listeners.
# A table's status, in a refusal's words.
STATUS_WORDS = {LOBBY: N_("still in its lobby"), FINISHED: N_("finished"), CANCELLED: N_("cancelled")}
LOBBY_CHANGED = "table_lobby_changed"
GAME_STARTED = "table_game_started"
ACTED = "table_acted"
TABLE_CLOSED = "table_closed"
TABLE_EVENTS = (LOBBY_CHANGED, GAME_STARTED, ACTED, TABLE_CLOSED)
# Another process sharing the database changed the table (or its clock), and this one reloaded it: said to this
# process's listeners only (the clocks re-read the table's clock), never announced again.
REFRESHED = "table_refreshed"
# The table's owner (bot/tables/placement.py) caught up with moves another process applied: (table, outcome), the
# outcome summing them up as one, for this process's listeners only; the owner shows them and moves its computers.
CAUGHT_UP = "table_caught_up"
# Another process changed a table this one does not own, which is not read now (``TableManager.get`` reads it when it
# is needed): for this process's listeners only (the clocks re-read the clock of a table that has one).
CHANGED_ELSEWHERE = "table_changed_elsewhere"


class FixedDeals(Protocol):
    """A table whose deals are set in advance (a tournament's round): the first dealer and the cards of each deal
    (None: drawn at random as usual), and how many deals it plays (None: to the end of the game)."""

    @property
    def first_dealer(self) -> int | None: ...

    @property
    def deals(self) -> int | None: ...

    def cards(self, match: Match, deal_index: int) -> DealCards | None: ...


class RecordGuard(Protocol):
    """Says why ``user_id`` may not see ``table``'s record yet (a tournament's board they have still to play), or
    None."""

    async def __call__(self, table: Table, user_id: int, /) -> str | None: ...


class TableEvents(Protocol):
    """Told what happened to a table, after the change is saved; it must not wait (``bot.dispatch`` schedules the
    listeners), so a slow listener never holds up the player's answer or the table's lock."""

    def __call__(self, event: str, /, *args: Any) -> None: ...


def _probe(game: str, options: dict[str, Any]) -> Match:
    """A match checking the table's options (a tournament board's may need a first dealer other than seat 0)."""
    try:
        return probe(game, options)
    except RecordError as e:
        raise Refusal.of(e) from None


def _nobody_listens(event: str, /, *args: Any) -> None:
    pass


@dataclass
class Table:
    """A table in memory: its stored row, and while playing its record and the match replayed from it."""

    row: TableRow
    players: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    record: GameRecord | None = None
    match: Match | None = None
    # Bumped by every applied action and every new deal; components carry it so that a stale click is refused.
    version: int = 0
    last_trick: list[dict] | None = None
    computer_task: asyncio.Task | None = None
    # Users found to refuse DMs (Discord error 50007), remembered across leaving and re-joining the lobby.
    closed_dms: set[int] = field(default_factory=set)
    # Presenter's per-table scratch space (message bookkeeping); never persisted.
    extra: dict[str, Any] = field(default_factory=dict)
    # Human seats whose clock ran out: a computer stands in until they are back (bot/clocks/service.py stores this).
    away: set[int] = field(default_factory=set)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game(self) -> str:
        return self.row.game

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def seats(self) -> dict[int, SeatRow]:
        return self.row.seats

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.row.seats.values():
            if seat.user_id == user_id:
                return seat.seat
        return None

    def names(self) -> list[str]:
        return [self.row.seats[s].name if s in self.row.seats else f"seat {s + 1}" for s in range(self.players)]

    def is_full(self) -> bool:
        return len(self.row.seats) == self.players

    def free_seats(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.row.seats]

    def is_computer(self, seat: int | None) -> bool:
        return seat is not None and seat in self.row.seats and self.row.seats[seat].computer is not None

    def stands_in(self, seat: int | None) -> bool:
        """A computer plays this away player's seat; when every human is away nobody plays and the table waits."""
        if seat is None or seat not in self.away:
            return False
        return any(r.user_id is not None and s not in self.away for s, r in self.seats.items())

    def deal_index(self) -> int:
        return len(self.record.deals) - 1 if self.record else -1


def _deal_json(cards) -> dict:
    out = DealRecord(cards).to_json()
    out.pop("actions")
    return out


def _replayed(table: Table, deal_before: int) -> Outcome | None:
    """What a table replayed whole from the store did since ``deal_before`` (its last deal then), as far as what the
    players see needs it: a new deal, the game's end."""
    match, record = table.match, table.record
    if match is None or record is None:
        return None
    played = next((acts for deal in reversed(record.deals) if (acts := effective_actions(deal.actions))), None)
    if not played:
        return None
    outcome = Outcome(action_from_json(played[-1]), new_deal=table.deal_index() > deal_before)
    outcome.game_over = match.phase == GAME_OVER
    if match.phase in (BETWEEN_DEALS, GAME_OVER):
        outcome.deals_finished.append(table.deal_index())
    return outcome


def _count_version(record: GameRecord) -> int:
    return len(record.deals) + sum(len(d.actions) for d in record.deals)


class TableManager:
    def __init__(
        self,
        store: Store,
        events: TableEvents | None = None,
        *,
        ai_delay: float = 1.0,
        draw_interval: float | None = None,
        kitty_pause: float = 0.0,
        rng: random.Random | None = None,
    ):
        self.store = store
        self.events: TableEvents = events or _nobody_listens
        self.ai_delay = ai_delay
        # The draw's pace at a table with humans (bot/process/settings.py says why these numbers); a table of
        # computers draws at a quarter of ``ai_delay``, and so does every table when ``draw_interval`` is None.
        self.draw_interval = draw_interval
        self.kitty_pause = kitty_pause
        # Deals must be unpredictable for players; tests pass a seeded generator.
        self.rng = rng or random.SystemRandom()
        self.tables: dict[int, Table] = {}
        self._by_user: dict[int, set[int]] = {}
        self._closing = False
        self._announcing: set[asyncio.Task] = set()  # tasks telling other processes, or hearing from them
        # Tables whose reload, for news from another process, waits to read the store: more news of them needs no
        # other reload (measured: a burst of news, a table's start say, queued hundreds of reloads that held up the
        # players' clicks for seconds, bench/bench_processes.py).
        self._to_reload: set[int] = set()
        self._behind: set[int] = set()  # other processes' tables changed since this process last read them
        # Tables playing fixed deals, by id (their owner sets these again after a restart, before any action).
        self.fixed_deals: dict[int, FixedDeals] = {}
        # Asked before a finished table's record is shown (its deals may be boards others have still to play).
        self.record_guards: list[RecordGuard] = []
        # Asked before someone starts watching a table (a spectator of a board must not have it still to play).
        self.watch_guards: list[RecordGuard] = []
        # Seated players' settings (bot/storage/player_settings.py), loaded when their table starts or resumes.
        self._player_settings: dict[int, PlayerSettings] = {}
        # Whether this process does a table's own work (its computers): the one holding its server's shard does,
        # when several processes share the shards (bot/tables/placement.py).  None: a lone process, which does every
        # table's and never takes over from another.
        self.owns: Callable[[Table], bool] | None = None

    def _tell(self, event: str, table: Table, *args: Any) -> None:
        """Tell this process's listeners, and the other processes sharing the database (each reloads the table)."""
        self.events(event, table, *args)
        if event == ACTED and args[0].game_over:
            # A game played to its end closes its table: its listeners hear the same close as for any other end.
            self.events(TABLE_CLOSED, table)
        if event in TABLE_EVENTS and self.store.engine != "sqlite":
            task = asyncio.create_task(self.store.announce_table(table.id))
            self._announcing.add(task)
            task.add_done_callback(self._announcing.discard)

    async def listen_to_other_processes(self) -> None:
        """Keep this process's tables current when another process sharing the database changes them."""
        await self.store.listen_to_tables(self._changed_elsewhere)

    def _changed_elsewhere(self, table_id: int) -> None:
        if self._closing or table_id in self._to_reload:
            return  # the reload waiting to read the store sees this change too
        copy = self.tables.get(table_id)
        if copy is not None and copy.status == PLAYING and self.owns is not None and not self.owns(copy):
            # Not this process's table: read when needed (``get``) or at the next ``catch_up_behind``, not per move.
            self._behind.add(table_id)
            self.events(CHANGED_ELSEWHERE, copy)
            return
        self._to_reload.add(table_id)
        known = table_id in self.tables
        task = asyncio.create_task(self.refresh(table_id) if known else self._load_elsewhere(table_id))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)
        task.add_done_callback(lambda _: self._to_reload.discard(table_id))

    async def _load_elsewhere(self, table_id: int) -> None:
        """A table another process opened: kept here too, so that this process can answer its players."""
        try:
            await self.get(table_id)
            await self.refresh(table_id)  # as it is now (another load may have got here first, with older news)
        except Exception:
            log.exception("table %d: could not load it after another process opened it", table_id)

    async def refresh(self, table_id: int, seen_version: int | None = None) -> Table | None:
        """Reload a table another process changed (under its lock), unless it is already as the store has it.
        ``seen_version``: only when the player saw a newer version than this process has (a click that came
        before the news of the move it answers)."""
        table = self.tables.get(table_id)
        if table is None or (seen_version is not None and seen_version <= table.version):
            return table
        caught_up: Outcome | None = None
        async with table.lock:
            self._to_reload.discard(table_id)  # news from now on needs a reading after this one
            self._behind.discard(table_id)
            row = await self.store.load_table(table_id)
            if row is None:
                return table
            deal_before = table.deal_index()
            steps: list[Step] | None = None
            if row.status == table.status and row.first_dealer is not None and table.record and table.record.deals:
                last = table.deal_index()
                deals, actions = await self.store.record_since(table_id, last, len(table.record.deals[last].actions))
                if not deals and not actions:
                    if seen_version is None:
                        self.events(REFRESHED, table)  # the game is as it was; its clock may not be
                    return table
                steps = steps_after(table.record, deals, actions)
            try:
                table.row = row
                table.closed_dms = {s.user_id for s in row.seats.values() if s.dm_closed and s.user_id is not None}
                if steps is not None:
                    try:
                        caught_up = self._catch_up(table, steps)
                    except Exception:
                        log.warning("table %d: another process's moves did not apply here; replaying it", table_id)
                        await self._replay_into(table)
                        caught_up = _replayed(table, deal_before)
                elif row.first_dealer is not None:
                    await self._replay_into(table)
                    caught_up = _replayed(table, deal_before)
                self._index(table)
            except Exception:
                log.exception("table %d: could not reload it after another process changed it", table_id)
        self.events(REFRESHED, table)
        if caught_up is not None and self.owns is not None and self.owns(table):  # the owner shows it, moves on
            self.events(CAUGHT_UP, table, caught_up)
            self.schedule_computers(table)
        self._forget_if_ended(table)
        return table

    async def catch_up_behind(self) -> None:
        """Read the tables of other processes that changed since this process last read them (one reading each,
        however many moves were made)."""
        for table_id in sorted(self._behind):
            if not self._closing:
                await self.refresh(table_id)

    def _catch_up(self, table: Table, steps: list[Step]) -> Outcome | None:
        """Another process's moves and deals applied here as ``_apply`` and ``_next_deal`` apply them; what they did,
        as one outcome (None: nothing was played)."""
        assert table.match is not None and table.record is not None
        summed: Outcome | None = None
        for step in steps:
            if isinstance(step, NewDeal):
                if table.match.phase != BETWEEN_DEALS:  # the deal before it is not over here: news is missing
                    raise RecordError(f"table {table.id}: a new deal before the last one ended")
                table.match.start_deal(step.cards)
                table.version += 1
                table.last_trick = None
                table.record.add_deal(step.cards)
                if summed is None and table.record.deals[-2].actions:
                    summed = Outcome(action_from_json(table.record.deals[-2].actions[-1]))
                if summed is not None:
                    summed.new_deal = True
                continue
            trick_before = self._trick_now(table) if step.type == "play" else []
            events = table.match.apply_observed(step)
            table.version += 1
            table.record.append(step)
            self._note_last_trick(table, trick_before, step)
            deal = len(table.record.deals) - 1
            summed = Outcome(step, events=[*(summed.events if summed else ()), *events],
                             deals_finished=list(summed.deals_finished) if summed else [])  # fmt: skip
            if table.match.phase in (BETWEEN_DEALS, GAME_OVER):
                summed.deals_finished.append(deal)
            summed.game_over = table.match.phase == GAME_OVER
        return summed

    # --- finding tables ----------------------------------------------------------------------------------------

    async def get(self, table_id: int) -> Table:
        """A live table, or a finished/cancelled one loaded from the store (finished games stay queryable)."""
        table = self.tables.get(table_id)
        if table is not None:
            if table_id in self._behind:  # another process's table, changed since this process read it
                return await self.refresh(table_id) or table
            return table
        row = await self.store.load_table(table_id)
        if row is None:
            raise Refusal("There is no table #{table}.", table=table_id)
        return await self._hydrate(row)

    def tables_of(self, user_id: int, channel_id: int | None = None, status: str | None = PLAYING) -> list[Table]:
        found = (self.tables.get(t) for t in sorted(self._by_user.get(user_id, ())))
        return [
            t
            for t in found
            if t is not None
            and t.seat_of(user_id) is not None
            and (channel_id is None or t.row.channel_id == channel_id)
            and (status is None or t.status == status)
        ]

    def _index(self, table: Table) -> None:
        """Keep the user → tables index (slash commands find the user's table without scanning them all)."""
        for user_id in table.extra.pop("indexed_users", ()):
            self._by_user.get(user_id, set()).discard(table.id)
        users = {s.user_id for s in table.seats.values() if s.user_id is not None}
        for user_id in users:
            self._by_user.setdefault(user_id, set()).add(table.id)
        table.extra["indexed_users"] = users

    # --- lobby -------------------------------------------------------------------------------------------------

    async def create(
        self,
        *,
        game: str,
        options: dict[str, Any],
        preset: str | None,
        host_id: int,
        host_name: str,
        channel_id: int,
        channel_name: str = "",
        guild_id: int | None = None,
        guild_name: str = "",
        hints: bool = False,
        open_review: bool = False,
        spectator_hands: bool = False,
        language: str | None = None,
    ) -> Table:
        probe = _probe(game, options)
        table_id = await self.store.create_table(
            guild_id=guild_id,
            guild_name=guild_name,
            channel_id=channel_id,
            channel_name=channel_name,
            game=game,
            preset=preset,
            options=options,
            host_id=host_id,
            host_name=host_name,
            hints=hints,
            open_review=open_review,
            spectator_hands=spectator_hands,
            language=language,
        )
        row = await self.store.load_table(table_id)
        assert row is not None
        table = Table(row, probe.players)
        self.tables[table_id] = table
        self._index(table)
        return table

    async def _lobby(self, table_id: int) -> Table:
        table = await self.get(table_id)
        if table.status != LOBBY:
            raise Refusal(
                N_("Table #{table} has already started.")
                if table.status == PLAYING
                else N_("Table #{table} has already ended."),  # fmt: skip
                table=table_id,
            )
        return table

    async def _save_seats(self, table: Table, seats: dict[int, SeatRow]) -> None:
        await self.store.set_seats(table.id, seats)
        table.row.seats = seats
        self._index(table)

    async def join(self, table_id: int, user_id: int, name: str, seat: int | None = None) -> int:
        """Seat a user (the first free seat unless ``seat`` is given; a seated user moves).  Returns the seat."""
        table = await self._lobby(table_id)
        async with table.lock:
            if table.status != LOBBY:
                raise Refusal("Table #{table} has already started.", table=table_id)
            current = table.seat_of(user_id)
            if seat is None:
                if current is not None:
                    raise Refusal("You are already in seat {seat} at table #{table}.", seat=current + 1, table=table_id)
                free = table.free_seats()
                if not free:
                    raise Refusal("Table #{table} is full.", table=table_id)
                seat = free[0]
            if not 0 <= seat < table.players:
                raise Refusal("Table #{table} has seats 1 to {count}.", table=table_id, count=table.players)
            if seat == current:
                raise Refusal("You are already in seat {seat}.", seat=seat + 1)
            if seat in table.seats:
                raise Refusal("Seat {seat} is taken by {name}.", seat=seat + 1, name=table.seats[seat].name)
            seats = {s: r for s, r in table.seats.items() if s != current}
            dm_closed = user_id in table.closed_dms
            seats[seat] = SeatRow(seat=seat, name=name, user_id=user_id, dm_closed=dm_closed)
            await self._save_seats(table, seats)
        self._tell(LOBBY_CHANGED, table)
        return seat

    async def leave(self, table_id: int, user_id: int) -> None:
        table = await self._lobby(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("You are not seated at table #{table}.", table=table_id)
            seats = {s: r for s, r in table.seats.items() if s != seat}
            humans = [r for r in seats.values() if r.user_id is not None]
            if user_id == table.row.host_id and not humans:
                await self._close(table, CANCELLED)
                return
            await self._save_seats(table, seats)
            if user_id == table.row.host_id:
                # The lobby goes on with the longest-seated... simplest fair rule: the lowest seat's player hosts.
                new_host = humans[0].user_id
                assert new_host is not None  # humans are the seats that have a user
                table.row.host_id = new_host
                await self.store.set_host(table.id, table.row.host_id)
        self._tell(LOBBY_CHANGED, table)

    async def add_computer(
        self, table_id: int, user_id: int, level: str | None = None, *, seat: int | None = None, name: str = ""
    ) -> int:
        """Seat a computer player; ``level`` defaults to ``heuristic`` in the real games (``random`` elsewhere).
        ``seat`` and ``name``: a rematch keeps each computer where it sat."""
        table = await self._lobby(table_id)
        if level is None:
            level = "heuristic" if computers_know(table.game) and "heuristic" in PLAYERS else "random"
        if level not in PLAYERS:
            raise Refusal(
                "Unknown computer level '{level}'; choose from {levels}.", level=level, levels=", ".join(PLAYERS)
            )
        async with table.lock:
            self._host_only(table, user_id, Words("add computer players"))
            free = table.free_seats()
            if not free:
                raise Refusal("Table #{table} is full.", table=table_id)
            seat = seat if seat in free else free[0]
            number = sum(1 for r in table.seats.values() if r.computer) + 1
            seats = dict(table.seats)
            name = name or f"Computer {number}" + ("" if level in ("random", "heuristic") else f" ({level})")
            seats[seat] = SeatRow(seat=seat, name=name, computer=level)
            await self._save_seats(table, seats)
        self._tell(LOBBY_CHANGED, table)
        return seat

    async def remove_computer(self, table_id: int, user_id: int) -> None:
        table = await self._lobby(table_id)
        async with table.lock:
            self._host_only(table, user_id, Words("remove computer players"))
            computers = [s for s, r in table.seats.items() if r.computer]
            if not computers:
                raise Refusal("There is no computer player to remove.")
            seats = {s: r for s, r in table.seats.items() if s != max(computers)}
            await self._save_seats(table, seats)
        self._tell(LOBBY_CHANGED, table)

    async def mark_dm_closed(self, table: Table, seat: int) -> None:
        user_id = table.seats[seat].user_id
        if user_id is not None:
            table.closed_dms.add(user_id)
        if table.seats[seat].dm_closed:
            return
        table.seats[seat].dm_closed = True
        await self.store.set_dm_closed(table.id, seat)

    @staticmethod
    def _host_only(table: Table, user_id: int, what: Words) -> None:
        if user_id != table.row.host_id:
            raise Refusal("Only the host of table #{table} can {what}.", table=table.id, what=what)

    async def cancel(self, table_id: int, user_id: int, *, admin: bool = False) -> bool:
        """The host cancels a lobby; only a server admin (``admin``, checked by the caller: server moderation) ends a
        running game, which stays in the results, unrated.  Returns whether a running game was ended."""
        table = await self.get(table_id)
        async with table.lock:
            if table.status not in (LOBBY, PLAYING):
                raise Refusal("Table #{table} has already ended.", table=table_id)
            running = table.status == PLAYING
            if running and not admin:
                # Cards have been dealt to everyone: one player alone does not end their game.
                raise Refusal(
                    "Table #{table} has started: its host can cancel it only in the lobby. A running game ends "
                    "early by a vote of its players (`/table stop`), or by a server admin.",
                    table=table_id,
                )
            if not admin:
                self._host_only(table, user_id, Words("cancel it"))
            await self._close(table, CANCELLED)
            return running

    async def end_by_vote(self, table_id: int) -> None:
        """The players voted to stop (bot/tables/manners.py): the game is kept in the results, unrated."""
        table = await self.get(table_id)
        async with table.lock:
            if table.status != PLAYING:
                raise Refusal("Table #{table} has already ended.", table=table_id)
            await self._close(table, CANCELLED)

    async def play_agreed(self, table: Table, actions: list[Action]) -> list[Outcome]:
        """Play what the table agreed to (a claim's remaining cards), each card saved as any other; the caller holds
        the table's lock.  Stops where the game itself stops."""
        outcomes = []
        for action in actions:
            if table.status != PLAYING:
                break
            outcome = await self._apply(table, action, by_computer=True)
            outcomes.append(outcome)
            if outcome.new_deal or outcome.game_over:
                break
        for outcome in outcomes:
            self._tell(ACTED, table, outcome)
        self._forget_if_ended(table)
        return outcomes

    async def take_back(self, table: Table, seat: int) -> Outcome:
        """Take back ``seat``'s card just played (its opponents agreed): an ``undo`` in the record, saved, then the
        match replayed from the record.  The caller holds the table's lock and checked that it may be done."""
        record = table.record
        assert record is not None
        deal_index = len(record.deals) - 1
        last = record.deals[-1].actions[-1]
        undo = {"seat": seat, "type": "undo"}
        await self.store.append_action(table.id, deal_index, len(record.deals[-1].actions), undo)
        record.append_undo(seat)
        result = replay(record)
        if result.error:  # cannot happen for an undo the caller checked; the store still has the truth
            log.error("table %d: the undo does not replay: %s", table.id, result.error)
            await self._reload(table)
        else:
            table.match = result.match
        table.version += 1
        table.last_trick = None
        table.extra.pop("trick_seen", None)
        outcome = Outcome(action_from_json(last), by_computer=False)
        outcome.undone = True
        self._tell(ACTED, table, outcome)
        return outcome

    async def close_cancelled(self, table: Table) -> None:
        """Close a lobby or a game as cancelled (the clocks' closing of an abandoned table); the caller holds the
        table's lock and has checked that it is still open."""
        await self._close(table, CANCELLED)

    async def finish_as_played(self, table: Table, winner: int | None) -> None:
        """A table that stopped at a deal limit set from outside (a tournament's round) ends as played: finished and
        rated like any game, ``winner`` the scoring unit that won (None: ranked by the scores)."""
        async with table.lock:
            if table.status != PLAYING or table.match is None:
                return
            await record_played(self.store, table.row, {**table.match.output(), "phase": GAME_OVER, "winner": winner})
            await self._close(table, FINISHED)

    async def seat_substitute(self, table: Table, row: SeatRow) -> None:
        """Give ``row.seat`` to a substitute mid-game, saved before it counts; the caller holds the table's lock."""
        await self._save_seats(table, {**table.seats, row.seat: row})

    async def _close(self, table: Table, status: str) -> None:
        if status != FINISHED and table.match is not None:  # a started game is kept in the results, unrated
            await close_game(self.store, table.row, status, table.match.output())
        elif status != FINISHED:  # a finished table's status was saved with its last action
            await self.store.set_status(table.id, status)
        table.row.status = status
        if table.computer_task and table.computer_task is not asyncio.current_task():
            table.computer_task.cancel()
        self._tell(TABLE_CLOSED, table)
        self._forget_if_ended(table)

    async def watch_withheld(self, table: Table, user_id: int) -> str | None:
        for guard in self.watch_guards:
            reason = await guard(table, user_id)
            if reason:
                return reason
        return None

    async def record_withheld(self, table: Table, user_id: int) -> str | None:
        for guard in self.record_guards:
            reason = await guard(table, user_id)
            if reason:
                return reason
        return None

    # --- players' settings -------------------------------------------------------------------------------------

    def settings_of(self, user_id: int) -> PlayerSettings:
        """A seated player's settings (the defaults for one who never changed any)."""
        return self._player_settings.get(user_id, PlayerSettings())

    async def player_settings(self, user_id: int) -> PlayerSettings:
        if user_id not in self._player_settings:
            self._player_settings.update(await load_player_settings(self.store, [user_id]))
        return self.settings_of(user_id)

    async def set_player_settings(self, user_id: int, settings: PlayerSettings) -> None:
        await save_player_settings(self.store, user_id, settings)
        self._player_settings[user_id] = settings
        for table in self.tables_of(user_id):
            self._note_four_colour(table)
            self._note_languages(table)
            self.schedule_computers(table)  # auto-play turned on while their forced card waits

    async def hear_language(self, user_id: int, lang: str) -> None:
        """Store the language a player's Discord client was just heard in (their hand's after a restart)."""
        settings = replace(await self.player_settings(user_id), heard_language=lang)
        await save_player_settings(self.store, user_id, settings)
        self._player_settings[user_id] = settings
        for table in self.tables_of(user_id):
            self._note_languages(table)

    async def _load_player_settings(self, table: Table) -> None:
        users = [r.user_id for r in table.seats.values() if r.user_id is not None]
        self._player_settings.update(await load_player_settings(self.store, users))
        self._note_four_colour(table)
        self._note_languages(table)

    def _note_languages(self, table: Table) -> None:
        """Each seat's language as stored (chosen, else last heard), for the presentation to write their hand in
        before they next interact (after a restart, say)."""
        table.extra["languages"] = {
            s: lang
            for s, r in table.seats.items()
            if r.user_id is not None
            and (lang := self.settings_of(r.user_id).language or self.settings_of(r.user_id).heard_language)
        }

    def _note_four_colour(self, table: Table) -> None:
        """The seats whose players draw their own pictures with the four-colour pack (the presentation reads it)."""
        table.extra["four_colour"] = {
            s for s, r in table.seats.items() if r.user_id is not None and self.settings_of(r.user_id).four_colour
        }

    def forced_play(self, table: Table) -> Action | None:
        """The card the seat to move must play, when it is their only legal action and its player lets the bot
        play it for them (a forced card is no decision)."""
        match = table.match
        if match is None or match.phase in (BETWEEN_DEALS, GAME_OVER) or match.to_move is None:
            return None
        seat = match.to_move
        user_id = table.seats[seat].user_id if seat in table.seats else None
        if user_id is None or table.stands_in(seat) or not self.settings_of(user_id).auto_play:
            return None
        mine = [a for a in match.legal_actions() if a.seat == seat]
        return mine[0] if len(mine) == 1 and isinstance(mine[0], Action) and mine[0].type == "play" else None

    # --- playing -----------------------------------------------------------------------------------------------

    async def start(self, table_id: int, user_id: int) -> Table:
        table = await self._lobby(table_id)
        async with table.lock:
            if table.status != LOBBY:
                raise Refusal("Table #{table} has already started.", table=table_id)
            self._host_only(table, user_id, Words("start the game"))
            if not table.is_full():
                missing = table.players - len(table.seats)
                raise Refusal(
                    N_("1 more player needed (or add computer players).")
                    if missing == 1
                    else N_("{count} more players needed (or add computer players)."),
                    count=missing,
                )
            fixed = self.fixed_deals.get(table.id)
            planned_dealer = fixed.first_dealer if fixed else None
            first_dealer = self.rng.randrange(table.players) if planned_dealer is None else planned_dealer
            match = match_class(table.game)(table.row.options, first_dealer)
            cards = (fixed.cards(match, 0) if fixed else None) or match.random_deal(self.rng)
            await self.store.start_game(table.id, first_dealer, _deal_json(cards))
            match.start_deal(cards)
            table.record = GameRecord(table.game, dict(table.row.options), first_dealer)
            table.record.add_deal(cards)
            table.match = match
            table.version = 1
            table.row.status = PLAYING
            table.row.first_dealer = first_dealer
        await self._load_player_settings(table)
        self._tell(GAME_STARTED, table)
        self.schedule_computers(table)
        return table

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: dict[str, Any],
        *,
        expected_version: int | None = None,
        interaction_id: str | None = None,
    ) -> Outcome:
        """Apply a user's action (a record-style dict without ``seat``); ``Refusal`` with the reason otherwise.
        ``interaction_id``: Discord's id of the click or command; an interaction's action is stored once."""
        table = await self.get(table_id)
        async with table.lock:
            try:
                outcome = await self._act_once(table, user_id, action, expected_version, interaction_id)
            except StaleTable:
                # Reloaded from the store: the move is checked again against the game as it is now, unless this
                # very interaction is already stored (another process got it too, or it was delivered twice).
                if interaction_id is not None and await self.store.interaction_applied(interaction_id):
                    raise Refusal("That move was already made (your click arrived twice).") from None
                outcome = await self._act_once(table, user_id, action, None, interaction_id)
        self._tell(ACTED, table, outcome)
        self.schedule_computers(table)
        self._forget_if_ended(table)
        return outcome

    async def made_by(self, interaction_id: str) -> dict[str, Any] | None:
        """The action this interaction made if it is stored already (by this process or another), else None."""
        return await self.store.action_of_interaction(interaction_id)

    async def _act_once(
        self,
        table: Table,
        user_id: int,
        action: dict[str, Any],
        expected_version: int | None,
        interaction_id: str | None,
    ) -> Outcome:
        if table.status != PLAYING:
            status = Words(STATUS_WORDS[table.status]) if table.status in STATUS_WORDS else table.status
            raise Refusal("Table #{table} is not being played (it is {status}).", table=table.id, status=status)
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("You are not seated at table #{table}; only its players can act.", table=table.id)
        if (
            expected_version is not None
            and expected_version != table.version
            and action.get("type") not in UNVERSIONED_TYPES
        ):
            raise Refusal("That choice is out of date: the game has moved on. Press **My hand** to see it now.")
        try:
            parsed = action_from_json({**action, "seat": seat})
        except (IllegalAction, RecordError) as e:
            raise Refusal.of(e) from None
        return await self._apply(table, parsed, interaction_id=interaction_id)

    def _forget_if_ended(self, table: Table) -> None:
        """An ended table leaves memory (its queued messages keep their reference); ``get`` reloads it from the
        store when someone asks for its record."""
        if table.status not in (LOBBY, PLAYING) and self.tables.get(table.id) is table:
            del self.tables[table.id]
            for user_id in table.extra.pop("indexed_users", ()):
                self._by_user.get(user_id, set()).discard(table.id)

    async def _apply(
        self,
        table: Table,
        action: Action,
        by_computer: bool = False,
        standin: bool = False,
        interaction_id: str | None = None,
        for_player: bool = False,
    ) -> Outcome:
        """Under the table's lock: validate and apply, save, deal the next deal when one ends.  ``standin``: a
        computer moves for an away player; the action log marks it (bot/ratings/standins.py counts these).
        ``for_player``: the seat's only legal card, played for its player (their auto-play setting)."""
        match, record = table.match, table.record
        assert match is not None and record is not None
        trick_before = self._trick_now(table) if action.type == "play" else []
        try:
            events = match.apply_observed(action)
        except IllegalAction as e:
            raise Refusal.of(e, table.names()) from None
        # Readers outside the lock (hand views) must see a version that matches the match they see.
        table.version += 1
        if for_player:  # said with the version, before the save lets a hand be drawn (bot/presentation/played_for.py)
            table.extra["played_for"] = (table.version, action.seat, action.to_json()["cards"])
        deal_index = len(record.deals) - 1
        outcome = Outcome(action, by_computer=by_computer, events=events)
        seq = len(record.deals[-1].actions)
        try:
            if match.phase == GAME_OVER:  # the last action, the result and the ratings: one transaction
                await finish_game(
                    self.store,
                    table.row,
                    deal_index,
                    seq,
                    action.to_json(),
                    match.output(),
                    standin=standin,
                    interaction_id=interaction_id,
                )
            else:
                await self.store.append_action(
                    table.id, deal_index, seq, action.to_json(), standin=standin, interaction_id=interaction_id
                )
        except Exception as e:
            if for_player:  # not played after all
                table.extra.pop("played_for", None)
            if is_conflict(e):
                log.info("table %d: another process saved action %d first; reloading the table", table.id, seq)
                await self._reload(table)
                raise StaleTable() from None
            log.exception("table %d: could not save an action; rebuilding the table from the store", table.id)
            await self._reload(table)
            raise Refusal("Sorry, that could not be saved; nothing was played. Please try again.") from None
        record.append(action)
        self._note_last_trick(table, trick_before, action)
        if match.phase in (BETWEEN_DEALS, GAME_OVER):
            outcome.deals_finished.append(deal_index)
        if match.phase == GAME_OVER:
            outcome.game_over = True
            table.row.status = FINISHED
        elif match.phase == BETWEEN_DEALS and self._deals_left(table):
            await self._next_deal(table)
            outcome.new_deal = True
        return outcome

    def _deals_left(self, table: Table) -> bool:
        """Whether another deal follows (a tournament's table stops after its round's deals, and waits for the
        tournament to close it)."""
        fixed = self.fixed_deals.get(table.id)
        limit = fixed.deals if fixed is not None else None
        return limit is None or table.record is None or len(table.record.deals) < limit

    @staticmethod
    def _trick_now(table: Table) -> list[dict]:
        """The trick on the table: what the previous play left (``_note_last_trick`` keeps it, for this version of
        this match), else from the engine's state (which builds the whole view: hands, auction, ...)."""
        seen = table.extra.get("trick_seen")
        if seen is not None and seen[0] == table.version and seen[1] is table.match:
            return seen[2]
        assert table.match is not None
        return table.match.state_json()["trick"]

    def _note_last_trick(self, table: Table, trick_before: list[dict], action: Action) -> None:
        """Remember the trick an action completed, for the table message; engines that report it win."""
        assert table.match is not None
        if action.type != "play":
            return
        state_trick = table.match.state_json()["trick"] if table.match.phase not in (BETWEEN_DEALS, GAME_OVER) else []
        table.extra["trick_seen"] = (table.version, table.match, state_trick)  # the next play's trick_before
        if trick_before and not state_trick:
            table.last_trick = [*trick_before, {"seat": action.seat, "cards": action.to_json()["cards"]}]

    async def _next_deal(self, table: Table) -> None:
        assert table.match is not None and table.record is not None
        fixed = self.fixed_deals.get(table.id)
        planned = fixed.cards(table.match, len(table.record.deals)) if fixed else None
        cards = planned or table.match.random_deal(self.rng)
        table.match.start_deal(cards)
        table.version += 1
        table.last_trick = None
        try:
            await self.store.add_deal(table.id, len(table.record.deals), _deal_json(cards))
        except Exception:
            log.exception("table %d: could not save a new deal; rebuilding the table from the store", table.id)
            await self._reload(table)
            raise
        table.record.add_deal(cards)

    # --- computer players --------------------------------------------------------------------------------------

    def schedule_computers(self, table: Table) -> None:
        """Have the computer players (or stand-ins, or an automatic draw) move, if it is their turn; the clocks call
        this when a stand-in takes over a seat."""
        if self._closing or table.status != PLAYING or table.match is None:
            return
        if self.owns is not None and not self.owns(table):  # its owner moves them (bot/tables/placement.py)
            return
        if not self.plays_itself(table):
            return
        if table.computer_task is None or table.computer_task.done():
            # Nobody waits to the millisecond for a computer's card: players' answers go first (urgency.py).
            table.computer_task = start_later(self._run_computers(table), name=f"computers-{table.id}")

    async def _computer_move(self, table: Table, seat: int) -> Action:
        """The computer's choice; the expert thinks for a while, so it thinks in a worker thread (the match is only
        changed under the table's lock, which this holds).  A failing player gives way to a random legal move."""
        assert table.match is not None and table.record is not None
        level = table.seats[seat].computer or "random"
        history = effective_actions(table.record.deals[-1].actions)
        try:
            player = make_player(level)
            if level in SEARCHING:
                return await asyncio.to_thread(player.choose, table.match, self.rng, history=history)
            return player.choose(table.match, self.rng, history=history)
        except Exception:
            log.exception("table %d: the %s player failed; a random legal move instead", table.id, level)
            return make_player("random").choose(table.match, self.rng)

    def plays_itself(self, table: Table) -> bool:
        """Computer players act by themselves, and so does drawing from a stock: a draw is no choice,
        and the decisions (exposing a card) stay open to everyone between draws.  So does a forced card, for a
        player who lets the bot play it."""
        match = table.match
        if match is None or match.phase in (BETWEEN_DEALS, GAME_OVER) or match.to_move is None:
            return False
        if table.extra.get("request_holds_play") == table.version:  # a claim or an undo is being answered
            return False
        if table.is_computer(match.to_move) or table.stands_in(match.to_move):
            return True
        if self.forced_play(table) is not None:
            return True
        return match.phase == DEAL and any(a.type == "draw" and a.seat == match.to_move for a in match.legal_actions())

    def _pause(self, table: Table) -> float:
        """Seconds before the next automatic move.  During a draw at a table where a human plays, every card waits
        ``draw_interval`` (their hand grows at a pace they can follow) and the draw that closes their choices (the
        kitty turned) waits ``kitty_pause``, whatever anyone holds, so that the pause tells nobody anything."""
        match = table.match
        if match is None or match.phase != DEAL:
            return self.ai_delay
        if self.draw_interval is None or not self._humans_play(table):
            return self.ai_delay / 4
        return self.kitty_pause if match.draw_ends_choices() else self.draw_interval

    @staticmethod
    def _humans_play(table: Table) -> bool:
        return any(r.user_id is not None and s not in table.away for s, r in table.seats.items())

    async def _run_computers(self, table: Table) -> None:
        """Let computer players act, each after a short pause, until a human is to act or the game ends."""
        try:
            while not self._closing:
                version = table.version
                await asyncio.sleep(self._pause(table))
                async with table.lock:
                    match = table.match
                    if table.status != PLAYING or match is None or not self.plays_itself(table):
                        return
                    if self.owns is not None and not self.owns(table):  # handed back to its owner meanwhile
                        return
                    if table.version != version:  # a player acted meanwhile (drew at once, say): pause afresh
                        continue
                    seat = match.to_move
                    assert seat is not None  # plays_itself() checked that someone is to move
                    standin = False
                    forced = None if table.is_computer(seat) else self.forced_play(table)
                    if table.is_computer(seat):
                        action = await self._computer_move(table, seat)
                    elif table.stands_in(seat):
                        action, standin = self._stand_in(table, seat), True
                    elif forced is not None:
                        action = forced
                        log.info("table %d: seat %d's only legal card played for them", table.id, seat)
                    else:
                        action = Action(seat, "draw")
                    try:
                        outcome = await self._apply(
                            table, action, by_computer=True, standin=standin, for_player=forced is not None
                        )
                    except StaleTable:  # another process moved here first (the table is reloaded): look again
                        continue
                    outcome.for_player = forced is not None
                self._tell(ACTED, table, outcome)
                self._forget_if_ended(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %d: a computer player failed", table.id)

    def _stand_in(self, table: Table, seat: int) -> Action:
        """The move of the computer standing in for an away player: the heuristic player, from the seat's view."""
        from rules.ai import choose_action

        assert table.match is not None and table.record is not None
        try:
            return choose_action(
                "heuristic", table.match, seat, self.rng, history=effective_actions(table.record.deals[-1].actions)
            )
        except Exception:
            log.exception("table %d: the stand-in failed; a random legal move instead", table.id)
            return make_player("random").choose(table.match, self.rng)

    # --- start-up and shut-down --------------------------------------------------------------------------------

    async def resume_all(self) -> list[Table]:
        """Rebuild every lobby and running table from the store (after a restart) and restart computer players."""
        try:
            await reconcile(self.store)  # ended tables without a result (older databases, interrupted writes)
        except Exception:
            log.exception("could not record the results of ended tables; they will be tried at the next start")
        rows = await self.store.tables_with_status(LOBBY, PLAYING)
        resumed = []
        for row in rows:
            try:
                table = await self._hydrate(row)
            except Exception:
                log.exception("table %d could not be resumed; it is left as it was in the store", row.id)
                continue
            resumed.append(table)
        return resumed

    def start_computers(self) -> None:
        for table in self.tables.values():
            self.schedule_computers(table)

    async def _hydrate(self, row: TableRow) -> Table:
        players = probe(row.game, row.options).players
        table = Table(row, players)
        table.closed_dms = {s.user_id for s in row.seats.values() if s.dm_closed and s.user_id is not None}
        if row.status != LOBBY and row.first_dealer is not None:
            await self._replay_into(table)
        if row.status in (LOBBY, PLAYING):
            if row.id in self.tables:  # loaded meanwhile (a click and another process's news at once): one copy
                return self.tables[row.id]
            self.tables[row.id] = table  # finished tables are loaded on demand and not kept
            self._index(table)
            await self._load_player_settings(table)
        if row.status == PLAYING and table.match is not None and table.match.phase == BETWEEN_DEALS:
            # Stopped between the last action of a deal and the next deal's cards being saved.
            async with table.lock:
                await self._next_deal(table)
        return table

    async def _replay_into(self, table: Table) -> None:
        record = await self.store.load_record(table.row)
        result = replay(record)
        if result.error:
            raise RecordError(f"table {table.id}: the stored record does not replay: {result.error}")
        # Seedless records always carry their cards; make them explicit for the in-memory record too.
        for i, deal in enumerate(record.deals):
            if deal.cards is None:
                deal.cards = deal_cards(record, result.match, i)
        table.record = record
        table.match = result.match
        table.version = _count_version(record)

    async def _reload(self, table: Table) -> None:
        row = await self.store.load_table(table.id)
        if row is not None:
            table.row = row
            await self._replay_into(table)

    async def close(self) -> None:
        """Stop computer players (their unsaved thinking is simply redone after a restart)."""
        self._closing = True
        tasks = [t.computer_task for t in self.tables.values() if t.computer_task and not t.computer_task.done()]
        tasks += [task for task in self._announcing if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
