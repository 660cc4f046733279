"""The ``expert`` level: determinized search (perfect-information Monte Carlo) within a time budget.

For one decision: sample a world consistent with the view (``sampler``), try every candidate action in it and play
the deal out with the heuristic rollout policy (its card play on bitmasks through the engines' fast paths; bidding,
exchanges and trump choice by the heuristic on each seat's own view), score the finished deal for this seat's side,
and repeat with new worlds until the budget is spent.  The candidate with the best average wins.  Candidates are
every legal card; for bids, pass plus the heuristic's bid and its neighbours.  Discards stay with the heuristic
(their choice sets are too large to sample well in a second), except Da Bai Fen's kitty, searched over a few
sensible discards, and its exposures (see ``_dbf_deal_candidates`` and docs/ai.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from rules.actions import Action, DiscardChoice
from rules.ai.cardplay import PlayInfo, pick_card
from rules.ai.dbf_rollout import finish as dbf_finish
from rules.ai.dbf_rollout import to_play as dbf_to_play
from rules.ai.fallback import fell_back
from rules.ai.heuristic import HeuristicPlayer, bidding_filter, heuristic_action
from rules.ai.knowledge import Knowledge
from rules.ai.sampler import sample_world
from rules.ai.view import SeatView, build_view
from rules.cards import CARD_NAMES, JK, NO_TRUMP, SUIT_SYMBOLS, suit_name
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY, Match

MAX_CANDIDATES = 12
MAX_ROLLOUT_STEPS = 600
# Games whose search keeps the heuristic's choice unless another candidate is better world by world by this many
# standard errors (Da Bai Fen: 20-odd worlds a decision and results in whole levels make the plain best mean noisy).
CAUTIOUS_GAMES = {"da_bai_fen": 1.0}
FAST_DBF = True  # Da Bai Fen rollouts through rules/ai/dbf_rollout.py (the same cards as pick_card, faster)


def _clearly_better(values: list[float], ref: list[float], z: float) -> bool:
    n = min(len(values), len(ref))
    if n < 2:
        return False
    diffs = [values[i] - ref[i] for i in range(n)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 0 and mean * mean * n > z * z * var


def _collapse_equivalent(cands: list[Action], k: Knowledge, base: Action) -> list[Action]:
    """Single cards that are equivalent for the play (the same effective suit and points, no card this seat cannot
    see ranking between them) are tried once: the heuristic's card if it is one of them, else the lowest."""
    order = k.order
    assert order is not None  # the play: the trump is known
    unseen = k.unseen()
    es, st, pts = order.es, order.st, order.pts
    singles = [a for a in cands if len(a.cards) == 1]
    groups: dict[int, list[Action]] = {}
    for a in singles:
        groups.setdefault(es[a.cards[0]], []).append(a)
    out_strengths: dict[int, list[int]] = {}
    for c in range(len(es)):
        if unseen >> c & 1 and es[c] >= 0:
            out_strengths.setdefault(es[c], []).append(st[c])
    drop: set[Action] = set()
    for suit, acts in groups.items():
        acts.sort(key=lambda a: st[a.cards[0]])
        outs = out_strengths.get(suit, [])
        run = [acts[0]]
        for a in acts[1:]:
            lo, hi = st[run[-1].cards[0]], st[a.cards[0]]
            same = pts[run[-1].cards[0]] == pts[a.cards[0]] and (lo == hi or not any(lo <= x <= hi for x in outs))
            if same:
                run.append(a)
                continue
            drop.update(_drop_run(run, base))
            run = [a]
        drop.update(_drop_run(run, base))
    return [a for a in cands if a not in drop]


def _drop_run(run: list[Action], base: Action) -> list[Action]:
    keep = base if base in run else run[0]
    return [a for a in run if a is not keep and a != keep]


class NoConsistentWorld(Exception):
    """No sampled world agrees with the view (the search gives way to the heuristic)."""


