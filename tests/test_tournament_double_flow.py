"""A double elimination of five teams end to end through the offline Discord, as players: winners' bracket with the
top seeds' byes, a losers' bracket fed by its losers, a grand final (replayed once if the losers' bracket winner
takes it), and the champion named in the channel."""

from __future__ import annotations

from bot.storage import tournaments as ts
from bot.tournaments.double import STAGE
from tests.botkit.harness import embed_text
from tests.test_tournament_flow import _create, _players, bot_world, start
from tests.test_tournament_formats_flow import _play, _round_open, _teams, _tid


async def test_a_double_elimination_of_five_teams_to_its_champion(tmp_path):
    async with bot_world(tmp_path) as world:
        users = _players(world, 10)
        async with world.running() as client:
            announcement = await _create(world, world.alice, name="Repêchage", game="belote",
                                         format="double_elimination", best_of=1)  # fmt: skip
            tid = _tid(world, announcement)
            await _teams(world, announcement, users)
            await start(world, world.alice, tid)
            t = await _round_open(world, client, tid, 0)
            assert len(t.played[0].matches) == 1 and len(t.played[0].plan["byes"]) == 3, "byes to the top seeds"
            round_no = 0
            while True:
                await _play(world, client, tid, round_no)
                t = await ts.load_tournament(client.store, tid)
                assert t is not None
                if t.status == ts.FINISHED:
                    break
                round_no += 1
                assert round_no < 20, "a double elimination of five must end"
            assert all(r.plan["stage"] == STAGE for r in t.played)
            losses: dict[int, int] = {}
            matches = 0
            for r in t.played:
                for m, table in zip(r.matches, r.plan["tables"], strict=True):
                    matches += 1
                    ((_, won_a), (_, won_b)) = m.results[ts.WHOLE_MATCH]
                    assert won_a != won_b, "every match has a winner"
                    loser = table[1][0] if won_a else table[0][0]
                    assert losses.get(loser, 0) < 2, "nobody plays on after a second loss"
                    losses[loser] = losses.get(loser, 0) + 1
            (champion,) = [e.id for e in t.entrants if losses.get(e.id, 0) < 2]
            assert matches in (8, 9) and losses.get(champion, 0) == matches - 8
            assert t.played[-1].plan["double"]["final"], "it ends with the grand final"
            name = next(e.name for e in t.entrants if e.id == champion)
            won = [m.content for m in world.fake.messages(world.channel) if "win the tournament" in m.content]
            assert won and name in won[-1]
            standings = embed_text(await world.slash(world.bob, "tournament", {"tournament": tid},
                                                     subcommand="standings"))  # fmt: skip
            assert "winners' bracket: " in standings and "losers' bracket: " in standings
            assert "grand final: " in standings
