"""What the table's messages say and offer: the lobby, the table, and the components of a player's choices.

Pure builders (data in, text and components out; images through ``bot.presentation.images``), used by the presenter,
which decides when to send them, and by the cogs, which answer interactions with them.
"""

from __future__ import annotations

import io

import discord

from bot.i18n import N_, _, current_language, ngettext
from bot.presentation import images, played_for
from bot.presentation.choices import SELECT_LIMIT, SUIT_SYMBOLS, card_label, encode, label
from bot.presentation.clock_view import clock_buttons, clock_label, clock_lines, lobby_clock_line
from bot.presentation.components import ComponentId, TableButton, TableSelect, view_of
from bot.presentation.language import in_table_language
from bot.presentation.seat_views import public_view
from bot.storage.store import CANCELLED, FINISHED, LOBBY, PLAYING
from bot.tables.service import Table
from rules import registry
from rules.boards import probe
from rules.errors import RecordError
from rules.game import GAME_OVER, PLAY
from rules.lookback import shows_last_trick
from rules.players import PLAYERS

PHASE_VERBS = {
    "deal": N_("to draw"),
    "bidding": N_("to bid"),
    "exchange": N_("to exchange"),
    "trump": N_("to name trump"),
    "play": N_("to play"),
}
TEAM_LETTERS = "ABCDEF"
DM_CLOSED = 50007  # Discord: cannot send messages to this user
COMPUTER_LEVELS = {
    "random": N_("plays any legal move"),
    "heuristic": N_("plays sensibly, instantly (the Add computer button)"),
    "expert": N_("searches sampled deals; thinks about half a second"),
    "master": N_("the strongest: the expert's search, endings worked out exactly; about half a second"),
}


def phase_verb(table: Table, phase: str) -> str:
    """What the player to move is doing, in the game's words."""
    return _(registry.game_type(table.game).phase_words.get(phase) or PHASE_VERBS.get(phase) or N_("to act"))


def game_name(game: str) -> str:
    found = registry.lookup(game)
    return found.name(current_language.get()) if found else game.replace("_", " ").title()


def seat_teams(table: Table) -> list[int | None]:
    """Each seat's team as the engine lays them out for the table's options (None: a game of individuals)."""
    if table.match is not None:
        return table.match.seat_teams()
    key = repr(sorted(table.row.options.items()))
    known = table.extra.get("seat_teams")
    if known is None or known[0] != key:  # the lobby: no match yet, the host may still change the options
        try:
            teams = probe(table.game, table.row.options).seat_teams()
        except RecordError:
            teams = [None] * table.players
        known = table.extra["seat_teams"] = (key, teams)
    return known[1]


def team_of(table: Table, seat: int) -> str | None:
    """A seat's team letter in partnership games, None in games of individuals."""
    teams = seat_teams(table)
    team = teams[seat] if seat < len(teams) else None
    return None if team is None else TEAM_LETTERS[team]


def seat_label(table: Table, seat: int) -> str:
    team = team_of(table, seat)
    return _("seat {n} (team {team})", n=seat + 1, team=team) if team else _("seat {n}", n=seat + 1)


def mention(table: Table, seat: int) -> str:
    row = table.seats.get(seat)
    if row is None:
        return _("seat {n}", n=seat + 1)
    return f"<@{row.user_id}>" if row.user_id else f"🤖 {row.name}"


def options_text(table: Table) -> str:
    shown = ", ".join(f"{k}={_option_value(v)}" for k, v in table.row.options.items()) or _("standard rules")
    return _("preset **{preset}**, {options}", preset=table.row.preset, options=shown) if table.row.preset else shown