@dataclass
class Stats:
    action: Action
    n: int = 0
    total: float = 0.0  # weighted by each world's weight
    weight: float = 0.0
    trick_wins: int = 0
    trick_known: int = 0
    values: list[float] = field(default_factory=list)  # per world, in the order the worlds were sampled

    @property
    def mean(self) -> float:
        return self.total / self.weight if self.weight else float("-inf")


@dataclass
class Decision:
    action: Action
    stats: list[Stats] = field(default_factory=list)
    worlds: int = 0
    reason: str = ""
    weighted: bool = False  # worlds weighted by how well they explain the others' cards (the master)
    solved: int = 0  # the tricks left, when each world's ending was solved double-dummy (the master)


def _card_text(c: int) -> str:
    n = CARD_NAMES[c]
    return n if c >= 64 else n[:-1] + SUIT_SYMBOLS[n[-1]]


def describe_action(a: Action) -> str:
    if a.type == "expose" and a.card is not None:
        return f"expose {_card_text(a.card)}"
    if a.type == "discard" and a.cards:
        return "discard " + " ".join(_card_text(c) for c in a.cards)
    if a.type == "play":
        text = " ".join(_card_text(c) for c in a.cards)
        if a.suit is not None:
            text += f" (calling {SUIT_SYMBOLS[suit_name(a.suit)]})"
        return text + (" with belote" if a.announce else "")
    if a.type == "bid":
        if a.contract is not None:
            return a.contract.replace("_", " ")
        suit = SUIT_SYMBOLS.get(suit_name(a.suit), "") if a.suit is not None else ""
        return f"bid {a.value}{suit}"
    if a.type == "trump" and a.suit is not None:
        return f"trump {SUIT_SYMBOLS[suit_name(a.suit)]}"
    return a.type


