"""Each seated player's live hand: one message per player per deal that the bot keeps current.

A player with open DMs gets their hand by DM when the deal starts; the bot edits that message whenever what the
seat sees changes (its cards, its choices, whose turn it is), and its message id is stored so that a restart edits
it rather than sending another.  "My hand" (and ``/hand``) opens the same live hand ephemerally: Discord lets the
bot edit an ephemeral message only through its interaction's token, for 15 minutes, so the token is kept (in memory)
per seat and used while it is fresh; each click of the player's on it brings a fresh token.

Edits are cheap where they can be: what a message shows is compared with what it showed (nothing is sent when
they are equal), the picture is drawn and uploaded only when the cards in it changed (an edit without
``attachments`` keeps the old one), and the presenter runs one refresh per table at a time, so several moves
between two refreshes make one edit.  A player's own click is answered by updating the message clicked (the
cogs call ``shown``), which then needs no separate edit.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Hashable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord.http import handle_message_parameters

from bot.i18n import N_, _, current_language
from bot.i18n.refusals import words_text
from bot.presentation import images, played_for
from bot.presentation.budget import HAND, ChannelBudget
from bot.presentation.choices import name_seats
from bot.presentation.hand_components import HandComponents
from bot.presentation.language import in_seat_language, seat_language
from bot.presentation.messages import DM_CLOSED, describe_cards, game_name, phase_verb, play_lines, png_file
from bot.presentation.panel import panel_rows
from bot.presentation.seat_views import seat_view
from bot.presentation.shutdown import report_failure
from bot.tables.placement import Placement
from bot.tables.service import Table
from render.cards import split_card
from render.sorting import sort_key
from rules.cards import SUIT_SYMBOLS
from rules.game import BETWEEN_DEALS, GAME_OVER

if TYPE_CHECKING:
    from bot.tables.service import TableManager

log = logging.getLogger(__name__)

# Discord keeps an interaction's token for 15 minutes; stop using it a minute before, so an edit never races expiry.
TOKEN_LIFETIME = 14 * 60


@dataclass(eq=False)
class HandView:
    content: str
    file: discord.File | None
    components: HandComponents | None  # the buttons, built into ``view`` when it is read
    table: Table | None = None
    image_key: tuple = ()  # what the picture shows: it is drawn again only when this changes
    shown: Hashable = ""  # content and components, to compare with what a message shows
    version: int | None = None  # the table's version it shows (the table may move on while it is sent)
    _view: discord.ui.View | None = field(default=None, repr=False)

    @property
    def view(self) -> discord.ui.View | None:
        if self._view is None and self.components is not None and self.table is not None:
            self._view = self.components.view(self.table)
        return self._view


@dataclass
class Showing:
    """What one message of a seat's live hand shows now."""

    shown: Hashable | None = None
    image_key: tuple | None = None


@dataclass
class SeatHand:
    dm: tuple[int, int] | None = None  # (DM channel id, message id) of this deal's hand message
    dm_showing: Showing = field(default_factory=Showing)
    interaction: discord.Interaction | None = None  # the ephemeral live hand's (its token edits it)
    ephemeral_id: int | None = None  # its message
    opened: float = 0.0  # when that token was received (the bot's clock)
    ephemeral_showing: Showing = field(default_factory=Showing)
    # What the player's last click left on their hand: (table version, panel selection, note such as "✅ You
    # played 7♥"); both last until the table's next move, so a refresh meanwhile keeps them.
    answered: tuple[int, str, str] = (-1, "", "")
    busy: int = 0  # the player's own click is being answered: that answer shows the hand


@dataclass
class LiveTable:
    deal: int
    seats: dict[int, SeatHand] = field(default_factory=dict)


# --- what a live hand says ------------------------------------------------------------------------------------


STATUS_WORDS = (N_("lobby"), N_("playing"), N_("finished"), N_("cancelled"))  # a table's status, for the catalogues


def where(table: Table) -> str:
    return f"{table.row.guild_name or _('a server')} › #{table.row.channel_name or table.row.channel_id}"


