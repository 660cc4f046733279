"""What players of Five Hundred and Da Bai Fen read: found by playing whole games through the offline Discord.

Contract lines in players' words (no ``open_misere``, no "trump: NT"), the open misère hand laid on the table, the suit
named for a Joker lead, deal results with players' names instead of "seat 0", Da Bai Fen's leader and trump rank, the
throw warning's cards with suit symbols, and a hand view that never tells a player to wait for themselves.
"""

from __future__ import annotations

import random
import re

from bot.presentation import images
from bot.presentation.choices import name_seats
from bot.presentation.live_hands import hand_view
from bot.presentation.messages import score_change_text, table_content
from cogs.acting import throw_warning
from rules.actions import Action
from tests.botkit.harness import bot_world, play_to_the_end
from tests.test_five_hundred import HEARTS_DEAL, WIDOW
from tests.test_five_hundred_helpers import act, new_deal, play, win_auction

RAW_CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b")


async def _table(world, client, game: str, users, options: str | None = None):
    lobby = await world.new_table(world.alice, game, options=options)
    for user in users:
        await world.click(user, lobby, "join")
    await world.click(world.alice, lobby, "start")
    await world.settle(client)
    return client.manager.tables[1]


def test_engine_words_become_players_words():
    names = ["alice", "bob", "carol", "dan"]
    text = "seat 0 bid 10NT (520), took 2: failed, -520; seat 1: +30; team 1 (seats 0, 2); side 2 reached 500"
    assert name_seats(text, names) == (
        "alice bid 10NT (520), took 2: failed, -520; bob: +30; team B (alice & carol); carol reached 500"
    )
    assert name_seats("opponents (team 1) took 40; side 0 reached", names, teams=True) == (
        "opponents (team B) took 40; team A reached"
    )
    assert name_seats("seat 2's lead of 2C 10C failed: seat 1 holds 3C; BJ RJ JK", names) == (
        "carol's lead of 2♣ 10♣ failed: bob holds 3♣; Black joker Red joker Joker"
    )


