"""The bot's own texts in each language, through the offline Discord: /help, /rules, the leaderboard, statistics and
history, the … More menu, the manners' questions, look-back, review and spectators, a clock's reminder and nudge.

A pseudo-locale run goes through all of them and fails on any English that escapes translation (the scan of
tests/test_i18n_pseudo.py); a French player reads them in French; a player's language survives a restart."""

from __future__ import annotations

import pytest

from bot.clocks.clock import FakeClock
from bot.i18n import speaking
from bot.presentation import language
from bot.presentation.choices import plan
from bot.storage import tournaments as ts
from bot.storage.player_settings import load_player_settings
from tests.botkit.harness import bot_world, embed_text, find_id, play_to_the_end, table_message
from tests.test_i18n_pseudo import escaped, sent_texts


def _placeholders(world) -> list[str]:
    """The menus' placeholders among everything sent (the scan reads them too: this says there were some)."""
    found: list[str] = []

    def walk(node) -> None:
        if isinstance(node, dict):
            found.extend(str(v) for k, v in node.items() if k == "placeholder")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for call in world.fake.calls():
        walk(call.json)
    return found


@pytest.fixture
async def world(tmp_path):
    async with bot_world(tmp_path) as w:
        w.clock = FakeClock()
        yield w


async def advance(world, client, seconds: float) -> None:
    await world.clock.advance(seconds)
    await world.settle(client)
    await client.clocks.settle()
    await world.settle(client)


def _user(world, table, seat):
    return world.fake.world.users[table.seats[seat].user_id]


async def _through_the_bots_own_texts(world, client, users, locale_words: dict[str, str] | None = None):
    """Every text this branch translated, asked for as players do; returns what each step answered, by name."""
    said: dict[str, str] = {}
    said["help"] = embed_text(await world.slash(world.stranger, "help"))
    rules = await world.slash(world.stranger, "rules", {"game": "belote"})
    said["rules"] = embed_text(rules)
    turned = await world.fake.click(world.stranger, rules.message, "rules:belote:0:2")
    await turned.wait(10)
    said["rules page 2"] = embed_text(turned)
    table = await world.seated_and_started(client, users, "belote", options="deals=1", clock="live")
    await client.clocks.settle()

    # A clock's reminder, then a nudge from a player who waits.
    mark = len(world.fake.messages(world.channel))
    await advance(world, client, 46)
    said["reminder"] = "\n".join(m.content for m in world.fake.messages(world.channel)[mark:])
    mover = _user(world, table, table.match.to_move)
    other = next(u for u in users if u is not mover)
    nudge = await world.click(other, table_message(world, table), "nudge")
    said["nudged"] = nudge.content

    # The … More menu from the hand, its look-back, and a vote to stop that the others refuse.
    hand = await world.click(other, table_message(world, table), "hand")
    menu = await world.click(other, hand.message, "more")
    said["menu"] = menu.content
    said["look back"] = embed_text(await world.click(other, menu.message, "look"))
    asked = await world.click(other, menu.message, "m_stop")
    said["asked"] = asked.content
    question = next(m for m in reversed(world.fake.messages(world.channel)) if find_id_or_none(m, "disagree"))
    said["question"] = question.content
    for user in users:
        if user is not other and find_id_or_none(question, "disagree"):  # until the vote cannot pass
            answered = await world.click(user, question, "disagree")
            said["answered"] = answered.message.content if answered.message else answered.content

    # A spectator, then the game to its end (its review comes to the spectator by DM).
    watched = await world.click(world.stranger, table_message(world, table), "watch")
    said["watching"] = watched.content + "\n" + embed_text(watched)
    await play_to_the_end(world, client, table.id, seed=3)
    await world.settle(client)
    said["review"] = embed_text(await world.slash(users[0], "table", {"table": table.id}, subcommand="review"))
    said["spectator's DM"] = "\n".join(m.content + embed_text(m) for m in world.dms(world.stranger))
    said["leaderboard"] = embed_text(await world.slash(users[0], "leaderboard", {"game": "belote"}))
    said["stats"] = embed_text(await world.slash(users[0], "player", {}, subcommand="stats"))
    said["history"] = embed_text(await world.slash(users[0], "player", {}, subcommand="history"))
    return said


