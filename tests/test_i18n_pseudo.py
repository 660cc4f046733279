"""The pseudo-locale run: players and table in a language where every translated text is bracketed (⟦…⟧, letters
accented).  Whatever English is left outside the brackets in what the bot sent escaped translation."""

from __future__ import annotations

import re

import pytest

from tests.botkit.harness import bot_world, play_to_the_end

# The keys of a request's JSON that a user reads (message text, embeds, buttons, menus and their options).
SHOWN = ("content", "label", "placeholder", "title", "description", "text", "name")

# What may stand outside a translated text: mentions, timestamps, links, markdown, numbers, card and suit symbols.
_NOT_WORDS = re.compile(r"<[@#]?!?&?\d+>|<t:\d+(:\w)?>|https?://\S+|`[^`]*`")
_TRANSLATED = re.compile(r"⟦[^⟦⟧]*⟧")
# The words that are not English: game names, players' and the server's names, option names and values as typed.
ALLOWED = {
    "Card",
    "Club",
    "tables",
    "Belote",
    "Contrée",
    "Da",
    "Bai",
    "Fen",
    "alice",
    "bob",
    "carol",
    "dan",
    "deals",
    "target",
    "Joker",
    "Contr",
}  # fmt: skip ("Contr": Contrée, cut at its accent)


def sent_texts(world) -> list[str]:
    """Every text the bot sent to Discord, edits and interaction answers included (each state of a live hand, not
    only the last), apart from the commands' registration, whose English is the default by design."""
    out: list[str] = []

    def walk(node, shown: bool) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("custom_id", "url", "filename", "id", "emoji", "attachments", "allowed_mentions"):
                    continue
                if key == "fields" and isinstance(value, list):  # an embed's fields: name and value
                    out.extend(str(f.get(k, "")) for f in value if isinstance(f, dict) for k in ("name", "value"))
                    continue
                if key == "options" and isinstance(value, list):  # a menu's options: label and description only
                    for option in value:
                        walk({k: v for k, v in option.items() if k in ("label", "description")}, True)
                    continue
                walk(value, key in SHOWN)
        elif isinstance(node, list):
            for item in node:
                walk(item, shown)
        elif isinstance(node, str) and shown:
            out.append(node)

    for call in world.fake.calls():
        if "/commands" not in call.route and call.json is not None:
            walk(call.json, False)
    return out


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
        leaks = escaped(sent_texts(world))
        assert leaks == [], "\n".join(leaks)
