"""How the table's manners look (bot/tables/manners.py decides them): the question a request puts to the players,
its buttons, and what it came to."""

from __future__ import annotations

import discord

from bot.i18n import N_, _
from bot.presentation.components import ComponentId, TableButton, view_of
from bot.presentation.language import in_table_language
from bot.presentation.messages import describe_cards, game_name
from bot.presentation.table_menu import MENU_VERBS
from bot.tables.manners import ACCEPTED, CLAIM, LAPSED, PROVEN, STOP, UNDO, Answer, Request
from bot.tables.service import Table
from rules.cards import CARD_NAMES

AGREE, DISAGREE, REMATCH = "agree", "disagree", "rematch"
MANNER_VERBS = (AGREE, DISAGREE, REMATCH, *MENU_VERBS)  # and the table's More menu (bot/presentation/table_menu.py)


def _names(table: Table, users) -> str:
    by_user = {r.user_id: r.name for r in table.seats.values() if r.user_id is not None}
    return ", ".join(by_user.get(u, "?") for u in users) or _("nobody")


def side_words(table: Table, seat: int) -> str:
    """ "alice and carol" (a side), or "alice" alone."""
    assert table.match is not None
    teams = table.match.seat_teams()
    names = table.names()
    if teams[seat] is None:
        return names[seat]
    side = [names[s] for s in range(table.players) if teams[s] == teams[seat]]
    return _("{first} and {last}", first=", ".join(side[:-1]), last=side[-1]) if len(side) > 1 else side[0]


@in_table_language
def request_text(table: Table, request: Request) -> str:
    """The question, who it pings, and who has answered (a public message: in the table's language)."""
    names = table.names()
    who = names[request.seat]
    pings = " ".join(f"<@{u}>" for u in request.waiting_for())
    head = f"{pings} " if pings else ""
    if request.kind == STOP:
        body = "🛑 " + _(
            "{who} proposes to **stop table #{table}** ({game}) now. It stops when more than half of its players "
            "agree ({needed} of {voters}); the game is then kept in your history, unrated. Play goes on meanwhile.",
            who=who,
            table=table.id,
            game=game_name(table.game),
            needed=request.needed,
            voters=len(request.voters),
        )
    elif request.kind == CLAIM:
        assert table.match is not None
        hand = describe_cards([CARD_NAMES[c] for c in table.match.hand(request.seat)])
        body = "🙋 " + _(
            "{who} **claims every remaining trick** for {side} at table #{table}, showing their hand: {hand}. The "
            "rest is played out for them if every opponent agrees; a card played meanwhile withdraws the claim.",
            who=who,
            side=side_words(table, request.seat),
            table=table.id,
            hand=hand,
        )
    else:
        body = "↩️ " + _(
            "{who} asks to **take back their last card** at table #{table}. Every opponent must agree.",
            who=who,
            table=table.id,
        )
    answered = []
    if request.yes:
        answered.append(_("agreed: {names}", names=_names(table, sorted(request.yes))))
    if request.no:
        answered.append(_("refused: {names}", names=_names(table, sorted(request.no))))
    tail = f"\n({'; '.join(answered)})" if answered else ""
    return f"{head}{body}{tail}"


LABELS = {
    STOP: (N_("Stop the game"), N_("Play on")),
    CLAIM: (N_("Accept the claim"), N_("Play on")),
    UNDO: (N_("Agree"), N_("Refuse")),
}


@in_table_language
def request_view(table: Table, request: Request) -> discord.ui.View:
    yes, no = LABELS[request.kind]
    return view_of(
        TableButton(ComponentId(table.id, AGREE, None, str(request.row_id)), _(yes), discord.ButtonStyle.success),
        TableButton(ComponentId(table.id, DISAGREE, None, str(request.row_id)), _(no), discord.ButtonStyle.secondary),
    )


@in_table_language
def outcome_text(table: Table, answer: Answer) -> str:
    """What the question came to, in the players' words (a public message: in the table's language)."""
    request = answer.request
    names = table.names()
    who = names[request.seat]
    if answer.outcome == LAPSED:
        return "⌛ " + _(LAPSED_WORDS[request.kind], who=who)
    if request.kind == STOP:
        if answer.outcome == ACCEPTED:
            return "🛑 " + _(
                "Table #{table} is stopped by a vote ({names} agreed). The game is kept in your history, unrated.",
                table=table.id,
                names=_names(table, sorted(request.yes)),
            )
        return "▶️ " + _("Table #{table} plays on: the vote to stop did not pass.", table=table.id)
    if request.kind == CLAIM:
        side = side_words(table, request.seat)
        if answer.outcome == PROVEN:
            return "✅ " + _(
                "{who} claimed every remaining trick for {side}, and no play could stop it: the cards are played out.",
                who=who,
                side=side,
            )
        if answer.outcome == ACCEPTED:
            return "✅ " + _(
                "The opponents accepted {who}'s claim: every remaining trick goes to {side}.", who=who, side=side
            )
        return "▶️ " + _("{who}'s claim is refused: play on.", who=who)
    if answer.outcome == ACCEPTED:
        return "↩️ " + _("{who} took back their last card; it is their turn again.", who=who)
    return "▶️ " + _("{who} keeps their card: the opponents refused to take it back.", who=who)


LAPSED_WORDS = {
    STOP: N_("{who}'s vote to stop lapsed: the game moved on."),
    CLAIM: N_("{who}'s claim lapsed: the game moved on."),
    UNDO: N_("{who}'s request to take back a card lapsed: the game moved on."),
}
