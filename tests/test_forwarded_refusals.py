"""A tap handed to its table's process (bot/presentation/forwarding.py) is answered in the same words as a tap
answered where it arrived: a risky Da Bai Fen lead's warning and its buttons, the hand shown again, an illegal lead
(from a modified client) answered with the hand, a failed lead told to its player and its double click refused.

The same Da Bai Fen deal (the same seed for the process that deals) is played twice as players: once by one process,
once by two, the table's server on shard 1 (process B) and the players tapping their live hands in their DMs, which
reach shard 0 (process A) and are forwarded to B.  What the leader reads after each tap is the same.
"""

from __future__ import annotations

from bot.presentation.choices import card_label
from rules.actions import Action
from rules.cards import parse_card
from tests.botkit import postgres
from tests.botkit.harness import TIMEOUT, act_through_ui, answer_message, bot_world, find_id, tap_action
from tests.test_shards import on_shard_one, until

SEED = 7


def live_hand(world, user, table_id: int):
    for message in reversed(world.dms(user)):
        if any(c.startswith(f"ct:{table_id}:hp:") for c in message.custom_ids()):
            return message
    raise AssertionError("no live hand in the DMs")


def read(message) -> tuple[str, list[str]]:
    """What a message says, and its buttons' labels."""
    labels = [c.get("label", "") for row in message.components for c in row.get("components", [])]
    return message.content, labels


def failing_lead(table, leader: int) -> list[str]:
    """Two plain cards of one suit whose lead fails (an unseen card beats one): the bot warns before leading them."""
    match = table.match
    trump, rank = match.output()["trump"], match.output()["trump_rank"]
    hand = match.output()["hands"][leader]
    for suit in "SHDC":
        plain = [c for c in hand if c[-1] == suit and suit != trump and c[:-1] != rank]
        for i in range(len(plain) - 1):
            trial = match.clone()
            trial.apply(Action(leader, "play", cards=tuple(parse_card(c) for c in plain[i : i + 2])))
            if trial.failed_throws:
                return plain[i : i + 2]
    raise AssertionError("no failing lead in this deal")


def button(message, label: str) -> str:
    """The custom id of the message's button with this label (shown disabled or not)."""
    for row in message.components:
        for component in row.get("components", []):
            if component.get("label", "").startswith(label):
                return component["custom_id"]
    raise AssertionError(f"no {label!r} button: {read(message)}")


def mixed_lead(table, leader: int) -> list[str]:
    """Two plain cards of different suits: no lead (the panel never offers it; a modified client may send it)."""
    match = table.match
    trump, rank = match.output()["trump"], match.output()["trump_rank"]
    plain = [c for c in match.output()["hands"][leader] if c[-1] != trump and c[:-1] != rank]
    first = plain[0]
    return [first, next(c for c in plain if c[-1] != first[-1])]


async def the_leaders_taps(world, owner, settle) -> list[tuple[str, list[str]]]:
    """Open a Da Bai Fen table of four players; the leader discards, then from their DM hand: a risky lead (warned),
    "Choose again", an illegal lead, the risky lead again and "Lead it anyway" twice (it fails; the second is
    refused).  What the leader read after each."""
    users = [world.alice, world.bob, world.carol, world.dan]
    lobby = await world.new_table(world.alice, "dabaifen", options="start_level=Q")
    for user in users[1:]:
        await world.click(user, lobby, "join")
    await world.click(world.alice, lobby, "start")
    table_id = int(find_id(lobby, "hand").split(":")[1])
    await settle()
    table = owner.manager.tables[table_id]
    await until(lambda: table.match.phase == "exchange", TIMEOUT)
    leader = table.match.output()["contract"]["seat"]
    user = next(u for u in users if u.id == table.seats[leader].user_id)
    discard = {"type": "discard", "cards": table.match.output()["hands"][leader][-6:]}
    await act_through_ui(world, table, user, discard, slash=True)  # (in the server's channel)
    await settle()
    assert table.match.phase == "play" and table.match.to_move == leader
    said = []
    risky = {"type": "play", "cards": failing_lead(table, leader)}

    warned = await tap_action(world, table, user, live_hand(world, user, table_id), risky)
    said.append(read(answer_message(warned)))
    again = await (await world.click(user, answer_message(warned), "hand")).wait_for_answer(TIMEOUT)  # Choose again
    said.append(read(answer_message(again)))

    # A modified client taps buttons the hand shows disabled: a card of another suit, then the lead of both.
    first, other = mixed_lead(table, leader)
    hand = live_hand(world, user, table_id)
    both = f"Lead {card_label(first)} {card_label(other)}"
    for label in ("Back", "Lead several", card_label(first), card_label(other), both):
        tap = await world.fake.forged_component(user, hand, button(hand, label))
        hand = answer_message(await tap.wait_for_answer(TIMEOUT))
    said.append(read(hand))  # not a lead: the hand as it is, nothing chosen

    warned = await tap_action(world, table, user, live_hand(world, user, table_id), risky)
    said.append(read(answer_message(warned)))
    # "Lead it anyway" tapped twice at once (a double click): one leads (and fails), the other is refused.
    taps = [await world.fake.click(user, answer_message(warned), find_id(answer_message(warned), "throw"))
            for _ in range(2)]  # fmt: skip
    answers = [read(answer_message(await tap.wait_for_answer(TIMEOUT))) for tap in taps]
    said.extend(sorted(answers))
    return said


async def test_a_forwarded_tap_is_answered_in_the_same_words_as_by_one_process(tmp_path, postgres_server):
    (tmp_path / "one").mkdir()
    async with bot_world(tmp_path / "one") as world:
        on_shard_one(world)  # (the same server's name in both: the hand says where the table is)
        for user in (world.carol, world.dan):
            world.fake.add_member(world.guild, user)
        async with world.running(SEED) as alone:
            alone_said = await the_leaders_taps(world, alone, lambda: world.settle(alone))

    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        for user in (world.carol, world.dan):
            world.fake.add_member(world.guild, user)
        a, b = world.bot(1, shard_id=0, shard_count=2), world.bot(SEED, shard_id=1, shard_count=2)
        async with world.fake.running(a), world.fake.running(b):
            await until(lambda: a.presenter.placement.alive == {1} and b.presenter.placement.alive == {0}, TIMEOUT)

            async def settle() -> None:
                await world.settle(b)
                await world.settle(a)

            shared_said = await the_leaders_taps(world, b, settle)
            assert a.forwarder.forwarded_count >= 5 and a.forwarder.taken_back_count == 0  # every DM tap went to B

    assert "⚠️" in alone_said[0][0] and "Lead it anyway" in alone_said[0][1]
    assert "Lead several cards" in alone_said[2][1]
    assert alone_said[4][0].startswith("⛔ That lead is no longer") and alone_said[5][0].startswith("❌ Your lead of")
    assert shared_said == alone_said
