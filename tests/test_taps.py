"""Issue 14's measures, end to end through the offline Discord: a whole deal of each game with four humans, each
playing from the live hand the bot DMs them, by the shortest taps the panel offers.

- a single-card play or a pass is one interaction; any bid (trump, call…) at most two; a choice of k cards at most
  k + 1 (a Da Bai Fen lead of several cards — a throw — costs k + 2: one tap switches the panel to choosing several);
- exactly one notifying message (a turn ping) per human turn change, none for a player who keeps the turn, and never
  more than one pending ping in the channel;
- at most one new hand message per player per deal (edits after that);
- no select menu over 10 options anywhere;
- the deal's interactions per action, printed (``pytest -s``) for the record.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import registry
from rules.game import BETWEEN_DEALS, GAME_OVER
from tests.botkit.harness import bot_world, plan_taps, tap_action

FOUR_HUMANS = [
    # (game, options text): each game's four-player table
    ("200", None),
    ("500", "players=4"),
    ("belote", None),
    ("dabaifen", None),
]


def budget(action: dict, leading_several: bool) -> int:
    """The most taps the issue allows for ``action``."""
    kind = action["type"]
    cards = action.get("cards") or []
    if kind == "play" and len(cards) > 1:
        return len(cards) + (2 if leading_several else 1)
    if kind == "discard":
        return len(cards) + 1
    if kind in ("play", "pass", "draw", "expose", "claim_draw"):
        # One tap, but a card with two ways to play it (a belote announced or not, a Joker led at no trumps naming
        # a suit) takes a second.
        return 1 if kind != "play" or not (action.get("announce") or action.get("suit")) else 2
    return 2  # a bid, keep, counter, trump, call


def biggest_select(messages) -> int:
    """The most options any select menu on these messages offers."""
    most = 0

    def walk(node) -> None:
        nonlocal most
        if isinstance(node, dict):
            if node.get("type") == 3:  # a string select
                most = max(most, len(node.get("options", [])))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for message in messages:
        walk(message.components)
    return most


def pick(rng: random.Random, legal: list[dict]) -> dict:
    """A random legal action, as a player would choose it (a discard's cards chosen among those allowed)."""
    action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
    if action["type"] == "discard" and "choose" in action:
        action = {"type": "discard", "cards": rng.sample(action["from"], action["choose"])}
    return action


@pytest.mark.parametrize(("game", "options"), FOUR_HUMANS)
async def test_a_whole_deal_with_four_humans_playing_from_their_live_hands(tmp_path, game, options, capsys):
    rng = random.Random(14)
    async with bot_world(tmp_path) as world, world.running() as client:
        users = [world.alice, world.bob, world.carol, world.dan]
        lobby = await world.new_table(world.alice, game, options=options)
        for user in users[1:]:
            await world.click(user, lobby, "join")
        heard = len(world.fake.notifications())  # the first turn's ping comes with the start
        await world.click(world.alice, lobby, "start")
        table = client.manager.tables[1]
        by_id = {u.id: u for u in users}
        taps_by_kind: Counter[str] = Counter()
        actions_by_kind: Counter[str] = Counter()
        worst: dict[str, int] = {}
        pings_checked = 0
        last_move: tuple[int, int] | None = None
        while True:
            await world.settle(client)
            match = table.match
            if match.deal_index > 0 or match.phase in (BETWEEN_DEALS, GAME_OVER):
                break
            seat = match.to_move
            legal = [a for a in match.legal_json() if a.get("seat") == seat] if seat is not None else []
            if not legal or all(a["type"] == "draw" for a in legal):
                continue  # the draw goes on by itself
            user = by_id[table.seats[seat].user_id]
            pings = [n for n in world.fake.notifications(user, since=heard) if "🔔" in n.message.content]
            # The same player keeps the turn (won the trick and leads) when nothing was played since their own move;
            # a card played for them (auto-play) is not their doing: that turn is pinged.
            kept = last_move == (seat, len(table.record.deals[-1].actions))
            assert len(pings) == (0 if kept else 1), (user.username, kept, [n.message.content for n in pings])
            pending = [m for m in world.fake.messages(world.channel) if m.content.startswith("🔔")]
            assert len(pending) <= 1, [m.content for m in pending]
            pings_checked += 1
            action = pick(rng, legal)
            view = match.seat_view(seat)
            leading_several = bool(view.get("lead_several")) and not view.get("trick")
            taps = plan_taps(table, seat, action)
            kind = action["type"] + (f" {len(action['cards'])}" if len(action.get("cards") or []) > 1 else "")
            assert len(taps) <= budget(action, leading_several), (kind, action, taps)
            (hand,) = [m for m in world.dms(user) if m.custom_ids() and "**Your hand**" in m.content]
            heard = len(world.fake.notifications())  # what the move brings (the next turn's ping) comes after this
            moves_before = len(table.record.deals[-1].actions)
            result = await tap_action(world, table, user, hand, action)
            if result.message and "⚠️" in result.message.content:  # a risky lead: confirm it, one more tap
                await world.click(user, result.message, "throw")
                taps.append("throw")
            await world.settle(client)
            last_move = (seat, moves_before + 1)  # this move is the deal's next action
            taps_by_kind[kind] += len(taps)
            actions_by_kind[kind] += 1
            worst[kind] = max(worst.get(kind, 0), len(taps))
        await world.settle(client)
        for user in users:
            hands = [m for m in world.dms(user) if "**Your hand**" in m.content and "deal 1" in m.content]
            assert len(hands) == 1, [m.content[:60] for m in hands]  # one per deal, edited after that
        everything = world.fake.messages(world.channel) + [m for u in users for m in world.dms(u)]
        assert biggest_select(everything) <= 10
        total_taps, total_actions = sum(taps_by_kind.values()), sum(actions_by_kind.values())
        in_deal = len(table.record.deals[0].actions)  # with the draws and the forced cards played for their players
        found = registry.find(game)
        name = found.id if found else game
        with capsys.disabled():
            print(
                f"\n{name}: {total_taps} interactions for {total_actions} actions "
                f"({total_taps / total_actions:.2f} per action chosen; {total_taps / in_deal:.2f} per action of the "
                f"deal's {in_deal}); turn pings checked: {pings_checked}; worst by kind: {dict(sorted(worst.items()))}"
            )