def _option_value(value: object) -> str:
    """As the host types it in `options:` ("kitty=true"), not Python's "True"."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def describe_cards(cards: list[str]) -> str:
    return " ".join(card_label(c) for c in cards)


# --- the lobby ------------------------------------------------------------------------------------------------


@in_table_language
def lobby_content(table: Table) -> str:
    lines = [
        _("**{game}** — table #{table}, hosted by {host}", game=game_name(table.game), table=table.id,
          host=f"<@{table.row.host_id}>"),
        _("Options: {options}", options=options_text(table)),
        *([lobby_clock_line(table)] if lobby_clock_line(table) else []),
        *([_("Hints: on — `/hint` shows the expert's move to the player to move; the game is unrated")]
          * table.row.hints),
        *(
            [_("Trick review: open — every trick and the running points can be looked at; the game is unrated")]
            * table.row.open_review
        ),
        *([_("Spectators see each deal's hands once it is over")] * table.row.spectator_hands),
        "",
    ]  # fmt: skip
    for seat in range(table.players):
        row = table.seats.get(seat)
        who = _("*free*") if row is None else (f"<@{row.user_id}>" if row.user_id else f"🤖 {row.name}")
        team = team_of(table, seat)
        lines.append(f"`{seat + 1}` {who}" + (" · " + _("team {team}", team=team) if team else ""))
    if table.status == LOBBY:
        missing = table.players - len(table.seats)
        lines.append("")
        lines.append(
            _("All seats are taken: the host can start.")
            if not missing
            else ngettext("Waiting for {n} more player.", "Waiting for {n} more players.", missing, n=missing)
        )
    elif table.status == CANCELLED:
        lines += ["", _("This table was cancelled.")]
    return "\n".join(lines)


def _first_upper(text: str) -> str:
    """ "seat 1 (team A)" -> "Seat 1 (team A)" (``str.capitalize`` would write "team a")."""
    return text[:1].upper() + text[1:]


@in_table_language
def lobby_view(table: Table) -> discord.ui.View | None:
    if table.status != LOBBY:
        return None
    t = table.id
    items: list[discord.ui.Item] = [
        TableButton(ComponentId(t, "join"), _("Join"), discord.ButtonStyle.primary, row=0),
        TableButton(ComponentId(t, "leave"), _("Leave"), row=0),
        TableButton(ComponentId(t, "cpu"), _("Add computer"), row=0),
        TableButton(ComponentId(t, "uncpu"), _("Remove computer"), row=0),
        TableButton(
            ComponentId(t, "start"), _("Start"), discord.ButtonStyle.success, row=1, disabled=not table.is_full()
        ),
        TableButton(ComponentId(t, "cancel"), _("Cancel table"), discord.ButtonStyle.danger, row=1),
    ]
    options = [
        discord.SelectOption(label=_first_upper(seat_label(table, s)), value=str(s))
        for s in range(min(table.players, SELECT_LIMIT))
    ]
    items.append(TableSelect(ComponentId(t, "seat"), options, _("Pick a seat (or a team)"), row=2))
    levels = [
        discord.SelectOption(label=_("Add a computer: {level}", level=level), value=level,
                             description=_(COMPUTER_LEVELS[level]) if level in COMPUTER_LEVELS else None)
        for level in PLAYERS
    ]  # fmt: skip
    items.append(TableSelect(ComponentId(t, "cpu_level"), levels, _("Add a computer player of a level…"), row=3))
    return view_of(*items)


# --- the table ------------------------------------------------------------------------------------------------


def _trick_text(table: Table, trick: list[dict], joker_suit: str | None = None) -> str:
    plays = [f"{table.names()[p['seat']]} {describe_cards(p['cards'])}" for p in trick]
    if plays and joker_suit:  # Five Hundred: the Joker led at no trumps, with the suit its player named
        plays[0] += " " + _("(as {suit})", suit=SUIT_SYMBOLS.get(joker_suit, joker_suit))
    return ", ".join(plays)


def _game_facts(table: Table, state: dict) -> list[str] | None:
    """The contract line in players' words where the general one would not do: a contract the engine names itself
    ("7♠", "misère", with its points and any called card), or a game whose deals have a leader instead (None: the
    general line)."""
    names = table.names()
    contract = state.get("contract") or {}
    trump = state.get("trump")
    trump_text = _("no trumps") if trump == "NT" else SUIT_SYMBOLS.get(trump, trump) if trump else None
    facts = []
    game = registry.game_type(table.game)
    if not game.leader_not_contract and contract.get("seat") is not None and "name" in contract:
        kind = contract.get("contract")
        what = {"misere": _("Misère"), "open_misere": _("Open misère")}.get(kind) or contract.get("name") or ""
        points = f" ({contract['points']})" if isinstance(contract.get("points"), int) else ""
        facts.append(_("contract: {who} {what}", who=names[contract["seat"]], what=f"{what}{points}").rstrip())
        if contract.get("called_card"):
            partner = contract.get("partner")
            holder = names[partner] if partner is not None else _("nobody (it is out of play)")
            facts.append(_("called {card}: partner {holder}", card=card_label(contract["called_card"]), holder=holder))
        if trump_text and kind not in ("misere", "open_misere"):
            facts.append(_("trump: {trump}", trump=trump_text))
        return facts
    if game.leader_not_contract:
        if contract.get("seat") is not None:
            facts.append(_("leader: {who}", who=names[contract["seat"]]))
        if trump_text:
            facts.append(_("trump: {trump}", trump=trump_text))
        if game.has_trump_rank and state.get("trump_rank"):
            facts.append(_("trump rank: {rank}", rank=state["trump_rank"]))
        return facts
    return None


@in_table_language
def scores_text(table: Table, state: dict) -> str:
    scores = state.get("scores") or []
    if registry.game_type(table.game).scores_are_levels:
        names = {11: "J", 12: "Q", 13: "K", 14: "A"}
        return " · ".join(_("team {team} level {level}", team="AB"[i], level=names.get(v, v))
                          for i, v in enumerate(scores))  # fmt: skip
    if len(scores) < table.players:
        return " · ".join(_("team {team}", team="ABC"[i]) + f" {v}" for i, v in enumerate(scores))
    return " · ".join(f"{name} {v}" for name, v in zip(table.names(), scores, strict=False))


def _drawing_lines(table: Table, state: dict) -> list[str]:
    """A drawing game's draw in words: how far it is, the card exposed (by whom) and the kitty cards turned up."""
    lines = []
    exposed = state.get("exposed")
    if exposed:
        lines.append(_("Exposed: {who} showed {card}", who=table.names()[exposed["seat"]],
                       card=card_label(exposed["card"])))  # fmt: skip
    if state.get("kitty_turned"):
        lines.append(_("Turned up from the kitty: {cards}", cards=describe_cards(state["kitty_turned"])))
    if state.get("phase") == "deal" and isinstance(state.get("drawn"), int):
        lines.append(_("Drawing: {drawn} of {total} cards drawn", drawn=state["drawn"], total=state["cards_to_draw"]))
    return lines


