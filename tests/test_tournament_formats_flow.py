"""Team formats, deadlines and the organiser's new tools end to end through the offline Discord, as players: teams
entered with **Register team** (captain names the partner, the partner taps), a Swiss of teams, a round robin, a
single elimination best of 3, a check-in that closes by itself after its reminder, round deadlines (the computer
standing in, a forfeit, an extension), a re-pair, and a restart mid-round with a deadline still to come."""

from __future__ import annotations

import asyncio

from bot.clocks.clock import FakeClock
from bot.storage import tournaments as ts
from bot.tournaments.formats import KNOCKOUT
from tests.botkit.harness import TIMEOUT, act_through_ui, embed_text, play_to_the_end
from tests.test_tournament_flow import _create, _entry, _players, bot_world, start


def _tid(world, announcement) -> int:
    return int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])


async def register_team(world, captain, partner, announcement):
    """The captain presses Register team and names the partner; the partner accepts in the channel."""
    cid = next(c for c in announcement.custom_ids() if c.endswith(":team"))
    asked = await world.fake.click(captain, announcement, cid)
    await asked.wait(TIMEOUT)
    assert asked.ephemeral and asked.message is not None, asked.content
    select = next(c for c in asked.message.custom_ids() if c.endswith(":partner"))
    named = await world.fake.select(captain, asked.message, select, [partner])
    await named.wait(TIMEOUT)
    assert "asked to confirm" in named.content, named.content
    for _ in range(200):  # the question is posted in the channel just after the captain's answer
        asking = [
            m for m in world.fake.messages(world.channel) if f"<@{partner.id}>" in m.content and "partner" in m.content
        ]
        if asking:
            break
        await asyncio.sleep(0.01)
    question = asking[-1]
    yes = next(c for c in question.custom_ids() if ":yes:" in c)
    accepted = await world.fake.click(partner, question, yes)
    await accepted.wait(TIMEOUT)
    return accepted, question


async def _teams(world, announcement, users):
    for captain, partner in zip(users[::2], users[1::2], strict=True):
        accepted, _ = await register_team(world, captain, partner, world.fake.world.messages[announcement.id])
        assert "entered as a team" in world.fake.world.messages[accepted.source.id].content


async def _round_open(world, client, tid: int, round_no: int):
    for _ in range(100):
        t = await ts.load_tournament(client.store, tid)
        assert t is not None
        if len(t.played) > round_no and all(m.table_id is not None for m in t.played[round_no].matches):
            return t
        await world.settle(client)
    raise AssertionError(f"round {round_no + 1} did not open")


async def _play(world, client, tid: int, round_no: int):
    t = await _round_open(world, client, tid, round_no)
    for m in t.played[round_no].matches:
        await play_to_the_end(world, client, m.table_id, seed=m.table_id)
    await world.settle(client)


async def test_an_eight_team_swiss_five_hundred_with_register_team(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 17)
        async with world.running() as client:
            announcement = await _create(world, world.alice, name="Swiss 500", game="five_hundred", format="swiss",
                                         rounds=2, deals=1, entry="team")  # fmt: skip
            tid = _tid(world, announcement)
            alone = await _entry(world, users[16], announcement, "team")
            assert "Name your partner" in alone.content
            single = next((c for c in announcement.custom_ids() if c.endswith(":register")), None)
            assert single is None, "a team tournament offers Register team, not Register"
            await _teams(world, announcement, users[:16])
            # Someone already entered cannot be named again: refused in words, nothing half-applied.
            cid = next(c for c in announcement.custom_ids() if c.endswith(":team"))
            asked = await world.fake.click(users[16], world.fake.world.messages[announcement.id], cid)
            await asked.wait(TIMEOUT)
            select = next(c for c in asked.message.custom_ids() if c.endswith(":partner"))
            refused = await world.fake.select(users[16], asked.message, select, [users[3]])
            await refused.wait(TIMEOUT)
            assert "already entered" in refused.content and users[3].username in refused.content
            # Only the named partner answers.
            accepted, question = await register_team(world, users[16], world.stranger, announcement)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and len([e for e in t.entrants if e.status == ts.REGISTERED]) == 9
            # The ninth team thinks better of it: Withdraw takes the whole team out.
            await _entry(world, world.stranger, world.fake.world.messages[announcement.id], "withdraw")
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and len([e for e in t.entrants if e.status == ts.REGISTERED]) == 8
            assert all(len(e.members) == 2 for e in t.entrants)

            await start(world, world.alice, tid)
            t = await _round_open(world, client, tid, 0)
            assert len(t.played[0].matches) == 4 and not t.played[0].plan["byes"]
            for m in t.played[0].matches:
                entrants = {e for e, _ in m.seats.values()}
                assert len(entrants) == 2, "a table is two teams"
                team_seats = {e: sorted(s for s, (x, _) in m.seats.items() if x == e) for e in entrants}
                assert sorted(team_seats.values()) == [[0, 2], [1, 3]], "partners sit opposite"
            await _play(world, client, tid, 0)
            await _play(world, client, tid, 1)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED
            first = {frozenset(map(tuple, table)) for table in t.played[0].plan["tables"]}
            second = {frozenset(map(tuple, table)) for table in t.played[1].plan["tables"]}
            assert not first & second, "no rematch"
            # A table stopped at its round's deal is finished as played, and rated.
            row = await client.store.fetch_one(
                "SELECT status, rated FROM game_results WHERE table_id = ?", (t.played[0].matches[0].table_id,)
            )
            assert row is not None and row[0] == "finished" and row[1] == 1


