"""A sampled world's play as a double-dummy ``Position``, and the rest of its deal played along the solved line.

Sampled worlds are the searching player's own matches (every hand in them is a guess), so reading their fields is
fair.  ``position(w, seat)`` reads the engine's fast-path state of each game; ``finish(w, seat)`` plays the deal to
its end with every card chosen by the solver and leaves the scoring to the engine, so the deal's result (contract,
belote, capot, kitty bonus) is the engine's own.
"""

from __future__ import annotations

from rules.ai.games import TWO_HUNDRED_POINTS, adapter_for
from rules.ai.solver import BeloteRules, Position, SearchLimit, Solver
from rules.belote.auction import CAPOT
from rules.belote.match import SUIT_CARDS
from rules.belote.tables import CAPOT_LAST_TRICK, LAST_TRICK_BONUS, TABLES
from rules.cards import JK, NO_TRUMP, SUIT_MASKS
from rules.da_bai_fen.order import POINTS, TRUMP, points_of
from rules.game import PLAY
from rules.two_hundred.play import EFFECTIVE_SUIT, STRENGTH

_NO_VOIDS: list[int] = []
_LAST_VALUE = ("last value",)  # a key no position has: the value of the last solve that used a table


def _cycle(n: int) -> tuple[int, ...]:
    return tuple((i + 1) % n for i in range(n))


def _allies_sets(w, seat: int) -> tuple[list[bool], list[bool]]:
    """(counted, maximizers) per position: my side's card points, wanted by my side."""
    game = w.game_id
    if game == "five_hundred":
        return _five_hundred_sides(w, seat)
    if game == "two_hundred":
        t = w.table
        if t.layout == "called_partner" and w.partner >= 0:
            pair = {w.contractor, w.partner}
            mine = seat in pair
            side = [(p in pair) == mine for p in range(t.positions)]
        else:
            side = [t.unit_of[p] == t.unit_of[seat] for p in range(t.positions)]
        return side, side
    side = [(p & 1) == (seat & 1) for p in range(4)]
    return side, side


def _five_hundred_sides(w, seat: int) -> tuple[list[bool], list[bool]]:
    n = w.players
    contract = w.contract
    if contract is None or w.soloist is None or w.soloist < 0:
        side = [w.side_of[p] == w.side_of[seat] for p in range(n)]
        return side, side
    soloist = w.soloist
    if contract.misere:
        counted = [p == soloist for p in range(n)]
        return counted, [p != soloist for p in range(n)]
    decl = {p for p in range(n) if w.side_of[p] == w.side_of[soloist]}
    if getattr(w, "partner", -1) is not None and getattr(w, "partner", -1) >= 0:
        decl.add(w.partner)
    mine = seat in decl
    side = [(p in decl) == mine for p in range(n)]
    return side, side


def position(w, seat: int) -> Position | None:
    """The play of world ``w`` as a ``Position`` counted for ``seat``'s side; None when the solver cannot take it."""
    if w.phase != PLAY:
        return None
    counted, maximizers = _allies_sets(w, seat)
    game = w.game_id
    if game == "belote":
        return _belote(w, counted, maximizers)
    if game == "five_hundred":
        return _five_hundred(w, counted, maximizers)
    if game == "two_hundred":
        return _two_hundred(w, counted, maximizers)
    if game == "da_bai_fen":
        return _da_bai_fen(w, counted, maximizers)
    return None


def _belote(w, counted, maximizers) -> Position | None:
    if w.kind < 0:
        return None
    order = adapter_for("belote", w.options).world_order(w)
    assert order is not None
    tables = TABLES[w.kind]
    rules = BeloteRules(tables.higher, tables.beats, tables.cut, tables.trump_lead, SUIT_CARDS,
                        w.partner_undertrump, w.forced_undertrump)  # fmt: skip
    leader = w._leader
    trick = [((leader + i) & 3, c) for i, c in enumerate(w._trick)]
    led = order.es[trick[0][1]] if trick else -1
    sweep, takers_counted = _belote_sweep(w, counted)
    defenders = 1 - (w.current_auction.high_seat & 1)
    return Position(list(w._hands), _cycle(4), leader, trick, led, order.es, order.st, tables.points, order.trump,
                    SUIT_MASKS, counted, maximizers, last_bonus=LAST_TRICK_BONUS, belote=rules, sweep=sweep,
                    sweep_counted=takers_counted, sweep_alive=not w._tricks_won[defenders])  # fmt: skip


