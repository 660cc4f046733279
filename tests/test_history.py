"""Issue 15 items 2, 3 and 6 end to end through the offline Discord: looking back during a deal as each game's rules
allow, the learning table's open review, a finished deal reviewed trick by trick, and spectators (Watch, /table
watch, /table list here) who never receive a hand or a card not yet played."""

from __future__ import annotations

import discord
import pytest

from bot.presentation.choices import card_label
from bot.presentation.messages import table_state
from bot.storage.results import stored_eligibility
from bot.storage.watchers import watchers_of
from rules.game import PLAY
from tests.botkit.harness import (
    bot_world,
    embed_text,
    find_id,
    is_ephemeral,
    play_to_the_end,
    table_message,
)

CALL_LINES = ("Contract:", "Auction:", "Calls:", "Bids:")


def seen_text(result) -> str:
    return "\n".join([result.content or "", embed_text(result)])


def unplayed(table) -> set[str]:
    """The labels of every card still held (a spectator must never be shown one)."""
    match = table.match
    return {card_label(c) for seat in range(match.players) for c in match.hand_mask_names(seat)}


def assert_no_hand(text: str, table) -> None:
    shown = sorted(label for label in unplayed(table) if label in text)
    assert not shown, f"a card still held was shown: {shown}\n{text}"


def mid_trick(table) -> bool:
    match = table.match
    return match.phase == PLAY and match.tricks_completed() >= 2 and bool(match.public_view()["trick"])


async def start_four(world, client, game: str, **options):
    args = {"game": game, **options}
    result = await world.slash(world.alice, "table", args, subcommand="new")
    lobby = result.message
    for user in (world.bob, world.carol, world.dan):
        await world.click(user, lobby, "join")
    await world.click(world.alice, lobby, "start")
    await world.settle(client)
    return client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]


async def test_a_spectator_watches_without_ever_seeing_a_hand(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, "belote")
        watched = await world.click(world.stranger, table_message(world, table), "watch")
        assert is_ephemeral(watched), watched.content
        assert "You are watching table" in watched.content and "by DM" in watched.content
        assert_no_hand(seen_text(watched), table)
        assert await watchers_of(client.manager.store, table.id) == [world.stranger.id]

        table = await play_to_the_end(world, client, table.id, stop=mid_trick)
        refreshed = await world.click(world.stranger, watched.message, "watch")  # Refresh: the table as it is now
        assert "Look back" in refreshed.content or "looking back" in seen_text(refreshed)
        assert_no_hand(seen_text(refreshed), table)
        looked = await world.click(world.stranger, watched.message, "look")
        assert "Last trick" in seen_text(looked)  # Belote: "can be viewed by any player until the next ... collected"
        assert_no_hand(seen_text(looked), table)

        deals = len(table.match.deal_results)
        table = await play_to_the_end(world, client, table.id, stop=lambda t: len(t.match.deal_results) > deals)
        await world.settle(client)
        told = [m for m in world.dms(world.stranger) if "is over." in m.content and "👀" in m.content]
        assert len(told) == 1
        review = "\n".join(e.get("description", "") for e in told[0].embeds)
        assert "trick by trick" in review and "the hands as the play began" not in review
        assert len(told[0].embeds) == 1  # the table's option does not show hands to spectators

        # This seed's first deal ends the game (a recountered capot fails: 1,640 points), so nothing more will come
        # and the spectator no longer watches it.
        assert table.status == "finished"
        assert await watchers_of(client.manager.store, table.id) == []
        stop = await world.click(world.stranger, watched.message, "unwatch")
        assert "You are not watching" in stop.content


async def test_spectators_see_the_hands_after_each_deal_where_the_table_allows_it(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, "200", spectator_hands=True)
        assert "Spectators see each deal's hands" in table_message(world, table).content or table.row.spectator_hands
        watched = await world.slash(world.stranger, "table", {"table": str(table.id)}, subcommand="watch")
        assert is_ephemeral(watched) and "its hands" in watched.content
        await world.slash(world.closed, "table", {"table": str(table.id)}, subcommand="watch")  # DMs closed
        table = await play_to_the_end(world, client, table.id, stop=mid_trick)
        assert world.dms(world.stranger) == []  # nothing during the deal
        table = await play_to_the_end(world, client, table.id, stop=lambda t: len(t.match.deal_results) >= 1)
        await world.settle(client)
        told = [m for m in world.dms(world.stranger) if "is over." in m.content and "👀" in m.content]
        assert told, [m.content for m in world.dms(world.stranger)]
        assert "deal 1 is over" in told[0].content
        # DMs that Discord refuses are not tried again: that spectator is no longer noted.
        assert await watchers_of(client.manager.store, table.id) == [world.stranger.id]
        hands = told[0].embeds[-1]["description"]
        assert "the hands as the play began" in hands
        record = table.record.deals[0]
        first_hand = [card_label(c) for c in record.to_json()["hands"][0]]
        assert sum(label in hands for label in first_hand) >= 8  # the kitty exchanged at most a few cards


