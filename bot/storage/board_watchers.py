"""Which boards a user has watched being played (issue 18's fairness: a spectator of a board cannot play it)."""

from __future__ import annotations

from bot.storage.store import Store


async def watched_daylong_boards(store: Store, tid: int, user_id: int) -> set[tuple[int, int]]:
    """(instance, board number) of every board of the daylong whose table ``user_id`` watched."""
    rows = await store.fetch_all(
        "SELECT p.instance, b.board_no FROM table_watchers w"
        " JOIN daylong_boards b ON b.table_id = w.table_id"
        " JOIN daylong_players p ON p.tournament_id = b.tournament_id AND p.user_id = b.user_id"
        " WHERE w.user_id = ? AND b.tournament_id = ?",
        (user_id, tid),
    )
    return {(int(r[0]), int(r[1])) for r in rows}
