"""Reading the replay output (``Match.output()``) for display: sides, trump rank, tricks, the contract in words.

The required keys are the spec's; the extra keys an engine may add (tricks won, points taken, the trump rank...)
are looked up under the few names they are likely to have, and simply not shown when absent.
"""

from __future__ import annotations

from render.i18n import t
from render.text import Segment, suit_seg
from rules.game_type import GameType
from rules.registry import lookup

LEVEL_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}


def _game_type(state: dict) -> GameType | None:
    return lookup(state.get("game"))


def scores_are_levels(state: dict) -> bool:
    """The scores are levels (2 .. A), shown as ranks, not points."""
    found = _game_type(state)
    return found is not None and found.scores_are_levels


def leader_not_contract(state: dict) -> bool:
    """Each deal has a leader rather than a bid contract: nothing to make or fail."""
    found = _game_type(state)
    return found is not None and found.leader_not_contract


def players(state: dict, names: list[str]) -> int:
    opts = state.get("options") or {}
    return int(opts.get("players") or len(names) or 4)


def side_count(state: dict, names: list[str]) -> int:
    return len(state.get("scores") or []) or players(state, names)


def per_team(state: dict, names: list[str]) -> bool:
    return side_count(state, names) < players(state, names)


def side_of(seat: int, state: dict, names: list[str]) -> int:
    """The score column of ``seat``: its team (seats ``t, t+teams, ...`` as the spec lays teams out) or itself."""
    return seat % side_count(state, names)


def side_seats(side: int, state: dict, names: list[str]) -> list[int]:
    n, k = players(state, names), side_count(state, names)
    return list(range(side, n, k)) if k < n else [side]


def seat_name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"Seat {seat + 1}"


def side_name(side: int, state: dict, names: list[str]) -> str:
    return " & ".join(seat_name(names, s) for s in side_seats(side, state, names))


def level_name(level: int) -> str:
    if level > 14:
        return "A+"
    return LEVEL_NAMES.get(level, str(level))


def score_text(state: dict, value) -> str:
    if scores_are_levels(state) and isinstance(value, int):
        return level_name(value)
    return f"{value}".replace("-", "−")  # a real minus sign: as wide as the plus, and unmistakable


def trump_rank(state: dict) -> str | None:
    """The trump rank (in games that have one): the engine's key if it gives one, else the declarers' level."""
    found = _game_type(state)
    if found is None or not found.has_trump_rank:
        return None
    for key in ("trump_rank", "level_rank", "rank"):
        v = state.get(key)
        if isinstance(v, str):
            return v
        if isinstance(v, int):
            return level_name(v)
    contract = state.get("contract") or {}
    scores = state.get("scores") or []
    seat = contract.get("seat")
    if isinstance(seat, int) and len(scores) == 2:
        return level_name(scores[seat % 2])
    if state.get("deal") == 0:
        return "2"
    return None


def tricks_text(n: int, lang: str) -> str:
    return f"{n} {t('trick_one' if n == 1 else 'tricks', lang)}"


def seat_list(state: dict, keys: tuple[str, ...], n: int, *, hidden: bool = False) -> list | None:
    """The first of ``keys`` holding a number per seat (or side); with ``hidden``, None stands for a figure the table
    does not show (a side's points lying face down in its won tricks)."""
    kinds = int | float | None if hidden else int | float
    for key in keys:
        v = state.get(key)
        if isinstance(v, list) and len(v) == n and all(isinstance(x, kinds) for x in v):
            return v
    return None


def tricks_by_seat(state: dict, names: list[str]) -> list | None:
    return seat_list(state, ("tricks_won", "tricks_taken", "tricks"), players(state, names))


