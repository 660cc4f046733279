"""The hand panel (bot/presentation/panel.py): in random positions of every game, preset and table size, every legal
action is reachable within its tap budget, no enabled button leads to an illegal action, everything fits Discord, and
a garbled selection shows the fresh panel.

``python -m tests.test_panel`` prints the worst tap counts per game (for the issue's figures)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import discord
import pytest

from bot.presentation.panel import PANEL_VERB, hand_panel, read_click
from bot.storage.store import TableRow
from bot.tables.service import Table
from rules import registry
from rules.actions import action_from_json
from rules.errors import RecordError
from rules.game import BETWEEN_DEALS, GAME_OVER, Match
from rules.players import RandomPlayer

TABLE_ID, VERSION = 1234567, 999999  # large, so that custom ids are measured at their longest


@dataclass
class Button:
    label: str
    arg: str
    style: int
    disabled: bool


def make_table(match: Match) -> Table:
    row = TableRow(1234567, None, "", 1, "", None, match.game_id, None, {}, 1, "playing", 0, "", "")
    return Table(row=row, players=match.players, match=match, version=VERSION)


def buttons(table: Table, seat: int, selection: str = "") -> tuple[list[str], list[Button]]:
    lines, view = hand_panel(table, seat, selection)
    if view is None:
        return lines, []
    rows = view.to_components()
    assert len(rows) <= 5 and sum(len(r["components"]) for r in rows) <= 25
    out = []
    for row in rows:
        assert len(row["components"]) <= 5
        for c in row["components"]:
            assert c["type"] == 2, "a button (no select menus in the panel)"
            assert len(c["label"]) <= 80 and len(c["custom_id"]) <= 100
            prefix, table_id, verb, version, arg = c["custom_id"].split(":", 4)
            assert (prefix, int(table_id), verb, int(version)) == ("ct", TABLE_ID, PANEL_VERB, VERSION)
            out.append(Button(c["label"], arg, int(c["style"]), bool(c.get("disabled"))))
    assert len({b.arg for b in out}) == len(out), "custom ids are unique in a message"
    return lines, out


def legal_now(match: Match, seat: int, action: dict) -> bool:
    try:
        match.clone().apply(action_from_json({**action, "seat": seat}))
    except Exception:
        return False
    return True


def throwing_player(rng: random.Random):
    """A random player that sometimes leads several cards where the engine allows it (so follows of k cards come
    up), otherwise plays like ``RandomPlayer``."""
    plain = RandomPlayer()

    def choose(match: Match) -> object:
        seat = match.to_move
        if seat is not None and match.may_lead_several(seat) and rng.random() < 0.7:
            # A lead that no unseen card can beat stands, so the next players follow with several cards.
            hand = match.hand(seat)
            safe = [
                [a, b]
                for i, a in enumerate(hand)
                for b in hand[i + 1 :]
                if legal_now(match, seat, {"type": "play", "cards": names([a, b])})
                and not match.lead_risk(seat, [a, b])
            ]
            if safe:
                return action_from_json({"seat": seat, "type": "play", "cards": names(rng.choice(safe))})
        return plain.choose(match, rng)

    return choose


def names(cards: list[int]) -> list[str]:
    from rules.cards import CARD_NAMES

    return [CARD_NAMES[c] for c in cards]


def configurations() -> list:
    """Every game and preset at up to three table sizes (those the preset allows)."""
    out = []
    for game in registry.games():
        for name, preset in game.presets.items():
            sizes = game.seat_counts if "players" not in preset else (preset["players"],)
            for n in sizes[:3]:
                options = {**preset, "players": n} if len(game.seat_counts) > 1 else dict(preset)
                try:
                    registry.new_match(game.id, options)
                except RecordError:
                    continue
                out.append(pytest.param(game.id, options, id=f"{game.id}-{name}-{n}"))
    return out


def positions(game: str, options: dict, seed: int, share: float) -> Iterator[Table]:
    rng = random.Random(seed)
    match = registry.new_match(game, options)
    choose = throwing_player(rng)
    for _ in range(2):
        if match.phase == GAME_OVER:
            return
        match.start_deal(match.random_deal(rng))
        while match.phase not in (BETWEEN_DEALS, GAME_OVER):
            kinds = {a["type"] for a in match.legal_json()}
            if rng.random() < share or kinds & {"bid", "discard", "call", "expose", "trump"}:
                yield make_table(match)
            match.apply(choose(match))


def taps_to(table: Table, seat: int) -> dict[str, int]:
    """Every action reachable in one or two taps (as its encoded form), with the fewest taps."""
    found: dict[str, int] = {}
    _, fresh = buttons(table, seat)
    steps = [(fresh, 1)]
    for b in fresh:
        if b.arg.startswith("s") and not b.disabled and b.arg[1:2] not in ("M", "S"):  # toggles: tested by count
            steps.append((buttons(table, seat, b.arg[1:])[1], 2))
    for panel, taps in steps:
        for b in panel:
            if b.disabled or not b.arg.startswith("="):
                continue
            action, _ = read_click(table, seat, b.arg)
            assert action is not None, f"an enabled button leads to an illegal action: {b}"
            assert legal_now(table.match, seat, action), b
            key = repr(sorted(action.items()))
            found[key] = min(found.get(key, taps), taps)
    return found


def choose_by_toggling(table: Table, seat: int, cards: list[str], start: str = "") -> tuple[dict, int]:
    """Tap each card not already chosen, then the confirm button: the action performed and the taps it took."""
    selection, taps = start, 0
    for card in cards:
        _, panel = buttons(table, seat, selection)
        button = next(b for b in panel if b.label == card_text(card))
        if button.style == discord.ButtonStyle.success.value:  # chosen already (every legal choice holds it)
            continue
        assert not button.disabled, (card, selection)
        action, selection = read_click(table, seat, button.arg)
        assert action is None
        taps += 1
    _, panel = buttons(table, seat, selection)
    confirm = next(b for b in panel if b.arg.startswith("=") and not b.disabled)
    action, _ = read_click(table, seat, confirm.arg)
    assert action is not None
    return action, taps + 1


def card_text(card: str) -> str:
    from bot.presentation.choices import card_label

    return card_label(card)


WORST: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))


def check_position(table: Table, rng: random.Random) -> None:
    match = table.match
    assert match is not None
    for seat in range(match.players):
        legal = match.seat_view(seat)["legal"]
        if not legal:
            if seat == match.to_move or rng.random() < 0.1:
                buttons(table, seat)  # the waiting panel fits too
            continue
        reached = taps_to(table, seat)
        by_card: dict[str, int] = defaultdict(int)
        for a in legal:
            if a["type"] == "play":
                by_card[a["cards"][0]] += 1
        game = match.game_id
        for a in legal:
            a = {k: v for k, v in a.items() if k != "seat"}
            if a["type"] == "discard":
                chosen = rng.sample(a["from"], a["choose"])
                action, taps = choose_by_toggling(table, seat, chosen)
                assert action["type"] == "discard" and sorted(action["cards"]) == sorted(chosen)
                assert taps <= a["choose"] + 1
                WORST[game][f"discard {a['choose']}"] = max(WORST[game][f"discard {a['choose']}"], taps)
                continue
            if a["type"] == "play" and len(a["cards"]) > 1:
                continue  # checked below, on one combination
            key = repr(sorted(a.items()))
            assert key in reached, f"{game}: {a} not reachable in two taps"
            single = a["type"] == "pass" or (a["type"] == "play" and by_card[a["cards"][0]] == 1)
            assert reached[key] <= (1 if single else 2), (a, reached[key])
            kind = "play" if a["type"] == "play" else a["type"]
            WORST[game][kind] = max(WORST[game][kind], reached[key])
        follows = [a for a in legal if a["type"] == "play" and len(a["cards"]) > 1]
        if follows:
            target = rng.choice(follows)
            action, taps = choose_by_toggling(table, seat, target["cards"])
            assert sorted(action["cards"]) == sorted(target["cards"]) and legal_now(match, seat, action)
            k = len(target["cards"])
            assert taps <= k + 1
            WORST[game][f"follow {k}"] = max(WORST[game][f"follow {k}"], taps)
        check_throw(table, seat, rng)
        check_garbled(table, seat, rng)


def check_throw(table: Table, seat: int, rng: random.Random) -> None:
    """A lead of several cards: 'Lead several cards', each card, then Lead (k + 2 taps)."""
    match = table.match
    assert match is not None
    if not match.may_lead_several(seat) or rng.random() > 0.3:
        return
    _, fresh = buttons(table, seat)
    several = next(b for b in fresh if b.label == "Lead several cards")
    _, start = read_click(table, seat, several.arg)
    hand = names(match.hand(seat))
    first = rng.choice(hand)
    group = [first] + [c for c in hand if c != first and legal_now(match, seat, {"type": "play", "cards": [first, c]})]
    group = group[: rng.randint(2, 4)] if len(group) > 1 else group
    action, taps = choose_by_toggling(table, seat, group, start)
    assert sorted(action["cards"]) == sorted(group) and legal_now(match, seat, action)
    WORST[match.game_id][f"throw {len(group)}"] = max(WORST[match.game_id][f"throw {len(group)}"], taps + 1)


GARBLE = ["S", "Szz", "S" + "f" * 30, "M", "Mxyz", "M" + "f" * 20, "V", "V9999", "Vcapot", "T", "T1", "J", "JAS", "N",
          "C", "CX", "#AS", "?", "=", "s", "S1", "💥"]  # fmt: skip


def check_garbled(table: Table, seat: int, rng: random.Random) -> None:
    fresh = buttons(table, seat)
    for text in rng.sample(GARBLE, 4):
        lines, panel = buttons(table, seat, text)
        if (lines, panel) != fresh:  # a selection that happens to mean something here: it must still fit
            assert panel
    for arg in ("", "x", "=", "=bid,zzz", "=play,,,,,AS.AS", "=discard,,,,,ZZ", "=,,,", "=" + "," * 20):
        action, selection = read_click(table, seat, arg)
        assert action is None or legal_now(table.match, seat, action)
        buttons(table, seat, selection)


@pytest.mark.parametrize(("game", "options"), configurations())
def test_every_choice_is_a_few_taps_away(game: str, options: dict):
    rng = random.Random(7)
    for table in positions(game, options, seed=11, share=0.15):
        check_position(table, rng)


def test_a_single_card_is_one_tap_and_a_pass_too():
    match = registry.new_match(registry.games()[0].id)
    match.start_deal(match.random_deal(random.Random(3)))
    table = make_table(match)
    seat = match.to_move
    _, panel = buttons(table, seat)
    passing = next(b for b in panel if b.label == "Pass")
    assert read_click(table, seat, passing.arg) == ({"type": "pass"}, "")


def main() -> None:
    rng = random.Random(7)
    for param in configurations():
        game, options = param.values
        for table in positions(game, options, seed=11, share=0.15):
            check_position(table, rng)
    for game, worst in WORST.items():
        print(game, dict(sorted(worst.items())))


if __name__ == "__main__":
    main()