class ExpertPlayer:
    name = "expert"
    cautious_games = CAUTIOUS_GAMES  # a level may search with less caution (the master at Da Bai Fen)

    def __init__(
        self,
        budget_s: float | None = 0.5,
        min_worlds: int = 2,
        max_worlds: int | None = None,
        search_bids: bool = True,
        epsilon: float = 0.0,
    ):
        """Search until ``budget_s`` seconds have passed (at least ``min_worlds`` worlds), or exactly
        ``max_worlds`` worlds when ``budget_s`` is None (deterministic given the generator's seed)."""
        self.budget_s = budget_s
        self.min_worlds = min_worlds
        self.search_bids = search_bids
        self.epsilon = epsilon
        self.max_worlds = max_worlds if max_worlds is not None else (None if budget_s is not None else 16)

    def choose(self, match, rng: random.Random, history=None) -> Action:
        return self.choose_view(build_view(match, match.to_move, history), rng)

    def choose_view(self, view: SeatView, rng: random.Random) -> Action:
        return self.decide(view, rng).action

    def decide(self, view: SeatView, rng: random.Random) -> Decision:
        try:
            return self._decide(view, rng)
        except Exception as error:  # a computer seat must always act: the heuristic's move, counted and logged
            fell_back(self.name, "error", view, error)
            return Decision(HeuristicPlayer().choose_view(view, rng), reason="fallback")

    def _decide(self, view: SeatView, rng: random.Random) -> Decision:
        legal = view.legal
        k = Knowledge(view)
        base = heuristic_action(view, rng, k)
        if len(legal) == 1 and not isinstance(legal[0], DiscardChoice):
            return Decision(base, reason="only move")
        phases = ("bidding", "trump", PLAY) if self.search_bids else (PLAY,)
        if view.game == "da_bai_fen" and any(a.type == "claim_draw" for a in legal):
            return Decision(base, reason="heuristic")
        if any(a.type == "call" and a.contract == "hundred" for a in legal):
            # Le Rough's announcement wins or loses the whole game; rollouts score only the deal.
            return Decision(base, reason="heuristic")
        if view.game == "da_bai_fen" and self.search_bids and view.phase in ("deal", "exchange"):
            # The exposure (who declares, which suit is trumps) and the kitty discard are searched like a card.
            candidates = _dbf_deal_candidates(view, k, base)
            if candidates is None:
                return Decision(base, reason="heuristic")
        elif view.phase not in phases or any(isinstance(a, DiscardChoice) for a in legal):
            return Decision(base, reason="heuristic")
        else:
            candidates = self._candidates(view, k, base)
        if len(candidates) == 1:
            return Decision(candidates[0], reason="only candidate")
        stats = [Stats(a) for a in candidates]
        worlds = 0
        try:
            for world, weight in self.weighted_worlds(view, rng, k):
                worlds += 1
                self._try_candidates(stats, world, weight, view, k, rng)
        except NoConsistentWorld:
            fell_back(self.name, "no consistent world", view)
            return Decision(base, reason="no consistent world")
        best = max(stats, key=lambda s: (s.mean, s.action == base))
        caution = self.caution(view, k)
        if caution is not None and best.action != base:
            # Few worlds and coarse results: leave the heuristic's card only when the search is fairly sure (the
            # candidates were tried in the same worlds, so compare them world by world).
            ref = next((s for s in stats if s.action == base), None)
            if ref is not None and not _clearly_better(best.values, ref.values, caution):
                return Decision(base, stats, worlds, reason="search (heuristic kept: no clear gain)")
        return Decision(best.action, stats, worlds, reason="search")

    def caution(self, view: SeatView, k: Knowledge) -> float | None:
        """How many standard errors better world by world a candidate must be to replace the heuristic's choice
        (None: the best mean wins)."""
        return self.cautious_games.get(view.game)

    def weighted_worlds(self, view: SeatView, rng: random.Random, k: Knowledge) -> Iterator[tuple[Any, float]]:
        """Sampled worlds with their weights, until the budget is spent (at least ``min_worlds``, at most
        ``max_worlds``); raises ``NoConsistentWorld`` when the first attempts find none."""
        accept = bidding_filter(view, k)
        deadline = time.perf_counter() + self.budget_s if self.budget_s is not None else float("inf")
        worlds = failures = 0
        while True:
            world = self.sample(view, rng, k, accept)
            if world is None:
                failures += 1
                if failures > 5 and worlds == 0:
                    raise NoConsistentWorld
                if time.perf_counter() > deadline or failures > 50:
                    return
                continue
            worlds += 1
            yield world, self.world_weight(view, k, world)
            if worlds >= self.min_worlds and time.perf_counter() > deadline:
                return
            if self.max_worlds is not None and worlds >= self.max_worlds:
                return

    def _try_candidates(
        self, stats: list[Stats], world: Any, weight: float, view: SeatView, k: Knowledge, rng: random.Random
    ) -> None:
        """Each candidate applied in a copy of the world and rolled out; its value added to its stats."""
        for st in stats:
            w = world.clone()
            try:
                w.apply(st.action)
            except Exception:
                st.n += 1
                st.weight += weight
                st.total -= 1e6 * weight
                st.values.append(-1e6)
                continue
            value, won = self.rollout(w, view, k, rng)
            st.n += 1
            st.weight += weight
            st.total += value * weight
            st.values.append(value)
            if won is not None:
                st.trick_known += 1
                st.trick_wins += won

    def sample(self, view: SeatView, rng: random.Random, k: Knowledge, accept):
        """A world consistent with the view (None: none found this time)."""
        return sample_world(view, rng, k, tries=8, accept=accept)

    def world_weight(self, view: SeatView, k: Knowledge, world) -> float:
        """How likely a sampled world is, relative to the others (this level: all alike)."""
        return 1.0

    def rollout(self, w, view: SeatView, k: Knowledge, rng: random.Random) -> tuple[float, int | None]:
        """Play a sampled world (the candidate applied) to the deal's end: (utility, root trick won or None)."""
        return rollout(w, view.seat, k, rng, self.epsilon)

    def _candidates(self, view: SeatView, k: Knowledge, base: Action) -> list[Action]:
        legal = [a for a in view.legal if not isinstance(a, DiscardChoice)]
        if view.phase == PLAY:
            plays = [a for a in legal if a.type == "play"]
            if view.game == "da_bai_fen" and k.order is not None:
                plays = _collapse_equivalent(plays, k, base)
            if len(plays) <= MAX_CANDIDATES:
                out = list(plays)
            else:
                rest = [a for a in plays if a != base]
                random.Random(len(plays)).shuffle(rest)
                out = [base] + rest[: MAX_CANDIDATES - 1]
            if base not in out:
                out.append(base)
            return out
        if view.phase == "bidding":
            return _bid_candidates(view, legal, base)
        named = [a for a in legal if a.type == "trump"]
        return named or legal


