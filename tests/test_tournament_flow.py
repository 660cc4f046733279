"""Tournaments end to end through the offline Discord: announce, register with the buttons (a cap and a waiting
list), start, each round's pairings posted and its tables started, results taken from the tables, standings, the
organiser's adjustment in the audit log, and a restart in the middle of a round."""

from __future__ import annotations

import pytest

from bot.clocks.clock import FakeClock
from bot.storage import tournaments as ts
from bot.tournaments.plan import RoundPlan
from bot.tournaments.progress import current_standings
from bot.tournaments.whist import whist_round
from rules.records import replay_text
from tests.botkit.harness import TIMEOUT, bot_world, embed_text, eventually, play_to_the_end


def _players(world, n: int):
    users = [world.alice, world.bob, world.carol, world.dan]
    for i in range(n - len(users)):
        user = world.fake.add_user(f"player{i + 5}")
        world.fake.add_member(world.guild, user)
        users.append(user)
    return users[:n]


def running(world):
    """The bot on a FakeClock: the turn clocks (60 s a turn at a "live" tournament table) move only when a test
    moves them, so a slow, loaded machine never makes a player time out mid-game."""
    return world.running(clock=FakeClock())


async def _entry(world, user, announcement, verb: str):
    """A click on the announcement's Register or Withdraw button."""
    cid = next(c for c in announcement.custom_ids() if c.endswith(f":{verb}"))
    result = await world.fake.click(user, announcement, cid)
    await result.wait(TIMEOUT)
    return result


async def _create(world, host, **options):
    result = await world.slash(host, "tournament", options, subcommand="create")
    assert result.message is not None and not result.ephemeral, result.content
    return result.message


async def start(world, user, tid: int):
    """``/tournament start``: it defers at once (pairing a large field takes time), then says what it did."""
    result = await world.slash(user, "tournament", {"tournament": tid}, subcommand="start")
    return await result.wait_for_followup()


async def _play_round(world, client, round_no: int, tid: int) -> None:
    async def opened():  # the round's tables open one after another once the last round's last result is in
        t = await ts.load_tournament(client.store, tid)
        assert t is not None
        if len(t.played) > round_no and all(m.table_id is not None for m in t.played[round_no].matches):
            return t
        return None

    t = await eventually(opened, f"round {round_no + 1}'s tables to open")
    for match in t.played[round_no].matches:
        assert match.table_id is not None
        await play_to_the_end(world, client, match.table_id, seed=match.table_id)
    await world.settle(client)