async def test_a_round_robin_of_four_teams(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 8)
        async with world.running() as client:
            announcement = await _create(world, world.alice, name="Poule", game="belote", format="round_robin",
                                         deals=1)  # fmt: skip
            tid = _tid(world, announcement)
            await _teams(world, announcement, users)
            await start(world, world.alice, tid)
            for round_no in range(3):
                await _play(world, client, tid, round_no)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED and len(t.played) == 3
            met = [frozenset(e for side in table for e in side) for r in t.played for table in r.plan["tables"]]
            assert len(met) == 6 and len(set(met)) == 6, "every team meets every other once"
            standings = embed_text(await world.slash(world.bob, "tournament", {"tournament": tid},
                                                     subcommand="standings"))  # fmt: skip
            assert "match points" in standings and "round 3" in standings and "✅" in standings


async def test_a_single_elimination_best_of_three(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 10)
        async with world.running() as client:
            announcement = await _create(world, world.alice, name="Coupe", game="belote",
                                         format="single_elimination", best_of=3)  # fmt: skip
            tid = _tid(world, announcement)
            await _teams(world, announcement, users)  # five teams: three byes in an eight-slot bracket
            await start(world, world.alice, tid)
            t = await _round_open(world, client, tid, 0)
            assert len(t.played[0].matches) == 1 and len(t.played[0].plan["byes"]) == 3
            round_no = 0
            while True:
                await _play(world, client, tid, round_no)
                t = await ts.load_tournament(client.store, tid)
                assert t is not None
                for m in t.played[round_no].matches:
                    (a, won_a), (b, won_b) = m.results[ts.WHOLE_MATCH]
                    assert won_a != won_b, "a knock-out match has a winner"
                    assert max(a, b) == 2 or a + b <= 9, "best of 3: the first to two deals won"
                if t.status == ts.FINISHED:
                    break
                round_no += 1
            assert round_no == 2 and all(r.plan["stage"] == KNOCKOUT for r in t.played)
            assert len(t.played[-1].matches) == 1, "a final"
            assert any("win the tournament" in m.content for m in world.fake.messages(world.channel))


async def test_a_no_show_after_the_check_in_reminder(tmp_path):
    async with bot_world(tmp_path) as world:
        clock = FakeClock()
        users = _players(world, 5)
        async with world.running(clock=clock) as client:
            announcement = await _create(world, world.alice, name="Soir", game="belote", format="melee", rounds=1,
                                         deals=1)  # fmt: skip
            tid = _tid(world, announcement)
            for user in users:
                await _entry(world, user, announcement, "register")
            opened = await world.slash(world.alice, "tournament", {"tournament": tid, "minutes": 20},
                                       subcommand="checkin")  # fmt: skip
            assert "It closes <t:" in opened.content
            for user in users[:4]:
                await _entry(world, user, world.fake.world.messages[announcement.id], "checkin")
            await clock.advance(15 * 60 + 1)  # 5 minutes before the close
            await world.settle(client)
            reminders = [m.content for m in world.fake.messages(world.channel) if "check-in closes" in m.content]
            assert len(reminders) == 1 and f"<@{users[4].id}>" in reminders[0] and ":R>" in reminders[0]
            assert f"<@{users[0].id}>" not in reminders[0], "only those not checked in are reminded"
            await clock.advance(5 * 60)
            await world.settle(client)
            t = await _round_open(world, client, tid, 0)
            assert t.status == ts.RUNNING and len(t.played[0].matches) == 1
            assert next(e for e in t.entrants if e.members[0].user_id == users[4].id).status == ts.DROPPED


