"""What the players see: the lobby message, the table message, private hands, deal results and the score sheet.

The presenter listens to the table manager.  Everything it sends for one table goes through that table's queue,
in order, by one worker: updates of the table message are coalesced (several moves between two edits make one
edit), so a fast game costs few API calls and one slow table never holds up another.
"""

from __future__ import annotations

import asyncio
import collections
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import discord

from bot import images
from bot.choices import SELECT_LIMIT, SUIT_SYMBOLS, card_label, encode, label, past_tense, plan
from bot.clock_view import clock_buttons, clock_label, clock_lines, lobby_clock_line
from bot.components import ComponentId, TableButton, TableSelect, view_of
from bot.store import CANCELLED, FINISHED, LOBBY, PLAYING
from bot.tables import Outcome, Table, TableManager
from rules.game import BETWEEN_DEALS, DEAL, GAME_OVER, PLAY
from rules.players import PLAYERS

log = logging.getLogger(__name__)

GAME_NAMES = {
    "two_hundred": "Two Hundred",
    "five_hundred": "Five Hundred",
    "belote": "Belote Contrée",
    "da_bai_fen": "Da Bai Fen",
}
PHASE_VERBS = {
    "deal": "to draw",
    "bidding": "to bid",
    "exchange": "to exchange",
    "trump": "to name trump",
    "play": "to play",
}
DM_CLOSED = 50007  # Discord: cannot send messages to this user
COMPUTER_LEVELS = {
    "random": "plays any legal move",
    "heuristic": "plays sensibly, instantly (the Add computer button)",
    "expert": "searches sampled deals; thinks about half a second",
}


def game_name(game: str) -> str:
    return GAME_NAMES.get(game, game.replace("_", " ").title())


def team_of(table: Table, seat: int) -> str | None:
    """A seat's team letter in partnership games (the record spec's layouts), None in games of individuals."""
    options, n = table.row.options, table.players
    if table.game == "five_hundred":
        if n == 4:
            return "AB"[seat % 2]
        if n == 6:
            return "AB"[seat % 2] if options.get("six_player_method") == 2 else "ABC"[seat % 3]
        return None
    if table.game in GAME_NAMES and n == 4:
        return "AB"[seat % 2]
    return None


def seat_label(table: Table, seat: int) -> str:
    team = team_of(table, seat)
    return f"seat {seat + 1}" + (f" (team {team})" if team else "")


def mention(table: Table, seat: int) -> str:
    row = table.seats.get(seat)
    if row is None:
        return f"seat {seat + 1}"
    return f"<@{row.user_id}>" if row.user_id else f"🤖 {row.name}"


def options_text(table: Table) -> str:
    shown = ", ".join(f"{k}={v}" for k, v in table.row.options.items()) or "standard rules"
    return f"preset **{table.row.preset}**, {shown}" if table.row.preset else shown


def describe_cards(cards: list[str]) -> str:
    return " ".join(card_label(c) for c in cards)


# --- the lobby ------------------------------------------------------------------------------------------------


def lobby_content(table: Table) -> str:
    lines = [
        f"**{game_name(table.game)}** — table #{table.id}, hosted by <@{table.row.host_id}>",
        f"Options: {options_text(table)}",
        *([lobby_clock_line(table)] if lobby_clock_line(table) else []),
        "",
    ]
    for seat in range(table.players):
        row = table.seats.get(seat)
        who = "*free*" if row is None else (f"<@{row.user_id}>" if row.user_id else f"🤖 {row.name}")
        lines.append(f"`{seat + 1}` {who}" + (f" · team {team_of(table, seat)}" if team_of(table, seat) else ""))
    if table.status == LOBBY:
        missing = table.players - len(table.seats)
        lines.append("")
        lines.append(
            "All seats are taken: the host can start." if not missing else f"Waiting for {missing} more player(s)."
        )
    elif table.status == CANCELLED:
        lines += ["", "This table was cancelled."]
    return "\n".join(lines)


