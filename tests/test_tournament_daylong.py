"""The daylong against computers: its scoring worked by hand (bot/tournaments/daylong.py), and end to end through
the offline Discord — a Da Bai Fen daylong of three players, one withdrawing mid-board, a restart mid-board, the
window closing, and the standings checked against matchpoints worked out here from the boards' results."""

from __future__ import annotations

import pytest

from bot.clocks.clock import FakeClock
from bot.storage import daylong as ds
from bot.storage import tournaments as ts
from bot.tournaments.daylong import (
    ALONE,
    UNFINISHED,
    Played,
    assign_instance,
    board,
    board_percentages,
    daylong_standings,
    four_handed,
)
from bot.tournaments.daylong_service import OPEN
from rules.boards import probe
from rules.errors import RecordError
from rules.registry import game_type, match_class
from tests.botkit.harness import TIMEOUT, bot_world, embed_text, play_to_the_end

GAMES = ("belote", "two_hundred", "five_hundred", "da_bai_fen")


# --- the scoring, by hand --------------------------------------------------------------------------------------


def test_matchpoints_against_the_field_with_ties_worked_by_hand():
    # Board 1: ann +20, bob +20, cat -10.  Ann beats cat (2) and ties bob (1): 3 of a top of 4 = 75 %; bob the same;
    # cat beats nobody: 0 %.  Board 2: ann 0, bob -30 (cat never finished it): ann 100 %, bob 0 %.
    results = [Played(1, 0, 0, 20), Played(2, 0, 0, 20), Played(3, 0, 0, -10), Played(1, 0, 1, 0), Played(2, 0, 1, -30)]
    assert board_percentages(results) == {(1, 0): 75.0, (2, 0): 75.0, (3, 0): 0.0, (1, 1): 100.0, (2, 1): 0.0}
    players = {1: 0, 2: 0, 3: 0}
    running = daylong_standings(players, results, boards=2, closed=False)
    # While open: the average of the boards each has finished — ann (75 + 100) / 2, bob (75 + 0) / 2, cat 0 / 1.
    assert [(ln.player, ln.place, ln.percent, ln.counted) for ln in running] == [
        (1, 1, 87.5, 2), (2, 2, 37.5, 2), (3, 3, 0.0, 1)
    ]  # fmt: skip
    final = daylong_standings(players, results, boards=2, closed=True)
    # Closed: every board counts, cat's unfinished board 2 at 40 %: (0 + 40) / 2 = 20.
    assert [(ln.player, ln.percent, ln.counted) for ln in final] == [(1, 87.5, 2), (2, 37.5, 2), (3, 20.0, 2)]


def test_fields_are_per_instance_and_a_lone_player_scores_fifty():
    # Ann and bob play instance 0, cat instance 1: cat's board is not compared with theirs (other cards).
    results = [Played(1, 0, 0, 10), Played(2, 0, 0, 10), Played(3, 1, 0, 500)]
    assert board_percentages(results) == {(1, 0): 50.0, (2, 0): 50.0, (3, 0): ALONE}
    final = daylong_standings({1: 0, 2: 0, 3: 1, 4: 1}, results, boards=1, closed=True)
    assert [(ln.player, ln.place, ln.percent) for ln in final] == [(1, 1, 50.0), (2, 1, 50.0), (3, 1, 50.0),
                                                                  (4, 4, UNFINISHED)]  # fmt: skip


def test_instances_fill_evenly_by_a_draw_and_deal_other_cards():
    taken = [0, 0, 0]
    for user in range(30):
        taken[assign_instance(99, user, taken)] += 1
        assert max(taken) - min(taken) <= 1
    assert assign_instance(99, 5, [1, 0, 0]) == assign_instance(99, 5, [1, 0, 0]), "the same draw from the same seed"
    match = board(7, 0, 3).new_match("belote", {})
    assert board(7, 0, 3).cards(match) == board(7, 0, 3).cards(match)
    assert board(7, 0, 3).cards(match) != board(7, 1, 3).cards(match), "each instance has its own deal"
    assert board(7, 0, 3).dealer == board(7, 1, 3).dealer == 3, "the dealer rotates with the board, as everywhere"


@pytest.mark.parametrize("game", GAMES)
def test_every_preset_deals_a_board_for_four_or_is_refused(game):
    accepted = 0
    for preset, options in game_type(game).presets.items():
        playable = four_handed(game, options)
        if playable is None:
            assert set(game_type(game).teams(4, {**options, "players": 4})) != 2 or options.get("players") != 4
            continue
        accepted += 1
        match = board(11, 0, 2).new_match(game, playable)
        match.start_deal(board(11, 0, 2).cards(match))
        assert match.first_dealer == 2, preset
    assert accepted >= 1 and four_handed(game, game_type(game).presets["standard"]) is not None


