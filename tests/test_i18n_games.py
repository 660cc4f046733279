"""Issue 19's "done when", through the offline Discord: a table of French players plays a whole Belote game (one
deal) in French, and a table of Chinese players a Da Bai Fen game in Chinese: the commands they see, their hands and
panels, a refusal, the table message, the deal's result and the score sheet."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.botkit.harness import bot_world, play_to_the_end, table_message


def _texts(world, users) -> list[str]:
    """Everything the bot wrote where these players can read it: the table's channel and their DMs."""
    fake = world.fake
    messages = list(fake.messages(world.channel, include_ephemeral=True))
    for user in users:
        messages += fake.messages(fake.dm_channel(user), include_ephemeral=True)
    out = []
    for m in messages:
        out.append(m.content or "")
        out += [label for label in _labels(m)]
    return out


def _labels(message) -> list[str]:
    labels = []

    def walk(components):
        for c in components or []:
            for key in ("label", "placeholder"):
                if c.get(key):
                    labels.append(c[key])
            for option in c.get("options") or []:
                labels.append(option.get("label", ""))
            walk(c.get("components"))

    walk(getattr(message, "components", None))
    return labels


ENGLISH = re.compile(
    r"\b(Your hand|Waiting for|Score change|Last trick|Trick:|Scores:|deal \d|table #|Tap a card|My hand|Pass|"
    r"Counter|Bid |You played|You passed|wins|Game over|contract:|trump:|is over)\b"
)


async def test_french_players_play_a_whole_belote_game_in_french(tmp_path):
    async with bot_world(tmp_path) as world:
        world.guild.preferred_locale = "fr"  # the table's language: the server's preferred locale
        users = [world.alice, world.bob, world.carol, world.dan]
        for user in users:
            user.locale = "fr"
        async with world.running() as client:
            commands = world.fake.world.commands[world.guild.id]
            play = next(c for (name, _type), c in commands.items() if name == "play")
            assert play["name_localizations"]["fr"] == "jouer"
            table = await world.seated_and_started(client, users, "belote", options="deals=1")
            assert table.row.language == "fr"
            waiting = next(u for u in users if u.id != table.seats[table.match.to_move].user_id)
            refused = await world.slash(waiting, "pass")
            assert refused.content.startswith("⛔ ce n'est pas votre tour : c'est à ")
            first = table_message(world, table).content
            assert "— table n°" in first and "donne 1 · donneur" in first and "Scores : équipe A 0" in first
            table = await play_to_the_end(world, client, table.id, seed=3)
            await world.settle(client)
        texts = _texts(world, users)
        joined = "\n".join(texts)
        assert "**Votre main** — Card Club › #tables · Belote Contrée, table n°" in joined
        assert "Touchez une carte pour la jouer." in joined or "Votre enchère" in joined
        assert "résultat de la donne 1**" in joined and "Points de la donne :" in joined
        # the result says why, in French
        assert re.search(r"preneurs \d+ : |les quatre joueurs ont passé|les preneurs ont fait", joined)
        assert "est terminée.**" in joined and "Scores finaux :" in joined
        assert "Vous avez " in joined  # a player's own move, told back to them
        leaks = sorted({text[:200] for text in texts if ENGLISH.search(text)})
        assert leaks == [], leaks


async def test_chinese_players_play_a_whole_da_bai_fen_game_in_chinese(tmp_path):
    async with bot_world(tmp_path) as world:
        users = [world.alice, world.bob, world.carol, world.dan]
        for user in users:
            user.locale = "zh-CN"
        async with world.running() as client:
            r = await world.slash(world.alice, "table", {"game": "dabaifen", "language": "zh", "options": "target=2"},
                                  subcommand="new")  # fmt: skip
            lobby = r.message
            assert "— " in lobby.content and "号牌桌，开桌人" in lobby.content
            for user in users[1:]:
                await world.click(user, lobby, "join")
            await world.click(world.alice, lobby, "start")
            await world.settle(client)
            table = next(iter(client.manager.tables.values()))
            assert table.row.language == "zh"
            refused = await world.slash(world.alice, "play", {"card": "红桃A 红桃A"})
            assert refused.content.startswith("⛔ "), refused.content
            words = refused.content
            for user in users:
                words = words.replace(user.username, "")
            assert re.search(r"[\u4e00-\u9fff]", words) and not re.search(r"[A-Za-z]{3,}", words), refused.content
            table = await play_to_the_end(world, client, table.id, seed=5)
            await world.settle(client)
        texts = _texts(world, users)
        joined = "\n".join(texts)
        assert "**你的手牌** — Card Club › #tables · 打百分" in joined
        assert "局结果**" in joined and "升级：" in joined
        assert "闲家" in joined  # the result's why: 闲家（A 队）得 … 分 → …
        assert "号牌桌结束。**" in joined and "最终比分：" in joined
        assert "你" in joined
        leaks = sorted({text[:200] for text in texts if ENGLISH.search(text)})
        assert leaks == [], leaks