@in_table_language
def score_change_text(table: Table, change: list) -> str:
    """A deal's score change, each with its player or team (or the levels gained, where scores are levels)."""
    if registry.game_type(table.game).scores_are_levels:
        gains = [_("team {team} +{n} level", team="AB"[i], n=v) if v == 1 else
                 _("team {team} +{n} levels", team="AB"[i], n=v) for i, v in enumerate(change) if v]  # fmt: skip
        return _("Levels: {gains}", gains=" · ".join(gains) if gains else _("no change"))
    who = table.names() if len(change) == table.players else [_("team {team}", team="ABCDEF"[i])
                                                              for i in range(len(change))]  # fmt: skip
    parts = [f"{w} {v:+d}" if isinstance(v, int) else f"{w} {v}" for w, v in zip(who, change, strict=False)]
    return _("Score change: {parts}", parts=" · ".join(parts))


def table_state(table: Table) -> dict:
    """What the table message shows: the public view, or at a table whose option opens the review (a learning table,
    unrated) the view with nothing face down."""
    match = table.match
    assert match is not None
    return match.open_view() if table.row.open_review else public_view(table)


@in_table_language
def table_content(table: Table, state: dict) -> str:
    """The table message; ``state`` is what the table shows (``table_state``: the match's public view)."""
    match = table.match
    assert match is not None
    names = table.names()
    lines = [
        _("**{game}** — table #{table} · deal {deal} · {dealer_word} {dealer}", game=game_name(table.game),
          table=table.id, deal=state["deal"] + 1, dealer_word=_(registry.game_type(table.game).dealer_word),
          dealer=names[state["dealer"]])
    ]  # fmt: skip
    contract = state.get("contract")
    facts = _game_facts(table, state)
    if facts is None:
        facts = []
        if contract and contract.get("seat") is not None:
            detail = _contract_words(contract)
            facts.append(_("contract: {who} {what}", who=names[contract["seat"]], what=detail).rstrip())
        if state.get("trump"):
            facts.append(_("trump: {trump}", trump=SUIT_SYMBOLS.get(state["trump"], state["trump"])))
        for announced in registry.game_type(table.game).announcements:  # said aloud at a real table, so all hear it
            if state.get(announced):  # the seats that announced it, under its name
                facts.append(_("{announcement} announced by {who}", announcement=_(announced),
                               who=", ".join(names[s] for s in state[announced])))  # fmt: skip
    if facts:
        text = " · ".join(facts)
        lines.append(text[0].upper() + text[1:])
    if state.get("cards_to_draw") and match.phase in ("deal", "exchange"):
        lines.extend(_drawing_lines(table, state))
    auction = _auction_line(table, state)
    if auction:
        lines.append(auction)
    if state.get("trick"):
        lines.append(_("Trick: {plays}", plays=_trick_text(table, state["trick"], state.get("joker_suit"))))
    auto = played_for.table_line(table, state)
    if auto:
        lines.append(auto)
    open_hand = state.get("open_hand")
    if open_hand and match.phase == PLAY:  # Five Hundred's open misère: laid face up after the first trick
        lines.append(_("Open hand of {who}: {cards}", who=names[open_hand["seat"]],
                       cards=describe_cards(open_hand["cards"]) or _("(none left)")))  # fmt: skip
    last = table.last_trick or state.get("last_trick")
    if last and shows_last_trick(match.LOOK_BACK, bool(state.get("trick")), table.row.open_review):
        lines.append(_("Last trick: {plays}", plays=_trick_text(table, last)) + _trick_winner(table, state))
    lines.append(_("Scores: {scores}", scores=scores_text(table, state)))
    if match.phase == GAME_OVER:
        lines.append("🏁 " + _("Game over. {winner}", winner=winner_text(table, state)))
    elif table.status == CANCELLED:
        lines.append(_("This table was cancelled."))
    elif match.to_move is not None:
        verb = phase_verb(table, match.phase)
        lines.append(f"➡️ {mention(table, match.to_move)} {verb}")
        lines.extend(clock_lines(table))
    return "\n".join(lines)