def lobby_view(table: Table) -> discord.ui.View | None:
    if table.status != LOBBY:
        return None
    t = table.id
    items: list[discord.ui.Item] = [
        TableButton(ComponentId(t, "join"), "Join", discord.ButtonStyle.primary, row=0),
        TableButton(ComponentId(t, "leave"), "Leave", row=0),
        TableButton(ComponentId(t, "cpu"), "Add computer", row=0),
        TableButton(ComponentId(t, "uncpu"), "Remove computer", row=0),
        TableButton(ComponentId(t, "start"), "Start", discord.ButtonStyle.success, row=1, disabled=not table.is_full()),
        TableButton(ComponentId(t, "cancel"), "Cancel table", discord.ButtonStyle.danger, row=1),
    ]
    options = [
        discord.SelectOption(label=seat_label(table, s).capitalize(), value=str(s))
        for s in range(min(table.players, SELECT_LIMIT))
    ]
    items.append(TableSelect(ComponentId(t, "seat"), options, "Pick a seat (or a team)", row=2))
    levels = [
        discord.SelectOption(label=f"Add a computer: {level}", value=level, description=COMPUTER_LEVELS.get(level))
        for level in PLAYERS
    ]
    items.append(TableSelect(ComponentId(t, "cpu_level"), levels, "Add a computer player of a level…", row=3))
    return view_of(*items)


# --- the table ------------------------------------------------------------------------------------------------


def _trick_text(table: Table, trick: list[dict]) -> str:
    return ", ".join(f"{table.names()[p['seat']]} {describe_cards(p['cards'])}" for p in trick)


def scores_text(table: Table, state: dict) -> str:
    scores = state.get("scores") or []
    if table.game == "da_bai_fen":
        names = {11: "J", 12: "Q", 13: "K", 14: "A"}
        return " · ".join(f"team {'AB'[i]} level {names.get(v, v)}" for i, v in enumerate(scores))
    if len(scores) < table.players:
        return " · ".join(f"team {'ABC'[i]} {v}" for i, v in enumerate(scores))
    return " · ".join(f"{name} {v}" for name, v in zip(table.names(), scores, strict=False))


def table_content(table: Table, state: dict) -> str:
    match = table.match
    assert match is not None
    names = table.names()
    lines = [
        f"**{game_name(table.game)}** — table #{table.id} · deal {state['deal'] + 1} · "
        f"{'starter' if table.game == 'da_bai_fen' else 'dealer'} {names[state['dealer']]}"
    ]
    contract = state.get("contract")
    facts = []
    if contract and contract.get("seat") is not None:
        detail = " ".join(str(contract[k]) for k in ("value", "suit", "contract") if contract.get(k) not in (None, ""))
        facts.append(f"contract: {names[contract['seat']]}" + (f" {detail}" if detail else ""))
    if state.get("trump"):
        facts.append(f"trump: {SUIT_SYMBOLS.get(state['trump'], state['trump'])}")
    if facts:
        text = " · ".join(facts)
        lines.append(text[0].upper() + text[1:])
    if state.get("trick"):
        lines.append(f"Trick: {_trick_text(table, state['trick'])}")
    last = table.last_trick or state.get("last_trick")
    if last:
        lines.append(f"Last trick: {_trick_text(table, last)}")
    lines.append(f"Scores: {scores_text(table, state)}")
    if match.phase == GAME_OVER:
        lines.append(f"🏁 Game over. {winner_text(table, state)}")
    elif table.status == CANCELLED:
        lines.append("This table was cancelled.")
    elif match.to_move is not None:
        verb = PHASE_VERBS.get(match.phase, "to act")
        lines.append(f"➡️ {mention(table, match.to_move)} {verb}")
        lines.extend(clock_lines(table))
    return "\n".join(lines)


def winner_text(table: Table, state: dict) -> str:
    winner = state.get("winner")
    if winner is None:
        return "No winner."
    if len(state.get("scores") or []) < table.players:
        seats = [s for s in range(table.players) if team_of(table, s) == "ABC"[winner]]
        return f"Team {'ABC'[winner]} wins ({', '.join(table.names()[s] for s in seats)})."
    return f"{table.names()[winner]} wins."