def points_by_side(state: dict, names: list[str]) -> list | None:
    keys = ("points", "card_points", "points_taken", "counters")
    k = side_count(state, names)
    direct = seat_list(state, keys, k, hidden=True)
    if direct is not None:
        return direct
    seats = seat_list(state, keys, players(state, names))
    if seats is None or k >= len(seats):
        return seats
    # a per-seat list (``points_taken``): a side's points are its members' together
    return [sum(seats[s] for s in side_seats(side, state, names)) for side in range(k)]


def last_bid(state: dict) -> dict | None:
    """The bid to beat during an auction that reports only its calls: the last bid or keep."""
    if state.get("phase") != "bidding":
        return None
    high = None
    for call in state.get("auction") or []:
        if not isinstance(call, dict):
            continue
        if call.get("type") == "bid" and isinstance(call.get("value"), int):
            high = {"seat": call.get("seat"), "value": call["value"]}
        elif call.get("type") == "keep" and high is not None:  # the dealer keeps at the highest bid
            high = {"seat": call.get("seat"), "value": high["value"]}
    return high


def with_counters(high_bid: dict | None, state: dict) -> dict | None:
    """The bid to beat with its counter or recounter, said in the bidding after it (``high_bid`` has neither)."""
    if not high_bid:
        return high_bid
    calls = [c.get("type") for c in state.get("auction") or [] if isinstance(c, dict)]
    if "counter" not in calls:
        return high_bid
    return {**high_bid, "countered": True, "recountered": "recounter" in calls}


def contract_segments(contract: dict | None, lang: str) -> list[Segment]:
    """The contract as a player says it: ``110 ♥ ×2``, ``8 NT``, ``Misère``..."""
    if not contract:
        return []
    out: list[Segment] = []
    kind = contract.get("contract") or contract.get("type")
    if kind in ("misere", "open_misere"):
        out.append(t(kind, lang))
        if isinstance(contract.get("points"), int):  # misère 250, open misère 520
            out.append(f"  ({contract['points']})")
    elif isinstance(contract.get("tricks"), int) and contract.get("suit"):  # tricks and a suit: 8 ♥ (value 300)
        out.append(f"{contract['tricks']} ")
        out.append(suit_seg(contract["suit"]) if contract["suit"] != "NT" else t("nt", lang))
        points = contract.get("points")
        if not isinstance(points, int) and isinstance(contract.get("value"), int) and contract["value"] > 10:
            points = contract["value"]  # an engine that reports the contract's worth as its value
        if isinstance(points, int):
            out.append(f"  ({points})")
    else:
        value = contract.get("value", contract.get("bid"))
        if value == "capot":
            out.append(t("capot", lang) + " ")
        elif value is not None:
            out.append(f"{value} ")
        suit = contract.get("suit")
        if suit in ("S", "H", "D", "C"):
            out.append(suit_seg(suit))
        elif suit == "NT":
            out.append(t("nt", lang))
    mult = contract.get("multiplier")
    if mult is None:
        mult = 4 if contract.get("recountered") or contract.get("recounter") else 2 if (
            contract.get("countered") or contract.get("counter")) else 1  # fmt: skip
    if mult == 2:
        out.append("  " + t("countered", lang))
    elif mult == 4:
        out.append("  " + t("recountered", lang))
    if contract.get("alone"):
        out.append("  " + t("alone", lang))
    return out


def trump_segments(state: dict, lang: str) -> list[Segment]:
    trump = state.get("trump")
    if trump in ("S", "H", "D", "C"):
        return [suit_seg(trump), " " + t(trump, lang)]
    if trump == "NT":
        return [t("no_trumps", lang)]
    return [t("none_yet", lang)]


def side_tricks(state: dict, names: list[str]) -> list | None:
    """Tricks per side: the engine's per-side list, or its per-seat list added up by team."""
    k = side_count(state, names)
    direct = seat_list(state, ("tricks_won", "tricks_taken", "tricks"), k)
    if direct is not None:
        return direct
    seats = tricks_by_seat(state, names)
    if seats is None:
        return None
    return [sum(seats[s] for s in side_seats(side, state, names)) for side in range(k)]