def _turn_line(table: Table, seat: int, legal: list[dict]) -> str:
    match = table.match
    assert match is not None
    to_move, phase = match.to_move, match.phase
    if phase == GAME_OVER or table.status != "playing":
        if phase == GAME_OVER:
            return _("The game is over.")
        return _("Table #{table} is {status}.", table=table.id, status=_(table.status))
    if phase == BETWEEN_DEALS or to_move is None:
        return _("The deal is over.")
    if legal and to_move != seat:  # a drawing deal: an exposure is open to all, at any time
        return _("Waiting for {who} {verb}; you may act meanwhile.", who=table.names()[to_move],
                 verb=phase_verb(table, phase))  # fmt: skip
    if legal:
        return "➡️ " + _("**Your turn** {verb}.", verb=phase_verb(table, phase))
    # Not who: a waiting hand is not edited for each move of the others (see ``_waiting``), so a name would go stale.
    return _("Waiting for the others {verb}.", verb=phase_verb(table, phase))


def _waiting(table: Table, seat: int, state: dict) -> bool:
    """Whether the seat only waits: no choice of theirs now in a deal being played.  Such a hand is edited when
    something the player needs changes (their cards, their choices, the contract, the deal), not for every move of
    the others: each edit of a DM counts against Discord's global request limit, which bounds how many tables one
    bot can host far more than its CPU does.  Their turn is such a change, so the hand is current when they act."""
    match = table.match
    assert match is not None
    return (
        not state["legal"]
        and table.status == "playing"
        and match.phase not in (BETWEEN_DEALS, GAME_OVER)
        and match.to_move is not None
    )


def _answered(table: Table, seat: int) -> tuple[str, str]:
    """The selection and note of the player's last click, while the table has not moved since."""
    hand = _live(table).seats.get(seat) if "live_hands" in table.extra else None
    if hand is None or hand.answered[0] != table.version:
        return "", ""
    return hand.answered[1], hand.answered[2]


@in_seat_language
def hand_text(table: Table, seat: int, *, note: str | None = None, selection: str | None = None) -> HandView:
    """The seat's live hand as it is now, without its picture (``hand_view`` draws it)."""
    match = table.match
    assert match is not None
    last_selection, last_note = _answered(table, seat)
    note = last_note if note is None else note
    selection = last_selection if selection is None else selection
    state = seat_view(table, seat)
    cards = state["hand"]
    clicked = bool(note)  # the note of the player's own click, not that a card was played for them
    note = note or played_for.hand_note(table, seat, state) or ""
    waiting = _waiting(table, seat, state)
    lines = [note] if note else []
    deal = state["deal"] + 1
    lines.append(_("**Your hand** — {where} · {game}, table #{table}, deal {deal}", where=where(table),
                   game=game_name(table.game), table=table.id, deal=deal))  # fmt: skip
    # Always in words too: the picture is not read aloud by a screen reader, nor readable on a small phone.
    lines.append(card_list(table.game, cards, state.get("trump"), state.get("trump_rank")) or _("(no cards)"))
    if table.status == "playing":  # the trick at the player's turn; while they wait it would go stale
        lines.extend(play_lines(table, state, trick=not waiting))
    lines.append(_turn_line(table, seat, state["legal"]))
    if state["prompts"]:  # "You drew 7♥ — … expose it?", in the player's language
        said = match.seat_prompt_words(seat)
        lines.append(name_seats(words_text(tuple(said), current_language.get(), table.names()), table.names()))
    panel_lines, rows = panel_rows(table, seat, selection)
    # claim, undo, stop, look back: one tap from the hand (the More button)
    components = HandComponents(table.id, table.version, current_language.get(), rows, table.status == "playing")
    lines.extend(panel_lines)
    content = "\n".join(lines)[:2000]
    four_colour = seat in table.extra.get("four_colour", ())  # the player's setting (/player settings)
    image_key = (
        tuple(cards),
        state.get("trump"),
        state.get("trump_rank"),
        table.names()[seat],
        state["deal"],
        four_colour,
        seat_language(table, seat),
    )
    shown: tuple
    if waiting:  # what the player needs, not the note of their last click nor the table's version (but whether a
        # card was played for them: it is said while that card is on the table, and not after)
        needed = "\n".join(lines[1:] if clicked else lines)[:2000]
        shown = (needed, components.key(versioned=False))
    else:
        shown = (content, components.key())
    return HandView(content, None, components, table, image_key, shown, table.version)


