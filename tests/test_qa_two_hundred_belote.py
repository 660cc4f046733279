"""What players of Two Hundred and Belote Contrée see: found by playing whole games through the offline Discord.

Each test pins one thing a player or a server admin would have found wrong or confusing.
"""

from __future__ import annotations

import random

from rules import registry
from rules.actions import action_from_json
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY
from rules.registry import match_class

NAMES = ["alice", "bob", "carol", "dan"]


def _play(game: str, seed: int, options: dict | None = None, *, until) -> tuple:
    """A match with random legal moves until ``until(match)`` (checked after every move)."""
    rng = random.Random(seed)
    match = match_class(game)(options or {})
    for _ in range(5000):
        if match.phase == GAME_OVER:
            break
        if match.phase == BETWEEN_DEALS:
            match.start_deal(match.random_deal(rng))
            continue
        legal = match.legal_json()
        action = rng.choice(legal)
        if action["type"] == "discard":
            action = {"type": "discard", "seat": action["seat"], "cards": rng.sample(action["from"], action["choose"])}
        match.apply(action_from_json(action))
        if until(match):
            return match, rng
    raise RuntimeError("never reached")


def _first(game: str, until, options: dict | None = None):
    for seed in range(60):
        try:
            return _play(game, seed, options, until=until)[0]
        except RuntimeError:
            continue
    raise AssertionError("not reached in 60 games")


def test_two_hundred_side_points_on_the_table_image_are_per_team():
    """The table image's score box said "alice & carol · 5 points" from alice's own tricks alone: Two Hundred
    reports points per seat, and a side's points are both partners' together."""
    from render import state as st

    match, _ = _play("two_hundred", 3, until=lambda m: m.phase == PLAY and sum(m.output()["tricks_won"]) >= 3)
    state = match.output()
    per_seat = state["points_taken"]
    assert st.points_by_side(state, NAMES) == [per_seat[0] + per_seat[2], per_seat[1] + per_seat[3]]


def test_two_hundred_deal_summary_puts_each_sides_points_on_its_own_row():
    """The deal summary listed the contractor's side's points under team A whoever contracted: the engine lists
    the contractor's side first, and ``sides`` says which team each entry is."""
    from render.sheets import _details

    def team_b_scored(m):
        results = m.deal_results
        return bool(results) and not results[-1]["thrown_in"] and results[-1]["sides"][0] == [1]

    match = _first("two_hundred", team_b_scored)
    state = match.output()
    result = state["deal_results"][-1]
    contractors, defenders = result["points"]
    assert _details(result, 1, state, NAMES, "en") == f"{contractors} points"
    assert _details(result, 0, state, NAMES, "en") == f"{defenders} points"


def test_two_hundred_deal_explanation_says_defenders_not_an_internal_side_number():
    """ "side 0 took 45: +45" — players have teams A and B, not a side 0."""
    match, _ = _play("two_hundred", 2, until=lambda m: any(not r["thrown_in"] for r in m.deal_results))
    explain = next(r["explain"] for r in match.deal_results if not r["thrown_in"])
    assert "side 0" not in explain and "side 1" not in explain
    assert "defenders took" in explain


def test_belote_explanation_names_the_team_of_a_belote_by_letter():
    """ "belote +20 to team 1" — the score lines say team A and team B."""

    def belote_scored(m):
        return any("belote" in (r.get("explain") or "") for r in m.deal_results)

    match = _first("belote", belote_scored)
    explain = next(r["explain"] for r in match.deal_results if "belote" in r["explain"])
    assert "to team A" in explain or "to team B" in explain, explain
    assert "to team 0" not in explain and "to team 1" not in explain


def test_two_hundred_table_image_shows_the_bid_to_beat_during_the_auction():
    """The contract box said only "Bidding" while players bid: the bid to beat (and who made it) was nowhere on the
    table.  Two Hundred reports its calls; the box shows the last bid."""
    from render import state as st

    match, _ = _play("two_hundred", 4, until=lambda m: any(c["type"] == "bid" for c in m.output().get("auction", [])))
    state = match.output()
    assert state["phase"] == "bidding"
    bid = [c for c in state["auction"] if c["type"] == "bid"][-1]
    assert st.last_bid(state) == {"seat": bid["seat"], "value": bid["value"]}
    assert "".join(s for s in st.contract_segments(st.last_bid(state), "en") if isinstance(s, str)).strip() == str(
        bid["value"]
    )


