"""Helpers for the Five Hundred tests: deals built from a few named cards, auctions and plays in a line."""

from __future__ import annotations

from rules.actions import action_from_json
from rules.cards import parse_card
from rules.dealing import DealCards
from rules.five_hundred import FiveHundred


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def new_deal(
    hands: dict[int, str] | None = None,
    widow: str = "",
    options: dict | None = None,
    dealer: int | None = None,
    match: FiveHundred | None = None,
) -> FiveHundred:
    """Start a deal where the named cards go to the named seats and widow; the rest of the pack fills the gaps in
    pack order.  The dealer defaults to the last seat, so seat 0 is eldest hand."""
    m = match or FiveHundred(
        options, first_dealer=(dealer if dealer is not None else (options or {}).get("players", 3) - 1)
    )
    wanted = {s: cards(t) for s, t in (hands or {}).items()}
    widow_cards = cards(widow)
    used = {c for h in wanted.values() for c in h} | set(widow_cards)
    rest = [c for c in m.pack() if c not in used]
    sizes = m.hand_sizes()
    out = []
    for seat, size in enumerate(sizes):
        h = list(wanted.get(seat, []))
        while len(h) < size:
            h.append(rest.pop(0))
        out.append(h)
    kitty = widow_cards + rest[: m.kitty_size() - len(widow_cards)]
    m.start_deal(DealCards(hands=out, kitty=kitty))
    return m


def act(m: FiveHundred, seat: int, kind: str, **keys) -> None:
    m.apply(action_from_json({"seat": seat, "type": kind, **keys}))


def bid(m: FiveHundred, seat: int, text: str) -> None:
    """``bid(m, 0, "7S")``, ``bid(m, 1, "misere")``, ``bid(m, 2, "10NT")``."""
    if text in ("misere", "open_misere"):
        act(m, seat, "bid", contract=text)
    else:
        act(m, seat, "bid", value=int(text[:-2] if text.endswith("NT") else text[:-1]),
            suit=text[-2:] if text.endswith("NT") else text[-1])  # fmt: skip


def win_auction(m: FiveHundred, seat: int, contract: str, discard: str | None = None) -> None:
    """Everyone before ``seat`` passes, ``seat`` bids, the rest pass; then the soloist discards (by default the widow
    itself, so that his hand stays as dealt)."""
    while m.to_move != seat:
        act(m, m.to_move, "pass")
    bid(m, seat, contract)
    while m.phase == "bidding":
        act(m, m.to_move, "pass")
    names = discard.split() if discard is not None else [n for n in m.output()["widow"]]
    act(m, seat, "discard", cards=names)


def all_pass(m: FiveHundred) -> None:
    while m.phase == "bidding":
        act(m, m.to_move, "pass")


def play(m: FiveHundred, *names: str, suit: str | None = None) -> None:
    """Each seat in turn plays the next card; ``JK:S`` leads the Joker naming spades."""
    for name in names:
        card, _, named = name.partition(":")
        keys = {"cards": [card]}
        if named:
            keys["suit"] = named
        act(m, m.to_move, "play", **keys)