def card_list(game: str, cards: list[str], trump: str | None, trump_rank: str | None) -> str:
    """The hand in the picture's order, a suit's ranks after its symbol (``♠ A K 9 · ♥ 10 7``); the trumps that
    are not of the trump suit (jokers, bowers, the trump rank's cards) by their full names in the trumps' group."""
    return _card_list(game, tuple(cards), trump, trump_rank, current_language.get())


@functools.lru_cache(maxsize=4096)  # a hand is listed again at every move while its cards stay the same
def _card_list(game: str, cards: tuple[str, ...], trump: str | None, trump_rank: str | None, lang: str) -> str:
    # ``lang``: the cache keeps each language's words apart (card names are said in the current one)
    key = sort_key(game, trump, trump_rank)
    jokers_are_trumps = trump in ("S", "H", "D", "C")  # the jokers' group (0) joins the trumps' (1)
    groups: dict[int, list[str]] = {}
    for card in sorted(cards, key=key):
        groups.setdefault(max(key(card)[0], int(jokers_are_trumps)), []).append(card)
    parts = []
    for group in groups.values():
        suits = {split_card(card)[1] for card in group}
        if len(suits) == 1 and "" not in suits:
            parts.append(f"{SUIT_SYMBOLS[suits.pop()]} {' '.join(split_card(card)[0] for card in group)}")
        else:
            parts.append(describe_cards(group))
    return " · ".join(parts)


@in_seat_language
async def hand_image(table: Table, seat: int, image_key: tuple) -> bytes | None:
    cards, trump, trump_rank, name, deal, four_colour, _lang = image_key
    view = {"trump": trump, "trump_rank": trump_rank}
    title = _("{name} · table #{table} · deal {deal}", name=name, table=table.id, deal=deal + 1)
    return await images.hand_image(table.game, list(cards), view, None, title, four_colour=four_colour)


async def hand_view(
    table: Table, seat: int, *, note: str | None = None, selection: str | None = None, image: bool = True
) -> HandView:
    """The player's live hand: the picture (legal cards not raised: the buttons say what is legal, and the
    picture changes only with the cards), whose turn it is, and the seat's panel."""
    hand = hand_text(table, seat, note=note, selection=selection)  # before drawing: others may move meanwhile
    if image:
        png = await hand_image(table, seat, hand.image_key)
        hand.file = png_file(png, f"hand-{table.id}.png")
    return hand


@in_seat_language
def _closed_hand_text(table: Table, seat: int, deal: int) -> str:
    return _("**Your hand** — {where} · {game}, table #{table}, deal {deal}: that deal is over; your hand for the "
             "next deal is in the next message.", where=where(table), game=game_name(table.game), table=table.id,
             deal=deal + 1)  # fmt: skip


def _live(table: Table) -> LiveTable:
    live = table.extra.get("live_hands")
    if live is None:
        match = table.match
        live = table.extra["live_hands"] = LiveTable(match.deal_index if match is not None else 0)
    return live


# --- keeping them current -------------------------------------------------------------------------------------


