"""A deal's result in players' words: the engines explain their arithmetic with the rule book's roles ("takers",
"defenders", "contractors", "declarers", "opponents (team 1)", "levels 4–2"); players know each other by name.

The roles are read from the deal's result (its contract's team, its declaring team) and the levels from the
scores, never from the game's id: a game that uses these words gets players' words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.presentation.choices import name_seats
from render.sheets import scores_after
from render.state import level_name


def team_words(team: int, teams: list[int | None], names: list[str]) -> str:
    """'alice & carol' (a team's players), or the player alone in a game of individuals."""
    seats = [s for s, t in enumerate(teams) if t == team] if any(t is not None for t in teams) else [team]
    return " & ".join(names[s] for s in seats if s < len(names)) or f"team {'ABCDEF'[team]}"


def _roles(result: dict) -> tuple[int | None, int | None]:
    """(the contracting or declaring team, the other), where the deal had one."""
    contract = result.get("contract")
    team = contract.get("team") if isinstance(contract, dict) else None
    if not isinstance(team, int):
        team = result.get("declarers") if isinstance(result.get("declarers"), int) else None
    return team, (None if team is None else 1 - team)


def level_moves(result: dict, scores_after: list[int], teams: list[int | None], names: list[str]) -> str:
    """ "alice & carol go up from 2 to 4" for each side whose level changed (levels stay: where each side is)."""
    change = result.get("score_change") or []
    moves = []
    for team, gained in enumerate(change):
        if gained and team < len(scores_after):
            after = scores_after[team]
            moves.append(
                f"{team_words(team, teams, names)} go up from {level_name(after - gained)} to {level_name(after)}"
            )
    if moves:
        return "; ".join(moves)
    where = [f"{team_words(t, teams, names)} on {level_name(v)}" for t, v in enumerate(scores_after)]
    return "levels stay: " + ", ".join(where)


def deal_explain(state: dict, deal_index: int, names: list[str], teams: list[int | None], levels: bool) -> str:
    """``explain_in_words`` for deal ``deal_index`` of a public view ``state`` (``levels``: the game's scores are
    levels, its registry entry says)."""
    result = state["deal_results"][deal_index]
    per_team = len(result.get("score_change") or state.get("scores") or []) < len(names)
    after = scores_after(state)[deal_index] if levels else None
    return explain_in_words(result, names, teams, per_team=per_team, scores_after=after)


def result_in_words(state: dict, deal_index: int, names: list[str], teams: list[int | None], levels: bool) -> dict:
    """``state`` (a public view) with deal ``deal_index``'s explanation in players' words, for its summary."""
    result = state["deal_results"][deal_index]
    if not isinstance(result.get("explain"), str):
        return state
    results = list(state["deal_results"])
    results[deal_index] = {**result, "explain": deal_explain(state, deal_index, names, teams, levels)}
    return {**state, "deal_results": results}


def explain_in_words(
    result: dict,
    names: list[str],
    teams: list[int | None],
    *,
    per_team: bool,
    scores_after: list[int] | None = None,
) -> str:
    """The engine's ``explain`` of ``result`` with the roles named by their players (``per_team``: the scores are
    the teams'); ``scores_after`` (the scores once this deal counted) when the scores are levels: the levels'
    change said as who goes up from what to what."""
    text = result.get("explain")
    if not isinstance(text, str):
        return ""
    mine, theirs = _roles(result)
    two_sides = len({t for t in teams if t is not None}) == 2
    if mine is not None and theirs is not None:
        us = team_words(mine, teams, names)
        them = team_words(theirs, teams, names) if two_sides else "the others"
        rewrites: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
            # "takers 144 reached 90 and are more than defenders 18"
            (
                r"\btakers (\d+) (reached|did not reach) (\d+) and are (more than|not more than) defenders (\d+)",
                lambda m: (
                    f"{us} (the bidders) took {m[1]} points: that {m[2]} their bid of {m[3]} and is "
                    f"{m[4]} the {m[5]} of {them}"
                ),
            ),
            (r"\bmade: takers\b", f"contract made: {us}"),
            (r"\bfailed: defenders\b", f"contract failed: {them}"),
            # "contractors took 85 of bid 55: made, +85; defenders took 15: +15"
            (r"\bcontractors took (\d+) of bid (\d+)", lambda m: f"{us} took {m[1]} points, having bid {m[2]}"),
            # "opponents (team 1) took 35 points → declarers score 1"
            (r"\bopponents \(team \d\) took", f"{them}, playing against {us}, took"),
            (r" → ", ": "),
            (r"\bdeclarers score (\d+)", lambda m: f"{us} score {m[1]} level{'s' if m[1] != '1' else ''}"),
            (r"\bopponents score (\d+)", lambda m: f"{them} score {m[1]} level{'s' if m[1] != '1' else ''}"),
            (r"\bopponents become declarers\b", f"{them} become the declaring side"),
            (r"\bbecome declarers\b", "become the declaring side"),
            (r"\b(?:takers|contractors|declarers)\b", us),
            (r"\b(?:defenders|opponents)\b", them),
        ]
        for pattern, words in rewrites:
            text = re.sub(pattern, words, text)
    if scores_after is not None:
        moves = level_moves(result, scores_after, teams, names)
        text, found = re.subn(r";? ?\blevels [0-9JQKA]+–[0-9JQKA]+", f"; {moves}", text)
        if not found:
            text += f"; {moves}"
    if two_sides:  # "team 0 (seats 0, 2)" is alice & carol
        text = re.sub(r"\bteam (\d)(?: \(seats [\d, ]+\))?", lambda m: team_words(int(m[1]), teams, names), text)
    if not any(t is not None for t in teams):  # a game of individuals: "team B" is bob
        text = re.sub(r"\bteam ([A-F])\b", lambda m: names["ABCDEF".index(m[1])], text)
    return name_seats(text, names, teams=per_team)
