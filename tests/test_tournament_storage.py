"""Tournaments in the store (bot/storage/tournaments.py): everything written comes back after a restart."""

from __future__ import annotations

from bot.storage import tournaments as ts
from bot.storage.store import Store
from bot.tournaments.pairing import melee_round
from bot.tournaments.plan import History, seed_commitment
from bot.tournaments.progress import current_standings, history, plans
from bot.tournaments.standings import CUMULATIVE


async def test_a_tournament_survives_a_restart(tmp_path):
    path = str(tmp_path / "t.db")
    store = await Store.open(path)
    tid = await ts.create_tournament(
        store, guild_id=1, channel_id=2, organiser_id=99, name="Mêlée du jeudi", game="belote", preset=None,
        options={}, format="melee", rounds=3, settings={"deals": 2}, seed=2**62 + 5,
    )  # fmt: skip
    ids = [await ts.add_entrant(store, tid, f"p{i}", [ts.Member(100 + i, f"p{i}")], ts.REGISTERED, 100 + i)
           for i in range(8)]  # fmt: skip
    await ts.set_entrant_status(store, tid, ids[7], ts.WITHDRAWN, 107)
    await ts.set_status(store, tid, ts.RUNNING, 99, "started")
    plan = melee_round(ids, History.of([]), 5, 0)
    seats = [{s: (e, 100 + e) for s, e in enumerate((t.sides[0][0], t.sides[1][0], t.sides[0][1], t.sides[1][1]))}
             for t in plan.tables]  # fmt: skip
    await ts.save_round(
        store, tid, 0, seed=77, commitment=seed_commitment(77), plan=plan.to_json(), boards=[(0, 0), (1, 1)],
        matches=seats,
    )  # fmt: skip
    await ts.set_match_table(store, tid, 0, 0, table_id=500, thread_id=600)
    await ts.record_result(store, tid, 0, 0, {0: [(162, True), (0, False)], ts.WHOLE_MATCH: [(162, True), (0, None)]},
                           "table 1: 162-0")  # fmt: skip
    await ts.add_adjustment(store, tid, ids[0], -50, "slow play warning ignored", 99)
    await store.close()

    store = await Store.open(path)
    t = await ts.load_tournament(store, tid)
    assert t is not None and t.status == ts.RUNNING and t.seed == 2**62 + 5 and t.settings == {"deals": 2}
    assert [e.status for e in t.entrants] == [ts.REGISTERED] * 7 + [ts.WITHDRAWN]
    assert t.entrants[3].members == [ts.Member(103, "p3")]
    assert plans(t) == [plan] and history(t).partners == History.of([plan]).partners
    round0 = t.played[0]
    assert (round0.seed, round0.commitment, round0.revealed, round0.boards) == (
        77,
        seed_commitment(77),
        False,
        [(0, 0), (1, 1)],
    )
    assert round0.matches[0].table_id == 500 and round0.matches[0].thread_id == 600
    assert round0.matches[0].results[ts.WHOLE_MATCH] == [(162, True), (0, None)]
    assert round0.matches[1].status == ts.MATCH_WAITING and len(round0.matches[1].seats) == 4
    assert await ts.match_of_table(store, 500) == (tid, 0, 0)
    lines = current_standings(t, CUMULATIVE)
    winners = set(plan.tables[0].sides[0])
    by_id = {ln.entrant: ln for ln in lines}
    for e in winners:
        assert by_id[e].score == 162 + (-50 if e == ids[0] else 0)
    assert all(by_id[e].score == 0 for e in ids if e not in winners and e != ids[0])
    await ts.finish_round(store, tid, 0)
    log = await ts.audit_log(store, tid)
    assert [a.action for a in log][:2] == ["create", "register"]
    assert log[-1].action == "reveal" and "seed was 77" in log[-1].detail
    assert any(a.action == "adjust" and "slow play" in a.detail for a in log)
    assert await ts.tournaments_with_status(store, ts.RUNNING) == [tid]
    await store.close()
