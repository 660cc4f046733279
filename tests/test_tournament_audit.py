"""The tournament audit log in the reader's language: each entry is stored as a message id with its fields (JSON in
the detail column) and said in the language of whoever reads it; an entry stored before (English text) is shown as
it was written."""

from __future__ import annotations

import json

from bot.storage import tournaments as ts
from tests.botkit.harness import bot_world
from tests.test_tournament_flow import _create, _entry, _players


async def test_the_audit_log_reads_in_each_reader_s_language_and_old_entries_as_they_were(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        users = _players(world, 4)
        announcement = await _create(world, world.alice, name="Coupe", game="belote", format="melee", rounds=1)
        for user in users:
            await _entry(world, user, announcement, "register")
        tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
        adjust = {"tournament": tid, "entrant": "bob", "points": -2, "reason": "retard"}
        await world.slash(world.alice, "tournament", adjust, subcommand="adjust")
        await ts.audit(client.store, tid, None, "adjust", "entrant 3 +2: written before")  # an older row: text

        stored = await client.store.fetch_all("SELECT detail FROM tournament_audit WHERE tournament_id = ?", (tid,))
        adjusted = next(json.loads(r["detail"]) for r in stored if "retard" in r["detail"])
        assert adjusted == {"msgid": "Adjustment: entrant {entrant} {points} ({reason}).",
                            "fields": {"entrant": 2, "points": "-2", "reason": "retard"}}  # fmt: skip

        english = (await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="audit")).content
        assert "Adjustment: entrant 2 -2 (retard)." in english and "carol registered" in english
        world.carol.locale = "fr"
        french = (await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="audit")).content
        assert "Ajustement : participant 2 -2 (retard)." in french and "Créé : mêlée" in french, french
        assert "carol inscrit (inscrit)." in french, french  # the entrant's status named in French, not its stored key
        assert "adjust: entrant 3 +2: written before" in french  # as it was stored
        world.carol.locale = "zh-CN"
        chinese = (await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="audit")).content
        assert "调整：参赛者 2 -2（retard）。" in chinese and "混战赛" in chinese and "（已报名）" in chinese, chinese
