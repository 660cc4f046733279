"""Ratings: who a finished game rates, how, and the conservative number shown for a rating.  Pure: no I/O.

The model is openskill's Plackett-Luce (Weng & Lin 2011, the library's default).  It rates *teams* of any size
in a *ranking* of any number of teams, ties allowed, which is exactly the shape of every game here:

- partnership games (fixed pairs or threes) are one ranking of two or three teams; both (or all three) partners
  of a team get the same rank, so each partner's rating moves from the team's result, by an amount that depends
  on that partner's own uncertainty;
- solo games (three players, cut-throat) rank every player by the final standing: the winner first, then the
  others by final score;
- called-partner games (five players) change partners every deal and keep one score per player, so the game's
  result is an individual standing; they are rated as five solo players by that standing.  Crediting the whole
  game to one deal's partnership would be wrong, and splitting it per deal would rate deals rather than games.

A rating (mu, sigma) is shown as one conservative number, ``display = 1000 + 40 * (mu - 3 * sigma)``: a new
player (mu 25, sigma 25/3) shows 1000, and a number only climbs once the rating is both high and certain.

Which games are rated: a finished game on a server whose seats all hold distinct human players.  Games with a
computer player, games outside a server, games at a table that allowed ``/hint``, and games that did not finish
(cancelled, abandoned) are recorded but unrated; ``rating_eligibility`` says so (and why) before the first card is
dealt.  Stand-ins and substitutes are judged at the end, from the stored action log (``bot/ratings/standins.py``): a
computer standing in for more than a quarter of a seat's moves, or a substitute playing fewer than a quarter of
the seat they took, makes the game unrated; otherwise the seat's player at the end is the one rated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from bot.ratings.standins import SeatPlay, standin_words
from rules.errors import Words
from rules.game_type import GameType
from rules.registry import lookup
from rules.seats import partnership_teams, solo_teams

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma  # 25, 25/3
DISPLAY_BASE, DISPLAY_SCALE, DISPLAY_Z = 1000.0, 40.0, 3.0


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: the rating the player is ~99.7% likely to be above."""
        return self.mu - DISPLAY_Z * self.sigma

    @property
    def display(self) -> int:
        return display_number(self.mu, self.sigma)


def display_number(mu: float, sigma: float) -> int:
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - DISPLAY_Z * sigma))


# --- who is rated ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatInfo:
    """Who sits in a seat: a user, or a computer player (``computer`` is its level)."""

    seat: int
    user_id: int | None
    computer: str | None = None
    name: str = ""


@dataclass(frozen=True)
class Eligibility:
    rated: bool
    reason: str | None = None  # why not, in words a player understands (English, as stored with the result)
    words: Words | None = None  # the same as a message id with fields, for each language

    def notice(self) -> str:
        """The line the bot shows when the game starts."""
        return "This game is rated." if self.rated else f"This game is not rated: {self.reason}."


def rating_eligibility(
    *,
    guild_id: int | None,
    players: int,
    seats: Mapping[int, Any] | Iterable[Any],
    status: str = "playing",
    removed_reason: str | None = None,
    hints: bool = False,
    play: Mapping[int, SeatPlay] | None = None,
    open_review: bool = False,
) -> Eligibility:
    """Whether a table's game counts for the ratings, and if not why.  ``seats`` are objects with ``seat``,
    ``user_id`` and ``computer`` (``bot.storage.store.SeatRow`` or ``SeatInfo``); ``status`` is the table's status
    (``lobby`` and ``playing`` look ahead to the game as it will be if it finishes); ``hints``: the table allowed
    ``/hint``; ``open_review``: every trick and the running points were open during the deals (a learning table);
    ``play``: who made each seat's moves (``bot.ratings.standins.tally``, known once the game is played)."""
    rows = list(seats.values()) if isinstance(seats, Mapping) else list(seats)
    if removed_reason is not None:
        return _unrated(Words("it was removed from the ratings ({reason})", reason=removed_reason))
    if status == "cancelled":
        return _unrated(Words("it was cancelled before the end"))
    if status not in ("lobby", "playing", "finished"):
        return _unrated(Words("it did not finish ({status})", status=status))
    if guild_id is None:
        return _unrated(Words("it is not played on a server"))
    if hints:
        return _unrated(Words("hints were allowed"))
    if open_review:
        return _unrated(Words("the trick review was open during the deals"))
    computers = sorted(r.seat + 1 for r in rows if getattr(r, "computer", None))
    if computers:
        which = ", ".join(map(str, computers))
        if len(computers) == 1:
            return _unrated(Words("a computer player is seated (seat {seats})", seats=which))
        return _unrated(Words("a computer player is seated (seats {seats})", seats=which))
    users = [r.user_id for r in rows if r.user_id is not None]
    if len(users) < players:
        return _unrated(Words("not every seat holds a player"))
    if len(set(users)) != len(users):
        return _unrated(Words("one player holds more than one seat"))
    words = standin_words(play or {})
    if words is not None:
        return _unrated(words)
    return Eligibility(True)