async def test_a_belote_melee_of_eight_with_a_waiting_list_and_an_adjustment(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 10)
        async with running(world) as client:
            announcement = await _create(
                world, world.alice, name="Mêlée du jeudi", game="belote", format="melee", rounds=2, deals=1, cap=8
            )
            for user in users[:9]:
                await _entry(world, user, announcement, "register")
            late = await _entry(world, users[9], announcement, "register")
            assert "waiting list" in late.content
            again = await _entry(world, users[0], announcement, "register")
            assert "already registered" in again.content and again.ephemeral
            await _entry(world, users[3], announcement, "withdraw")  # dan leaves: the first on the list moves up
            text = world.fake.world.messages[announcement.id].content
            assert "Waiting list: player10" in text and "player9" in text.split("Waiting")[0]
            tid = int(text.split("(#")[1].split(")")[0])

            refused = await start(world, world.bob, tid)
            assert "Only the organiser" in refused.content
            started = await start(world, world.alice, tid)
            assert "Started" in started.content, started.content
            await world.settle(client)
            pairings = [m.content for m in world.fake.messages(world.channel) if "round 1**" in m.content]
            assert len(pairings) == 1 and "Table 2:" in pairings[0] and "sha256" in pairings[0]

            t = await ts.load_tournament(client.store, tid)
            assert t is not None
            commitment = t.played[0].commitment
            partners_round1 = {frozenset(side) for table in t.played[0].plan["tables"] for side in table}
            for match in t.played[0].matches:
                # One private thread per table, its four players in it, and the table's message there.
                thread = world.fake.world.channels[match.thread_id]
                assert thread.type == 12 and thread.parent is world.channel
                assert thread.thread_members == {u for _, u in match.seats.values()}
                table = client.manager.tables[match.table_id]
                assert table.row.channel_id == thread.id and table.row.message_id in {m.id for m in thread.messages}
            await _play_round(world, client, 0, tid)

            t = await ts.load_tournament(client.store, tid)
            assert t is not None and len(t.played) == 2 and t.played[0].revealed
            assert any(f"seed was {t.played[0].seed}" in m.content for m in world.fake.messages(world.channel))
            assert commitment == __import__("hashlib").sha256(f"cardtable-seed:{t.played[0].seed}".encode()).hexdigest()
            partners_round2 = {frozenset(side) for table in t.played[1].plan["tables"] for side in table}
            assert not partners_round1 & partners_round2, "nobody partners the same player twice"

            adjust = await world.slash(
                world.alice, "tournament",
                {"tournament": tid, "entrant": "bob", "points": -20, "reason": "late to the table"},
                subcommand="adjust",
            )  # fmt: skip
            assert "-20" in adjust.content
            # The announcement is the standings board, edited in place.
            board = world.fake.world.messages[announcement.id].content
            assert "Standings (cumulative): 1." in board and "bob" in board.split("Standings")[1]
            stranger = world.stranger
            swap = await world.slash(
                world.alice, "tournament",
                {"tournament": tid, "entrant": "carol", "player": stranger, "reason": "carol had to leave"},
                subcommand="replace",
            )  # fmt: skip
            assert "stranger plays for carol" in swap.content, swap.content
            await _play_round(world, client, 1, tid)

            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED
            # Round 2 was paired before the replacement: carol's entrant is stranger's for any later round.
            carols = next(e for e in t.entrants if e.name == "carol")
            assert [m.user_id for m in carols.members] == [stranger.id]
            standings = await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="standings")
            text = embed_text(standings)
            assert "cumulative" in text and "bob" in text and "[adjusted -20]" in text
            audit = await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="audit")
            assert "Adjustment: entrant" in audit.content and "late to the table" in audit.content
            assert "Round 2: its seed was" in audit.content and "carol had to leave" in audit.content
            refused = await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="export")
            assert "Only the organiser" in refused.content
            export = await world.slash(world.alice, "tournament", {"tournament": tid}, subcommand="export")
            assert export.message is not None
            names = [a.filename for a in export.message.attachments]
            assert names == [f"tournament-{tid}.csv", f"tournament-{tid}-records.jsonl"]
            records = export.message.attachments[1].data.decode().splitlines()
            assert len(records) == 4  # two tables a round, two rounds
            assert replay_text(records[0])[0] == 0, "each record replays"
            csv_text = export.message.attachments[0].data.decode()
            assert csv_text.startswith("place,entrant,score") and "bob" in csv_text


async def test_a_swiss_survives_a_restart_mid_round(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 9)
        async with running(world) as client:
            announcement = await _create(world, world.alice, name="Swiss", game="belote", format="swiss", rounds=2,
                                         deals=1)  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            opened = await world.slash(world.alice, "tournament", {"tournament": tid}, subcommand="checkin")
            assert "Check-in is open" in opened.content
            late = await _entry(world, world.stranger, world.fake.world.messages[announcement.id], "withdraw")
            assert "not registered" in late.content
            for user in users[:8]:  # the ninth never shows up
                await _entry(world, user, world.fake.world.messages[announcement.id], "checkin")
            twice = await _entry(world, users[0], world.fake.world.messages[announcement.id], "checkin")
            assert "already checked in" in twice.content
            await start(world, world.alice, tid)
            await world.settle(client)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and len(t.played[0].matches) == 2 and not t.played[0].plan["byes"]
            no_show = next(e for e in t.entrants if e.members[0].user_id == users[8].id)
            assert no_show.status == ts.DROPPED
            assert any("no-show" in a.detail for a in await ts.audit_log(client.store, tid))
            first, second = t.played[0].matches
            await play_to_the_end(world, client, first.table_id, seed=3)
            await world.settle(client)
        # The bot stops with table 2 of round 1 still playing, and starts again.
        async with running(world) as client:
            await world.settle(client)
            await play_to_the_end(world, client, second.table_id, seed=4)
            await world.settle(client)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and len(t.played) == 2, "round 2 was paired after the restart"
            assert all(m.status == ts.MATCH_FINISHED for m in t.played[0].matches)
            await _play_round(world, client, 1, tid)
            standings = await world.slash(world.bob, "tournament", {"tournament": tid}, subcommand="standings")
            text = embed_text(standings)
            assert "match points" in text and "Buchholz" in text
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED


async def test_bad_requests_are_refused_in_players_words(tmp_path):
    async with bot_world(tmp_path) as world, world.running():
        bad = await world.slash(world.alice, "tournament",
                                {"name": "x", "game": "belote", "format": "ladder", "rounds": 2},
                                subcommand="create")  # fmt: skip
        assert "format must be one of" in bad.content and bad.ephemeral
        none = await world.slash(world.alice, "tournament", {"tournament": 99}, subcommand="standings")
        assert "no tournament #99" in none.content


async def test_a_duplicate_two_hundred_between_three_tables(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 12)
        async with running(world) as client:
            announcement = await _create(
                world, world.alice, name="Duplicate", game="two_hundred", format="melee", rounds=1, deals=2,
                duplicate=True,
            )  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            await start(world, world.alice, tid)
            await world.settle(client)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and len(t.played[0].matches) == 3
            assert [b for b, _ in t.played[0].boards] == [0, 1]
            tables = [client.manager.tables[m.table_id] for m in t.played[0].matches]
            first_deals = [table.record.deals[0].cards for table in tables]
            assert first_deals[0] == first_deals[1] == first_deals[2], "every table plays board 1's cards"
            assert len({table.record.first_dealer for table in tables}) == 1
            first, *others = t.played[0].matches
            await play_to_the_end(world, client, first.table_id, seed=first.table_id)
            await world.settle(client)
            waiting_user = next(u for u in users if u.id == others[0].seats[0][1])
            peek = await world.slash(waiting_user, "table", {"table": first.table_id}, subcommand="record")
            assert "boards, which you have still to play" in peek.content and peek.ephemeral
            for m in others:
                await play_to_the_end(world, client, m.table_id, seed=m.table_id)
            await world.settle(client)
            peek = await world.slash(waiting_user, "table", {"table": first.table_id}, subcommand="record")
            assert peek.message is not None and peek.message.attachments, peek.content
            second = [client.manager.tables.get(m.table_id) or await client.manager.get(m.table_id) for m in
                      t.played[0].matches]  # fmt: skip
            assert len({str(table.record.deals[1].cards) for table in second}) == 1, "and board 2's"
            assert all(len(table.record.deals) == 2 for table in second), "the tables stop after the round's boards"

            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED
            standings = await world.slash(world.bob, "tournament", {"tournament": tid}, subcommand="standings")
            text = embed_text(standings)
            assert "matchpoints" in text
            # Each board gives each table's two sides 2 * (3 - 1) = 4 matchpoints between them: 8 over two boards,
            # and each player has their side's.
            lines = current_standings(t, "matchpoints")
            assert sum(ln.score for ln in lines) == 3 * 8 * 2


async def test_a_timed_out_seat_at_a_tournament_table_gets_a_stand_in(tmp_path):
    async with bot_world(tmp_path) as world:
        world_clock = FakeClock()
        users = _players(world, 4)
        async with world.running(clock=world_clock) as client:
            bad = await world.slash(world.alice, "tournament",
                                    {"name": "x", "game": "belote", "format": "melee", "rounds": 1, "clock": "soon"},
                                    subcommand="create")  # fmt: skip
            assert "is not a clock" in bad.content
            announcement = await _create(world, world.alice, name="Quick", game="belote", format="melee", rounds=1,
                                         deals=1, clock="live")  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            await start(world, world.alice, tid)
            await world.settle(client)
            await client.clocks.settle()
            t = await ts.load_tournament(client.store, tid)
            assert t is not None
            table = client.manager.tables[t.played[0].matches[0].table_id]
            seat = table.match.to_move
            await world_clock.advance(61)  # a live clock: 60 s a turn
            await world.settle(client)
            await client.clocks.settle()
            await world.settle(client)
            assert seat in table.away, "the player who let the clock run out has a computer standing in"