def _contract_words(contract: dict) -> str:
    """A contract (or bid) of a value and maybe a suit, as players say it: "85", "80 ♦ countered ×2", "capot ♠"."""
    parts = []
    value = contract.get("value", contract.get("bid"))
    if value is not None:
        parts.append(str(value))
    if contract.get("contract") == "all_trumps":
        parts.append(_("all trumps"))
    suit = contract.get("suit")
    if suit:
        parts.append(_("no trumps") if suit == "NT" else SUIT_SYMBOLS.get(suit, suit))
    if contract.get("recountered"):
        parts.append(_("recountered ×4"))
    elif contract.get("countered"):
        parts.append(_("countered ×2"))
    return " ".join(parts)


def _auction_line(table: Table, state: dict) -> str | None:
    """In a game that shows its auction, the calls so far: during the bidding the bid to beat; afterwards the whole
    auction stays in view, as everyone heard it (who bid what, who passed, who countered)."""
    if not registry.game_type(table.game).auction_on_table or state.get("phase") not in ("bidding", "exchange", PLAY):
        return None
    calls = [c for c in state.get("auction") or [] if isinstance(c, dict) and isinstance(c.get("seat"), int)]
    if not calls:
        return None
    shown = calls[-8:] if state.get("phase") == "bidding" else calls
    words = " · ".join(f"{table.names()[call['seat']]} {call_words(call)}" for call in shown)
    words = ("… " if len(shown) < len(calls) else "") + words
    return _("Bids: {calls}", calls=words) if state.get("phase") == "bidding" else _("Auction: {calls}", calls=words)