def table_view(table: Table) -> discord.ui.View | None:
    if table.status != PLAYING:
        return None
    return view_of(
        TableButton(ComponentId(table.id, "hand"), "My hand", discord.ButtonStyle.primary, emoji="🂠"),
        *clock_buttons(table),
    )


async def table_file(table: Table, state: dict) -> discord.File | None:
    match = table.match
    assert match is not None
    png = await images.table_image(
        state,
        table.names(),
        to_move=match.to_move,
        title=f"{game_name(table.game)} · table #{table.id}",
        show_last_trick=bool(table.last_trick or state.get("last_trick")) and not state.get("trick"),
        last_trick=table.last_trick or state.get("last_trick"),
        clock=clock_label(table),
    )
    return discord.File(io.BytesIO(png), filename=f"table-{table.id}.png") if png else None


# --- a player's hand ------------------------------------------------------------------------------------------


@dataclass
class HandView:
    content: str
    file: discord.File | None
    view: discord.ui.View | None


async def hand_view(table: Table, seat: int, *, note: str = "") -> HandView:
    """The player's own hand as an image, with their legal actions as components (for them alone)."""
    match = table.match
    assert match is not None
    state = match.output()
    cards = [c for c in _hand_names(table, seat)]
    mine = [a for a in state["legal"] if a.get("seat") == seat]
    legal_cards = {c for a in mine if a["type"] == "play" for c in a.get("cards", [])} or None
    title = f"{table.names()[seat]} · table #{table.id} · deal {state['deal'] + 1}"
    png = await images.hand_image(table.game, cards, state, legal_cards, title)
    lines = [note] if note else []
    lines.append(f"**Your hand** — {game_name(table.game)}, table #{table.id}, deal {state['deal'] + 1}")
    if not png:
        lines.append(describe_cards(cards) or "(no cards)")
    if not mine:
        if match.to_move is not None and match.phase not in (BETWEEN_DEALS, GAME_OVER):
            lines.append(f"Waiting for {table.names()[match.to_move]} {PHASE_VERBS.get(match.phase, 'to act')}.")
        return HandView("\n".join(lines), _png(png, f"hand-{table.id}.png"), None)
    lines.append("Your turn: choose below (or use the slash commands).")
    leading = match.phase == PLAY and not state.get("trick")
    choices = plan(state["legal"], seat, cards, game=table.game, leading=leading)
    if choices.note:
        lines.append(choices.note)
    return HandView("\n".join(lines), _png(png, f"hand-{table.id}.png"), action_components(table, choices))


def _hand_names(table: Table, seat: int) -> list[str]:
    assert table.match is not None
    from rules.cards import CARD_NAMES

    return [CARD_NAMES[c] for c in table.match.hand(seat)]


def _png(data: bytes | None, name: str) -> discord.File | None:
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


# --- the listener ---------------------------------------------------------------------------------------------

Job = Callable[[], Awaitable[None]]
REFRESH = object()  # queue marker: edit the table message with the state as it is when the edit is made


@dataclass
class TableOutput:
    """One table's pending output, run in order by one worker."""

    jobs: collections.deque = field(default_factory=collections.deque)
    worker: asyncio.Task | None = None
    hands_sent_for: int = -1  # the deal whose hands were sent by DM
    last_edit: float = float("-inf")  # loop time of the last table-message edit