def test_what_you_did_reads_as_past_tense():
    """ "✅ You trump ♠." and "✅ You discard A♣ Q♣ 8♣ J♦." read as orders; a counter said only "counter"."""
    from bot.presentation.choices import past_tense

    assert past_tense({"type": "trump", "suit": "S"}) == "named ♠ trumps"
    assert past_tense({"type": "trump", "suit": "NT"}) == "named no trumps"
    assert past_tense({"type": "discard", "cards": ["AC", "QC"]}) == "discarded A♣ Q♣"
    assert past_tense({"type": "counter"}) == "countered (double)"
    assert past_tense({"type": "recounter"}) == "recountered (×4)"
    assert past_tense({"type": "bid", "value": 65}) == "bid 65"


def test_two_hundred_naming_trump_explains_that_a_lead_names_it_too():
    """After the kitty, the contractor saw trump buttons *and* a card menu with no word of why: the first card led
    names trump when none was announced."""
    from bot.presentation.choices import plan

    legal = [{"seat": 0, "type": "trump", "suit": s} for s in "SHDC"]
    legal += [{"seat": 0, "type": "play", "cards": [c]} for c in ("AS", "10H")]
    result = plan(legal, 0, ["AS", "10H"], lead_several=False)
    assert "lead a card: its suit becomes trump" in result.note
    assert "trump" not in plan(legal[4:], 0, ["AS", "10H"], lead_several=False).note


async def test_table_message_shows_the_bids_then_the_contract_with_its_value(tmp_path):
    """The table message said "Contract: bob" (Two Hundred's bid is its "bid", not a "value") and, during the
    bidding, nothing of the bids made: players could not tell the bid to beat."""
    from tests.botkit.harness import bot_world, play_to_the_end, table_message

    async with bot_world(tmp_path) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "200")
        await world.click(world.bob, lobby, "join")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "cpu")
        await world.click(world.alice, lobby, "start")
        table = await play_to_the_end(
            world, client, 1, stop=lambda t: any(c["type"] == "bid" for c in t.match.output()["auction"])
        )
        await world.settle(client)
        state = table.match.output()
        assert state["phase"] == "bidding"  # this seed stops at a bid with the bidding still on
        if state["phase"] == "bidding":
            bid = [c for c in state["auction"] if c["type"] == "bid"][-1]
            who = table.names()[bid["seat"]]
            assert f"{who} {bid['value']}" in table_message(world, table).content.split("Bids: ")[1]
        table = await play_to_the_end(world, client, 1, stop=lambda t: t.match.phase == "play")
        await world.settle(client)
        contract = table.match.output()["contract"]
        content = table_message(world, table).content
        assert f"Contract: {table.names()[contract['seat']]} {contract['bid']}" in content, content
        assert "Bids:" not in content


def test_belote_contract_line_says_countered_and_uses_suit_symbols():
    """ "Contract: alice 80 D" — a letter for the suit, and not a word of the counter that doubles the deal."""
    from bot.presentation.messages import _contract_words

    assert _contract_words({"seat": 0, "value": 80, "suit": "D", "countered": True}) == "80 ♦ countered ×2"
    assert (
        _contract_words({"value": 100, "suit": "S", "countered": True, "recountered": True}) == "100 ♠ recountered ×4"
    )
    assert _contract_words({"value": "capot", "suit": "H"}) == "capot ♥"
    assert _contract_words({"value": 90, "contract": "all_trumps"}) == "90 all trumps"
    assert _contract_words({"seat": 1, "bid": 85, "team": 1}) == "85"


async def test_lobby_seat_menu_writes_team_letters_in_capitals(tmp_path):
    """The lobby says "team A" and the seat menu said "Seat 1 (team a)"."""
    from tests.botkit.harness import bot_world, find_id, select_options

    async with bot_world(tmp_path) as world, world.running():
        lobby = await world.new_table(world.alice, "belote")
        labels = [o["label"] for o in select_options(lobby, find_id(lobby, "seat"))]
        assert labels[0] == "Seat 1 (team A)" and labels[1] == "Seat 2 (team B)", labels


