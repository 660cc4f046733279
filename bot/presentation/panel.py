"""The hand panel: a seat's legal choices as buttons a thumb can tap, and what each tap means.

Built from the *shapes* of the legal actions (``Match.seat_view``), never from a game's id, so every game gets the
same treatment:

- cards are buttons in the order of the hand's picture; a card with one legal action plays in one tap, a card with
  several (a joker led naming a suit) asks which in a second step; an announcement that rides on a card (the pair of
  king and queen of trumps) is made by default, with a toggle to keep quiet;
- a choice of several cards (a discard, a follow to a multi-card lead, a throw) is made by toggling the cards, then
  one Confirm: k + 1 taps for k cards (cards every legal choice holds are chosen already);
- a bid that names a value and a suit is a value tap (the lowest is preselected) and a suit tap; bids that are a
  value alone offer the next few bids and the top ones directly, the rest by range then value; pass is one tap;
- a call among many cards is a suit tap then a rank tap.

The panel keeps no state on the server: everything it needs across taps (the toggled cards, a chosen value, a mode)
travels in its buttons' custom ids, so it survives a restart.  A button's argument is either ``=<action>`` (perform
this action) or ``s<selection>`` (show the panel with this selection); a selection that no longer fits the position
shows the fresh panel.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import _, current_language
from bot.presentation.choices import SUIT_SYMBOLS, card_label, label
from bot.presentation.components import ComponentId, TableButton, view_of
from bot.presentation.seat_views import seat_view
from render.sorting import sort_key
from rules.actions import action_from_json
from rules.cards import parse_card
from rules.errors import IllegalAction

if TYPE_CHECKING:
    from bot.tables.service import Table
    from rules.game import Match

PANEL_VERB = "hp"  # the ComponentId verb of every panel component
ROW_WIDTH = 5  # Discord: buttons per action row
MAX_ROWS = 5  # Discord: action rows per message
CARD_ROWS = 4  # rows 0-3 hold cards, so the last row is always free for controls
# Bids that are a value alone: the lowest few and the highest few (the big jumps: 100, 100-for-200) are offered
# directly, in one row.
DIRECT_VALUES = 3
TOP_VALUES = 2

PRIMARY, SECONDARY, SUCCESS = discord.ButtonStyle.primary, discord.ButtonStyle.secondary, discord.ButtonStyle.success
_PANELS = "panels"  # table.extra: each seat's last panel, with the key it was made from (``panel_rows``)
# Each action's fields in a custom id, in this order (cards joined by "."): short enough for Discord's 100 characters.
_FIELDS = ("type", "value", "suit", "contract", "card", "cards", "announce")


@dataclass(frozen=True)
class Tap:
    """One button: its label, what tapping it does (``=action`` or ``s<selection>``), and how it looks."""

    label: str
    arg: str
    style: discord.ButtonStyle = PRIMARY
    disabled: bool = False


@dataclass
class Panel:
    lines: list[str]
    cards: list[list[Tap]]  # groups of card buttons (a suit each), packed into rows 0-3
    controls: list[list[Tap]]  # rows of other buttons, after the cards


# --- actions in custom ids ------------------------------------------------------------------------------------


def encode_action(action: dict[str, Any]) -> str:
    parts = []
    for name in _FIELDS:
        value = action.get(name)
        parts.append(".".join(value or ()) if name == "cards" else "" if value is None else str(value))
    while parts and not parts[-1]:
        parts.pop()
    return ",".join(parts)


def decode_action(text: str) -> dict[str, Any] | None:
    parts = text.split(",")
    if len(parts) > len(_FIELDS) or not parts[0]:
        return None
    action: dict[str, Any] = {}
    for name, part in zip(_FIELDS, parts, strict=False):
        if not part:
            continue
        if name == "value":
            action[name] = int(part) if part.isdigit() else part
        elif name == "cards":
            action[name] = part.split(".")
        else:
            action[name] = part
    return action


def _do(action: dict[str, Any]) -> str:
    return "=" + encode_action(action)


def _show(selection: str) -> str:
    return "s" + selection


def _without_seat(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "seat"}


# --- card sets as masks of card ids (compact in a custom id, and a stale card is noticed) ---------------------


def _mask(cards: Iterable[str]) -> int:
    mask = 0
    for c in cards:
        mask |= 1 << parse_card(c)
    return mask


def _names(mask: int, order: list[str]) -> list[str]:
    return [c for c in order if mask >> parse_card(c) & 1]


def _read_mask(text: str) -> int | None:
    try:
        return int(text, 16) if text else 0
    except ValueError:
        return None


# --- the two functions the live hand calls --------------------------------------------------------------------


def hand_panel(table: Table, seat: int, selection: str = "") -> tuple[list[str], discord.ui.View | None]:
    """The lines of text (what to do now, e.g. 'Choose 6 cards to discard: 2 chosen') and the components for the
    seat's legal choices now.  ``selection`` is the panel's own state ('' = fresh), carried in custom ids."""
    lines, rows = panel_rows(table, seat, selection)
    return list(lines), panel_view(table, rows)


Rows = tuple[tuple[Tap, ...], ...]


def panel_rows(table: Table, seat: int, selection: str = "") -> tuple[tuple[str, ...], Rows]:
    """``hand_panel`` as data: its lines and its buttons by row, without the table's version (``panel_view`` puts
    it in their custom ids).  The last panel of each seat is kept with what it was made from, so a refresh that
    changed nothing the panel shows (the others' cards, while the seat waits) does not build it again."""
    match = table.match
    if match is None:
        return (_("No deal is being played."),), ()
    view = seat_view(table, seat)
    key = _panel_key(table, view, selection)
    kept = table.extra.setdefault(_PANELS, {})
    found = kept.get(seat)
    if key is not None and found is not None and found[0] == key:
        return found[1], found[2]
    panel = _panel(table, match, seat, selection) or _panel(table, match, seat, "")
    assert panel is not None  # the fresh panel always fits
    lines, rows = tuple(panel.lines), tuple(tuple(row) for row in _rows(panel))
    if key is not None:
        kept[seat] = (key, lines, rows)
    return lines, rows


def _panel_key(table: Table, view: dict, selection: str) -> tuple | None:
    """Everything ``_panel`` reads, or None when it reads the whole game (a lead of several cards is tried on the
    engine).  The labels are in the current language."""
    if selection.startswith("M"):
        return None
    return (
        current_language.get(),
        selection,
        table.game,
        tuple(view["hand"]),
        view.get("trump"),
        view.get("trump_rank"),
        view["lead_several"],
        bool(view.get("prompts")),
        repr(view["legal"]),
    )


def panel_view(table: Table, rows: Rows, *, version: int | None = None) -> discord.ui.View | None:
    """The panel's components, for the table at ``version`` (by default as it is now), which their custom ids
    carry."""
    version = table.version if version is None else version
    items = [
        TableButton(
            ComponentId(table.id, PANEL_VERB, version, tap.arg),
            tap.label[:80],
            tap.style,
            row=row,
            disabled=tap.disabled,
        )
        for row, taps in enumerate(rows)
        for tap in taps
    ]
    return view_of(*items) if items else None


def read_click(table: Table, seat: int, arg: str) -> tuple[dict | None, str]:
    """A click on a panel component, given its custom id's ``arg``: (the record-style action dict to perform, '') or
    (None, the new selection to show).  An action that is not legal now shows the fresh panel."""
    match = table.match
    if arg.startswith("s"):
        return None, arg[1:]
    if match is None or not arg.startswith("="):
        return None, ""
    action = decode_action(arg[1:])
    if action is None:
        return None, ""
    legal = _legal_form(match, seat_view(table, seat), seat, action)
    return (legal, "") if legal is not None else (None, "")


def _legal_form(match: Match, view: dict, seat: int, action: dict[str, Any]) -> dict[str, Any] | None:
    """``action`` as the engine lists it (``view`` is the seat's), when it is legal for ``seat`` now; else None."""
    listed = [_without_seat(a) for a in view["legal"]]
    if action in listed:
        return action
    cards = action.get("cards")
    if not isinstance(cards, list) or len(set(cards)) != len(cards):
        return None
    for choice in listed:
        if choice["type"] == "discard" == action["type"] and len(cards) == choice["choose"]:
            if set(cards) <= set(choice["from"]):
                return action
        elif choice["type"] == "play" == action["type"] and sorted(choice["cards"]) == sorted(cards):
            return choice
    if action["type"] == "play" and match.may_lead_several(seat) and _accepted(match, seat, action):
        return action
    return None


def _accepted(match: Match, seat: int, action: dict[str, Any]) -> bool:
    """Whether the engine takes ``action`` now (tried on a copy): the authority on which multi-card leads are
    allowed, so the panel never offers one it would refuse."""
    try:
        match.clone().apply(action_from_json({**action, "seat": seat}))
    except (IllegalAction, ValueError):
        return False
    return True


# --- building a panel -----------------------------------------------------------------------------------------


def _panel(table: Table, match: Match, seat: int, selection: str) -> Panel | None:
    """The panel for ``selection``, or None when the selection does not fit the position (show the fresh one)."""
    view = seat_view(table, seat)
    legal = view["legal"]
    trump = view.get("trump") if view.get("trump") != "NT" else None
    hand = sorted(view["hand"], key=sort_key(table.game, trump, view.get("trump_rank")))
    suit_group = sort_key(table.game, trump, view.get("trump_rank"))
    groups = _groups(hand, lambda c: suit_group(c)[0])
    # Cards a seat plays from outside its hand (a silent partner's face-up cards) come after it, as their own group.
    elsewhere = {c for a in legal if a["type"] == "play" for c in a["cards"]} - set(hand)
    if elsewhere:
        groups.append(sorted(elsewhere, key=suit_group))
    kinds = {a["type"] for a in legal}
    controls = _controls(legal)
    if not legal:  # the hand's own turn line says whose turn it is
        return Panel([], _card_taps(groups, {}), []) if selection == "" else None
    if "discard" in kinds:
        return _discard_panel(groups, legal, selection, controls)
    if "play" in kinds:
        plays = [a for a in legal if a["type"] == "play"]
        if any(len(a["cards"]) > 1 for a in plays):
            return _follow_panel(groups, plays, selection, controls)
        if selection.startswith("M") and view["lead_several"]:
            return _throw_panel(match, seat, hand, groups, selection[1:])
        return _card_panel(groups, plays, selection, controls, lead_several=view["lead_several"])
    if "bid" in kinds:
        return _bid_panel(legal, selection, controls)
    if "call" in kinds:
        return _call_panel(legal, selection, controls)
    if selection:
        return None
    lines: list[str] = []  # the hand's turn line says whose turn it is
    if "expose" in kinds and not view.get("prompts"):  # the engine's own prompt ("You drew 7♥ …") says it better
        exposable = ", ".join(label(a) for a in legal if a["type"] == "expose")
        lines = [_("You may expose a card now: {cards}.", cards=exposable)]
    return Panel(lines, _card_taps(groups, {}), [controls])


def _groups(hand: list[str], group_of) -> list[list[str]]:
    groups: list[list[str]] = []
    last = None
    for card in hand:
        key = group_of(card)
        if not groups or key != last:
            groups.append([])
        groups[-1].append(card)
        last = key
    return groups


def _card_taps(groups: list[list[str]], taps: dict[str, Tap]) -> list[list[Tap]]:
    """The hand's cards as buttons by suit group; a card without a tap of its own is shown disabled."""
    return [[taps.get(c) or Tap(card_label(c), f"s#{c}", SECONDARY, disabled=True) for c in g] for g in groups]


def _controls(legal: list[dict]) -> list[Tap]:
    """The buttons for actions that are neither cards nor bids nor calls (pass, trump, draw, expose...)."""
    taps = []
    for a in legal:
        if a["type"] in ("play", "discard", "bid", "call"):
            continue
        taps.append(Tap(label(_without_seat(a)), _do(_without_seat(a)), SECONDARY if a["type"] == "pass" else PRIMARY))
    return taps


def _chosen(cards: list[str]) -> str:
    return f" ({' '.join(card_label(c) for c in cards)})" if cards else ""


# --- cards one at a time --------------------------------------------------------------------------------------


def _card_panel(
    groups: list[list[str]], plays: list[dict], selection: str, controls: list[Tap], *, lead_several: bool
) -> Panel | None:
    by_card: dict[str, list[dict]] = {}
    for a in plays:
        by_card.setdefault(a["cards"][0], []).append(_without_seat(a))
    quiet = selection == "N"  # the player switched an announcement off
    variants_of = selection[1:] if selection.startswith("J") else None
    if selection and not quiet and (variants_of is None or len(by_card.get(variants_of, [])) < 2):
        return None
    taps: dict[str, Tap] = {}
    announcements = set()
    for card, actions in by_card.items():
        announced = [a for a in actions if a.get("announce")]
        plain = [a for a in actions if not a.get("announce")]
        if announced and len(plain) == 1 and len(announced) == 1:  # the same play, with or without the announcement
            announcements.add(announced[0]["announce"])
            taps[card] = Tap(card_label(card), _do(plain[0] if quiet else announced[0]))
        elif len(actions) == 1:
            taps[card] = Tap(card_label(card), _do(actions[0]))
        else:
            style = SUCCESS if card == variants_of else PRIMARY
            taps[card] = Tap(card_label(card), _show("J" + card), style)
    lines = [_("Tap a card to play it.")]
    extra: list[Tap] = []
    if variants_of is not None:
        lines = [_("Play {card} how?", card=card_label(variants_of))]
        extra = [Tap(label(a), _do(a)) for a in by_card[variants_of]] + [Tap(_("Back"), _show(""), SECONDARY)]
    for word in sorted(announcements):
        name = _(word.capitalize())
        if quiet:
            lines.append(_("{name} will not be announced: tap '{name}: announce' to announce it with your card.",
                           name=name))  # fmt: skip
            extra.append(Tap(_("{name}: announce ✗", name=name), _show(""), SECONDARY))
        else:
            lines.append(_("Your card announces {word}: tap '{name}: announce ✓' to keep quiet instead.",
                           word=name.lower(), name=name))  # fmt: skip
            extra.append(Tap(_("{name}: announce ✓", name=name), _show("N"), SUCCESS))
    if any(t.arg.startswith("=trump") for t in controls):
        # "If the contractor fails to announce a trump suit before leading to the first trick, the suit of the first
        # card played by the contractor automatically becomes trump"
        lines = [_("Name trump with a button, or lead a card: its suit becomes trump.")]
    if lead_several and variants_of is None:
        lines.append(_("Tap a card to lead it alone, or 'Lead several cards' to lead a group of one suit."))
        extra.append(Tap(_("Lead several cards"), _show("M"), SECONDARY))
    return Panel(lines, _card_taps(groups, taps), [controls + extra])


# --- several cards at once ------------------------------------------------------------------------------------


def _toggle_taps(groups: list[list[str]], chosen: int, fixed: int, allowed: int, prefix: str) -> dict[str, Tap]:
    """Each card as a toggle: chosen ones in green (``fixed`` ones locked), the others enabled when ``allowed``."""
    taps = {}
    for card in (c for g in groups for c in g):
        bit = 1 << parse_card(card)
        target = _show(f"{prefix}{chosen ^ bit:x}")
        if bit & fixed:
            taps[card] = Tap(card_label(card), target, SUCCESS, disabled=True)
        elif bit & chosen:
            taps[card] = Tap(card_label(card), target, SUCCESS)
        else:
            taps[card] = Tap(card_label(card), target, PRIMARY if bit & allowed else SECONDARY, not bit & allowed)
    return taps


def _discard_panel(groups: list[list[str]], legal: list[dict], selection: str, controls: list[Tap]) -> Panel | None:
    choice = next(a for a in legal if a["type"] == "discard")
    hand = [c for g in groups for c in g]
    k, allowed = choice["choose"], _mask(choice["from"])
    chosen = _read_mask(selection[1:]) if selection.startswith("S") else 0 if not selection else None
    if chosen is None or chosen & ~allowed or chosen.bit_count() > k:
        return None
    names = _names(chosen, hand)
    taps = _toggle_taps(groups, chosen, 0, allowed if len(names) < k else 0, "S")
    action = {"type": "discard", "cards": names}
    confirm = Tap(label(action) if names else _("Discard ({k} cards)", k=k), _do(action), SUCCESS, len(names) != k)
    lines = [_("Choose the {k} cards to discard: {n} chosen{cards}.", k=k, n=len(names), cards=_chosen(names))]
    return Panel(lines, _card_taps(groups, taps), [[confirm, *controls]])


def _follow_panel(groups: list[list[str]], plays: list[dict], selection: str, controls: list[Tap]) -> Panel | None:
    hand = [c for g in groups for c in g]
    combos = {_mask(a["cards"]): _without_seat(a) for a in plays}
    k = max(len(a["cards"]) for a in plays)
    forced = -1
    for combo in combos:
        forced &= combo
    picked = _read_mask(selection[1:]) if selection.startswith("S") else 0 if not selection else None
    if picked is None:
        return None
    chosen = picked | forced
    reachable = [combo for combo in combos if combo & chosen == chosen]
    if not reachable:
        return None
    allowed = 0
    for combo in reachable:
        allowed |= combo
    if chosen.bit_count() >= k:
        allowed = chosen
    taps = _toggle_taps(groups, chosen, forced, allowed, "S")
    names = _names(chosen, hand)
    action = combos.get(chosen, {"type": "play", "cards": names})
    confirm = Tap(_("Play {what}", what=label(action)) if names else _("Play ({k} cards)", k=k), _do(action), SUCCESS,
                  chosen not in combos)  # fmt: skip
    lines = [_("Play {k} cards: {n} chosen{cards}.", k=k, n=len(names), cards=_chosen(names))]
    return Panel(lines, _card_taps(groups, taps), [[confirm, *controls]])


def _throw_panel(match: Match, seat: int, hand: list[str], groups: list[list[str]], text: str) -> Panel | None:
    chosen = _read_mask(text)
    if chosen is None or chosen & ~_mask(hand):
        return None
    names = _names(chosen, hand)
    allowed = 0
    for card in hand:
        bit = 1 << parse_card(card)
        if not chosen or (not bit & chosen and _accepted(match, seat, {"type": "play", "cards": [*names, card]})):
            allowed |= bit
    taps = _toggle_taps(groups, chosen, 0, allowed, "M")
    action = {"type": "play", "cards": names}
    fits = bool(names) and _accepted(match, seat, action)
    confirm = Tap(_("Lead {what}", what=label(action)) if names else _("Lead (choose cards)"), _do(action), SUCCESS,
                  not fits)  # fmt: skip
    lines = [_("Lead several cards of one suit: {n} chosen{cards}.", n=len(names), cards=_chosen(names))]
    return Panel(lines, _card_taps(groups, taps), [[confirm, Tap(_("Back"), _show(""), SECONDARY)]])


# --- bids and calls -------------------------------------------------------------------------------------------


def _value_text(value: Any) -> str:
    return _(str(value).capitalize())


def _bid_panel(legal: list[dict], selection: str, controls: list[Tap]) -> Panel | None:
    bids = [_without_seat(a) for a in legal if a["type"] == "bid"]
    special = [b for b in bids if b.get("value") is None]  # a contract alone: misère, open misère
    named = [b for b in bids if b.get("value") is not None and (b.get("suit") or b.get("contract"))]
    plain = [b for b in bids if b.get("value") is not None and not (b.get("suit") or b.get("contract"))]
    rows: list[list[Tap]] = []
    lines: list[str] = []
    if named:
        values = list(dict.fromkeys(b["value"] for b in named))
        picked = values[0] if not selection else next((v for v in values if f"V{v}" == selection), None)
        if picked is None:
            return None
        rows.append([Tap(_value_text(v), _show(f"V{v}"), SUCCESS if v == picked else SECONDARY) for v in values])
        rows.append([Tap(_denomination(b), _do(b)) for b in named if b["value"] == picked])
        lines.append(_("Your bid: {value} and up. Tap a value, then a suit.", value=_value_text(values[0])))
    elif plain:
        row_taps, text = _value_rows(plain, selection)
        if row_taps is None:
            return None
        rows += row_taps
        lines.append(text)
    elif selection:
        return None
    rows.append([Tap(label(b), _do(b)) for b in special] + controls)
    return Panel(lines, [], [r for r in rows if r])


def _denomination(bid: dict) -> str:
    if bid.get("suit"):
        return f"{_value_text(bid['value'])} {SUIT_SYMBOLS.get(bid['suit'], bid['suit'])}"
    return f"{_value_text(bid['value'])} {_(bid['contract'].replace('_', ' '))}"


def _value_rows(plain: list[dict], selection: str) -> tuple[list[list[Tap]] | None, str]:
    """Bids that are a value alone: the lowest few and the top ones directly, the rest by range, then value."""
    first = _("Your bid: {value} and up.", value=_value_text(plain[0]["value"]))
    if len(plain) <= 2 * ROW_WIDTH:
        return ([] if selection else [[Tap(_value_text(b["value"]), _do(b)) for b in r] for r in _chunks(plain)]), first
    direct = plain[:DIRECT_VALUES]
    top = plain[-TOP_VALUES:]
    rest = plain[DIRECT_VALUES:-TOP_VALUES]
    ranges = _chunks(rest, by=lambda b: b["value"] // 10 if isinstance(b["value"], int) else 0)
    picked = None
    if selection:
        picked = next((r for r in ranges if selection == f"T{r[0]['value']}"), None)
        if picked is None:
            return None, ""
    rows = [[Tap(_value_text(b["value"]), _do(b)) for b in direct + top]]
    range_taps = [Tap(_span(r), _show(f"T{r[0]['value']}"), SUCCESS if r is picked else SECONDARY) for r in ranges]
    rows += _chunks(range_taps)
    if picked is not None:
        rows.append([Tap(_value_text(b["value"]), _do(b)) for b in picked])
    return rows, first + " " + _("Other bids: tap a range, then the bid.")


def _span(bids: list[dict]) -> str:
    low, high = _value_text(bids[0]["value"]), _value_text(bids[-1]["value"])
    return low if low == high else f"{low}–{high}"


def _chunks(items: list, by=None) -> list[list]:
    """Rows of at most ``ROW_WIDTH``; with ``by``, a new row also starts where ``by`` changes (a range each)."""
    out: list[list] = []
    last = object()
    for item in items:
        key = by(item) if by else None
        if not out or len(out[-1]) >= ROW_WIDTH or (by and key != last):
            out.append([])
        out[-1].append(item)
        last = key
    return out


def _call_panel(legal: list[dict], selection: str, controls: list[Tap]) -> Panel | None:
    calls = [_without_seat(a) for a in legal if a["type"] == "call"]
    of_card = [c for c in calls if c.get("card") and c["card"][-1] in "SHDC"]
    others = [Tap(label(c), _do(c)) for c in calls if c not in of_card] + controls
    lines = [_("Call a partner's card, or play alone.")]
    if len(of_card) + len(others) <= CARD_ROWS * ROW_WIDTH:
        if selection:
            return None
        return Panel(lines, [], [*_chunks([Tap(label(c), _do(c)) for c in of_card]), others])
    suits = list(dict.fromkeys(c["card"][-1] for c in of_card))
    if selection and selection not in (f"C{s}" for s in suits):
        return None
    suit_taps = [
        Tap(_("Call a {suit}", suit=SUIT_SYMBOLS[s]), _show(f"C{s}"), SUCCESS if selection == f"C{s}" else SECONDARY)
        for s in suits
    ]
    if not selection:
        return Panel([lines[0] + " " + _("Tap a suit, then the card.")], [], [suit_taps, others])
    ranks = [Tap(card_label(c["card"]), _do(c)) for c in of_card if c["card"][-1] == selection[1:]]
    return Panel([_("Call which {suit}? (Or another suit.)", suit=SUIT_SYMBOLS[selection[1:]])], [],
                 [*_chunks(ranks), suit_taps])  # fmt: skip


# --- rows -----------------------------------------------------------------------------------------------------


def _rows(panel: Panel) -> list[list[Tap]]:
    """The panel's buttons as at most five rows of five: each suit group of cards starts a row when that fits in
    rows 0-3, else the cards flow; the controls follow.  A hand of more than 20 cards shows its playable cards."""
    controls = [row for line in panel.controls for row in _chunks(line)]
    room = min(CARD_ROWS, MAX_ROWS - len(controls))
    cards = _pack(panel.cards, room)
    if cards is None:
        flat = [t for g in panel.cards for t in g]
        playable = [t for t in flat if not t.disabled]
        cards = _chunks(flat) if len(flat) <= room * ROW_WIDTH else _chunks(playable[: room * ROW_WIDTH])
        if len(cards) > room:  # more rows of controls than cards allow: keep the choices, drop the pictures
            cards = []
    return (cards + controls)[:MAX_ROWS]


def _pack(groups: list[list[Tap]], room: int) -> list[list[Tap]] | None:
    rows: list[list[Tap]] = []
    for group in groups:
        if rows and len(rows[-1]) + len(group) > ROW_WIDTH:
            rows.append([])
        for tap in group:
            if not rows or len(rows[-1]) >= ROW_WIDTH:
                rows.append([])
            rows[-1].append(tap)
    return rows if len(rows) <= room else None