@pytest.mark.parametrize("game", ["200", "500", "belote", "dabaifen"])
async def test_no_game_shows_a_spectator_a_card_still_held(tmp_path, game):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, game)
        watched = await world.click(world.stranger, table_message(world, table), "watch")
        for tricks in (1, 3):
            table = await play_to_the_end(
                world, client, table.id, stop=lambda t, n=tricks: mid_trick(t) and t.match.tricks_completed() >= n
            )
            for verb in ("watch", "look"):  # Refresh, Look back
                shown = await world.click(world.stranger, watched.message, verb)
                # (a Five Hundred contract is named like a card, "10♦": the calls are not cards)
                said = [line for line in seen_text(shown).splitlines() if not line.startswith(CALL_LINES)]
                assert_no_hand("\n".join(said), table)


async def test_two_hundred_tricks_lie_face_down_during_the_play(tmp_path):
    """Two Hundred: "Completed tricks are stored face down ... and may not be looked at again by anyone until the end
    of the play": no last trick on the table message, nor in Look back, once the next trick is led."""
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, "200")
        table = await play_to_the_end(world, client, table.id, stop=mid_trick)
        message = table_message(world, table)
        assert "Last trick" not in message.content
        assert "Auction:" in message.content  # the auction stays in view during the play
        assert "Trick:" in message.content
        looked = await world.click(world.bob, message, "look")
        text = seen_text(looked)
        assert "Last trick" not in text and "face down" in text and "Tricks won" in text
        assert "(+" not in text  # no card points of a won trick
        early = await world.slash(world.bob, "table", {"deal": 1}, subcommand="review")
        assert "still being played" in early.content  # a deal under way cannot be reviewed


async def test_a_learning_table_opens_every_trick_and_is_unrated(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, "200", review=True)
        table = await play_to_the_end(world, client, table.id, stop=mid_trick)
        message = table_message(world, table)
        assert "Last trick" in message.content
        assert "points_taken" in table_state(table) and "points_taken" not in table.match.public_view()
        looked = await world.click(world.carol, message, "look")
        text = seen_text(looked)
        assert "trick review is open" in text
        assert text.count(" led: ") == table.match.tricks_completed() and "(+" in text
        await play_to_the_end(world, client, table.id)
        await world.settle(client)
        eligibility = await stored_eligibility(client.manager.store, table.id)
        assert eligibility is not None and not eligibility.rated and "trick review" in (eligibility.reason or "")


async def test_a_finished_deal_is_reviewed_trick_by_trick(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, "belote")
        table = await play_to_the_end(world, client, table.id, stop=lambda t: len(t.match.deal_results) >= 1)
        await world.settle(client)
        result = next(m for m in world.fake.messages(world.channel) if "deal 1 result" in m.content)
        shown = await world.click(world.stranger, result, "review", "0")  # a spectator may review it too
        assert is_ephemeral(shown)
        text = seen_text(shown)
        thrown_in = table.match.deal_results[0].get("thrown_in")
        assert text.count(" led: ") == (0 if thrown_in else 8), text
        if not thrown_in:
            assert "→ **" in text and "(+" in text and "Score change" in text
        by_command = await world.slash(world.dan, "table", {"deal": 1}, subcommand="review")
        assert embed_text(by_command) == embed_text(shown)
        missing = await world.slash(world.dan, "table", {"deal": 9}, subcommand="review")
        assert "has deals 1 to" in missing.content


async def test_the_channel_s_open_tables_and_who_may_watch(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, "belote")
        listed = await world.slash(world.stranger, "table", {"here": True}, subcommand="list")
        assert f"#{table.id}" in listed.content and f"/table watch table:{table.id}" in listed.content
        mine = await world.slash(world.stranger, "table", {}, subcommand="list")
        assert "not seated" in mine.content
        seated = await world.click(world.alice, table_message(world, table), "watch")
        assert "You play at table" in seated.content
        watched = await world.slash(world.stranger, "table", {}, subcommand="watch")  # the channel's one table
        assert "You are watching table" in watched.content