def _belote_sweep(w, counted) -> tuple[int, bool]:
    """What the takers' capot is worth to the counted side above its card points, and whether the takers are
    counted.  The solver's value is the counted side's card points, which stand for the score's difference between
    the sides (each point to one side is one point less to the other): a score difference of D is worth D / 2.

    - A capot contract (§4: "win all eight tricks if a capot is declared") is made by the sweep alone: it is worth
      the difference between made and failed.
    - Otherwise only a contract made, not countered, on the default scoring counts the takers' card points, where
      "the Dix de Der is worth 100 points, bringing the total to 252" (§9.2): 90 more than the deal's 162.  A
      countered contract, or the announced scoring, scores the contract, not the points: a capot changes nothing.
      The defenders' capot changes nothing either: the takers, with no point, have failed whatever happens.
    """
    auction = w.current_auction
    takers = auction.high_seat
    m = auction.multiplier
    value = w.contract_value()
    rules = w.rules
    if auction.high_level == CAPOT:
        swept = sum(TABLES[w.kind].points) + CAPOT_LAST_TRICK  # the takers' card points: all of them
        made = value * m if rules.announced else (swept + value if m == 1 else (rules.base + value) * m)
        difference = made + (rules.base + value) * m
    elif m == 1 and not rules.announced:
        difference = CAPOT_LAST_TRICK - LAST_TRICK_BONUS
    else:
        return 0, counted[takers]
    return (difference // 2 if counted[takers] else -(difference // 2)), counted[takers]


def _five_hundred(w, counted, maximizers) -> Position | None:
    tp = w.tp
    if tp is None:
        return None
    n = w.players
    nxt = []
    for p in range(n):
        q = (p + 1) % n
        while not tp.active[q]:
            q = (q + 1) % n
        nxt.append(q)
    joker = JK if w.trump == NO_TRUMP else -1
    live = 0
    for h in tp.hands:
        live |= h
    if not live >> JK & 1:
        joker = -1
    return Position(list(tp.hands), nxt, tp.leader, list(tp.trick), tp.led_suit, tp.effective_suit, tp.strength,
                    (0,) * len(tp.effective_suit), tp.trump, w._follow_masks, counted, maximizers, trick_value=10,
                    joker=joker, voids=list(w.shown_void) if joker >= 0 else _NO_VOIDS)  # fmt: skip


def _two_hundred(w, counted, maximizers) -> Position | None:
    play = w.play
    if play is None or w.trump is None or any(w.table.silent):
        return None
    compulsory = bool(
        w.compulsory_lead and not play.completed and w.trump != NO_TRUMP and w.options["compulsory_trump_lead"]
    )
    return Position(list(play.hands), list(w._next_position), play.leader, list(play.trick), play.led_suit,
                    EFFECTIVE_SUIT, STRENGTH, TWO_HUNDRED_POINTS, play.trump, SUIT_MASKS, counted, maximizers,
                    trump_lead_first=compulsory)  # fmt: skip


def _da_bai_fen(w, counted, maximizers) -> Position | None:
    if w.trick and w.lead_size != 1:
        return None  # a throw in progress: the solver plays single cards only
    o = w.order
    trick = [(s, cs[0]) for s, cs in w.trick]
    led = w.led_suit if trick else -1
    factor = 1 if w.kitty_by_trick_size else 2
    return Position(list(w.hands), _cycle(4), w.trick_leader, trick, led, o.effective_suit, o.strength, POINTS,
                    TRUMP, o.suit_masks, counted, maximizers,
                    last_bonus=points_of(w.discarded) * factor)  # fmt: skip


def play_move(w, move: int) -> None:
    """Play a solver's move in the world through the engine's fast path."""
    c = move & 127
    named = (move >> 7) - 1
    game = w.game_id
    if game == "five_hundred":
        w.play_card(c, named if named >= 0 else None)
    elif game == "belote":
        w.play_card(c, bool(w.belote_mask() >> c & 1))
    else:
        w.play_card(c)


def finish(w, seat: int, max_nodes: int | None = None, tt: dict | None = None) -> bool:
    """Play world ``w``'s deal to its end along a solved line for ``seat``'s side (its opponents minimizing);
    False, with ``w`` untouched, when the solver cannot take the position or would need more than ``max_nodes``
    nodes for its first move.  ``tt``: the transposition tables shared by the solvers of one world for one seat."""
    pos = position(w, seat)
    if pos is None:
        return False
    if tt is not None:
        # One world's candidates may lead to different contracts (a bid, a trump): a table per rule set and side.
        context = (pos.trump, tuple(pos.st), tuple(pos.points), tuple(pos.counted), tuple(pos.maximizers),
                   pos.last_bonus, pos.trick_value, pos.joker, pos.belote, pos.sweep, pos.sweep_counted)  # fmt: skip
        tt = tt.setdefault(context, {})
    solver = Solver(pos, max_nodes, tt)
    deal = len(w.deal_results)
    # The last value solved with this table (another candidate of the same world): MTD(f)'s first guess.
    guess = tt.get(_LAST_VALUE) if tt is not None else None
    try:
        move, target = solver.best_move(guess=guess)
    except SearchLimit:
        return False
    if tt is not None:
        tt[_LAST_VALUE] = target
    solver.max_nodes = None  # committed: the table now holds most of what the rest of the line needs
    while True:
        saved = solver.play(move)
        closed = saved[7]
        if closed is not None:
            target -= closed[1]
        play_move(w, move)
        if w.phase != PLAY or len(w.deal_results) != deal:
            return True
        move, target = solver.best_move(target)