async def test_a_table_that_could_not_be_opened_is_opened_at_the_next_start(tmp_path, monkeypatch):
    async def refused(t, round_no, match_no, users):
        raise RuntimeError("Discord refused the thread")

    async with bot_world(tmp_path) as world:
        users = _players(world, 4)
        async with running(world) as client:
            announcement = await _create(world, world.alice, name="Flaky", game="belote", format="melee", rounds=1,
                                         deals=1)  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            with monkeypatch.context() as patch:
                # The loaded cog (discord.py loads an extension as a module of its own): its Discord refuses threads.
                patch.setattr(client.get_cog("Tournaments"), "open_table_channel", refused)
                await start(world, world.alice, tid)
                await world.settle(client)
            assert any("could not be opened" in m.content for m in world.fake.messages(world.channel))
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.played[0].matches[0].status == ts.MATCH_WAITING
        async with running(world) as client:
            await world.settle(client)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.played[0].matches[0].status == ts.MATCH_PLAYING
            await play_to_the_end(world, client, t.played[0].matches[0].table_id, seed=2)
            await world.settle(client)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED


async def test_a_sixteen_player_belote_melee_of_three_rounds(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 16)
        async with running(world) as client:
            announcement = await _create(world, world.alice, name="Concours", game="belote", format="melee", rounds=3,
                                         deals=1)  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            await start(world, world.alice, tid)
            await world.settle(client)
            for round_no in range(3):
                await _play_round(world, client, round_no, tid)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED and len(t.played) == 3
            partners = [frozenset(side) for r in t.played for table in r.plan["tables"] for side in table]
            assert len(partners) == 3 * 8 and len(set(partners)) == len(partners), "no partner twice"
            # Sixteen players: the rounds are the balanced whist schedule's, placed by the tournament's seed.
            whist = [whist_round([e.id for e in t.entrants], t.seed, r) for r in range(3)]
            assert [RoundPlan.from_json(r.plan) for r in t.played] == whist
            lines = current_standings(t, "cumulative")
            assert len(lines) == 16 and all(ln.played == 3 for ln in lines)


@pytest.mark.parametrize(
    ("game", "format", "duplicate", "method"),
    [
        ("five_hundred", "swiss", False, "match points"),
        ("da_bai_fen", "melee", False, "levels"),
        ("da_bai_fen", "melee", True, "matchpoints"),
    ],
)
async def test_every_game_plays_a_tournament_round(tmp_path, game, format, duplicate, method):
    async with bot_world(tmp_path) as world:
        users = _players(world, 4)
        async with running(world) as client:
            announcement = await _create(world, world.alice, name="Cup", game=game, format=format, rounds=1, deals=1,
                                         duplicate=duplicate)  # fmt: skip
            for user in users:
                await _entry(world, user, announcement, "register")
            tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
            await start(world, world.alice, tid)
            await world.settle(client)
            await _play_round(world, client, 0, tid)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED
            standings = await world.slash(world.bob, "tournament", {"tournament": tid}, subcommand="standings")
            assert f"({method})" in embed_text(standings)
            if duplicate:
                table = await client.manager.get(t.played[0].matches[0].table_id)
                assert table.record.options["board_declarers"] == table.record.first_dealer % 2


async def test_a_da_bai_fen_duplicate_plays_one_board_a_round(tmp_path):
    async with bot_world(tmp_path) as world, world.running():
        bad = await world.slash(world.alice, "tournament",
                                {"name": "x", "game": "da_bai_fen", "format": "melee", "rounds": 1, "deals": 2,
                                 "duplicate": True}, subcommand="create")  # fmt: skip
        assert "a board is one deal" in bad.content
