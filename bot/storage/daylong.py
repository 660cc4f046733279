"""A daylong's players and boards in the store (migration 0015_daylong.sql); the daylong itself is a row of
``tournaments`` (bot/storage/tournaments.py) with its audit log there."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from bot.storage.store import Store
from bot.storage.tournaments import _audit, now_text
from rules.errors import Words

PLAYING, WITHDRAWN = "playing", "withdrawn"
BOARD_PLAYING, BOARD_FINISHED, BOARD_UNFINISHED = "playing", "finished", "unfinished"


@dataclass
class DaylongPlayer:
    user_id: int
    name: str
    instance: int
    thread_id: int | None
    status: str
    started_at: str


@dataclass
class DaylongBoard:
    user_id: int
    board_no: int
    table_id: int | None
    status: str
    net: int | None


async def players(store: Store, tid: int) -> list[DaylongPlayer]:
    rows = await store.fetch_all(
        "SELECT user_id, name, instance, thread_id, status, started_at FROM daylong_players"
        " WHERE tournament_id = ? ORDER BY started_at, user_id",
        (tid,),
    )
    return [DaylongPlayer(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows]


async def boards(store: Store, tid: int) -> list[DaylongBoard]:
    rows = await store.fetch_all(
        "SELECT user_id, board_no, table_id, status, net FROM daylong_boards WHERE tournament_id = ?"
        " ORDER BY user_id, board_no",
        (tid,),
    )
    return [DaylongBoard(r[0], r[1], r[2], r[3], r[4]) for r in rows]


async def add_player(store: Store, tid: int, user_id: int, name: str, instance: int) -> None:
    def insert(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO daylong_players (tournament_id, user_id, name, instance, thread_id, status, started_at)"
            " VALUES (?, ?, ?, ?, NULL, ?, ?)",
            (tid, user_id, name, instance, PLAYING, now_text()),
        )
        _audit(
            conn, tid, user_id, "start", Words("{name} plays instance {instance}.", name=name, instance=instance + 1)
        )

    await store.in_transaction(insert)


async def set_thread(store: Store, tid: int, user_id: int, thread_id: int) -> None:
    await store.write_one(
        "UPDATE daylong_players SET thread_id = ? WHERE tournament_id = ? AND user_id = ?", (thread_id, tid, user_id)
    )


async def start_board(store: Store, tid: int, user_id: int, board_no: int) -> None:
    """The board is the player's from now on, table or not: a board once started is never dealt to them again."""
    await store.write_one(
        "INSERT INTO daylong_boards (tournament_id, user_id, board_no, table_id, status, net, finished_at)"
        " VALUES (?, ?, ?, NULL, ?, NULL, NULL)",
        (tid, user_id, board_no, BOARD_PLAYING),
    )


async def set_board_table(store: Store, tid: int, user_id: int, board_no: int, table_id: int) -> None:
    await store.write_one(
        "UPDATE daylong_boards SET table_id = ? WHERE tournament_id = ? AND user_id = ? AND board_no = ?",
        (table_id, tid, user_id, board_no),
    )


async def finish_board(store: Store, tid: int, user_id: int, board_no: int, net: int | None) -> bool:
    """The board's result (None: unfinished); False if it already had one."""

    def update(conn: sqlite3.Connection) -> bool:
        done = conn.execute(
            "UPDATE daylong_boards SET status = ?, net = ?, finished_at = ? WHERE tournament_id = ? AND user_id = ?"
            " AND board_no = ? AND status = ?",
            (BOARD_FINISHED if net is not None else BOARD_UNFINISHED, net, now_text(), tid, user_id, board_no,
             BOARD_PLAYING),
        ).rowcount  # fmt: skip
        if done:
            played = (
                Words("Board {board}: net {net}.", board=board_no + 1, net=f"{net:+d}") if net is not None else None
            )
            _audit(conn, tid, user_id, "board", played or Words("Board {board}: unfinished.", board=board_no + 1))
        return bool(done)

    return await store.in_transaction(update)


async def withdraw(store: Store, tid: int, user_id: int, name: str) -> None:
    def update(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE daylong_players SET status = ? WHERE tournament_id = ? AND user_id = ?", (WITHDRAWN, tid, user_id)
        )
        _audit(conn, tid, user_id, "withdraw", Words("{name} withdrew.", name=name))

    await store.in_transaction(update)


async def board_of_table(store: Store, table_id: int) -> tuple[int, int, int] | None:
    """(daylong, player, board) that a table plays, if any."""
    row = await store.fetch_one(
        "SELECT tournament_id, user_id, board_no FROM daylong_boards WHERE table_id = ?", (table_id,)
    )
    return None if row is None else (row[0], row[1], row[2])