class Presenter:
    def __init__(self, bot: discord.Client, *, edit_interval: float = 1.0):
        self.bot = bot
        self.manager: TableManager | None = None  # set once the manager exists
        # At most one edit of a table's message per interval: moves made meanwhile show in the next edit.  Discord
        # limits edits per channel anyway, and several tables share a channel.
        self.edit_interval = edit_interval

    # --- the queue ---------------------------------------------------------------------------------------

    def _output(self, table: Table) -> TableOutput:
        out = table.extra.get("output")
        if out is None:
            out = table.extra["output"] = TableOutput()
        return out

    def _queue(self, table: Table, job: Job | object) -> None:
        out = self._output(table)
        if job is REFRESH and out.jobs and out.jobs[-1] is REFRESH:
            return  # coalesced: the pending edit will show this change too
        out.jobs.append(job)
        if out.worker is None or out.worker.done():
            out.worker = asyncio.create_task(self._work(table, out), name=f"output-{table.id}")

    async def _work(self, table: Table, out: TableOutput) -> None:
        while out.jobs:
            job = out.jobs.popleft()
            try:
                if job is REFRESH:
                    wait = out.last_edit + self.edit_interval - asyncio.get_running_loop().time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    while out.jobs and out.jobs[0] is REFRESH:  # asked again while waiting: one edit does
                        out.jobs.popleft()
                    out.last_edit = asyncio.get_running_loop().time()
                    await self._edit_table_message(table)
                else:
                    await job()  # type: ignore[operator]
            except Exception:
                log.exception("table %d: could not update Discord", table.id)

    async def drain(self, table: Table) -> None:
        """Wait until everything queued for the table was sent (tests, shut-down)."""
        out = self._output(table)
        while out.worker is not None and not out.worker.done():
            await asyncio.shield(out.worker)

    # --- TableListener -----------------------------------------------------------------------------------

    async def lobby_changed(self, table: Table) -> None:
        """Lobby changes come from clicks on the lobby message, which the cog answers by editing it."""

    async def game_started(self, table: Table) -> None:
        """The cog turns the lobby message into the table message; hands follow by DM."""
        self._queue_hands(table)

    async def acted(self, table: Table, outcome: Outcome) -> None:
        match = table.match
        assert match is not None
        for deal_index in outcome.deals_finished:
            self._queue(table, lambda d=deal_index: self._post_deal_result(table, d))
        if outcome.game_over:
            self._queue(table, REFRESH)
            self._queue(table, lambda: self._post_score_sheet(table))
            return
        if outcome.new_deal:
            self._queue(table, lambda: self._post_table_message(table))
        else:
            self._queue(table, REFRESH)
        self._queue_hands(table)

    async def table_closed(self, table: Table) -> None:
        if table.status == CANCELLED and table.match is not None:
            self._queue(table, REFRESH)

    # --- sending -----------------------------------------------------------------------------------------

    def _queue_hands(self, table: Table) -> None:
        match = table.match
        if match is None or match.phase in (DEAL, BETWEEN_DEALS, GAME_OVER):
            return  # Da Bai Fen: the hand is complete once the drawing is over
        out = self._output(table)
        if out.hands_sent_for >= match.deal_index:
            return
        out.hands_sent_for = match.deal_index
        self._queue(table, lambda d=match.deal_index: self._send_hands(table, d))

    async def _send_hands(self, table: Table, deal_index: int) -> None:
        assert self.manager is not None
        if await self.manager.store.hands_sent(table.id, deal_index):
            return  # sent before a restart
        for seat, row in sorted(table.seats.items()):
            if row.user_id is None or row.dm_closed:
                continue
            try:
                await self.send_hand_dm(table, seat)
            except Exception:  # one player's failed DM must not cost the others theirs; My hand always works
                log.exception("table %d: could not DM seat %d their hand", table.id, seat)
        await self.manager.store.mark_hands_sent(table.id, deal_index)

    async def send_hand_dm(self, table: Table, seat: int) -> bool:
        """DM a player their hand; on closed DMs remember it (they use the "My hand" button instead)."""
        assert self.manager is not None
        row = table.seats[seat]
        assert table.match is not None
        cards = _hand_names(table, seat)
        deal = table.match.deal_index + 1
        png = await images.hand_image(table.game, cards, table.match.output(), None, f"table #{table.id} · deal {deal}")
        where = f"{table.row.guild_name or 'a server'} › #{table.row.channel_name or table.row.channel_id}"
        content = f"**{where}** — {game_name(table.game)}, table #{table.id}, deal {deal}: your hand"
        if not png:
            content += f"\n{describe_cards(cards)}"
        hand = HandView(content, _png(png, f"hand-{table.id}.png"), None)
        try:
            channel = await self.bot.create_dm(discord.Object(row.user_id))  # type: ignore[arg-type]
            kwargs = {"file": hand.file} if hand.file else {}
            await channel.send(hand.content[:2000], **kwargs)
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                await self.manager.mark_dm_closed(table, seat)
                return False
            raise
        return True

    async def _post_deal_result(self, table: Table, deal_index: int) -> None:
        match = table.match
        assert match is not None
        state = match.output()
        result = state["deal_results"][deal_index]
        png = await images.deal_summary_image(state, table.names(), deal_index)
        text = result.get("explain") or ("Thrown in: nobody bid." if result.get("thrown_in") else "")
        change = " · ".join(str(x) for x in result.get("score_change", []))
        content = f"**Table #{table.id} · deal {deal_index + 1} result**\n{text}\nScore change: {change}"
        await self._channel(table).send(content[:2000], **_file_kwargs(png, f"deal-{table.id}-{deal_index + 1}.png"))

    async def _post_score_sheet(self, table: Table) -> None:
        match = table.match
        assert match is not None
        state = match.output()
        png = await images.score_sheet_image(state, table.names())
        content = (
            f"🏁 **{game_name(table.game)} — table #{table.id} is over.** {winner_text(table, state)}\n"
            f"Final scores: {scores_text(table, state)}\nThe whole game: `/table record table:{table.id}`"
        )
        await self._channel(table).send(content[:2000], **_file_kwargs(png, f"scores-{table.id}.png"))

    async def _post_table_message(self, table: Table) -> None:
        """A new deal: a new table message at the bottom of the channel (the old one would scroll away)."""
        assert self.manager is not None and table.match is not None
        state = table.match.output()
        file = await table_file(table, state)
        kwargs = {"file": file} if file else {}
        view = table_view(table)
        if view is not None:
            kwargs["view"] = view
        old = table.row.message_id
        message = await self._channel(table).send(table_content(table, state)[:2000], **kwargs)
        table.row.message_id = message.id
        await self.manager.store.set_message(table.id, message.id)
        if old is not None:
            # The old message would still say whose turn it was: point to the new one, keep its picture.
            await (
                self._channel(table)
                .get_partial_message(old)
                .edit(
                    content=f"**{game_name(table.game)}** — table #{table.id}: that deal is over; the game goes on "
                    f"below ({message.jump_url}).",
                    view=None,
                )
            )

    async def _edit_table_message(self, table: Table) -> None:
        if table.match is None:
            return
        if table.row.message_id is None:
            await self._post_table_message(table)
            return
        state = table.match.output()
        file = await table_file(table, state)
        message = self._channel(table).get_partial_message(table.row.message_id)
        await message.edit(
            content=table_content(table, state)[:2000],
            attachments=[file] if file else [],
            view=table_view(table),
        )

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)

    # --- after a restart ---------------------------------------------------------------------------------

    async def resumed(self, table: Table) -> None:
        """Re-send only what a restart may have lost: the deal's hands if they never went out, a missing table
        message.  Buttons need nothing: their custom ids carry the table."""
        if table.status != PLAYING or table.match is None:
            return
        if table.row.message_id is None:
            self._queue(table, lambda: self._post_table_message(table))
        self._queue_hands(table)


def _file_kwargs(png: bytes | None, name: str) -> dict:
    return {"file": discord.File(io.BytesIO(png), filename=name)} if png else {}


def outcome_text(table: Table, outcome: Outcome) -> str:
    who = table.names()[outcome.action.seat]
    return f"{who} {past_tense(outcome.action.to_json())}."


__all__ = [
    "FINISHED",
    "HandView",
    "Presenter",
    "hand_view",
    "lobby_content",
    "lobby_view",
    "table_content",
    "table_file",
    "table_view",
]