def _dbf_deal_candidates(view: SeatView, k: Knowledge, base: Action) -> list[Action] | None:
    """Da Bai Fen: drawing or exposing each card I may expose; for the kitty, the heuristic's six and discards that
    void one or two short plain suits (filled with the heuristic's next choices).  None: leave it to the heuristic."""
    if view.phase == "deal":
        exposes = [a for a in view.legal if a.type == "expose"]
        draw = next((a for a in view.legal if a.type == "draw"), None)
        if not exposes or draw is None:
            return None
        return [draw, *exposes]
    choice = next((a for a in view.legal if isinstance(a, DiscardChoice)), None)
    order = k.order
    if choice is None or order is None or base.type != "discard":
        return None
    from rules.ai.heuristic import dbf_discard_ranking

    ranked = dbf_discard_ranking(choice, order)
    n = choice.choose
    out = [base]
    plain: dict[int, list[int]] = {}
    for c in ranked:
        if order.es[c] != order.trump:
            plain.setdefault(order.es[c], []).append(c)
    suits = sorted(plain, key=lambda s: len(plain[s]))
    sets = [[s] for s in suits] + [[s, t] for i, s in enumerate(suits) for t in suits[i + 1 :]]
    for group in sets:
        cards = [c for s in group for c in plain[s]]
        if len(cards) > n:
            continue
        cards += [c for c in ranked if c not in cards][: n - len(cards)]
        a = Action(choice.seat, "discard", cards=tuple(sorted(cards)))
        if all(set(a.cards) != set(b.cards) for b in out):
            out.append(a)
    return out[:8] if len(out) > 1 else None


def _bid_candidates(view: SeatView, legal: list[Action], base: Action) -> list[Action]:
    out = [base]
    passes = [a for a in legal if a.type == "pass"]
    out += [a for a in passes if a not in out]
    bids = [a for a in legal if a.type == "bid"]
    if view.game == "two_hundred":
        values = sorted(bids, key=lambda a: a.value if isinstance(a.value, int) else 999)
        out += [a for a in values[:3] if a not in out]
        if base.type == "bid" and isinstance(base.value, int):
            out += [a for a in values if a.value in (base.value + 5, base.value + 10) and a not in out]
    elif view.game == "belote":
        from rules.ai.heuristic import belote_estimate

        # The cheapest bid in my two best suits, and one step above the heuristic's bid; counters only when the
        # heuristic would (a sampled world knows the auction only through the bidding filter).
        suits = sorted(range(4), key=lambda t: -belote_estimate(view.hand, t))[:2]
        for suit in suits:
            acts = sorted((a for a in bids if a.suit == suit and isinstance(a.value, int)), key=_bid_value)
            out += [a for a in acts[:1] if a not in out]
        if base.type == "bid" and isinstance(base.value, int):
            out += [a for a in bids if a.suit == base.suit and a.value == base.value + 10 and a not in out]
    elif view.game == "five_hundred":
        from rules.ai.heuristic import five_hundred_tricks

        hand = view.hand
        for suit in (*range(4), NO_TRUMP):
            est = five_hundred_tricks(hand, suit)
            if est < 5.5:
                continue
            cands = sorted((a for a in bids if a.suit == suit and a.contract is None), key=_bid_value)
            out += [a for a in cands[:2] if a not in out]
    return out[:6]