def call_words(call: dict) -> str:
    """A call as players say it: "80 ♦", "pass", "counter ×2", "misère", "trump ♠"."""
    kind = call.get("type")
    if kind == "bid":
        named = {"misere": _("misère"), "open_misere": _("open misère")}.get(str(call.get("contract")))
        return named or _contract_words(call) or _("bid")
    if call.get("card"):  # a card called or exposed
        card = card_label(call["card"])
        if kind == "expose":
            return _("expose {card}", card=card)
        return _("call {card}", card=card) if kind == "call" else f"{kind} {card}"
    if kind == "trump" and call.get("suit"):
        suit = _("no trumps") if call["suit"] == "NT" else SUIT_SYMBOLS.get(call["suit"], call["suit"])
        return _("trump {suit}", suit=suit)
    return {"counter": _("counter ×2"), "recounter": _("recounter ×4"), "pass": _("pass")}.get(str(kind), str(kind))


def _trick_winner(table: Table, state: dict) -> str:
    """Who won the last trick, as the engine says (while the deal's play goes on)."""
    seat = state.get("last_trick_winner")
    if table.match is None or table.match.phase != PLAY or seat is None:
        return ""
    return " — " + _("won by {who}", who=table.names()[seat])


@in_table_language
def winner_text(table: Table, state: dict) -> str:
    winner = state.get("winner")
    if winner is None:
        return _("No winner.")
    if len(state.get("scores") or []) < table.players:
        seats = [s for s in range(table.players) if team_of(table, s) == "ABC"[winner]]
        return _("Team {team} wins ({players}){why}.", team="ABC"[winner],
                 players=", ".join(table.names()[s] for s in seats), why=_why_over(state))  # fmt: skip
    return _("{who} wins.", who=table.names()[winner])


def _why_over(state: dict) -> str:
    """A game that ended short of its target because a team fell too low (the engine says which): say so, or a win
    at 10 points against -425 looks like a mistake."""
    fell = state.get("fell_to")
    if not fell:
        return ""
    losers = [TEAM_LETTERS[u] for u in fell["teams"]]
    return _(": team {teams} fell to −{depth} or worse", teams=" & ".join(losers), depth=fell["depth"])


@in_table_language
def table_view(table: Table) -> discord.ui.View | None:
    if table.status == FINISHED and table.match is not None:  # the same seats and options again (cogs/manners.py)
        return view_of(
            TableButton(ComponentId(table.id, "rematch"), _("Rematch"), discord.ButtonStyle.primary, emoji="🔁")
        )
    if table.status != PLAYING:
        return None
    extra = clock_buttons(table)
    if not extra:
        # The usual view, sent with about every move: built once per table (it holds only a dynamic item, which
        # discord.py dispatches by its custom id, so one instance serves every message of the table).
        view = table.extra.get("table_view")
        if view is None:
            view = table.extra["table_view"] = view_of(
                _hand_button(table), _rules_button(table), look_button(table), watch_button(table), more_button(table)
            )
        return view
    return view_of(
        _hand_button(table), *extra, _rules_button(table), look_button(table), watch_button(table), more_button(table)
    )


def _hand_button(table: Table) -> TableButton:
    return TableButton(ComponentId(table.id, "hand"), _("My hand"), discord.ButtonStyle.primary, emoji="🂠")


LOOK_VERB, WATCH_VERB = "look", "watch"  # answered by cogs/history.py


def look_button(table: Table) -> TableButton:
    """What the game's rules let anyone look back at now."""
    return TableButton(ComponentId(table.id, LOOK_VERB), _("Look back"), discord.ButtonStyle.secondary, emoji="🔎")


MORE_VERB = "more"  # the table's menu: claim, undo, stop, look back (bot/presentation/table_menu.py)


def more_button(table: Table, row: int | None = None) -> TableButton:
    # "…" is no emoji to Discord (a button's emoji must be one): it goes in the label.
    return TableButton(ComponentId(table.id, MORE_VERB), _("… More"), discord.ButtonStyle.secondary, row=row)