class LiveHands:
    def __init__(self, bot: discord.Client):
        self.bot = bot
        self.manager: TableManager | None = None
        self.placement = Placement()  # set with the presenter's (bot/tables/placement.py)

    def now(self) -> float:
        """The bot's clock (a ``FakeClock`` in tests): how old a token is."""
        clock = getattr(self.bot, "clock", None)
        return clock.now() if clock is not None else time.time()

    def seat_hand(self, table: Table, seat: int) -> SeatHand:
        return _live(table).seats.setdefault(seat, SeatHand())

    # --- a new deal ------------------------------------------------------------------------------------------

    async def start_deal(self, table: Table, deal_index: int) -> None:
        """The deal's hand messages: found again after a restart, else sent by DM; last deal's are closed."""
        assert self.manager is not None
        old = table.extra.get("live_hands")
        if old is not None and old.deal == deal_index:
            await self.refresh(table)
            return
        stored = await self.manager.store.hand_messages(table.id, deal_index)
        live = table.extra["live_hands"] = LiveTable(deal_index)
        for seat, row in sorted(table.seats.items()):
            if row.user_id is None:
                continue
            live.seats[seat] = SeatHand(dm=stored.get(seat))
            if seat not in stored and not row.dm_closed:
                try:
                    await self.send_dm(table, seat)
                except discord.HTTPException as failure:  # discord.py's retries spent; My hand always works
                    log.warning("table %d: could not DM seat %d their hand: %s", table.id, seat, failure)
                except Exception:  # one player's failed DM must not cost the others theirs
                    report_failure(self.bot, log, "table %d: could not DM seat %d their hand", table.id, seat)
            previous = old.seats.get(seat) if old is not None else None
            if previous is not None:  # an ephemeral live hand goes on into the next deal while its token lasts
                hand = live.seats[seat]
                hand.interaction, hand.opened = previous.interaction, previous.opened
                hand.ephemeral_id = previous.ephemeral_id
        if old is not None:
            await self._close_deal(table, old)
        await self.refresh(table)

    async def _close_deal(self, table: Table, old: LiveTable) -> None:
        """Last deal's DM hands stop offering choices (and say where the new hand is); their pictures stay."""
        for seat, hand in old.seats.items():
            if hand.dm is not None:
                content = _closed_hand_text(table, seat, old.deal)
                try:
                    await self._edit_dm(hand.dm, content=content, view=None)
                except discord.HTTPException:
                    log.warning("table %d: could not close an old hand message", table.id)

    async def send_dm(self, table: Table, seat: int) -> bool:
        """DM the seat's player their live hand (a new deal, or a substitute's first look); False on closed DMs
        (remembered: they use "My hand")."""
        assert self.manager is not None and table.match is not None
        row = table.seats[seat]
        assert row.user_id is not None  # hands are sent to human seats only
        hand = _live(table).seats[seat] = SeatHand()  # a substitute's: nothing of the previous player's
        view = await hand_view(table, seat)
        try:
            with ChannelBudget.priority(HAND):  # a player waits for it: before table-message edits
                channel = await self.bot.create_dm(discord.Object(row.user_id))
                kwargs: dict[str, Any] = {"file": view.file} if view.file else {}
                if view.view is not None:
                    kwargs["view"] = view.view
                message = await channel.send(view.content, **kwargs)
        except discord.Forbidden as e:
            if e.code == DM_CLOSED:
                await self.manager.mark_dm_closed(table, seat)
                return False
            raise
        hand.dm = (channel.id, message.id)
        hand.dm_showing = Showing(view.shown, view.image_key)
        await self.manager.store.set_hand_message(table.id, table.match.deal_index, seat, channel.id, message.id)
        return True

    # --- edits -----------------------------------------------------------------------------------------------

    async def refresh(self, table: Table) -> None:
        """Edit every live hand of the table whose message shows something else than the seat sees now."""
        if table.match is None or "live_hands" not in table.extra:
            return
        live = _live(table)
        if live.deal != table.match.deal_index:
            return  # the next deal is being drawn: its hands come when it starts (``start_deal``)
        for seat, hand in list(live.seats.items()):
            if hand.busy or seat not in table.seats:
                continue
            try:
                await self._refresh_seat(table, seat, hand)
            except discord.HTTPException as failure:  # discord.py's retries spent: the next change tries again
                log.warning("table %d: could not update seat %d's hand: %s", table.id, seat, failure)
            except Exception:
                report_failure(self.bot, log, "table %d: could not update seat %d's hand", table.id, seat)

    async def _refresh_seat(self, table: Table, seat: int, hand: SeatHand) -> None:
        targets: list[Showing] = []
        if hand.dm is not None:
            targets.append(hand.dm_showing)
        if hand.interaction is not None:
            if self.now() - hand.opened < TOKEN_LIFETIME:
                targets.append(hand.ephemeral_showing)
            else:
                hand.interaction = None
        version, now = table.version, hand_text(table, seat)
        stale = [t for t in targets if t.shown != now.shown or t.image_key != now.image_key]
        if not stale:
            return
        png: bytes | None = None
        if any(t.image_key != now.image_key for t in stale):
            png = await hand_image(table, seat, now.image_key)
        for showing in stale:
            if hand.busy:  # the player clicked while the picture was drawn: the answer to that shows the hand
                return
            if not await self._may_show(table, hand, showing, version, now):
                continue
            fields: dict[str, Any] = {"content": now.content, "view": now.view}
            if showing.image_key != now.image_key:
                file = png_file(png, f"hand-{table.id}.png")
                fields["attachments"] = [file] if file else []
            if showing is hand.dm_showing and hand.dm is not None:
                await self._edit_dm(hand.dm, **fields)
            elif showing is hand.ephemeral_showing and hand.interaction is not None:
                try:
                    await hand.interaction.edit_original_response(**fields)
                except discord.HTTPException:  # expired, or the player dismissed it: the next "My hand" opens another
                    hand.interaction = None
                    continue
            else:  # replaced meanwhile by a click's answer (``shown``), which showed the hand as it was then
                continue
            showing.shown, showing.image_key = now.shown, now.image_key

    async def _may_show(self, table: Table, hand: SeatHand, showing: Showing, version: int, now: HandView) -> bool:
        """Whether to edit this message of the hand to show ``version``: not when another process (its answer to the
        player's click) already made it show this version or a newer one — at this version it shows what ``now``
        would, so it counts as shown."""
        message_id = hand.dm[1] if showing is hand.dm_showing and hand.dm is not None else hand.ephemeral_id
        if message_id is None:
            return True
        claim = await self.placement.may_show(table.id, message_id, version, again=False)
        if not claim.won and claim.version == version:
            showing.shown, showing.image_key = now.shown, now.image_key
        return claim.won

    async def _edit_dm(self, dm: tuple[int, int], **fields: Any) -> None:
        """What ``PartialMessage.edit`` sends, without building a ``Message`` from the answer (see the presenter)."""
        state = self.bot._connection
        state.prevent_view_updates_for(dm[1])
        with (
            handle_message_parameters(previous_allowed_mentions=state.allowed_mentions, **fields) as params,
            ChannelBudget.priority(HAND),
        ):
            await state.http.edit_message(dm[0], dm[1], params=params)

    # --- the player's own clicks -----------------------------------------------------------------------------

    @contextmanager
    def answering(self, table: Table, seat: int):
        """While the player's click is answered, refreshes leave their hand to that answer."""
        hand = self.seat_hand(table, seat)
        hand.busy += 1
        try:
            yield hand
        finally:
            hand.busy -= 1

    def _showing_of(self, hand: SeatHand, interaction: discord.Interaction) -> Showing | None:
        """What the message clicked shows, when it is one of the seat's live hands."""
        message = interaction.message
        if message is None:
            return None
        if hand.dm is not None and message.id == hand.dm[1]:
            return hand.dm_showing
        if hand.interaction is not None and hand.ephemeral_id == message.id:
            return hand.ephemeral_showing
        return None

    def image_shown(self, table: Table, seat: int, interaction: discord.Interaction) -> tuple | None:
        """The picture the message clicked shows (None: not known, draw it)."""
        showing = self._showing_of(self.seat_hand(table, seat), interaction)
        return showing.image_key if showing is not None else None

    def shown(
        self,
        table: Table,
        seat: int,
        interaction: discord.Interaction,
        view: HandView,
        selection: str,
        note: str,
        *,
        edit: bool,
        message_id: int | None,
    ) -> None:
        """``interaction`` was answered with ``view`` in message ``message_id`` (``edit``: by updating the message
        clicked): that message is now a live hand, the DM one or the ephemeral one, whose token is this
        interaction's."""
        hand = self.seat_hand(table, seat)
        hand.answered = (table.version, selection, note)
        if message_id is not None:  # other processes' late edits of it are left out (bot/tables/placement.py)
            self.placement.shown(table.id, message_id, table.version if view.version is None else view.version)
        before = self._showing_of(hand, interaction) if edit else None
        image_key = view.image_key if view.file is not None or not images.enabled else None
        if image_key is None and before is not None:  # the update kept the message's picture
            image_key = before.image_key
        if before is not None and before is hand.dm_showing:
            hand.dm_showing = Showing(view.shown, image_key)
            return
        hand.interaction, hand.opened, hand.ephemeral_id = interaction, self.now(), message_id
        hand.ephemeral_showing = Showing(view.shown, image_key)