# A folder to write the pictures the French players were sent into, to look at them.
SAVE_IMAGES = os.environ.get("CARDTABLE_TEST_PICTURES")


def _pictures(world, users) -> dict[str, bytes]:
    fake = world.fake
    messages = list(fake.messages(world.channel, include_ephemeral=True))
    for user in users:
        messages += fake.messages(fake.dm_channel(user), include_ephemeral=True)
    return {f"{i:03}-{a.filename}": a.data for i, m in enumerate(messages) for a in getattr(m, "attachments", [])}


async def _french_table(tmp_path, game: str, options: str, seed: int, wrong_bid: str, refusal: str):
    """French players at a French server play ``game`` through the offline Discord: a refused bid, the bidding, the
    kitty or widow, the play, each deal's result and the score sheet; what they read."""
    async with bot_world(tmp_path, images_on=bool(SAVE_IMAGES)) as world:
        world.guild.preferred_locale = "fr"
        users = [world.alice, world.bob, world.carol, world.dan]
        for user in users:
            user.locale = "fr"
        async with world.running() as client:
            table = await world.seated_and_started(client, users, game, options=options)
            assert table.row.language == "fr"
            bidder = next(u for u in users if u.id == table.seats[table.match.to_move].user_id)
            refused = await world.slash(bidder, "bid", {"value": wrong_bid})
            assert refused.content == f"⛔ {refusal}", refused.content
            # by taps only: the harness types cards in the short English form, which a French player's "7C" reads
            # as the seven of hearts (cœur)
            table = await play_to_the_end(world, client, table.id, seed=seed, slash_every=1)
            await world.settle(client)
        texts = _texts(world, users)
        if SAVE_IMAGES:
            for name, data in _pictures(world, users).items():
                (Path(SAVE_IMAGES) / name).write_bytes(data)
        return texts, "\n".join(texts)


async def test_french_players_read_a_five_hundred_game_in_french(tmp_path):
    """Five Hundred: "each in turn may pass or make a higher bid"; the soloist takes the widow and discards three;
    a deal's result says the contract, the tricks and each side's points in French."""
    texts, joined = await _french_table(tmp_path, "500", "players=4 target=100", 2, "11S",
                                        "une enchère porte sur 6 à 10 plis, pas 11")  # fmt: skip
    assert "**Votre main** — Card Club › #tables · Cinq Cents, table n°" in joined
    assert "résultat de la donne 1**" in joined
    assert re.search(
        r": contrat \d+(♠|♥|♦|♣| SA) \(\d+\), \d+ plis : (réussi|chute)|: \+\d+ \((tout le monde a "
        r"passé : )?10 par pli\)|: (misère|misère ouverte) (réussie|chutée)",
        joined,
    ), joined[-3000:]
    assert "est terminée.**" in joined and "Scores finaux :" in joined
    assert " & " in joined  # a side named by its two players, as French tables say "Léa et Camille"
    leaks = sorted({text[:200] for text in texts if ENGLISH.search(text)})
    assert leaks == [], leaks


async def test_french_players_read_a_two_hundred_game_in_french(tmp_path):
    """Two Hundred: "The minimum bid is 50, all bids must be multiples of 5"; with a kitty the contractor takes the
    four cards and discards four; the result says each side's points in French."""
    refusal = "une enchère vaut au moins 50, par multiples de 5 (100 au plus) ; pas 52"
    texts, joined = await _french_table(tmp_path, "200", "kitty=true target=50", 4, "52", refusal)
    assert "**Votre main** — Card Club › #tables · Deux Cents, table n°" in joined
    assert re.search(r"\(contrat à \d+\) : \d+ points, (réussi|chute), [+-]\d+", joined) or (
        "tout le monde a passé : donne annulée, sans points" in joined
    )
    assert "est terminée.**" in joined and "Scores finaux :" in joined
    leaks = sorted({text[:200] for text in texts if ENGLISH.search(text)})
    assert leaks == [], leaks