def find_id_or_none(message, verb):
    try:
        return find_id(message, verb)
    except AssertionError:
        return None


async def test_no_english_escapes_the_bots_own_texts_in_the_pseudo_locale(world):
    world.guild.preferred_locale = "pseudo"
    users = [world.alice, world.bob, world.carol, world.dan]
    for user in (*users, world.stranger):
        user.locale = "pseudo"
    async with world.running(clock=world.clock) as client:
        said = await _through_the_bots_own_texts(world, client, users)
    for step, text in said.items():
        assert text.strip(), f"{step}: nothing was said"
    leaks = escaped(sent_texts(world))
    assert leaks == [], "\n".join(leaks)


async def test_a_french_table_reads_the_bots_own_texts_in_french(world):
    world.guild.preferred_locale = "fr"
    users = [world.alice, world.bob, world.carol, world.dan]
    for user in (*users, world.stranger):
        user.locale = "fr"
    async with world.running(clock=world.clock) as client:
        said = await _through_the_bots_own_texts(world, client, users)
    expected = {
        "help": ["jeux de levées", "Commandes", "`/table nouvelle jeu:"],
        "rules": ["Les cartes, les partenaires et les enchères", "capot", "contrer", "Page 1 sur 3"],
        "rules page 2": ["Fournissez", "surcoupez", "belote et rebelote", "dix de der", "V 9 A 10 R D 8 7"],
        "reminder": ["c'est votre tour à la table n°", "il reste 15 s"],
        "nudged": [],
        "menu": ["pour vous seul", "Revendiquer la suite", "Reprendre ma carte", "Proposer d'arrêter"],
        "look back": ["regard en arrière"],
        "asked": ["Demandé à la table"],
        "question": ["propose d'**arrêter la table n°"],
        "answered": ["continue : le vote pour arrêter n'est pas passé"],
        "watching": ["Vous suivez la table n°"],
        "review": ["pli par pli", "a entamé"],
        "spectator's DM": ["la donne 1 est finie", "pli par pli"],
        "leaderboard": ["depuis toujours", "de victoires", "joueurs classés"],
        "stats": ["statistiques sur", "Ce serveur", "Série en cours"],
        "history": ["parties récentes", "Téléchargez l'enregistrement"],
    }
    for step, words in expected.items():
        for word in words:
            assert word in said[step], f"{step}: {word!r} not in {said[step]!r}"
    for step in ("help", "rules page 2", "menu", "review", "stats"):  # and no English sentence left
        for english in (" the ", " your ", " is "):
            assert english not in said[step], f"{step}: {english!r} in {said[step]!r}"


async def test_a_players_language_is_stored_and_their_hand_keeps_it_after_a_restart(world, monkeypatch):
    world.alice.locale, world.bob.locale = "fr", "en-US"  # an English table (the server's locale)
    async with world.running() as client:
        table = await world.seated_and_started(client, [world.alice, world.bob])  # alice joined: heard in French
        table_id = table.id
        stored = await load_player_settings(client.manager.store, [world.alice.id, world.bob.id])
        assert stored[world.alice.id].heard_language == "fr" and stored[world.bob.id].heard_language == "en"
        assert stored[world.alice.id].language is None  # heard, not chosen: /player settings still says "default"
    monkeypatch.setattr(language, "_heard", {})  # a new process has heard nobody yet
    async with world.running(seed=9) as client:
        table = client.manager.tables[table_id]
        seat = next(s for s, r in table.seats.items() if r.user_id == world.alice.id)
        assert language.seat_language(table, seat) == "fr"
        # The game goes on (alice does not interact): her hand is redrawn in French, not in the table's English.
        mark = len(world.fake.calls())
        for _ in range(2):
            mover = table.seats[table.match.to_move].user_id
            action = next(a for a in table.match.legal_json() if a.get("seat") == table.match.to_move)
            action = {k: v for k, v in action.items() if k != "seat"}
            await client.manager.act(table.id, mover, action, expected_version=table.version)
            await world.settle(client)
        dm = str(world.dms(world.alice)[0].channel.id)
        hers = [c for c in world.fake.calls()[mark:] if dm in c.path and c.json and c.json.get("content")]
        assert hers and all("**Votre main**" in c.json["content"] for c in hers), [c.json for c in hers]
        bobs = str(world.dms(world.bob)[0].channel.id)
        assert any("**Your hand**" in str(c.json) for c in world.fake.calls()[mark:] if bobs in c.path)