# --- through the offline Discord -------------------------------------------------------------------------------


async def _create(world, host, **options):
    result = await world.slash(host, "daylong", options, subcommand="create")
    assert result.message is not None and not result.ephemeral, result.content
    text = result.message.content
    return result.message, int(text.split("(daylong #")[1].split(")")[0])


async def _play(world, user, announcement) -> int:
    """The announcement's Play button: the player's next board's table id."""
    message = world.fake.world.messages[announcement.id]
    cid = next(c for c in message.custom_ids() if c.endswith(":play"))
    result = await world.fake.click(user, message, cid)
    await result.wait(TIMEOUT)
    assert "is dealt in" in result.content, result.content
    return result


async def _board_table(client, tid: int, user) -> int:
    boards = [b for b in await ds.boards(client.store, tid) if b.user_id == user.id and b.status == ds.BOARD_PLAYING]
    assert len(boards) == 1 and boards[0].table_id is not None
    return boards[0].table_id


def _steps(n: int):
    count = {"n": 0}

    def stop(table) -> bool:
        count["n"] += 1
        return count["n"] > n

    return stop


async def test_a_da_bai_fen_daylong_of_three_with_a_withdrawal_and_a_restart(tmp_path):
    clock = FakeClock()
    async with bot_world(tmp_path) as world:
        alice, bob, carol = world.alice, world.bob, world.carol
        async with world.running(clock=clock) as client:
            refused = await world.slash(alice, "daylong", {"name": "x", "game": "da_bai_fen", "boards": 3},
                                        subcommand="create")  # fmt: skip
            assert "8 to 12 boards" in refused.content and refused.ephemeral
            announcement, tid = await _create(world, alice, name="Dimanche", game="da_bai_fen", boards=8,
                                              level="random", hours=24, instances=1)  # fmt: skip
            assert "(1 instance)." in announcement.content, announcement.content
            await world.settle(client)
            assert any("sha256" in m.content for m in world.fake.messages(world.channel))

            # Alice plays board 1 in her private thread; nobody else sees its record yet.
            await _play(world, alice, announcement)
            first_table = await _board_table(client, tid, alice)
            table = client.manager.tables[first_table]
            thread = world.fake.world.channels[table.row.channel_id]
            assert thread.type == 12 and thread.thread_members == {alice.id}
            assert [s for s, r in table.seats.items() if r.computer] == [1, 2, 3]
            await play_to_the_end(world, client, first_table, seed=first_table)
            await world.settle(client)
            assert any("Board 1 played" in m.content for m in thread.messages)
            withheld = await world.slash(carol, "table", {"table": first_table}, subcommand="record")
            assert "which you have still to play" in withheld.content, withheld.content
            # Her next board is board 2 (never one she has played), left under way until the window closes.
            await _play(world, alice, world.fake.world.messages[announcement.id])
            assert (await _board_table(client, tid, alice)) != first_table
            busy = await world.slash(alice, "daylong", {"daylong": tid}, subcommand="play")
            assert "under way" in busy.content and busy.ephemeral

            # Carol plays board 1, then withdraws in the middle of board 2.
            await _play(world, carol, announcement)
            await play_to_the_end(world, client, await _board_table(client, tid, carol), seed=5)
            await world.settle(client)
            record = await world.slash(carol, "table", {"table": first_table}, subcommand="record")
            assert record.message is not None and record.message.attachments, "she has played board 1 now"
            await _play(world, carol, announcement)
            carols_second = await _board_table(client, tid, carol)
            await play_to_the_end(world, client, carols_second, seed=6, stop=_steps(3))
            left = await world.slash(carol, "daylong", {"daylong": tid}, subcommand="withdraw")
            assert "withdrawn" in left.content
            await world.settle(client)
            assert client.manager.tables.get(carols_second) is None or \
                client.manager.tables[carols_second].status != "playing"  # fmt: skip
            again = await world.slash(carol, "daylong", {"daylong": tid}, subcommand="play")
            assert "withdrawn" in again.content

            # Bob plays board 1 and starts board 2; the bot stops in the middle of it.
            await _play(world, bob, announcement)
            await play_to_the_end(world, client, await _board_table(client, tid, bob), seed=7)
            await world.settle(client)
            await _play(world, bob, announcement)
            bobs_second = await _board_table(client, tid, bob)
            await play_to_the_end(world, client, bobs_second, seed=8, stop=_steps(4))
            await world.settle(client)
        async with world.running(clock=clock) as client:
            await world.settle(client)
            await play_to_the_end(world, client, bobs_second, seed=9)
            await world.settle(client)
            running = await world.slash(bob, "daylong", {"daylong": tid}, subcommand="standings")
            assert "(running)" in embed_text(running)
            # A daylong's number given to the round-based commands is refused, saying where to look instead.
            mixed = await world.slash(bob, "tournament", {"tournament": tid}, subcommand="standings")
            assert "is a daylong: see it with /daylong standings" in mixed.content and mixed.ephemeral, mixed.content
            boards = await ds.boards(client.store, tid)
            nets = {(b.user_id, b.board_no): b.net for b in boards if b.status == ds.BOARD_FINISHED}
            assert set(nets) == {(alice.id, 0), (bob.id, 0), (bob.id, 1), (carol.id, 0)}

            refused = await world.slash(bob, "daylong", {"daylong": tid}, subcommand="close")
            assert "Only the organiser" in refused.content
            # The window's time comes: alice's board 2, still under way, is unfinished, like everything not played.
            await clock.advance(24 * 3600 + 1)
            await world.settle(client)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED and t.status != OPEN
            closing = [m.content for m in world.fake.messages(world.channel) if "window is closed" in m.content]
            assert closing and "seeds were 1:" in closing[0]
            final = embed_text(await world.slash(bob, "daylong", {"daylong": tid}, subcommand="standings"))
            # (alice's turn clock may have had the clocks' stand-in finish her board 2 before the close: read again)
            boards = await ds.boards(client.store, tid)
            nets = {(b.user_id, b.board_no): b.net for b in boards if b.status == ds.BOARD_FINISHED}

        # The matchpoints by hand: on each board 2 for each other player beaten, 1 for each tie, over a top of
        # 2 × (players − 1), as a percentage; 50 % alone on a board; every board of 8 counts, 40 % if not finished.
        def pct(user, board_no):
            mine = nets[(user.id, board_no)]
            others = [n for (u, b), n in nets.items() if b == board_no and u != user.id]
            if not others:
                return 50.0
            return 100 * sum(2 if mine > o else 1 if mine == o else 0 for o in others) / (2 * len(others))

        expected = {
            user.username: sum(pct(user, n) if (user.id, n) in nets else 40 for n in range(8)) / 8
            for user in (alice, bob, carol)
        }
        for name, percent in expected.items():
            assert f"{name}: {round(percent, 2):g}% over 8 boards" in final, (name, percent, final)
        order = sorted(expected, key=lambda n: -round(expected[n], 2))
        assert [line.split(". ")[1].split(":")[0] for line in final.splitlines() if ". " in line][:3] == order or \
            len(set(round(v, 2) for v in expected.values())) < 3  # fmt: skip
        board_message = world.fake.world.messages[announcement.id]
        assert "final standings" in board_message.content and not board_message.custom_ids()