def watch_button(table: Table, label: str | None = None) -> TableButton:
    """For a spectator: the table and its history, and each finished deal by DM."""
    return TableButton(
        ComponentId(table.id, WATCH_VERB), label or _("Watch"), discord.ButtonStyle.secondary, emoji="👀"
    )


def _rules_button(table: Table) -> TableButton:
    """The game's rules and this table's options, for anyone (cogs/help.py)."""
    return TableButton(ComponentId(table.id, "rules"), _("Rules"), discord.ButtonStyle.secondary, emoji="📖")


def _table_picture(table: Table, state: dict) -> dict:
    """What the table image shows besides ``state`` and the names."""
    match = table.match
    assert match is not None
    return {
        "to_move": match.to_move,
        "title": _("{game} · table #{table}", game=game_name(table.game), table=table.id),
        "show_last_trick": bool(table.last_trick or state.get("last_trick")) and not state.get("trick"),
        "last_trick": table.last_trick or state.get("last_trick"),
        "clock": clock_label(table),
    }


@in_table_language
def table_picture_key(table: Table, state: dict) -> bytes:
    """The table image's key (``images.table_key``): a message showing this key shows this picture."""
    return images.table_key(state, table.names(), **_table_picture(table, state))


@in_table_language
async def table_file(table: Table, state: dict, key: bytes | None = None) -> discord.File | None:
    """The table image; ``state`` is the match's ``public_view()``, ``key`` its ``table_picture_key`` if known."""
    png = await images.table_image(state, table.names(), key=key, **_table_picture(table, state))
    return discord.File(io.BytesIO(png), filename=f"table-{table.id}.png") if png else None


# --- a player's hand ------------------------------------------------------------------------------------------


def png_file(data: bytes | None, name: str) -> discord.File | None:
    return discord.File(io.BytesIO(data), filename=name) if data else None


def action_components(table: Table, choices) -> discord.ui.View:
    t, v = table.id, table.version
    items: list[discord.ui.Item] = []
    row = 0
    for n, (placeholder, actions) in enumerate(choices.selects):
        if row >= 4:
            break
        options = [discord.SelectOption(label=label(a)[:100], value=encode(a)) for a in actions]
        items.append(TableSelect(ComponentId(t, "pick", v, str(n)), options, placeholder, row=row))
        row += 1
    if choices.multi and row < 5:
        multi = choices.multi
        options = [discord.SelectOption(label=card_label(c), value=f"{c}#{i}") for i, c in enumerate(multi["cards"])]
        items.append(
            TableSelect(
                ComponentId(t, "multi", v, multi["type"]),
                options,
                multi["placeholder"],
                min_values=min(multi["min"], len(options)),
                max_values=min(multi["max"], len(options)),
                row=row,
            )
        )
        row += 1
    for i, action in enumerate(choices.buttons):
        button_row = row + i // 5
        if button_row >= 5:
            break
        style = discord.ButtonStyle.secondary if action["type"] == "pass" else discord.ButtonStyle.primary
        items.append(TableButton(ComponentId(t, "act", v, encode(action)), label(action)[:80], style, row=button_row))
    return view_of(*items)


def play_lines(table: Table, state: dict, *, trick: bool = True) -> list[str]:
    """What a player needs from the table while choosing a card, for their own hand message (on a phone the
    channel's table is a tap away): the contract and trump, and the trick so far (unless ``trick`` is False).
    ``state`` is a seat's view or the public view: both show these alike."""
    if state.get("phase") != PLAY:
        return []
    names = table.names()
    facts = _game_facts(table, state)
    if facts is None:
        contract, facts = state.get("contract"), []
        if contract and contract.get("seat") is not None:
            detail = _contract_words(contract)
            facts.append(_("contract: {who} {what}", who=names[contract["seat"]], what=detail).rstrip())
        if state.get("trump"):
            facts.append(_("trump: {trump}", trump=SUIT_SYMBOLS.get(state["trump"], state["trump"])))
    lines = [_first_upper(" · ".join(facts))] if facts else []
    if trick:
        plays = state.get("trick")
        shown = _trick_text(table, plays, state.get("joker_suit")) if plays else _("(none yet)")
        lines.append(_("Trick: {plays}", plays=shown))
    return lines
