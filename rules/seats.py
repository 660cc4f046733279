"""Seats and teams.  Seats are numbered in order of play; teams follow the record spec's layouts."""

from __future__ import annotations


def partnership_teams(players: int, teams: int) -> list[tuple[int, ...]]:
    """Teams of alternating seats: 4 players in 2 teams → (0, 2), (1, 3); 6 in 3 teams → (0, 3), (1, 4), (2, 5)."""
    if players % teams:
        raise ValueError(f"{players} players cannot form {teams} equal teams")
    return [tuple(range(t, players, teams)) for t in range(teams)]


def solo_teams(players: int) -> list[tuple[int, ...]]:
    return [(s,) for s in range(players)]


def team_index(teams: list[tuple[int, ...]], players: int) -> list[int]:
    out = [0] * players
    for t, seats in enumerate(teams):
        for s in seats:
            out[s] = t
    return out