def test_two_hundred_game_over_short_of_the_target_says_why():
    """ "Team A wins" at 10 points against -425, with a target of 200: the losing team fell to -200."""
    from types import SimpleNamespace

    from bot.presentation.messages import winner_text

    match = match_class("two_hundred")({"players": 4})
    match.unit_scores, match.winner, match.phase = [10, -425], 0, GAME_OVER
    table = SimpleNamespace(players=4, game="two_hundred", match=match, names=lambda: NAMES)
    state = match.public_view()
    assert state["fell_to"] == {"teams": [1], "depth": 200}
    assert winner_text(table, state) == "Team A wins (alice, carol): team B fell to −200 or worse."
    match.unit_scores, match.winner = [150, 205], 1
    state = match.public_view()
    assert winner_text(table, state) == "Team B wins (bob, dan)."


def test_belote_hand_says_how_to_announce_the_belote():
    """The card menu offered "Q♥" and "Q♥ + Belote" with no word that the plain one loses the 20 points."""
    from bot.presentation.choices import label, plan

    match = _first("belote", lambda m: m.phase == PLAY and any(a.get("announce") for a in m.legal_json()))
    seat = match.to_move
    state = match.seat_view(seat)
    announcements = registry.game_type("belote").announcements
    result = plan(state["legal"], seat, state["hand"], lead_several=state["lead_several"], announcements=announcements)
    expected = "You hold the belote: pick a card marked '+ Belote' to announce it (20 points), or it is lost."
    assert result.note == expected
    assert any(label(a).endswith("+ Belote") for _, actions in result.selects for a in actions)
    assert label({"type": "recounter"}) == "Recounter (×4)"


def test_belote_table_message_tells_everybody_of_an_announced_belote():
    """A belote announced with its first card was said to nobody but its player ("✅ You played Q♥ + Belote")."""
    from types import SimpleNamespace

    from bot.presentation.messages import table_content

    match = _first("belote", lambda m: m.phase == PLAY and m.output()["belote"])
    state = match.public_view()
    table = SimpleNamespace(
        id=1, players=4, game="belote", match=match, names=lambda: NAMES, last_trick=None, status="playing",
        seats={s: SimpleNamespace(user_id=None, name=NAMES[s]) for s in range(4)}, row=SimpleNamespace(options={}),
        clock=None, extra={},
    )  # fmt: skip
    content = table_content(table, state)
    assert f"Belote announced by {NAMES[state['belote'][0]]}".lower() in content.lower(), content


async def test_belote_bid_autocomplete_understands_value_and_suit(tmp_path):
    """`/bid value:` "100 h" (as the guide writes it: "100 S") offered nothing: only the value was matched."""
    from tests.botkit.harness import TIMEOUT, bot_world

    async with bot_world(tmp_path) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "belote")
        for user in (world.bob, world.carol, world.dan):
            await world.click(user, lobby, "join")
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        table = client.manager.tables[1]
        user = next(u for u in world.fake.world.users.values() if u.id == table.seats[table.match.to_move].user_id)
        for typed, wanted in (("100 h", ["Bid 100 ♥"]), ("100 hearts", ["Bid 100 ♥"]), ("capot s", ["Bid Capot ♠"])):
            ac = await world.fake.autocomplete(user, world.channel, "bid", "value", typed)
            await ac.wait(TIMEOUT)
            assert [c["name"] for c in ac.choices] == wanted, (typed, ac.choices)


def test_belote_table_image_shows_a_counter_during_the_bidding():
    """After "alice counter", the contract box still said "80 ♥": the counter (×2) was nowhere on the image."""
    from render import state as st

    match = _first("belote", lambda m: m.phase == "bidding" and any(c.type == "counter" for c in m.auction.calls))
    state = match.output()
    bid = st.with_counters(state["high_bid"], state)
    assert bid["countered"] and not bid["recountered"]
    words = "".join(s for s in st.contract_segments(bid, "en") if isinstance(s, str))
    assert "countered" in words.lower()