async def _deadline_tournament(world, client, clock, policy: str):
    users = _players(world, 8)
    announcement = await _create(world, world.alice, name=f"Timed {policy}", game="belote", format="swiss",
                                 rounds=2, deals=1, entry="team", deadline=60, at_deadline=policy,
                                 clock="async")  # fmt: skip
    tid = _tid(world, announcement)
    await _teams(world, announcement, users)
    await start(world, world.alice, tid)
    return tid, await _round_open(world, client, tid, 0)


async def _play_seat(world, client, table_id: int, seat: int) -> None:
    """The one player still at the table plays their own turns (the first legal action) until the game stops."""
    user = next(
        u for u in world.fake.world.users.values() if u.id == client.manager.tables[table_id].seats[seat].user_id
    )
    for _ in range(2000):
        await world.settle(client, rounds=1)
        table = client.manager.tables.get(table_id) or await client.manager.get(table_id)
        if table.status != "playing":
            return
        if table.match.to_move != seat:
            continue
        mine = [a for a in table.match.legal_json() if a.get("seat") == seat]
        action = {k: v for k, v in mine[0].items() if k != "seat"}
        await act_through_ui(world, table, user, action)
    raise AssertionError("the table did not finish")


async def test_round_deadlines_computer_stands_in_after_an_extension(tmp_path):
    async with bot_world(tmp_path) as world:
        clock = FakeClock()
        async with world.running(clock=clock) as client:
            tid, t = await _deadline_tournament(world, client, clock, "computer")
            assert any("The round ends <t:" in m.content for m in world.fake.messages(world.channel))
            first, second = t.played[0].matches
            await play_to_the_end(world, client, first.table_id, seed=5)
            # At table 2 one player makes the first move; the others never do.
            present = client.manager.tables[second.table_id].match.to_move
            await play_to_the_end(world, client, second.table_id, stop=lambda tb: len(tb.record.deals[-1].actions) > 0)
            await world.settle(client)
            refused = await world.slash(world.bob, "tournament", {"tournament": tid, "minutes": 30},
                                        subcommand="extend")  # fmt: skip
            assert "Only the organiser" in refused.content
            extended = await world.slash(world.alice, "tournament", {"tournament": tid, "minutes": 30},
                                         subcommand="extend")  # fmt: skip
            assert "Extended by 30 minutes" in extended.content and ":R>" in extended.content
            await clock.advance(76 * 60)  # past the reminder (15 min before the new end), not the end
            await world.settle(client)
            reminders = [m.content for m in world.fake.messages(world.channel) if "round 1 ends" in m.content]
            assert len(reminders) == 1
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.played[0].matches[1].status == ts.MATCH_PLAYING, "the extension held"
            await clock.advance(15 * 60)
            await client.clocks.settle()
            await world.settle(client)
            table = client.manager.tables[second.table_id]
            assert table.away == {0, 1, 2, 3} - {present}, "the computer stands in for the three who never played"
            assert any("the computer now plays" in m.content for m in world.fake.messages(world.channel))
            await _play_seat(world, client, second.table_id, present)
            t = await _round_open(world, client, tid, 1)
            assert t.played[0].matches[1].status == ts.MATCH_FINISHED
            audit = await ts.audit_log(client.store, tid)
            assert any(a.action == "extend" for a in audit)
            row = await client.store.fetch_one("SELECT standin FROM actions WHERE table_id = ? AND standin = 1",
                                               (second.table_id,))  # fmt: skip
            assert row is not None, "the stand-in's moves are marked as such"


