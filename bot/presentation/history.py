"""A table's history as players and spectators see it: what may be looked back at during a deal (rules/lookback.py
decides; this words it), the trick-by-trick review of a finished deal, a spectator's view of the table, and the
hands shown to spectators after a deal where the table's option allows.

Pure builders (a table and a deal's story in, text and components out); ``cogs/history.py`` answers the clicks and
commands with them.  Nothing here reads a hand still held: the story's ``hands_at_play`` is only shown for a deal
that is over.
"""

from __future__ import annotations

import discord

from bot.i18n import DEFAULT, N_, _, current_language
from bot.i18n.refusals import words_text
from bot.presentation.choices import name_seats
from bot.presentation.components import ComponentId, TableButton, view_of
from bot.presentation.messages import (
    LOOK_VERB,
    TEAM_LETTERS,
    WATCH_VERB,
    call_words,
    describe_cards,
    game_name,
    look_button,
    score_change_text,
    seat_teams,
    watch_button,
)
from bot.tables.service import Refusal, Table
from rules.errors import RecordError
from rules.lookback import UNTIL_NEXT_COLLECTED, LookBackView, look_back
from rules.review import DealStory, ReviewedTrick, deal_story

REVIEW_VERB, UNWATCH_VERB, REPLAY_VERB = "review", "unwatch", "replay"
HISTORY_VERBS = (LOOK_VERB, REVIEW_VERB, WATCH_VERB, UNWATCH_VERB, REPLAY_VERB)
EMBED_LIMIT = 4000  # an embed's description holds 4096 characters
COLOUR = discord.Colour.dark_green()


def story(table: Table, deal: int | None = None) -> DealStory:
    """The story of deal ``deal`` (index; default the current one) of a started table."""
    if table.record is None:
        raise Refusal("Table #{table} has not started: there is nothing to look back at yet.", table=table.id)
    index = len(table.record.deals) - 1 if deal is None else deal
    # Telling a deal replays the record (tens of milliseconds in a long game): several spectators refreshing, or
    # a finished deal told to each of them, share one telling while the table has not moved.
    cached = table.extra.get("story")
    if cached is not None and cached[:3] == (table.version, table.record, index):
        return cached[3]
    try:
        told = deal_story(table.record, index)
    except RecordError:
        raise Refusal("Table #{table} has deals 1 to {count}.", table=table.id, count=len(table.record.deals)) from None
    table.extra["story"] = (table.version, table.record, index, told)
    return told


def last_finished_deal(table: Table) -> int:
    """The index of the table's latest finished deal."""
    match = table.match
    finished = len(match.deal_results) if match is not None else 0
    if not finished:
        raise Refusal("No deal of table #{table} is over yet: its tricks can be reviewed once it is.", table=table.id)
    return finished - 1


# --- words -----------------------------------------------------------------------------------------------------


def side_name(table: Table, seat: int) -> str:
    """The seat's side: "team A" in partnership games, else the player's name."""
    teams = seat_teams(table)
    team = teams[seat] if seat < len(teams) else None
    return table.names()[seat] if team is None else _("team {letter}", letter=TEAM_LETTERS[team])


def calls_line(table: Table, calls: tuple[dict, ...]) -> str | None:
    words = [f"{table.names()[c['seat']]} {call_words(c)}" for c in calls if isinstance(c.get("seat"), int)]
    return _("Calls: {calls}", calls=" · ".join(words)) if words else None


def trick_line(table: Table, trick: ReviewedTrick, *, points: bool, numbered: bool = True) -> str:
    names = table.names()
    plays = ", ".join(f"{names[seat]} {describe_cards(list(cards))}" for seat, cards in trick.plays)
    gained = f" (+{trick.points})" if points and trick.points is not None else ""
    number = f"`{trick.number:>2}` " if numbered else ""
    led = _("{leader} led: {plays}", leader=names[trick.leader], plays=plays)
    return f"{number}{led} → **{names[trick.winner]}**{gained}"


def tricks_won_line(table: Table, state: dict) -> str | None:
    won = state.get("tricks_won")
    if not isinstance(won, list) or not won:
        return None
    teams = [_("team {letter}", letter=TEAM_LETTERS[i]) for i in range(len(won))]
    who = table.names() if len(won) == table.players else teams
    return _("Tricks won: {counts}", counts=" · ".join(f"{w} {n}" for w, n in zip(who, won, strict=False)))


def look_back_text(table: Table, told: DealStory, seen: LookBackView, state: dict) -> str:
    """What may be looked back at now, in words; ``state`` is what the table shows (its tricks-won counts)."""
    lines = [_("**Table #{table} · deal {deal} — looking back**", table=table.id, deal=told.deal + 1)]
    calls = calls_line(table, seen.calls)
    if calls:
        lines.append(calls)
    if seen.all_open:
        if not told.finished:
            lines.append(_("This table's trick review is open: every trick, with the points it took."))
        lines += [trick_line(table, t, points=True) for t in seen.tricks] or [_("No trick completed yet.")]
    else:
        if seen.last_trick is not None:
            last = seen.last_trick
            trick = trick_line(table, last, points=False, numbered=False)
            lines.append(_("Last trick (trick {number}): {trick}", number=last.number, trick=trick))
        if told.tricks:
            lines.append(_rule_words(told, seen))
        face_up: dict[str, list[str]] = {}
        for seat, cards in seen.face_up:
            face_up.setdefault(side_name(table, seat), []).extend(cards)
        lines += [
            _("Face up before {side}: {cards}", side=side, cards=describe_cards(cards))
            for side, cards in face_up.items()
        ]
    won = tricks_won_line(table, state)
    if won:
        lines.append(won)
    return _fit("\n".join(lines))