def _unrated(words: Words) -> Eligibility:
    return Eligibility(False, str(words), words)


# --- what a finished game says -----------------------------------------------------------------------------


@dataclass
class SeatFacts:
    """What one seat did over a game (for the statistics)."""

    contracts: int = 0  # deals this seat was the contractor (or the leader, in games without contracts)
    contracts_made: int = 0
    sweeps: int = 0  # deals this seat's side swept (the game's registry entry says what a sweep is)


@dataclass
class GameSummary:
    """A finished game reduced to what ratings and statistics need."""

    game: str
    players: int
    units: list[tuple[int, ...]]  # scoring units (teams, or single players) by seat
    scores: list[int]  # final score per unit (points, or levels)
    winner: int | None  # winning unit
    ranks: list[int]  # per unit, 0 best, ties share a rank
    deals: int
    facts: list[SeatFacts] = field(default_factory=list)  # per seat

    def unit_of(self, seat: int) -> int:
        for u, seats in enumerate(self.units):
            if seat in seats:
                return u
        raise ValueError(f"seat {seat} is in no unit")


def scoring_units(players: int, n_scores: int) -> list[tuple[int, ...]]:
    """The record spec's layouts: per player when there is one score per player, else alternate-seat teams
    (4 → (0, 2), (1, 3); 6 in twos → (0, 3), (1, 4), (2, 5); 6 in threes → (0, 2, 4), (1, 3, 5))."""
    if n_scores == players:
        return solo_teams(players)
    if n_scores < 1 or players % n_scores:
        raise ValueError(f"{n_scores} scores do not fit a {players}-player table")
    return partnership_teams(players, n_scores)


def final_ranks(scores: Sequence[int], winner: int | None) -> list[int]:
    """The winner first (whatever the scores, e.g. the side that made its bid to go out), then the others by final
    score, higher first; equal scores share a rank.  No winner: by score alone."""
    order = sorted({s for u, s in enumerate(scores) if u != winner}, reverse=True)
    offset = 0 if winner is None else 1
    return [0 if u == winner else offset + order.index(s) for u, s in enumerate(scores)]


def summarize(game: str, players: int, output: Mapping[str, Any]) -> GameSummary:
    """Reduce a replay output (``Match.output()`` at game over) to a ``GameSummary``."""
    scores = [int(s) for s in output["scores"]]
    units = scoring_units(players, len(scores))
    winner = output.get("winner")
    results = list(output.get("deal_results") or [])
    summary = GameSummary(
        game=game,
        players=players,
        units=units,
        scores=scores,
        winner=winner,
        ranks=final_ranks(scores, winner),
        deals=len(results),
        facts=[SeatFacts() for _ in range(players)],
    )
    game_type = lookup(game)
    for dr in results:
        if dr.get("thrown_in"):
            continue
        contractor = _contractor(game_type, dr)
        if contractor is not None and 0 <= contractor < players:
            summary.facts[contractor].contracts += 1
            if dr.get("made") is True:
                summary.facts[contractor].contracts_made += 1
        for seat in game_type.sweepers(dr, units) if game_type else ():
            summary.facts[seat].sweeps += 1
    return summary


def _contractor(game_type: GameType | None, dr: Mapping[str, Any]) -> int | None:
    contract = dr.get("contract")
    if isinstance(contract, dict) and isinstance(contract.get("seat"), int):
        return contract["seat"]
    if game_type and game_type.leader_not_contract and isinstance(dr.get("leader"), int):
        return dr["leader"]
    return None


# --- rating updates ------------------------------------------------------------------------------------------


def rate(
    units: Sequence[Sequence[int]], ranks: Sequence[int], current: Mapping[int, Rating]
) -> dict[int, tuple[Rating, Rating]]:
    """New ratings after one game: ``units`` lists the user ids of each team (a solo player is a team of one),
    ``ranks`` the teams' places (0 best, ties equal).  Returns user id → (before, after).

    The maths is openskill's own (the library made for it): a recomputation is slower than a hand-written copy
    would be, but it runs off the write lock (``results_store.recompute``), so play never waits for it."""
    before = {u: current.get(u, Rating()) for team in units for u in team}
    teams = [[MODEL.rating(mu=before[u].mu, sigma=before[u].sigma) for u in team] for team in units]
    new = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    out: dict[int, tuple[Rating, Rating]] = {}
    for team_users, team_ratings in zip(units, new, strict=True):
        for u, r in zip(team_users, team_ratings, strict=True):
            out[u] = (before[u], Rating(float(r.mu), float(r.sigma)))
    return out


def rated_units(summary: GameSummary, seat_users: Mapping[int, int]) -> list[list[int]]:
    """The user ids of each unit, in unit order (``seat_users``: seat → user id)."""
    return [[seat_users[s] for s in seats] for seats in summary.units]