async def test_five_hundred_open_misere_line_and_open_hand(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await _table(world, client, "500", [world.bob, world.carol])
        m = new_deal(HEARTS_DEAL, WIDOW)
        win_auction(m, 0, "open_misere")
        table.match, table.last_trick = m, None
        content = table_content(table, m.public_view())
        assert "Contract: alice Open misère (520)" in content
        assert "open_misere" not in content and "trump" not in content.lower()
        assert "Open hand" not in content  # not before the first trick is captured
        play(m, "7H", "QH", "AH")
        content = table_content(table, m.public_view())
        hand = m.output()["open_hand"]["cards"]
        assert len(hand) == 9
        line = next(x for x in content.splitlines() if x.startswith("Open hand of alice: "))
        assert not RAW_CARD.search(line) and "♥" in line


async def test_five_hundred_joker_lead_names_its_suit(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await _table(world, client, "500", [world.bob, world.carol])
        m = new_deal(HEARTS_DEAL, WIDOW)
        win_auction(m, 0, "6NT")
        assert m.output()["joker_suit"] is None
        play(m, "JK:S")
        assert m.output()["joker_suit"] == "S"
        table.match, table.last_trick = m, None
        content = table_content(table, m.public_view())
        assert "Contract: alice 6NT (120) · trump: no trumps" in content
        assert "Trick: alice Joker (as ♠)" in content


async def test_five_hundred_deal_result_names_the_players(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "500")
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        await play_to_the_end(world, client, 1, seed=3, stop=lambda t: len(t.match.deal_results) >= 1)
        await world.settle(client)
        result = await world.fake.wait_for_message(world.channel, lambda m: "result**" in m.content)
        assert "seat " not in result.content, result.content
        assert "Score change: alice " in result.content, result.content
        assert re.search(r"Score change: alice [+-]\d+ · bob [+-]\d+ · Computer 1 [+-]\d+", result.content)


def test_score_change_text_by_game():
    class T:
        game, players = "five_hundred", 3

        def names(self):
            return ["alice", "bob", "Computer 1"]

    t = T()
    assert score_change_text(t, [-520, 30, 0]) == "Score change: alice -520 · bob +30 · Computer 1 +0"
    t.players = 4
    assert score_change_text(t, [120, -40]) == "Score change: team A +120 · team B -40"
    t.game = "da_bai_fen"
    assert score_change_text(t, [0, 0]) == "Levels: no change"
    assert score_change_text(t, [0, 2]) == "Levels: team B +2 levels"


async def test_da_bai_fen_line_shows_leader_trump_and_trump_rank_and_throw_warning_in_symbols(tmp_path):
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await _table(world, client, "dabaifen", [world.bob, world.carol, world.dan], options="start_level=Q")
        m = table.match
        assert m.phase == "exchange"
        state = m.public_view()
        content = table_content(table, state)
        assert "Contract" not in content
        assert f"Leader: {table.names()[state['contract']['seat']]}" in content
        assert "trump rank: Q" in content
        # the leader discards six, then considers a lead of two low cards of one plain suit
        leader = state["contract"]["seat"]
        hand = m.output()["hands"][leader]
        m.apply(Action(leader, "discard", cards=tuple(_ids(hand[-6:]))))
        trump, rank = m.output()["trump"], m.output()["trump_rank"]
        hand = m.output()["hands"][leader]
        warnings = []
        for suit in "SHDC":
            plain = [c for c in hand if c[-1] == suit and c != trump and c[:-1] != rank and suit != trump]
            if len(plain) >= 2:
                warnings.append(throw_warning(table, leader, {"type": "play", "cards": plain[-2:]}))
        warnings = [w for w in warnings if w]
        assert warnings, "no risky lead in this deal"
        for warning in warnings:
            assert not RAW_CARD.search(warning), warning
            assert "lost every trick" in warning


def _ids(names):
    from rules.cards import parse_card

    return [parse_card(n) for n in names]


async def test_hand_view_never_says_to_wait_for_yourself(tmp_path, monkeypatch):
    """The hand image is drawn outside the table's lock: others (computer players) may move meanwhile, so the text
    must describe the same moment as the legal actions it was built from."""
    async with bot_world(tmp_path) as world, world.running() as client:
        table = await _table(world, client, "500", [world.bob, world.carol])
        m = table.match
        first = m.to_move
        act(m, first, "bid", value=6, suit="S")
        table.version += 1  # as the table service does with each action it applies
        others = [(first + 1) % 3, (first + 2) % 3]
        real = images.hand_image

        async def moves_meanwhile(*args, **kw):
            for seat in others:  # the next two bid while the image is drawn: it is the first's turn again
                act(m, seat, "pass")
                table.version += 1  # as the table service does with each action it applies
            return await real(*args, **kw)

        monkeypatch.setattr(images, "hand_image", moves_meanwhile)
        view = await hand_view(table, first)
        assert m.to_move == first
        assert f"Waiting for {table.names()[first]}" not in view.content, view.content
        assert "Waiting for the others to bid." in view.content


def test_table_image_shows_the_open_misere_hand_and_the_jokers_named_suit():
    from PIL import Image

    from render import table as render_table
    from render.state import contract_segments

    names = ["alice", "bob", "carol"]
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "open_misere")
    assert contract_segments(m.output()["contract"], "en") == ["Open misère", "  (520)"]
    play(m, "7H", "QH", "AH")
    state = m.output()
    hidden = {**state, "open_hand": None}
    shown_img = render_table.build_table(state, names)
    hidden_img = render_table.build_table(hidden, names)
    layout = render_table.plan(state, names)
    panel = (0, layout.felt_top + layout.felt_h, render_table.W, layout.height)  # under the felt: the open hand
    assert shown_img.crop(panel).getcolors(1 << 16) != hidden_img.crop(panel).getcolors(1 << 16)
    assert isinstance(shown_img, Image.Image)

    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6NT")
    play(m, "JK:S")
    state = m.output()
    with_badge = render_table.build_table(state, names)
    without = render_table.build_table({**state, "joker_suit": None}, names)
    assert with_badge.tobytes() != without.tobytes()


async def test_da_bai_fen_failed_lead_is_told_to_its_player_and_exposing_is_not_called_your_turn(tmp_path):
    from tests.botkit.harness import act_through_ui

    async with bot_world(tmp_path) as world, world.running() as client:
        table = await _table(world, client, "dabaifen", [world.bob, world.carol, world.dan], options="start_level=Q")
        m = table.match
        leader = m.output()["contract"]["seat"]
        users = {world.alice.id: world.alice, world.bob.id: world.bob, world.carol.id: world.carol}
        users[world.dan.id] = world.dan
        user = users[table.seats[leader].user_id]
        hand = m.output()["hands"][leader]
        await act_through_ui(world, table, user, {"type": "discard", "cards": hand[-6:]})
        trump, rank = m.output()["trump"], m.output()["trump_rank"]
        hand = m.output()["hands"][leader]
        failing = None
        for suit in "SHDC":
            plain = [c for c in hand if c[-1] == suit and suit != trump and c[:-1] != rank]
            for i in range(len(plain) - 1):
                trial = m.clone()
                trial.apply(Action(leader, "play", cards=tuple(_ids(plain[i : i + 2]))))
                if trial.failed_throws:
                    failing = plain[i : i + 2]
                    break
            if failing:
                break
        assert failing, "no failing lead in this deal"
        warned = await act_through_ui(world, table, user, {"type": "play", "cards": failing})
        assert "⚠️" in warned.content and not RAW_CARD.search(warned.content)
        result = await world.click(user, warned.message, "throw")
        led = result.content.split(" failed:")[0]
        assert led.startswith("❌ Your lead of ") and all(card[:-1] in led for card in failing), result.content
        assert "failed: " in result.content and "lost every trick" in result.content
        assert "holds" in result.content and "seat " not in result.content and not RAW_CARD.search(result.content)
        assert "✅ You played" not in result.content


async def test_exposing_during_the_drawing_is_not_called_your_turn(tmp_path):
    from rules.registry import match_class

    async with bot_world(tmp_path) as world, world.running() as client:
        table = await _table(world, client, "dabaifen", [world.bob, world.carol, world.dan], options="start_level=Q")
        cls = match_class("da_bai_fen")
        for seed in range(40):  # a fresh deal drawn card by card until someone other than the drawer may expose
            m = cls({"start_level": "Q"})
            m.start_deal(m.random_deal(random.Random(seed)))
            while m.phase == "deal":
                who = [a for a in m.legal_json() if a["type"] == "expose" and a["seat"] != m.to_move]
                if who:
                    break
                m.apply(Action(m.to_move, "draw"))
            if m.phase == "deal" and who:
                break
        table.match = m
        view = await hand_view(table, who[0]["seat"])
        assert "Your turn" not in view.content and "you may act meanwhile" in view.content, view.content
        table.last_trick = None
        assert re.search(r"Drawing: \d+ of 48 cards drawn", table_content(table, m.public_view()))
        exposer = who[0]["seat"]
        m.apply(Action(exposer, "expose", card=_ids([who[0]["card"]])[0]))
        content = table_content(table, m.public_view())
        assert f"Exposed: {table.names()[exposer]} showed " in content and not RAW_CARD.search(content), content


def test_da_bai_fen_table_image_shows_the_exposed_card_during_the_drawing():
    from render import table as render_table
    from rules.registry import match_class

    m = match_class("da_bai_fen")({"start_level": "Q"})
    m.start_deal(m.random_deal(random.Random(3)))
    while m.phase == "deal" and not m.output()["exposed"]:
        exposures = [a for a in m.legal_json() if a["type"] == "expose"]
        if exposures:
            m.apply(Action(exposures[0]["seat"], "expose", card=_ids([exposures[0]["card"]])[0]))
        else:
            m.apply(Action(m.to_move, "draw"))
    state = m.output()
    assert state["exposed"]
    names = ["alice", "bob", "carol", "dan"]
    box = render_table.CONTRACT_BOX  # the leader box
    shown = render_table.build_table(state, names).crop(box)
    hidden = render_table.build_table({**state, "exposed": None}, names).crop(box)
    assert shown.tobytes() != hidden.tobytes()


def test_several_cards_played_from_a_side_seat_stay_off_its_name_plate():
    from render import table as render_table

    names = ["alice", "bob", "carol", "dan"]
    base = {"game": "da_bai_fen", "phase": "play", "trump": "H", "trump_rank": "Q", "scores": [12, 12], "dealer": 0}
    for seat in (1, 3):
        trick = [{"seat": seat, "cards": ["JS", "QS", "QH"]}]
        x, y = render_table.seat_centres(4, "da_bai_fen", render_table.plan({**base, "trick": trick}, names, trick))[
            seat
        ]
        plate = (
            round(x - render_table.PLATE_W / 2),
            round(y - render_table.PLATE_H / 2),
            round(x + render_table.PLATE_W / 2),
            round(y + render_table.PLATE_H / 2),
        )
        elsewhere = [{"seat": 2, "cards": ["JS", "QS", "QH"]}]  # the same layout, the cards not this seat's
        empty = render_table.build_table({**base, "trick": elsewhere}, names).crop(plate)
        played = render_table.build_table({**base, "trick": trick}, names)
        assert played.crop(plate).tobytes() == empty.tobytes(), seat


def test_every_card_a_five_hundred_soloist_may_call_is_in_a_menu():
    from bot.presentation.choices import SELECT_LIMIT, plan

    cards = [f"{r}{s}" for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    legal = [{"seat": 0, "type": "call"}] + [{"seat": 0, "type": "call", "card": c} for c in cards[:42]]
    choices = plan(legal, 0, cards[42:])
    offered = [a for _, actions in choices.selects for a in actions]
    assert len(offered) == len(legal) and all(len(actions) <= SELECT_LIMIT for _, actions in choices.selects)
    assert all(placeholder.startswith("Call a partner's card") for placeholder, _ in choices.selects)


def test_score_sheet_says_a_team_win():
    from render.i18n import t

    assert t("win", "en", name="alice & carol") == "alice & carol win"
    assert t("wins", "en", name="alice") == "alice wins"


def test_five_hundred_table_image_names_the_called_partner():
    from render import table as render_table

    names = ["alice", "bob", "carol", "dan", "eve"]
    state = {
        "game": "five_hundred",
        "phase": "play",
        "trump": "H",
        "scores": [0] * 5,
        "dealer": 0,
        "trick": [],
        "contract": {"seat": 1, "value": 7, "suit": "H", "tricks": 7, "points": 200, "partner": 3},
    }
    box = render_table.CONTRACT_BOX  # the contract box
    named = render_table.build_table(state, names).crop(box)
    alone = render_table.build_table({**state, "contract": {**state["contract"], "partner": None}}, names).crop(box)
    assert named.tobytes() != alone.tobytes()


def test_the_drawer_plate_says_drawing():
    from render import table as render_table

    names = ["alice", "bob", "carol", "dan"]
    state = {"game": "da_bai_fen", "phase": "deal", "trump": None, "scores": [2, 2], "dealer": 0, "trick": []}
    x, y = render_table.seat_centres(4, "da_bai_fen")[0]
    plate = (round(x - 100), round(y), round(x + 100), round(y + 30))
    drawing = render_table.build_table(state, names, to_move=0).crop(plate)
    acting = render_table.build_table({**state, "phase": "exchange"}, names, to_move=0).crop(plate)
    assert drawing.tobytes() != acting.tobytes()
