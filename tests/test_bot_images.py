"""With drawing on: the table, hands, deal results and the score sheet go out as PNG images (render/)."""

from __future__ import annotations

import pytest

from tests.botkit.harness import bot_world, play_to_the_end, table_message

PNG = b"\x89PNG\r\n\x1a\n"


async def test_images_for_table_hand_results_and_score_sheet(tmp_path):
    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "500", options="target=100")
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "cpu")
        r = await world.click(world.alice, lobby, "start")
        await world.settle(client)
        assert r.message.attachments and r.message.attachments[0].data.startswith(PNG)
        dm = world.dms(world.alice)[-1]
        assert dm.attachments and dm.attachments[0].data.startswith(PNG)
        table = client.manager.tables[1]
        hand = await world.click(world.alice, table_message(world, table), "hand")
        assert hand.ephemeral and hand.message.attachments[0].data.startswith(PNG)
        await play_to_the_end(world, client, 1, stop=lambda t: len(t.match.deal_results) >= 1)
        await world.settle(client)
        result = await world.fake.wait_for_message(world.channel, lambda m: "result**" in m.content)
        assert result.attachments and result.attachments[0].data.startswith(PNG)
        if table.match.phase == "game_over":
            sheet = await world.fake.wait_for_message(world.channel, lambda m: "is over" in m.content)
            assert sheet.attachments[0].data.startswith(PNG)
        else:
            pytest.skip("one deal did not end the game; the score sheet is covered when it does")


async def test_each_dm_hand_image_comes_with_the_cards_in_words(tmp_path):
    """The picture is not read aloud by a screen reader nor easy to read on a phone: the hand's message lists its
    cards too, in the picture's order, a suit's ranks after its symbol."""
    from bot.presentation.live_hands import card_list

    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        table = await world.five_hundred_with_a_computer(client)
        for user in (world.alice, world.bob):
            dm = world.dms(user)[-1]
            assert dm.attachments and dm.attachments[0].data.startswith(PNG)
            hand = table.match.seat_view(table.seat_of(user.id))["hand"]
            line = dm.content.splitlines()[1]
            assert line == card_list("five_hundred", hand, None, None), dm.content
            suits = [part.split()[0] for part in line.split(" · ")]
            assert len(suits) == len(set(suits)) and sum(len(part.split()) - 1 for part in line.split(" · ")) <= len(
                hand
            )


def test_the_card_list_follows_the_picture_and_keeps_trumps_together():
    from bot.presentation.live_hands import card_list

    assert card_list("two_hundred", ["5D", "AS", "10H", "KS", "9S", "7H"], None, None) == "♠ A K 9 · ♥ 10 7 · ♦ 5"
    hand = ["JD", "AH", "7S", "JK", "10H", "KC", "JH", "QD", "9S"]
    assert card_list("five_hundred", hand, "H", None) == "Joker J♥ J♦ A♥ 10♥ · ♠ 9 7 · ♦ Q · ♣ K"
    hand = ["RJ", "2S", "5H", "AS", "BJ", "KD", "2C", "10C", "3S"]
    assert card_list("da_bai_fen", hand, "S", "2") == "Red joker Black joker 2♠ 2♣ A♠ 3♠ · ♥ 5 · ♣ 10 · ♦ K"