async def test_round_deadline_forfeit_and_a_restart_mid_round(tmp_path):
    async with bot_world(tmp_path) as world:
        clock = FakeClock()
        async with world.running(clock=clock) as client:
            tid, t = await _deadline_tournament(world, client, clock, "forfeit")
            first, second = t.played[0].matches
            await play_to_the_end(world, client, first.table_id, seed=6)
            await world.settle(client)
            table = client.manager.tables[second.table_id]
            waiting_seat = table.match.to_move
        # The bot stops mid-round; the deadline passes while it is down, and it fires once when it is back.
        await clock.advance(61 * 60)
        async with world.running(clock=clock) as client:
            await clock.advance(1)
            await world.settle(client)
            t = await _round_open(world, client, tid, 1)
            result = t.played[0].matches[1].results[ts.WHOLE_MATCH]
            absent = 0 if waiting_seat in (0, 2) else 1
            assert [won for _, won in result] == [absent != 0, absent != 1], "the side the table waited on lost"
            forfeits = [m.content for m in world.fake.messages(world.channel) if "forfeited" in m.content]
            assert len(forfeits) == 1
            assert any("forfeits at the deadline" in a.detail for a in await ts.audit_log(client.store, tid))


async def test_a_round_paired_again_before_it_starts(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 9)
        async with world.running() as client:
            announcement = await _create(world, world.alice, name="Re", game="belote", format="melee", rounds=1,
                                         deals=1)  # fmt: skip
            tid = _tid(world, announcement)
            for user in users:
                await _entry(world, user, announcement, "register")
            await start(world, world.alice, tid)
            t = await _round_open(world, client, tid, 0)
            old_tables = [m.table_id for m in t.played[0].matches]
            sitting_out = t.played[0].plan["byes"]
            gone = next(e for e in t.entrants if e.id not in sitting_out)
            await world.slash(world.alice, "tournament", {"tournament": tid, "entrant": gone.name,
                                                           "reason": "never came"}, subcommand="drop")  # fmt: skip
            asked = await world.slash(world.bob, "tournament", {"tournament": tid, "reason": "x"},
                                      subcommand="repair")  # fmt: skip
            assert "Only the organiser" in (await asked.wait_for_followup()).content
            again = await world.slash(world.alice, "tournament", {"tournament": tid, "reason": "a no-show dropped"},
                                      subcommand="repair")  # fmt: skip
            assert "Paired again" in (await again.wait_for_followup()).content
            t = await _round_open(world, client, tid, 0)
            assert gone.id not in {e for m in t.played[0].matches for e, _ in m.seats.values()}
            assert not t.played[0].plan["byes"], "eight left: two full tables"
            assert all(client.manager.tables.get(i) is None for i in old_tables), "the old tables are closed"
            assert any(a.action == "repair" and "a no-show dropped" in a.detail
                       for a in await ts.audit_log(client.store, tid))  # fmt: skip
            # Once a table has a move, the round cannot be paired again.
            table = client.manager.tables[t.played[0].matches[0].table_id]
            await play_to_the_end(world, client, table.id, stop=lambda tb: len(tb.record.deals[-1].actions) > 0)
            late = await world.slash(world.alice, "tournament", {"tournament": tid, "reason": "again"},
                                     subcommand="repair")  # fmt: skip
            assert "has started playing" in (await late.wait_for_followup()).content


async def test_a_round_robin_in_two_groups_then_a_final(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 8)
        async with world.running() as client:
            announcement = await _create(world, world.alice, name="Groupes", game="belote", format="round_robin",
                                         deals=1, groups=2, best_of=1)  # fmt: skip
            tid = _tid(world, announcement)
            await _teams(world, announcement, users)
            await start(world, world.alice, tid)
            await _play(world, client, tid, 0)  # two groups of two: one match each
            await _play(world, client, tid, 1)
            t = await ts.load_tournament(client.store, tid)
            assert t is not None and t.status == ts.FINISHED and len(t.played) == 2
            assert len(t.played[0].matches) == 2 and "stage" not in t.played[0].plan
            final = t.played[1]
            assert final.plan["stage"] == KNOCKOUT and len(final.matches) == 1
            group_winners = t.played[0].matches
            winners = set()
            for m, table in zip(group_winners, t.played[0].plan["tables"], strict=True):
                won = [i for i, (_, w) in enumerate(m.results[ts.WHOLE_MATCH]) if w]
                winners |= set(table[won[0]]) if won else set()
            finalists = {e for side in final.plan["tables"][0] for e in side}
            assert finalists == winners, "the group winners meet in the final"