def test_why_a_game_is_not_rated_is_said_in_each_language():
    from bot.i18n.refusals import field_text
    from bot.ratings.rating import rating_eligibility

    found = rating_eligibility(guild_id=1, players=2, seats=[], hints=True)
    assert found.reason == "hints were allowed"  # stored with the result, in English
    assert found.words is not None
    assert field_text(found.words, "fr") == "les conseils étaient permis"
    assert field_text(found.words, "zh") == "开启了提示"


async def test_no_english_escapes_a_tournament_in_the_pseudo_locale(world):
    """A tournament's announcement (its format and status), pairings, results, standings, an adjustment and the
    audit log's heading read in the pseudo-locale; so do the hands' menu placeholders of its tables."""
    from tests.test_tournament_flow import _create, _entry, _play_round, start

    world.guild.preferred_locale = "pseudo"
    users = [world.alice, world.bob, world.carol, world.dan]
    for user in (*users, world.stranger):
        user.locale = "pseudo"
    async with world.running(clock=world.clock) as client:
        announcement = await _create(world, world.alice, name="Jeudi", game="belote", format="swiss", rounds=1, deals=1)
        for user in users:
            await _entry(world, user, announcement, "register")
        tid = int(world.fake.world.messages[announcement.id].content.split("(#")[1].split(")")[0])
        await start(world, world.alice, tid)
        await world.settle(client)
        t = await ts.load_tournament(client.store, tid)
        assert t is not None
        table = client.manager.tables[t.played[0].matches[0].table_id]
        for seat in table.seats:  # each player looks at their hand: its menus
            await world.click(_user(world, table, seat), table_message(world, table), "hand")
        await _play_round(world, client, 0, tid)
        adjust = {"tournament": tid, "entrant": "bob", "points": -2, "reason": "x"}
        said = {"adjust": (await world.slash(world.alice, "tournament", adjust, subcommand="adjust")).content}
        standings = await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="standings")
        said["standings"] = embed_text(standings)
        audit = await world.slash(world.carol, "tournament", {"tournament": tid}, subcommand="audit")
        said["audit"] = audit.content  # its entries too: stored as message ids with fields
        said["announcement"] = world.fake.world.messages[announcement.id].content
    for step, text in said.items():
        assert "⟦" in text, f"{step}: {text!r}"
    texts = [t.replace("Jeudi", "") for t in sent_texts(world)]
    leaks = escaped(texts)
    assert leaks == [], "\n".join(leaks)


@pytest.mark.parametrize(
    ("legal", "lead_several"),
    [
        ([{"type": "discard", "seat": 0, "from": ["AS", "KS", "QS"], "choose": 2}], False),
        ([{"type": "discard", "seat": 0, "from": ["AS", "KS", "QS"], "choose": 1}], False),
        ([{"type": "bid", "seat": 0, "value": v} for v in (80, 90, 100)], False),
        ([{"type": "call", "seat": 0, "card": c} for c in ("AS", "KS")], False),
        ([{"type": "play", "seat": 0, "cards": [c]} for c in ("AS", "KS")], False),
        ([{"type": "play", "seat": 0, "cards": ["AS", "KS"]}], False),
        ([{"type": "play", "seat": 0, "cards": ["AS"]}], True),
        ([{"type": "claim", "seat": 0}], False),
    ],
)
def test_a_hands_menu_placeholders_are_translated(legal, lead_several):
    """The placeholders of the menus the bot builds for a hand (the live hands show buttons where they can)."""
    with speaking("pseudo"):
        offered = plan(legal, 0, ["AS", "KS", "QS"], lead_several=lead_several)
    shown = [placeholder for placeholder, _ in offered.selects]
    if offered.multi:
        shown.append(offered.multi["placeholder"])
    assert shown, offered
    assert escaped(shown) == [], shown