async def test_da_bai_fen_shows_the_opponents_counting_cards_face_up(tmp_path):
    """Da Bai Fen: "Whenever the opponents win a trick containing any counting cards, these are extracted from the
    trick and placed face up in front of one of them. All other cards played to tricks, including counting cards in
    tricks won by the declarers, are put face down"."""

    def opponents_counted(table) -> bool:
        match = table.match
        return mid_trick(table) and (match.public_view()["points"][1 - match.declarers] or 0) > 0

    async with bot_world(tmp_path) as world, world.running() as client:
        table = await start_four(world, client, "dabaifen")
        table = await play_to_the_end(world, client, table.id, stop=opponents_counted)
        looked = await world.click(world.stranger, table_message(world, table), "look")
        text = seen_text(looked)
        assert "Face up before team" in text and "Last trick" not in text
        assert_no_hand(text, table)
        face_up = next(line for line in text.splitlines() if line.startswith("Face up before"))
        counting = ("K", "10", "5")
        shown = face_up.split(": ", 1)[1].split(" ")
        assert shown and all(label[:-1] in counting for label in shown), shown


async def test_a_finished_deal_is_replayed_as_an_animated_gif(tmp_path):
    """▶️ Replay under a deal's result (and under its review): the deal card by card as a GIF, to whoever asked,
    drawn from the record's public moments; a second ask reuses it."""
    import io

    from PIL import Image

    async with bot_world(tmp_path, images_on=True) as world, world.running() as client:
        table = await start_four(world, client, "belote")
        table = await play_to_the_end(world, client, table.id, stop=lambda t: len(t.match.deal_results) >= 1)
        await world.settle(client)
        result = next(m for m in world.fake.messages(world.channel) if "deal 1 result" in m.content)
        asked = await world.click(world.stranger, result, "replay", "0")  # a spectator may replay it too
        shown = await asked.wait_for_followup(1, timeout=60)
        assert shown.ephemeral and "Deal 1" in shown.content
        (gif,) = shown.attachments
        assert gif.filename.endswith(".gif")
        image = Image.open(io.BytesIO(gif.data))
        expected = 1 + len(table.record.deals[0].actions) + table.match.tricks_completed() + 1  # a bound
        assert 10 < image.n_frames <= expected, image.n_frames
        review = await world.click(world.dan, result, "review", "0")
        assert any(cid.endswith(":replay:0:0") or ":replay:" in cid for cid in review.message.custom_ids())
        again = await world.click(world.dan, review.message, "replay", "0")
        assert again.message is not None and again.message.attachments[0].data == gif.data  # kept, not redrawn


def _ended_notes(world, user) -> list[str]:
    return [m.content for m in world.dms(user) if "the game ends here" in m.content]


async def test_spectators_are_told_when_the_players_vote_to_stop(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        await world.click(world.stranger, table_message(world, table), "watch")
        await world.slash(world.alice, "table", {}, subcommand="stop")
        question = next(m for m in reversed(world.fake.messages(world.channel)) if "proposes to" in m.content)
        await world.click(world.bob, question, "agree")
        await world.settle(client)
        assert table.status == "cancelled"
        (note,) = _ended_notes(world, world.stranger)
        assert f"Table #{table.id}" in note and "stopped by a vote of its players" in note
        assert f"/table review table:{table.id}" in note
        assert await watchers_of(client.manager.store, table.id) == []  # nothing more will come
        assert _ended_notes(world, world.alice) == _ended_notes(world, world.bob) == []  # players heard it at the table


async def test_spectators_are_told_when_a_watched_game_is_cancelled(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        admin = world.fake.add_user("admin")
        world.fake.add_member(world.guild, admin, permissions=discord.Permissions(manage_guild=True).value)
        table = await world.seated_and_started(client, [world.alice, world.bob])
        await world.slash(world.stranger, "table", {"table": str(table.id)}, subcommand="watch")
        await world.slash(world.closed, "table", {"table": str(table.id)}, subcommand="watch")  # DMs closed
        r = await world.slash(admin, "table", {"table": str(table.id)}, subcommand="cancel")
        assert "cancelled" in r.content
        await world.settle(client)
        (note,) = _ended_notes(world, world.stranger)
        assert "was cancelled" in note and "vote" not in note
        assert await watchers_of(client.manager.store, table.id) == []


async def test_a_spectator_stops_watching_by_the_button_or_when_the_game_ends(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])
        await world.click(world.stranger, table_message(world, table), "watch")
        leaving = await world.click(world.carol, table_message(world, table), "watch")
        stop = await world.click(world.carol, leaving.message, "unwatch")
        assert "no longer watch" in stop.content
        assert await watchers_of(client.manager.store, table.id) == [world.stranger.id]
        table = await play_to_the_end(world, client, table.id)
        await world.settle(client)
        assert table.status == "finished"
        last = len(table.match.deal_results)
        told = [m.content for m in world.dms(world.stranger) if "is over." in m.content]
        assert told and f"deal {last} is over" in told[-1]
        assert await watchers_of(client.manager.store, table.id) == []
