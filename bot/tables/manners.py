"""Manners at a running table (issue 15): a vote to stop the game, a claim of the remaining tricks, an undo of
one's last card, a rematch.  What players ask of each other, decided here; said to them by the cogs.

Decisions (docs/player-guide.md says them to players):

- **Stop**: any seated human may propose it; it passes when more than half of the table's human players agree (the
  proposer counts: with two humans both, with three two, with four three); it fails as soon as that is out of
  reach.  The game is then closed as cancelled: kept in the results, unrated.  Play goes on meanwhile.
- **Claim**: the engine decides (rules/claims.py).  Proven: the side's remaining tricks are played out at once.
  Impossible (no line gives the side every trick): refused.  Otherwise the human opponents are asked and must all
  agree; computer opponents never grant a claim the engine cannot prove.  While the question is open the computers
  wait; a card played meanwhile lapses the claim.
- **Undo**: at unrated tables only, a player's own last card, while it is still the last action of the deal; every
  human opponent must agree (computer opponents agree).  The record keeps both: the card and an ``undo`` action.
- Only one question at a time per table.  Each is stored (bot/storage/requests.py) when asked and when settled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.ratings.rating import rating_eligibility
from bot.storage.requests import open_request, rematch_of, set_rematch, settle_request
from bot.storage.store import FINISHED, LOBBY, PLAYING
from bot.tables.service import Outcome, Refusal, Table, TableManager
from rules.actions import Action
from rules.claims import can_claim, check_claim, claimer_side
from rules.errors import Words

STOP, CLAIM, UNDO = "stop", "claim", "undo"
ACCEPTED, REFUSED, LAPSED, PROVEN = "accepted", "refused", "lapsed", "proven"
# What a request is, as a refusal names it (a Words field: translated with the refusal).
KINDS = {STOP: Words("a vote to stop the game"), CLAIM: Words("a claim"), UNDO: Words("a request to take back a card")}
STOPPED_BY_VOTE = "stopped_by_vote"  # in ``Table.extra`` once its players voted to stop: how it ended, for its words


@dataclass
class Request:
    """An open question to the table."""

    kind: str
    table_id: int
    seat: int
    user_id: int
    version: int  # the table's version when asked: a claim or an undo lapses when the game moves on
    voters: tuple[int, ...]  # the users whose answers count
    needed: int  # how many must agree
    row_id: int
    yes: set[int] = field(default_factory=set)
    no: set[int] = field(default_factory=set)
    line: tuple[Action, ...] = ()  # a claim's plays
    message_id: int | None = None  # the channel message that asks (set by the presentation)

    def verdict(self) -> str | None:
        if len(self.yes) >= self.needed:
            return ACCEPTED
        if len(self.voters) - len(self.no) < self.needed:
            return REFUSED
        return None

    def waiting_for(self) -> list[int]:
        return [u for u in self.voters if u not in self.yes and u not in self.no]

    def holds_play(self) -> bool:
        return self.kind in (CLAIM, UNDO)


@dataclass
class Answer:
    """What a request came to, for the cog to say: ``outcome`` None while it waits for answers."""

    request: Request
    outcome: str | None
    outcomes: list[Outcome] = field(default_factory=list)


def pending(table: Table) -> Request | None:
    """The table's open question, if any (a claim or an undo the game has moved past stays here until someone
    next asks or answers, and is then stored as lapsed)."""
    request: Request | None = table.extra.get("request")
    return request


def _lapsed(table: Table, request: Request) -> bool:
    return table.status != PLAYING or (request.holds_play() and table.version != request.version)


def humans(table: Table) -> list[tuple[int, int]]:
    """(seat, user id) of each seat a person holds."""
    return [(s, r.user_id) for s, r in sorted(table.seats.items()) if r.user_id is not None]


def is_unrated(table: Table) -> bool:
    row = table.row
    return not rating_eligibility(guild_id=row.guild_id, players=table.players, seats=row.seats, hints=row.hints).rated


async def _settle(manager: TableManager, table: Table, request: Request, outcome: str) -> None:
    if table.extra.get("request") is request:
        del table.extra["request"]
        table.extra.pop("request_holds_play", None)
    await settle_request(manager.store, request.row_id, outcome, sorted(request.yes), sorted(request.no))
    manager.schedule_computers(table)  # a claim or an undo had them wait


async def _clear_lapsed(manager: TableManager, table: Table) -> None:
    request = pending(table)
    if request is not None and _lapsed(table, request):
        await _settle(manager, table, request, LAPSED)


async def _open(
    manager: TableManager, table: Table, kind: str, seat: int, user_id: int, voters, needed: int
) -> Request:
    await _clear_lapsed(manager, table)
    current = pending(table)
    if current is not None:
        raise Refusal(
            "Table #{table} is already answering {what}: wait for it to be settled.",
            table=table.id,
            what=KINDS[current.kind],
        )
    row_id = await open_request(manager.store, table.id, kind, seat, user_id, table.deal_index())
    request = Request(kind, table.id, seat, user_id, table.version, tuple(voters), needed, row_id)
    table.extra["request"] = request
    if request.holds_play():
        table.extra["request_holds_play"] = table.version
    return request


def _seated(table: Table, user_id: int) -> int:
    if table.status != PLAYING or table.match is None:
        raise Refusal("Table #{table} is not being played.", table=table.id)
    seat = table.seat_of(user_id)
    if seat is None:
        raise Refusal("You are not seated at table #{table}; only its players can ask that.", table=table.id)
    return seat


# --- stop ------------------------------------------------------------------------------------------------------


async def propose_stop(manager: TableManager, table_id: int, user_id: int) -> Answer:
    table = await manager.get(table_id)
    async with table.lock:
        seat = _seated(table, user_id)
        voters = [u for _, u in humans(table)]
        needed = len(set(voters)) // 2 + 1
        request = await _open(manager, table, STOP, seat, user_id, dict.fromkeys(voters), needed)
        request.yes.add(user_id)
    return await _decide(manager, table, request)


# --- claim -----------------------------------------------------------------------------------------------------


async def _claimable(manager: TableManager, table: Table, user_id: int) -> int:
    """The claimer's seat, if they may claim now; the caller holds the table's lock."""
    seat = _seated(table, user_id)
    match = table.match
    assert match is not None
    if not can_claim(match, seat):
        raise Refusal("You can claim the remaining tricks only while the cards are played and you hold some.")
    await _clear_lapsed(manager, table)
    if pending(table) is not None:
        raise Refusal("Table #{table} is already answering a question: wait for it to be settled.", table=table.id)
    return seat


async def claim(manager: TableManager, table_id: int, user_id: int) -> Answer:
    table = await manager.get(table_id)
    async with table.lock:
        seat = await _claimable(manager, table, user_id)
        assert table.match is not None
        match, version, cards = table.match, table.version, table.match.clone()
    # The search may take a second or two: on a copy of the match, in a worker thread, without the table's lock
    # (the others play on meanwhile); what it proved holds only if the game is still where it was.
    check = await asyncio.to_thread(check_claim, cards, seat)
    async with table.lock:
        if table.match is not match or table.version != version or table.status != PLAYING:
            raise Refusal("The game moved on while your claim was being checked: claim again if you still wish to.")
        seat = await _claimable(manager, table, user_id)
        if check.possible is False:
            raise Refusal("Your side cannot take every remaining trick, however the cards are played: play on.")
        if check.line is None:
            raise Refusal("Too many cards are left for me to check that claim: play a few more and claim again.")
        side = claimer_side(match, seat)
        opponents = [u for s, u in humans(table) if s not in side]
        request = await _open(manager, table, CLAIM, seat, user_id, dict.fromkeys(opponents), len(set(opponents)))
        request.line = check.line
        if check.proven:
            outcomes = await manager.play_agreed(table, list(check.line))
            await _settle(manager, table, request, PROVEN)
            return Answer(request, PROVEN, outcomes)
        if not opponents:  # computers grant only what the engine proves
            await _settle(manager, table, request, REFUSED)
            raise Refusal("The computer opponents play on: they accept only a claim that cannot fail.")
    return Answer(request, None)


# --- undo ------------------------------------------------------------------------------------------------------


async def request_undo(manager: TableManager, table_id: int, user_id: int) -> Answer:
    table = await manager.get(table_id)
    async with table.lock:
        seat = _seated(table, user_id)
        if not is_unrated(table):
            raise Refusal("Cards cannot be taken back at a rated table.")
        last = table.record.deals[-1].actions[-1] if table.record and table.record.deals[-1].actions else None
        if last is None or last.get("type") != "play" or last.get("seat") != seat:
            raise Refusal("Only your own card can be taken back, before anyone plays after it.")
        match = table.match
        assert match is not None
        side = claimer_side(match, seat)
        opponents = [u for s, u in humans(table) if s not in side]
        request = await _open(manager, table, UNDO, seat, user_id, dict.fromkeys(opponents), len(set(opponents)))
    if not opponents:
        return await _decide(manager, table, request)
    return Answer(request, None)


# --- answers ---------------------------------------------------------------------------------------------------


async def answer(manager: TableManager, table_id: int, user_id: int, row_id: int, agree: bool) -> Answer:
    table = await manager.get(table_id)
    async with table.lock:
        request = pending(table)
        if request is None or request.row_id != row_id:
            raise Refusal("That question is settled already.")
        if _lapsed(table, request):
            await _settle(manager, table, request, LAPSED)
            return Answer(request, LAPSED)
        if user_id not in request.voters:
            raise Refusal("This question is not yours to answer.")
        (request.yes if agree else request.no).add(user_id)
        (request.no if agree else request.yes).discard(user_id)
    return await _decide(manager, table, request)


async def _decide(manager: TableManager, table: Table, request: Request) -> Answer:
    verdict = request.verdict()
    if verdict is None:
        return Answer(request, None)
    outcomes: list[Outcome] = []
    if verdict == ACCEPTED:
        if request.kind == STOP:
            table.extra[STOPPED_BY_VOTE] = True
            await manager.end_by_vote(table.id)
        elif request.kind == CLAIM:
            async with table.lock:
                if _lapsed(table, request):
                    await _settle(manager, table, request, LAPSED)
                    return Answer(request, LAPSED)
                outcomes = await manager.play_agreed(table, list(request.line))
        elif request.kind == UNDO:
            async with table.lock:
                if _lapsed(table, request):
                    await _settle(manager, table, request, LAPSED)
                    return Answer(request, LAPSED)
                outcomes = [await manager.take_back(table, request.seat)]
    await _settle(manager, table, request, verdict)
    return Answer(request, verdict, outcomes)


# --- rematch ---------------------------------------------------------------------------------------------------

_rematch_locks: dict[int, asyncio.Lock] = {}


@dataclass
class Rematch:
    table: Table
    created: bool
    ready: bool  # every human of the old table is seated again: the caller starts it (after setting its clock)


async def rematch(
    manager: TableManager,
    old_id: int,
    user_id: int,
    name: str,
    before_create: Callable[[Table], Awaitable[None]] | None = None,
) -> Rematch:
    """A finished table's player asks for the same game again: the first opens a new table in the channel with the
    same options and the computers in their seats; each human takes their old seat by asking too; the game starts
    when all of them have (``ready``).  ``before_create(old)``: the server's checks for a new table (it may refuse)."""
    lock = _rematch_locks.setdefault(old_id, asyncio.Lock())
    async with lock:
        old = await manager.get(old_id)
        if old.status != FINISHED:
            raise Refusal("Table #{table} is not over: a rematch comes after the end of the game.", table=old_id)
        seat = old.seat_of(user_id)
        if seat is None:
            raise Refusal("Only the players of table #{table} can ask for its rematch.", table=old_id)
        new_id = await rematch_of(manager.store, old_id)
        created = False
        if new_id is None:
            if before_create is not None:
                await before_create(old)
            new = await manager.create(
                game=old.game,
                options=dict(old.row.options),
                preset=old.row.preset,
                host_id=user_id,
                host_name=name,
                channel_id=old.row.channel_id,
                channel_name=old.row.channel_name,
                guild_id=old.row.guild_id,
                guild_name=old.row.guild_name,
                hints=old.row.hints,
            )
            await set_rematch(manager.store, old_id, new.id)
            if seat != 0:
                await manager.join(new.id, user_id, name, seat=seat)
            for s, row in sorted(old.seats.items()):
                if row.computer is not None:
                    await manager.add_computer(new.id, user_id, row.computer, seat=s, name=row.name)
            created = True
        else:
            new = await manager.get(new_id)
            if new.status != LOBBY:
                raise Refusal(
                    "The rematch of table #{table} is table #{new_table}, which has already started.",
                    table=old_id,
                    new_table=new.id,
                )
            if new.seat_of(user_id) is not None:
                raise Refusal("You are already seated for the rematch, table #{new_table}.", new_table=new.id)
            free = seat if seat in new.free_seats() else None
            await manager.join(new.id, user_id, name, seat=free)
        ready = new.is_full() and {u for _, u in humans(new)} == {u for _, u in humans(old)}
        return Rematch(new, created, ready)
