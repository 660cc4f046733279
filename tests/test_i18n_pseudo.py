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


def _moment(table) -> tuple:
    """Where a deal stands, for the wrong moves below: the phase and, where the engine has one, its step."""
    match = table.match
    return (match.phase, getattr(match, "step", None), getattr(match, "awaiting_call", None))


async def _wrong_moves(world, table, user) -> list:
    """A player to act tries what the rules refuse at this moment: a bid out of range, a kitty (widow) discard of
    the wrong size or at the wrong time, calling their own card, a card they do not hold."""
    match = table.match
    hand = match.seat_view(match.to_move)["hand"]
    missing = next(c for c in ("AS", "AH", "KD", "10C", "5S", "7H") if c not in hand)
    phase, step, awaiting_call = _moment(table)
    tries: list[tuple[str, dict, str | None]] = [("play", {"card": missing}, None)]
    if phase == "bidding":
        tries += [("bid", {"value": "52" if table.game == "two_hundred" else "11S"}, None),
                  ("move", {"cards": hand[0]}, "discard")]  # fmt: skip
    elif step == "call" or awaiting_call:
        tries.append(("move", {"card": hand[0]}, "call"))
    elif phase == "exchange":
        tries.append(("move", {"cards": hand[0]}, "discard"))
    elif phase == "trump":
        tries.append(("move", {"suit": "NT"}, "trump"))
    answers = []
    for command, options, subcommand in tries:
        answers.append(await world.slash(user, command, options, subcommand=subcommand))
    return answers


@pytest.mark.parametrize(
    ("game", "options", "seed"),
    [("two_hundred", "kitty=true target=50", 2), ("two_hundred", "players=5 target=50", 4),
     ("five_hundred", "players=5 target=100", 1)],
)  # fmt: skip
async def test_two_hundred_and_five_hundred_say_no_english(tmp_path, game, options, seed):
    """Bids, the kitty (widow), calls, refusals at each moment, deal results and the score sheet: nothing English
    outside a translation."""
    from rules.game import GAME_OVER

    async with bot_world(tmp_path) as world:
        world.guild.preferred_locale = "pseudo"
        users = [world.alice, world.bob, world.carol, world.dan, world.stranger][: 5 if "players=5" in options else 4]
        for user in users:
            user.locale = "pseudo"
        async with world.running() as client:
            table = await world.seated_and_started(client, users, game, options=options.replace(" ", ", "))
            tried: set[tuple] = set()
            refusals = []
            while True:
                table = await play_to_the_end(
                    world, client, table.id, seed=seed,
                    stop=lambda t: _moment(t) not in tried and t.match.to_move is not None,
                )  # fmt: skip
                if table.match.phase == GAME_OVER or table.status != "playing":
                    break
                tried.add(_moment(table))
                player = next(u for u in users if u.id == table.seats[table.match.to_move].user_id)
                refusals += await _wrong_moves(world, table, player)
            await world.settle(client)
        assert {m[0] for m in tried} >= {"bidding", "exchange" if "kitty" in options or game == "five_hundred" else
                                         "trump", "play"}  # fmt: skip
        assert all(r.content and r.ephemeral for r in refusals), [r.content for r in refusals]
        leaks = escaped(sent_texts(world))
        assert leaks == [], "\n".join(leaks)
