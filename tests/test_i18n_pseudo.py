"""The pseudo-locale run: players and table in a language where every translated text is bracketed (⟦…⟧, letters
accented).  Whatever English is left outside the brackets in what the bot sent escaped translation."""

from __future__ import annotations

import re

import pytest

from tests.botkit.harness import bot_world, play_to_the_end
from tests.test_i18n_games import _texts

# What may stand outside a translated text: mentions, timestamps, links, markdown, numbers, card and suit symbols.
_NOT_WORDS = re.compile(r"<[@#]?!?&?\d+>|<t:\d+(:\w)?>|https?://\S+|`[^`]*`")
_TRANSLATED = re.compile(r"⟦[^⟦⟧]*⟧")
# The words that are not English: game names, players' and the server's names, option names and values as typed.
ALLOWED = {"Card", "Club", "tables", "Belote", "Contrée", "Da", "Bai", "Fen", "alice", "bob", "carol", "dan",
           "deals", "target", "Joker"}  # fmt: skip


def escaped(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        rest = _NOT_WORDS.sub(" ", text)
        while _TRANSLATED.search(rest):  # translations nest: a translated field inside a translated sentence
            rest = _TRANSLATED.sub(" ", rest)
        words = [w for w in re.findall(r"[A-Za-z]{3,}", rest) if w not in ALLOWED]
        if words:
            found.append(f"{' '.join(words)}  <<  {text[:160]!r}")
    return found


@pytest.mark.parametrize(("game", "options", "seed"), [("belote", "deals=1", 3), ("dabaifen", "target=2", 5)])
async def test_no_user_visible_english_escapes_translation(tmp_path, game, options, seed):
    async with bot_world(tmp_path) as world:
        world.guild.preferred_locale = "pseudo"
        users = [world.alice, world.bob, world.carol, world.dan]
        for user in (*users, world.stranger):
            user.locale = "pseudo"
        async with world.running() as client:
            table = await world.seated_and_started(client, users, game, options=options)
            await world.slash(world.stranger, "pass")
            await play_to_the_end(world, client, table.id, seed=seed)
            await world.settle(client)
        leaks = escaped(_texts(world, users))
        assert leaks == [], "\n".join(leaks)
