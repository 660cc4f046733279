"""How the table's manners look (bot/tables/manners.py decides them): the question a request puts to the players,
its buttons, and what it came to."""

from __future__ import annotations

import discord

from bot.presentation.components import ComponentId, TableButton, view_of
from bot.presentation.messages import describe_cards, game_name
from bot.tables.manners import ACCEPTED, CLAIM, LAPSED, PROVEN, STOP, UNDO, Answer, Request
from bot.tables.service import Table
from rules.cards import CARD_NAMES

AGREE, DISAGREE, REMATCH = "agree", "disagree", "rematch"
MANNER_VERBS = (AGREE, DISAGREE, REMATCH)


def _names(table: Table, users) -> str:
    by_user = {r.user_id: r.name for r in table.seats.values() if r.user_id is not None}
    return ", ".join(by_user.get(u, "?") for u in users) or "nobody"


def side_words(table: Table, seat: int) -> str:
    """ "alice and carol" (a side), or "alice" alone."""
    assert table.match is not None
    teams = table.match.seat_teams()
    names = table.names()
    if teams[seat] is None:
        return names[seat]
    return " and ".join(names[s] for s in range(table.players) if teams[s] == teams[seat])


def request_text(table: Table, request: Request) -> str:
    """The question, who it pings, and who has answered."""
    names = table.names()
    who = names[request.seat]
    pings = " ".join(f"<@{u}>" for u in request.waiting_for())
    head = f"{pings} " if pings else ""
    if request.kind == STOP:
        body = (
            f"🛑 {who} proposes to **stop table #{table.id}** ({game_name(table.game)}) now. It stops when more "
            f"than half of its players agree ({request.needed} of {len(request.voters)}); the game is then kept in "
            "your history, unrated. Play goes on meanwhile."
        )
    elif request.kind == CLAIM:
        assert table.match is not None
        hand = describe_cards([CARD_NAMES[c] for c in table.match.hand(request.seat)])
        body = (
            f"🙋 {who} **claims every remaining trick** for {side_words(table, request.seat)} at table "
            f"#{table.id}, showing their hand: {hand}. The rest is played out for them if every opponent agrees; "
            "a card played meanwhile withdraws the claim."
        )
    else:
        body = f"↩️ {who} asks to **take back their last card** at table #{table.id}. Every opponent must agree."
    answered = []
    if request.yes:
        answered.append(f"agreed: {_names(table, sorted(request.yes))}")
    if request.no:
        answered.append(f"refused: {_names(table, sorted(request.no))}")
    tail = f"\n({'; '.join(answered)})" if answered else ""
    return f"{head}{body}{tail}"


def request_view(table: Table, request: Request) -> discord.ui.View:
    labels = {STOP: ("Stop the game", "Play on"), CLAIM: ("Accept the claim", "Play on"), UNDO: ("Agree", "Refuse")}
    yes, no = labels[request.kind]
    return view_of(
        TableButton(ComponentId(table.id, AGREE, None, str(request.row_id)), yes, discord.ButtonStyle.success),
        TableButton(ComponentId(table.id, DISAGREE, None, str(request.row_id)), no, discord.ButtonStyle.secondary),
    )


def outcome_text(table: Table, answer: Answer) -> str:
    """What the question came to, in the players' words."""
    request = answer.request
    names = table.names()
    who = names[request.seat]
    if answer.outcome == LAPSED:
        return f"⌛ {who}'s {_what(request)} lapsed: the game moved on."
    if request.kind == STOP:
        if answer.outcome == ACCEPTED:
            return (
                f"🛑 Table #{table.id} is stopped by a vote ({_names(table, sorted(request.yes))} agreed). The game is"
                " kept in your history, unrated."
            )
        return f"▶️ Table #{table.id} plays on: the vote to stop did not pass."
    if request.kind == CLAIM:
        side = side_words(table, request.seat)
        if answer.outcome == PROVEN:
            return (
                f"✅ {who} claimed every remaining trick for {side}, and no play could stop it: the cards are "
                "played out."
            )
        if answer.outcome == ACCEPTED:
            return f"✅ The opponents accepted {who}'s claim: every remaining trick goes to {side}."
        return f"▶️ {who}'s claim is refused: play on."
    if answer.outcome == ACCEPTED:
        return f"↩️ {who} took back their last card; it is their turn again."
    return f"▶️ {who} keeps their card: the opponents refused to take it back."


def _what(request: Request) -> str:
    return {STOP: "vote to stop", CLAIM: "claim", UNDO: "request to take back a card"}[request.kind]