def _bid_value(a: Action) -> int:
    return a.value if isinstance(a.value, int) else 0


_TEAMS4 = [frozenset({s, s ^ 2}) for s in range(4)]


def _rollout_ctx(w, seat: int):
    """Per-seat allies and roles in a sampled world's play (computed once per rollout)."""
    if w.game_id == "da_bai_fen":
        return _TEAMS4, w.leader, False, [0, 1, 2, 3]
    out = w.output()
    contract = out.get("contract") or {}
    players = w.players
    declarer = contract.get("seat")
    misere = contract.get("contract") in ("misere", "open_misere")
    allies = []
    if w.game_id == "five_hundred" and len(set(w.side_of)) == players:
        partner = contract.get("partner")
        decl = {declarer} | ({partner} if partner is not None else set()) if declarer is not None else set()
        for s in range(players):
            if not decl:
                allies.append(frozenset({s}))
            elif s in decl:
                allies.append(frozenset(decl))
            else:
                allies.append(frozenset(x for x in range(players) if x not in decl))
    elif players == 4:
        allies = [frozenset({s, s ^ 2}) for s in range(4)]
    else:
        allies = [frozenset({s}) for s in range(players)]
    sitting = set(out.get("sitting_out") or [])
    active = [s for s in range(players) if s not in sitting]
    return allies, declarer, misere, active


def rollout(
    w,
    seat: int,
    k: Knowledge,
    rng: random.Random,
    epsilon: float = 0.1,
    finish: Callable[[Match], bool] | None = None,
    aware: bool = False,
    finish_from: int = 0,
    sharp: bool = False,
) -> tuple[float, int | None]:
    """Play the sampled world ``w`` to the end of the deal; (utility for ``seat``, 1/0 if its side won the trick in
    progress at the root, or None when unknown).  ``finish(w)``, asked before each move of the play, may play the
    rest of the deal itself (returning True; the master's double-dummy solver).  ``aware``: each card is the
    heuristic's as it plays at a real table, knowing the voids shown and whether trumps are still out (by default
    the rollouts skip both for speed).  ``finish_from``: Da Bai Fen's fast rollouts ask ``finish`` again at each
    trick boundary once the leader holds that many cards or fewer (elsewhere it is asked before every card).
    ``sharp``: a sharper policy than the heuristic's (Da Bai Fen's fast rollouts: ``dbf_rollout.pick``'s; elsewhere
    ``PlayInfo.sharp``, ``rules/ai/cardplay.py``)."""
    ad = k.ad
    history: list[Action] = list(k.view.history)
    pack = ad.pack_mask
    played = k.played
    ctx = None
    root_deal = len(w.deal_results)
    won_root: int | None = None
    root_trick_open = True
    steps = 0
    fast = hasattr(w, "play_card") and hasattr(w, "legal_card_mask")
    dbf = FAST_DBF and w.game_id == "da_bai_fen" and fast and epsilon <= 0
    voids = list(k.voids) if aware else None  # per position, as the heuristic's Knowledge keeps them
    while w.phase not in (BETWEEN_DEALS, GAME_OVER) and len(w.deal_results) == root_deal:
        steps += 1
        if steps > MAX_ROLLOUT_STEPS:
            break
        if finish is not None and w.phase == PLAY and finish(w):
            continue
        if dbf and w.phase in ("deal", "exchange"):
            dbf_to_play(w, ad)
            continue
        if dbf and w.phase == PLAY and (not w.trick or w.lead_size == 1):
            played, won = dbf_finish(w, seat, played, root_trick_open, voids, finish_from if finish else 0, sharp)
            if won is not None or w.phase != PLAY:
                won_root = won_root if won is None else won
                root_trick_open = False
            continue
        to_move = w.to_move
        trick = ad.world_trick(w) if w.phase == PLAY else None
        if w.phase == PLAY and trick is not None and fast:
            if ctx is None:
                ctx = _rollout_ctx(w, seat)
            allies = ctx[0]
            legal = w.legal_card_mask()
            info = play_info(w, ad, ctx, trick, legal, pack & ~played)
            if voids is not None:
                as_at_the_table(info, voids)
            info.sharp = sharp
            c = pick_card(info) if epsilon <= 0 or rng.random() > epsilon else _random_card(legal, rng)
            played |= 1 << c
            if voids is not None and trick and info.order.es[c] != info.led and to_move < len(voids):
                voids[to_move] |= 1 << info.led
            _fast_play(w, c, trick)
            if root_trick_open and not (ad.world_trick(w) or []):
                root_trick_open = False
                if w.phase == PLAY:
                    won_root = 1 if w.to_move in allies[seat] else 0
        else:
            view = build_view(w, to_move, history)
            a = HeuristicPlayer().choose_view(view, rng)
            w.apply(a)
            history.append(a)
            if a.type == "play":
                for c in a.cards:
                    played |= 1 << c
                if root_trick_open and w.phase == PLAY and view.public.get("trick") is not None and _trick_empty(w):
                    root_trick_open = False
                    won_root = 1 if w.to_move in (ctx[0][seat] if ctx else {seat}) else 0
    if not w.deal_results or len(w.deal_results) == root_deal:
        return 0.0, won_root
    return ad.utility(w, seat, w.deal_results[-1]), won_root