@pytest.mark.parametrize("game", GAMES)
async def test_every_game_plays_a_daylong_board(tmp_path, game):
    images_on = game == "belote"  # the standings image edited into the announcement (drawing slows the others)
    async with bot_world(tmp_path, images_on=images_on) as world, world.running() as client:
        announcement, tid = await _create(world, world.alice, name="Cup", game=game, boards=8, level="random",
                                          instances=3)  # fmt: skip
        assert "(3 instances)." in announcement.content, announcement.content
        await _play(world, world.alice, announcement)
        table_id = await _board_table(client, tid, world.alice)
        await play_to_the_end(world, client, table_id, seed=2)
        await world.settle(client)
        boards = await ds.boards(client.store, tid)
        assert [(b.board_no, b.status) for b in boards] == [(0, ds.BOARD_FINISHED)]
        table = await client.manager.get(table_id)
        assert table.record is not None and len(table.record.deals) == 1
        assert table.record.first_dealer == 0, "board 1's dealer"
        thread = world.fake.world.channels[table.row.channel_id]
        assert any("Board 1 played" in m.content for m in thread.messages)
        board_message = world.fake.world.messages[announcement.id]
        assert "alice 50% (1)" in board_message.content, board_message.content
        if images_on:
            assert [a.filename for a in board_message.attachments] == ["standings.png"]
            (tmp_path / "standings.png").write_bytes(board_message.attachments[0].data)


def test_a_board_dealt_by_seat_one_is_a_table_the_bot_can_open_and_reload():
    # Da Bai Fen's board declarers are the dealer's team (rules/boards.py): board 2, dealt by seat 1, fixes team 1,
    # which a match dealt by seat 0 refuses.  Opening, reloading and closing such a table read its options through
    # ``probe``, which finds the first dealer the options need.
    options = board(3, 0, 1).options("da_bai_fen", {})
    assert options["board_declarers"] == 1
    with pytest.raises(RecordError):
        match_class("da_bai_fen")(options)
    assert probe("da_bai_fen", options).first_dealer == 1
    assert probe("belote", {}).first_dealer == 0