async def test_last_trick_line_says_who_won_it(tmp_path):
    """ "Last trick: bob 7♣, carol 5♣, dan 9♣, alice J♣" left players to work out who took it (and the points)."""
    from tests.botkit.harness import bot_world, play_to_the_end, table_message

    async with bot_world(tmp_path) as world, world.running() as client:
        lobby = await world.new_table(world.alice, "belote")
        for user in (world.bob, world.carol, world.dan):
            await world.click(user, lobby, "join")
        await world.click(world.alice, lobby, "start")
        table = await play_to_the_end(
            world, client, 1, stop=lambda t: t.match.phase == PLAY and t.last_trick and not t.match.output()["trick"]
        )
        await world.settle(client)
        content = table_message(world, table).content
        winner = table.names()[table.match.to_move]
        assert f"— won by {winner}" in content.split("Last trick: ")[1].splitlines()[0], content


def test_lobby_options_are_written_as_the_host_typed_them():
    """ "Options: kitty=True, target=100" — the host typed kitty=true; Python's True leaked."""
    from types import SimpleNamespace

    from bot.presentation.messages import options_text

    table = SimpleNamespace(row=SimpleNamespace(options={"kitty": True, "target": 100, "lose_at": None}, preset=None))
    assert options_text(table) == "kitty=true, target=100, lose_at=none"


def test_belote_capot_explanation_says_who_took_the_tricks():
    """ "took 7 of the eight tricks, not all; failed" — with no subject, after "takers …" everywhere else."""
    match = _first("belote", lambda m: any((r.get("contract") or {}).get("value") == "capot" for r in m.deal_results))
    explain = next(r["explain"] for r in match.deal_results if (r.get("contract") or {}).get("value") == "capot")
    assert explain.startswith("takers took"), explain


def test_hint_reads_as_a_call_in_the_bidding():
    """ "the expert would choose **Pass**" / "**Bid 80 ♠**" in the bidding, "would play **10♦**" in the play."""
    from bot.presentation.hint_words import hint_text
    from rules.actions import action_from_json
    from rules.errors import Words

    def why(mean: str, alternative: dict | None = None) -> Words:
        verdict = Words("averages {mean} points over {n} sampled deals", mean=mean, n=40)
        if alternative is None:
            return verdict
        other = Words(" ({action}: {mean})", action=action_from_json(alternative), mean="-5")
        return Words("{verdict}{alternative}{solved}", verdict=verdict, alternative=other, solved="")

    passing = action_from_json({"seat": 0, "type": "pass"})
    bid = action_from_json({"seat": 0, "type": "bid", "value": 80, "suit": "S"})
    card = action_from_json({"seat": 0, "type": "play", "cards": ["10D"]})
    said = hint_text(1, passing, why("-24"), "en")
    assert said.startswith("💡 Table #1: the expert would choose **Pass** — averages -24 points"), said
    said = hint_text(1, bid, why("-3", {"seat": 0, "type": "pass"}), "en")
    assert "would choose **Bid 80 ♠** — averages -3 points over 40 sampled deals (Pass: -5)" in said, said
    assert "would play **10♦** — " in hint_text(1, card, why("+2"), "en")


def test_two_hundred_kitty_turn_says_what_the_contractor_does():
    """ "➡️ bob to exchange" — with a kitty, the contractor takes it and discards as many cards."""
    from types import SimpleNamespace

    from bot.presentation.messages import phase_verb

    assert phase_verb(SimpleNamespace(game="two_hundred"), "exchange") == "to take the kitty and discard"
    assert phase_verb(SimpleNamespace(game="belote"), "bidding") == "to bid"


async def test_counter_and_trump_commands_explain_the_game_they_do_not_belong_to(tmp_path):
    """`/counter` at Two Hundred said "you cannot counter now: the auction is on" (as if it could later), and
    `/trump` at Belote "'trump' is not a call in the bidding"."""
    from tests.botkit.harness import bot_world

    async with bot_world(tmp_path) as world, world.running() as client:
        for game in ("200", "belote"):
            lobby = await world.new_table(world.alice, game)
            for user in (world.bob, world.carol, world.dan):
                await world.click(user, lobby, "join")
            await world.click(world.alice, lobby, "start")
            await world.settle(client)
            table_id = max(client.manager.tables)
            if game == "200":
                r = await world.slash(world.alice, "move", {"table": table_id}, subcommand="counter")
                assert r.ephemeral and "no counter in Two Hundred" in r.content, r.content
            else:
                r = await world.slash(world.alice, "move", {"suit": "S", "table": table_id}, subcommand="trump")
                assert r.ephemeral and "the bid names trump" in r.content, r.content