def play_info(w, ad, ctx, trick, legal: int, not_played: int) -> PlayInfo:
    """What the heuristic's card play needs to choose for the position to move in a sampled world (``ctx``: the
    world's ``_rollout_ctx``; ``not_played``: the pack's cards not yet played in the deal)."""
    allies, declarer, misere, active = ctx
    to_move = w.to_move
    order = ad.world_order(w)
    hand = ad.world_hand_mask(w, to_move)
    n = len(active)
    pos = active.index(to_move) if to_move in active else 0
    after = tuple(active[(pos + i) % n] for i in range(1, n - len(trick)))
    return PlayInfo(
        seat=to_move,
        hand=hand,
        legal=legal,
        trick=list(trick),
        led=_world_led(w, order, trick),
        order=order,
        allies=allies[to_move],
        after=after,
        unseen=not_played & ~hand,
        voids=None,
        declaring=declarer is not None and declarer in allies[to_move],
        misere=misere and declarer == to_move,
        against_misere=declarer if misere and declarer != to_move else -1,
        trumps_out=True,
    )


def as_at_the_table(info: PlayInfo, voids: list[int] | None) -> None:
    """``info`` as the heuristic player's own at a table: the voids shown (per position) and whether another seat
    may still hold a trump (``play_info`` skips both for the rollouts' speed)."""
    from rules.ai.cardplay import _suit_mask

    info.voids = voids
    trump = info.order.trump
    info.trumps_out = trump < 0 or bool((info.unseen or 0) & _suit_mask(info.order, trump))


def _trick_empty(w) -> bool:
    out = w.output()
    return not out.get("trick")


def _world_led(w, order, trick) -> int:
    if not trick:
        return -1
    tp = getattr(w, "tp", None)
    if tp is not None and getattr(tp, "led_suit", -1) >= 0:
        return tp.led_suit
    return order.es[trick[0][1]]


def _random_card(mask: int, rng: random.Random) -> int:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards[rng.randrange(len(cards))]


def _fast_play(w, c: int, trick) -> None:
    game = w.game_id
    if game == "five_hundred":
        suit = None
        if c == JK and w.trump == NO_TRUMP and not trick:
            suit = w.joker_lead_suits()[0]
        w.play_card(c, suit)
    elif game == "belote":
        w.play_card(c, bool(w.belote_mask() >> c & 1))
    else:
        w.play_card(c)
