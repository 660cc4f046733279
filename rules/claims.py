"""Claiming the remaining tricks: does the claimer's side take every trick left, whatever the others play?

A claim at a real table is "the rest are ours": the claimer shows the hand and the others check it.  Online the
engine checks it with every hand known, exhaustively: ``prove_claim`` searches every legal play of every opponent
and needs one line of the side's own plays (the claimer's and their partners') that wins every trick against all of
them.  Only then is a claim accepted without asking the opponents; the side's cards are then played as the proof
says (the claim is the side's).  A search that runs out of its budget proves nothing: the claim goes to the
opponents, never through.

When the claim is accepted (proven, or granted by the opponents) the remaining cards are played out, so that the
record stays a plain list of plays that ``cardtable replay`` understands: ``ClaimCheck.line`` holds those plays, a
line in which the claimer's side wins every trick (for a proven claim, following the proof, the opponents' cards
chosen by the bot; for a granted one, any such line, everyone playing along).

Conservative where a game allows more than single-card plays: the side's leads are searched as single cards only (a
subset of its choices, so what is proven stays proven), and an opponent who could do something other than play a
card (Da Bai Fen's ``claim_draw`` before the first card) makes the claim unproven.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from rules.actions import Action
from rules.game import PLAY, Match

# Positions searched (moves applied) before the search gives up: enough for every end position with a few cards
# each, and for many with more (bench/bench_claims.py prints what claims cost).
DEFAULT_BUDGET = 60_000


class SearchExhausted(Exception):
    """The search met its budget before it could decide."""


@dataclass(frozen=True)
class ClaimCheck:
    """What the engine found.  ``proven``: the claimer's side wins every remaining trick whatever the others legally
    play.  ``possible``: some line (everyone playing along) gives the claimer's side every remaining trick, or None
    when the search could not tell.  ``line``: the plays to make when the claim is accepted (None if impossible or
    undecided)."""

    proven: bool
    possible: bool | None
    line: tuple[Action, ...] | None


def claimer_side(match: Match, seat: int) -> frozenset[int]:
    """The claimer and their partners (the seats whose tricks count with theirs)."""
    teams = match.seat_teams()
    if teams[seat] is None:
        return frozenset({seat})
    return frozenset(s for s, team in enumerate(teams) if team == teams[seat])


def can_claim(match: Match, seat: int) -> bool:
    """A claim is about the tricks of a deal's play: it makes sense while cards are being played and ``seat`` still
    holds some."""
    return match.phase == PLAY and bool(match.hand(seat))


def check_claim(match: Match, claimer: int, budget: int = DEFAULT_BUDGET) -> ClaimCheck:
    """Decide a claim by ``claimer`` in ``match`` (left unchanged)."""
    if not can_claim(match, claimer):
        return ClaimCheck(False, False, None)
    side = claimer_side(match, claimer)
    proof = _Search(side, adversarial=True, budget=budget)
    try:
        if proof.wins(match.clone(), ()):
            return ClaimCheck(True, True, tuple(proof.line(match)))
    except SearchExhausted:
        pass
    friendly = _Search(side, adversarial=False, budget=budget)
    try:
        if friendly.wins(match.clone(), ()):
            return ClaimCheck(False, True, tuple(friendly.line(match)))
        return ClaimCheck(False, False, None)
    except SearchExhausted:
        return ClaimCheck(False, None, None)


def prove_claim(match: Match, claimer: int, budget: int = DEFAULT_BUDGET) -> bool:
    """True only when the claimer's side surely takes every remaining trick (see the module's docstring)."""
    if not can_claim(match, claimer):
        return False
    search = _Search(claimer_side(match, claimer), adversarial=True, budget=budget)
    try:
        return search.wins(match.clone(), ())
    except SearchExhausted:
        return False


Trick = tuple[tuple[int, tuple], ...]


class _Search:
    """AND-OR search over the plays: the side's nodes need one winning play, the opponents' all (``adversarial``),
    or any one (everyone playing along).  Results are remembered at trick boundaries, keyed by what decides the rest
    of the play: the tricks taken so far as a set (their order only matters through who leads next, and the first
    trick, which may set trumps), and the seat to lead."""

    def __init__(self, side: frozenset[int], *, adversarial: bool, budget: int):
        self.side = side
        self.adversarial = adversarial
        self.budget = self.allowance = budget
        self.memo: dict[Hashable, bool] = {}

    def chooses(self, seat: int) -> bool:
        """Whether the search picks this seat's play (rather than having to answer all of them)."""
        return seat in self.side or not self.adversarial

    def options(self, match: Match) -> list[Action] | None:
        """The plays to search at this node; None when the position cannot count as won (see the module)."""
        seat = match.to_move
        assert seat is not None
        legal = [a for a in match.legal_actions() if a.seat == seat]
        plays = [a for a in legal if isinstance(a, Action) and a.type == "play"]
        if not self.chooses(seat) and len(plays) != len(legal):
            return None  # they could do something else than play a card
        # The side's strongest cards first (cashing winners is the usual line), the opponents' too (the likeliest to
        # beat us, so a failing claim fails early); a card's announcement before its plain play (playing along
        # should cost nobody their announcement).
        return sorted(plays, key=lambda a: (-max(a.cards, default=0), a.announce is None))

    def key(self, match: Match, tricks: tuple[Trick, ...]) -> Hashable:
        return (match.to_move, frozenset(tricks), tricks[0] if tricks else None)

    def wins(self, match: Match, tricks: tuple[Trick, ...], current: Trick = ()) -> bool:
        if match.phase != PLAY:
            return True  # every trick of the deal has been won by the side, or the root was already over
        boundary = not current
        if boundary:
            key = self.key(match, tricks)
            known = self.memo.get(key)
            if known is not None:
                return known
        result = self._wins(match, tricks, current)
        if boundary:
            self.memo[key] = result
        return result

    def _wins(self, match: Match, tricks: tuple[Trick, ...], current: Trick) -> bool:
        options = self.options(match)
        if options is None:
            return False
        if not options:
            return False  # nothing to play yet the play goes on: an engine state we do not reason about
        seat = match.to_move
        assert seat is not None
        want_one = self.chooses(seat)
        for action in options:
            outcome = self.after(match, action, tricks, current)
            if outcome and want_one:
                return True
            if not outcome and not want_one:
                return False
        return not want_one

    def after(self, match: Match, action: Action, tricks: tuple[Trick, ...], current: Trick) -> bool:
        self.budget -= 1
        if self.budget < 0:
            raise SearchExhausted
        child = match.clone()
        before = child.tricks_completed()
        child.apply(action)
        played = (*current, (action.seat, _action_key(action)))
        if child.tricks_completed() > before:
            winner = child.last_completed_trick()[0]
            if winner not in self.side:
                return False
            return self.wins(child, (*tricks, played))
        if child.phase != PLAY:
            return False  # the deal ended without the trick being won (a Da Bai Fen lead that failed, say)
        return self.wins(child, tricks, played)

    def line(self, root: Match) -> list[Action]:
        """Walk the proven (or possible) tree: the searched choice where the search chooses, else the first play."""
        match: Match = root.clone()
        tricks: tuple[Trick, ...] = ()
        current: Trick = ()
        self.budget = self.allowance  # the walk re-checks children, mostly from the memo
        out: list[Action] = []
        while match.phase == PLAY:
            options = self.options(match)
            assert options, "the line follows a tree the search found won"
            seat = match.to_move
            assert seat is not None
            pick = next(a for a in options if self.after(match.clone(), a, tricks, current))
            before = match.tricks_completed()
            match.apply(pick)
            out.append(pick)
            current = (*current, (pick.seat, _action_key(pick)))
            if match.tricks_completed() > before:
                tricks, current = (*tricks, current), ()
        return out


def _action_key(action: Action) -> tuple:
    return (action.cards, action.suit, action.announce)