def _rule_words(told: DealStory, seen: LookBackView) -> str:
    if told.match.LOOK_BACK == UNTIL_NEXT_COLLECTED:
        return _("As the rules have it, only the last trick may be viewed, until the next trick is collected.")
    if seen.face_up:
        return _(
            "As the rules have it, the other cards of the completed tricks lie face down until the end of the play."
        )
    return _(
        "As the rules have it, completed tricks lie face down and are not looked at again until the end of the play."
    )


def review_text(table: Table, told: DealStory) -> str:
    """A finished deal trick by trick: the calls, who led, each card, who won and the points; then the result."""
    lines = [_("**Table #{table} · deal {deal} — trick by trick**", table=table.id, deal=told.deal + 1)]
    calls = calls_line(table, told.calls)
    if calls:
        lines.append(calls)
    lines += [trick_line(table, t, points=True) for t in told.tricks]
    failed = told.failed_lead
    if failed is not None:
        names = table.names()
        lines.append(
            _(
                "Failed lead: {leader} led {cards}; {other}'s {card} beats {beaten}",
                leader=names[failed.seat],
                cards=describe_cards(list(failed.cards)),
                other=names[failed.beaten_by_seat],
                card=describe_cards([failed.card]),
                beaten=describe_cards([failed.beaten_card]),
            )
        )
    result = told.result or {}
    if result.get("thrown_in"):
        lines.append(_("Thrown in: nobody bid."))
    elif isinstance(result.get("explain"), str):  # in players' words, as under the deal's result
        teams = len(result.get("score_change") or []) < table.players
        said = told.match.explanations[told.deal] if told.deal < len(told.match.explanations) else ()
        lang = current_language.get()
        explain = words_text(said, lang, table.names()) if said and lang != DEFAULT else result["explain"]
        lines.append(name_seats(explain, table.names(), teams=teams))
    if result.get("score_change"):
        lines.append(score_change_text(table, list(result["score_change"])))
    return _fit("\n".join(lines))


def hands_text(table: Table, told: DealStory) -> str | None:
    """Each hand as the play of a finished deal began (for spectators, where the table's option shows them)."""
    if not told.finished or told.hands_at_play is None:
        return None
    names = table.names()
    lines = [_("**Table #{table} · deal {deal} — the hands as the play began**", table=table.id, deal=told.deal + 1)]
    lines += [f"{names[seat]}: {describe_cards(list(hand))}" for seat, hand in enumerate(told.hands_at_play) if hand]
    return _fit("\n".join(lines))


def _fit(text: str) -> str:
    return text if len(text) <= EMBED_LIMIT else text[: EMBED_LIMIT - 2] + " …"


def embed(text: str) -> discord.Embed:
    return discord.Embed(description=text, colour=COLOUR)


# --- components -------------------------------------------------------------------------------------------------


def review_button(table: Table, deal: int) -> TableButton:
    return TableButton(ComponentId(table.id, REVIEW_VERB, 0, str(deal)), _("Review"), discord.ButtonStyle.secondary)


def replay_button(table: Table, deal: int) -> TableButton:
    return TableButton(
        ComponentId(table.id, REPLAY_VERB, 0, str(deal)), _("Replay"), discord.ButtonStyle.secondary, emoji="▶️"
    )


def review_view(table: Table, deal: int) -> discord.ui.View:
    """Under a deal's result: its trick-by-trick review and its animated replay, for anyone."""
    return view_of(review_button(table, deal), replay_button(table, deal))


def spectator_view(table: Table) -> discord.ui.View:
    """Under a spectator's view of the table: see it as it is now, look back, stop watching."""
    unwatch = TableButton(ComponentId(table.id, UNWATCH_VERB), _("Stop watching"), discord.ButtonStyle.secondary)
    return view_of(watch_button(table, _("Refresh")), look_button(table), unwatch)


def look_back_now(table: Table, state: dict) -> str:
    """The look-back text of the table's current deal."""
    told = story(table)
    return look_back_text(table, told, look_back(told, open_review=table.row.open_review), state)


def ended_early_text(table: Table, *, by_vote: bool) -> str:
    """For a table's spectators: the game they watch ended before its end (a vote of its players, or cancelled by a
    server admin or for want of players), and where its deals can still be read."""
    text = (
        N_(
            "Table #{table} ({game}) was stopped by a vote of its players: the game ends here, unrated, and you no "
            "longer watch it. `/table review table:{table}` shows its finished deals."
        )
        if by_vote
        else N_(
            "Table #{table} ({game}) was cancelled: the game ends here, unrated, and you no longer watch it. "
            "`/table review table:{table}` shows its finished deals."
        )
    )
    return "👀 " + _(text, table=table.id, game=game_name(table.game))
