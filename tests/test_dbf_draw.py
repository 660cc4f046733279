"""Da Bai Fen's draw played by a human through the offline Discord, at a table with three fast computer players.

The draw goes at a human pace (settings ``draw_interval`` and ``kitty_pause``, scaled down here): the human's hand
grows, a trump-rank card they draw is offered at once ("You drew 2♥ — the trump rank: expose it?"), they expose and the
deal goes on; once the first kitty card is turned nobody may expose (the seed's rule); and the human may tap Draw on
their turn instead of waiting.  The seeds give deals with the property each test needs (checked first): the bot's
generator picks the starter, then shuffles.
"""

from __future__ import annotations

import asyncio
import re

from bot.presentation.choices import card_label
from rules.cards import CARD_NAMES, rank_of
from rules.da_bai_fen.scoring import level_rank
from rules.events import ExposureOffered
from rules.game import DEAL, EXCHANGE, PLAY
from tests.botkit.harness import TIMEOUT, bot_world, find_id, table_message

TRUMP_RANK = level_rank(2)  # the first deal's trump rank is the starting level
ALICE = 0  # the host sits first; the three computers fill seats 1-3
EARLY_TWO = 214  # alice draws a 2 among her first two cards; no computer holds one before the 41st card
ONLY_ALICE = 163  # alice holds a 2 and no computer holds any: nobody but alice could expose
ALICE_STARTS = 277  # alice is the starter: she draws the first card


def _twos_by_seat(table) -> dict[int, list[int]]:
    """Stock positions of the trump-rank cards, by the seat that draws them (the kitty's under None)."""
    starter, stock = table.match.dealer, table.record.deals[0].cards.stock
    out: dict = {}
    for i, c in enumerate(stock):
        if c < 64 and rank_of(c) == TRUMP_RANK:
            out.setdefault((starter + i) % 4 if i < 48 else None, []).append(i)
    return out


async def _start(world, client):
    lobby = await world.new_table(world.alice, "dabaifen")
    for _ in range(3):
        await world.click(world.alice, lobby, "cpu")
    await world.click(world.alice, lobby, "start")
    return client.manager.tables[1]


async def _until(condition, what: str) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    try:
        await asyncio.wait_for(wait(), TIMEOUT)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def _my_hand(world, table):
    result = await world.click(world.alice, table_message(world, table), "hand")
    assert result.ephemeral, result.content
    return result.message


async def test_a_human_sees_their_hand_grow_is_offered_expose_and_exposes(tmp_path):
    async with bot_world(tmp_path) as world, world.running(EARLY_TWO, draw_interval=0.1, kitty_pause=0.1) as client:
        acted = []

        async def heard(table, outcome) -> None:
            acted.append(outcome)

        client.add_listener(heard, "on_table_acted")
        table = await _start(world, client)
        twos = _twos_by_seat(table)
        first_two = min(twos[ALICE])
        assert first_two < 8 and all(min(p) > 40 for s, p in twos.items() if s not in (ALICE, None)), twos
        match = table.match

        await _until(lambda: match.drawn > first_two, "alice drawing her 2")
        offered = await _my_hand(world, table)
        listed_then = _cards_listed(offered)  # the live hand is edited in place as the draw goes on
        drawn_two = CARD_NAMES[table.record.deals[0].cards.stock[first_two]]
        assert any(isinstance(e, ExposureOffered) and e.seat == ALICE for o in acted for e in o.events), acted
        assert f"You drew {card_label(drawn_two)} — the trump rank: expose it?" in offered.content, offered.content
        assert find_id(offered, "hp", "expose")

        held = len(match.hand(ALICE))
        await _until(lambda: len(match.hand(ALICE)) >= held + 2, "two more of alice's cards")
        later = await _my_hand(world, table)
        assert _cards_listed(later) >= listed_then + 2, later.content  # it grew
        assert "expose it?" in later.content  # still offered: exposing is open until the kitty is turned
        result = await world.click(world.alice, later, "hp", "expose")
        assert "✅" in result.content, result.content
        assert match.exposed == (ALICE, table.record.deals[0].cards.stock[first_two])
        assert match.leader == ALICE  # the first deal: whoever exposes a two leads
        await _until(lambda: match.phase != DEAL, "the rest of the draw")
        assert match.phase in (EXCHANGE, PLAY) and len(match.hand(ALICE)) == 18  # she took the kitty to discard
        assert "expose" not in (await _my_hand(world, table)).content.lower()


def _cards_listed(message) -> int:
    """How many cards the hand's text lists (images are off in these tests, so the text names the cards)."""
    line = message.content.splitlines()[1]  # "Red joker 2♠ · ♥ Q 5 · ♣ 10 9": a suit's ranks after its symbol
    ranks = [word for word in line.replace("·", " ").split() if re.fullmatch(r"(?:10|[2-9JQKA])[♠♥♦♣]?", word)]
    return len(ranks) + line.lower().count("joker")


async def test_no_exposure_once_the_first_kitty_card_is_turned(tmp_path):
    async with bot_world(tmp_path) as world, world.running(ONLY_ALICE, draw_interval=0.01, kitty_pause=1.0) as client:
        table = await _start(world, client)
        twos = _twos_by_seat(table)
        assert twos.get(ALICE) and all(s in (ALICE, None) for s in twos), twos
        match = table.match

        await _until(lambda: match.drawn == 48, "the 48th card")
        assert match.phase == DEAL and not match.kitty_turned  # the pause before the kitty: alice may still expose
        last = await _my_hand(world, table)
        assert "Last chance: the kitty is turned next." in last.content, last.content
        assert find_id(last, "hp", "expose")

        await _until(lambda: match.phase != DEAL, "the kitty turned")
        assert match.kitty_turned and match.exposed is None
        held = CARD_NAMES[match.stock[twos[ALICE][0]]]
        result = await world.slash(world.alice, "move", {"card": held}, subcommand="expose")
        assert "before the kitty is turned over" in (result.content or ""), result.content
        assert match.exposed is None
        assert "expose" not in (await _my_hand(world, table)).content.lower()


async def test_tapping_draw_draws_at_once(tmp_path):
    async with bot_world(tmp_path) as world, world.running(ALICE_STARTS, draw_interval=30.0) as client:
        table = await _start(world, client)
        match = table.match
        assert match.dealer == ALICE and match.drawn == 0
        assert client.clocks.human_to_move(table) is None  # an automatic draw is no idle human: no clock runs

        hand = await _my_hand(world, table)
        result = await world.click(world.alice, hand, "hp", "draw")
        assert "✅" in result.content, result.content
        assert match.drawn == 1 and len(match.hand(ALICE)) == 1  # at once, not after 30 s

        # The computers' turns keep the pace; drawing out of turn is refused, in players' words.
        early = await world.slash(world.alice, "move", {}, subcommand="draw")
        assert "not your turn" in early.content and "Computer 1" in early.content, early.content
        assert match.drawn == 1
