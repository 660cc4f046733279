"""The table events of tables that a service opened for itself — a tournament's rounds, a daylong's boards — heard by
one set of listeners (the client registers them) and passed to the service that owns the table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from bot.tables.service import Outcome, Table


class TableOwner(Protocol):
    """A service that opens tables and must hear how they go (bot/tournaments/service.py, daylong_service.py)."""

    @property
    def by_table(self) -> Mapping[int, object]: ...

    async def table_acted(self, table: Table, deals_finished: list[int]) -> None: ...

    async def table_closed(self, table: Table) -> None: ...


class TableFollowers:
    """``on_table_*`` listeners for every owner's tables.  ``post_table_message`` posts a table message for a table
    that has none (a table opened by a service has no lobby message to turn into it)."""

    def __init__(self, post_table_message: Callable[[Table], Awaitable[None]]) -> None:
        self.post_table_message = post_table_message
        self.owners: list[TableOwner] = []

    def follow(self, owner: TableOwner) -> None:
        self.owners.append(owner)

    def forget(self, owner: TableOwner) -> None:
        if owner in self.owners:
            self.owners.remove(owner)

    def owner_of(self, table: Table) -> TableOwner | None:
        return next((owner for owner in self.owners if table.id in owner.by_table), None)

    async def on_table_game_started(self, table: Table) -> None:
        if self.owner_of(table) is not None and table.row.message_id is None:
            await self.post_table_message(table)

    async def on_table_acted(self, table: Table, outcome: Outcome) -> None:
        owner = self.owner_of(table)
        if owner is not None and outcome.deals_finished:
            await owner.table_acted(table, outcome.deals_finished)

    async def on_table_closed(self, table: Table) -> None:
        owner = self.owner_of(table)
        if owner is not None:
            await owner.table_closed(table)
