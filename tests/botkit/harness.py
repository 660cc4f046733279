"""Running the real bot against the offline fake Discord, and acting as its users.

``BotWorld`` holds one FakeDiscord with a guild, a channel and a few users; ``world.bot()`` makes a bot on the
world's database (call it again after stopping the first one to simulate a restart).  Helpers find components by
their verb, so tests read like a player's clicks: ``await world.click(alice, message, "join")``.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import re
from collections.abc import Callable
from contextlib import asynccontextmanager
from typing import Any

import discord

import tests.botkit.toy  # noqa: F401  (the toy game, for fast tests)
from bot.presentation import images
from bot.process.client import CardTableBot
from bot.process.settings import Settings
from bot.storage.store import is_database_url
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import Message, User

# How long a test waits for the bot to have done something.  Every wait ends as soon as the effect is seen, so this
# is only the limit past which the bot counts as stuck: generous, for a loaded 2-core CI machine.
TIMEOUT = 30.0


def component_ids(message: Message) -> list[str]:
    return list(message.custom_ids())


def find_id(message: Message, verb: str, arg: str | None = None) -> str:
    """The custom id of the component with this verb (and argument prefix) on the message."""
    pattern = re.compile(rf"^c[ts]:\d+:{verb}(?::|$)")
    for cid in component_ids(message):
        if pattern.match(cid) and (arg is None or cid.split(":", 4)[-1].startswith(arg) or arg in cid):
            return cid
    raise AssertionError(f"no {verb!r} component on message {message.id}: {component_ids(message)}")


def select_options(message: Message, custom_id: str) -> list[dict]:
    component = message.find_component(custom_id)
    assert component is not None, custom_id
    return component.get("options", [])


class BotWorld:
    def __init__(self, fake: FakeDiscord, db_path: str, *, images_on: bool = False):
        self.fake = fake
        self.db_path = db_path
        self.guild = fake.add_guild("Card Club")
        self.channel = fake.add_text_channel(self.guild, "tables")
        self.alice = self._member("alice")
        self.bob = self._member("bob")
        self.carol = self._member("carol")
        self.dan = self._member("dan")
        self.closed = self._member("closed", dms_closed=True)
        self.stranger = self._member("stranger")
        images.enabled = images_on

    def _member(self, name: str, **kw: Any) -> User:
        user = self.fake.add_user(name, **kw)
        self.fake.add_member(self.guild, user)
        return user

    def bot(self, seed: int = 7, **overrides: Any) -> CardTableBot:
        settings = Settings(
            token=self.fake.token,
            # a PostgreSQL URL (tests/conftest.py's ``database``) or an SQLite file
            **({"database_url": self.db_path} if is_database_url(self.db_path) else {"db_path": self.db_path}),
            dev_guild_id=self.guild.id,
            ai_delay=overrides.pop("ai_delay", 0.0),
            edit_interval=overrides.pop("edit_interval", 0.0),
            hold_limit=overrides.pop("hold_limit", 0.0),
            draw_interval=overrides.pop("draw_interval", 0.0),
            kitty_pause=overrides.pop("kitty_pause", 0.0),
            # No channel budget unless a test sets one (like the pauses above): its own tests scale it.
            channel_window=overrides.pop("channel_window", 0.0),
            channel_requests=overrides.pop("channel_requests", 5),
            # The global budget on Discord's own time scale in the fake (the suite's is 50 times faster).
            global_window=overrides.pop("global_window", self.fake.rate_limits.time_scale),
            global_requests=overrides.pop("global_requests", 45),
        )
        overrides.setdefault("tune_gc", False)  # process-wide settings; the test session is shared
        return CardTableBot(settings, rng=random.Random(seed), guild_ready_timeout=0.05, **overrides)

    @asynccontextmanager
    async def running(self, seed: int = 7, **overrides: Any):
        client = self.bot(seed, **overrides)
        async with self.fake.running(client, timeout=TIMEOUT):
            yield client

    # --- acting --------------------------------------------------------------------------------------------

    async def slash(self, user: User, name: str, options: dict | None = None, *, subcommand: str | None = None):
        result = await self.fake.slash(user, self.channel, name, options or {}, subcommand=subcommand)
        await result.wait(TIMEOUT)
        return result

    async def click(self, user: User, message: Message, verb: str, arg: str | None = None):
        result = await self.fake.click(user, message, find_id(message, verb, arg))
        await result.wait(TIMEOUT)
        return result

    async def select(self, user: User, message: Message, verb: str, values: list[str], arg: str | None = None):
        result = await self.fake.select(user, message, find_id(message, verb, arg), values)
        await result.wait(TIMEOUT)
        return result

    async def new_table(self, host: User, game: str = "toy", options: str | None = None, preset: str | None = None):
        args: dict[str, Any] = {"game": game}
        if options:
            args["options"] = options
        if preset:
            args["preset"] = preset
        result = await self.slash(host, "table", args, subcommand="new")
        assert result.message is not None and not result.ephemeral, result.content
        return result.message

    async def seated_and_started(
        self, client: CardTableBot, users: list[User], game: str = "toy", *, clock: str | None = None, options=None
    ):
        """``users[0]`` opens a table, the others join, the host starts it; the running table."""
        args: dict[str, Any] = {"game": game}
        if clock:
            args["clock"] = clock
        if options:
            args["options"] = options
        result = await self.slash(users[0], "table", args, subcommand="new")
        lobby = result.message
        assert lobby is not None and not result.ephemeral, result.content
        for user in users[1:]:
            await self.click(user, lobby, "join")
        await self.click(users[0], lobby, "start")
        await self.settle(client)
        return client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]

    async def five_hundred_with_a_computer(self, client: CardTableBot):
        """Alice opens a Five Hundred table to 100, Bob joins, a computer takes the third seat, Alice starts it; the
        running table (the picture tests' small real game)."""
        lobby = await self.new_table(self.alice, "500", options="target=100")
        await self.click(self.bob, lobby, "join")
        await self.click(self.alice, lobby, "cpu")
        await self.click(self.alice, lobby, "start")
        await self.settle(client)
        return client.manager.tables[int(find_id(lobby, "hand").split(":")[1])]

    def dms(self, user: User) -> list[Message]:
        return self.fake.messages(self.fake.dm_channel(user))

    async def settle(self, client: CardTableBot, rounds: int = 3) -> None:
        """Let the table events' listeners, computer players and queued Discord output finish."""
        for _ in range(rounds):
            await asyncio.sleep(0.01)
            await table_listeners_done()
            for table in list(client.manager.tables.values()):
                task = table.computer_task
                if task is not None and not task.done():
                    # (not wait_for: a task cancelled meanwhile, its table closed, is done too, not an error)
                    done, _ = await asyncio.wait({task}, timeout=TIMEOUT)
                    assert done, "the computer players did not finish"
                    if not task.cancelled():
                        task.result()  # their error, if any, fails the test
                await asyncio.wait_for(client.presenter.drain(table), TIMEOUT)
            await asyncio.wait_for(client.presenter.drain_all(), TIMEOUT)  # ended tables' last messages too
            await table_listeners_done()


async def table_listeners_done() -> None:
    """discord.py runs each listener of an event in a task of its own, named after the event: wait for those of the
    table events (a cog's answer to one — a spectator's DM, a tournament's next round — is done when its task is)."""
    running = [
        task
        for task in asyncio.all_tasks()
        if task.get_name().startswith("discord.py: on_table_") and task is not asyncio.current_task()
    ]
    if running:
        _, pending = await asyncio.wait(running, timeout=TIMEOUT)
        assert not pending, f"table event listeners still running: {pending}"


@asynccontextmanager
async def bot_world(tmp_path, *, database: str | None = None, **kw: Any):
    """``database``: tests/conftest.py's fixture of that name (SQLite or PostgreSQL); an SQLite file by default."""
    async with FakeDiscord() as fake:
        with fake.patched():
            yield BotWorld(fake, database or str(tmp_path / "cardtable.db"), **kw)


async def eventually(check: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    """Wait until ``check()`` (a function or a coroutine function) gives something true, and return it: for effects
    that the fake Discord does not see change (a log line, a row in the store).  ``fake.wait_until`` is better for
    what it sees (it wakes at each of its changes)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = check()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.02)


def answer_message(result) -> Message | None:
    """The message the user reads as the bot's answer (after ``wait_for_answer``): a deferral's follow-up (which
    Discord shows in place of "thinking…"), else the response message."""
    return result.followups[-1] if result.followups else result.message


def answer_text(result) -> str:
    message = answer_message(result)
    return (message.content if message is not None else "") or ""


def embed_text(result) -> str:
    """An answer's embeds as plain text: titles, descriptions, footers and fields."""
    parts = []
    for e in result.embeds:
        parts += [e.get("title", ""), e.get("description", ""), (e.get("footer") or {}).get("text", "")]
        parts += [f"{f['name']}: {f['value']}" for f in e.get("fields", [])]
    return "\n".join(parts)


def is_ephemeral(result) -> bool:
    return bool(result.message is not None and result.message.flags & discord.MessageFlags.ephemeral.flag)


# --- playing whole games as users --------------------------------------------------------------------------


def table_message(world: BotWorld, table) -> Message:
    return world.fake.world.messages[table.row.message_id]


async def act_through_ui(world: BotWorld, table, user: User, action: dict, *, slash: bool = False):
    """Perform a legal action as ``user`` would: My hand, then the taps on the hand's panel (or a slash command)."""
    if slash:
        return await _act_by_slash(world, user, action, table)
    hand = await world.click(user, table_message(world, table), "hand")
    await hand.wait_for_answer(TIMEOUT)  # a loaded bot answers "thinking…" first, then the hand
    assert hand.ephemeral and hand.message is not None and not hand.message.loading, hand.content
    return await tap_action(world, table, user, hand.message, action)


def _same_action(a: dict, b: dict) -> bool:
    def norm(x: dict) -> dict:
        out = {k: v for k, v in x.items() if k != "seat" and v is not None}
        if isinstance(out.get("cards"), list):
            out["cards"] = sorted(out["cards"])
        return out

    return norm(a) == norm(b)


def plan_taps(table, seat: int, action: dict, selection: str = "", depth: int = 10) -> list[str]:
    """The shortest list of panel taps (their custom ids' args) that performs ``action``, found by asking the panel
    itself what each tap means (``read_click``) — the path a player's thumb takes."""
    from bot.presentation.panel import PANEL_VERB, hand_panel, read_click

    frontier: list[tuple[str, list[str]]] = [(selection, [])]
    seen = {selection}
    for _ in range(depth):
        following: list[tuple[str, list[str]]] = []
        for sel, path in frontier:
            _, view = hand_panel(table, seat, sel)
            for item in view.children if view is not None else []:
                cid = getattr(item, "custom_id", None) or getattr(getattr(item, "item", None), "custom_id", "")
                if getattr(item, "disabled", False) or getattr(getattr(item, "item", None), "disabled", False):
                    continue
                parts = cid.split(":", 4)
                if len(parts) < 5 or parts[2] != PANEL_VERB:
                    continue
                done, after = read_click(table, seat, parts[4])
                if done is not None and _same_action(done, action):
                    return [*path, parts[4]]
                if done is None and after not in seen:
                    seen.add(after)
                    following.append((after, [*path, parts[4]]))
        frontier = following
    raise AssertionError(f"the panel offers no way to {action}")


async def tap_action(world: BotWorld, table, user: User, message: Message, action: dict):
    """Tap through ``message``'s panel (a live hand) to perform ``action``; returns the last tap's result, once
    answered (a loaded bot acknowledges a tap first and edits its answer in after)."""
    seat = table.seat_of(user.id)
    result = None
    for arg in plan_taps(table, seat, action):
        wanted = f":hp:{table.version}:{arg}"
        cid = next((c for c in message.custom_ids() if c.endswith(wanted)), None)
        assert cid is not None, f"no {arg!r} on the hand: {message.custom_ids()}"
        result = await world.fake.click(user, message, cid)
        await result.wait_for_answer(TIMEOUT)
        message = result.message or message
    return result


# The moves typed at the top level; the others are ``/move <kind>`` (cogs/play.py).
TOP_LEVEL_MOVES = ("play", "bid", "pass")


async def _act_by_slash(world: BotWorld, user: User, action: dict, table):
    from bot.presentation.choices import decode, encode

    kind = action["type"]
    name = "counter" if kind == "recounter" else kind
    command, subcommand = (name, None) if name in TOP_LEVEL_MOVES else ("move", name)

    async def slash(options: dict) -> Any:
        return await (await world.slash(user, command, options, subcommand=subcommand)).wait_for_answer(TIMEOUT)

    if kind == "recounter":  # /move counter offers the recounter as a button, never makes it by itself
        offered = answer_message(await slash({}))
        assert offered is not None
        return await (await world.click(user, offered, "act", encode(action))).wait_for_answer(TIMEOUT)
    if kind in {"pass", "draw", "keep", "claim_draw", "counter"}:
        return await slash({})
    option = {"play": "card", "bid": "value", "discard": "cards", "expose": "card", "call": "card", "trump": "suit"}[
        kind
    ]
    if kind == "trump":
        return await slash({"suit": action["suit"]})
    if kind in ("play", "bid", "expose", "call"):
        # as a player would: type, then pick the autocomplete entry (which carries the exact action)
        typed = " ".join(action.get("cards", [])) or str(action.get("value", "")) or action.get("card", "")
        ac = await world.fake.autocomplete(user, world.channel, command, option, typed[:2], subcommand=subcommand)
        await ac.wait(TIMEOUT)
        # a choice's value is the action and the table's version when it was offered (cogs/arguments.py)
        picked = [c["value"] for c in ac.choices if {**(decode(c["value"]) or {}), "v": 0} == {**action, "v": 0}]
        if picked:
            return await slash({option: picked[0]})
    return await slash({option: " ".join(action.get("cards", [])) or action.get("card", "")})


async def play_to_the_end(
    world: BotWorld, client, table_id: int, *, seed: int = 1, max_steps: int = 3000, slash_every: int = 3, stop=None
):
    """Users at ``table_id`` pick random legal actions until the game is over (or ``stop(table)`` is true)."""
    from rules.game import GAME_OVER

    rng = random.Random(seed)
    users = {u.id: u for u in world.fake.world.users.values()}
    steps = 0
    while steps < max_steps:
        await world.settle(client, rounds=1)
        table = client.manager.tables.get(table_id) or await client.manager.get(table_id)
        match = table.match
        if match.phase == GAME_OVER or table.status != "playing":
            return table
        if stop is not None and stop(table):
            return table
        seat = match.to_move
        if table.is_computer(seat) or seat is None:
            continue
        mine = [a for a in match.legal_json() if a.get("seat") == seat]
        if not mine:
            continue  # an automatic draw is due
        action = rng.choice(mine)
        action = {k: v for k, v in action.items() if k != "seat"}
        if action["type"] == "discard":
            action = {"type": "discard", "cards": rng.sample(action["from"], action["choose"])}
        user = users[table.seats[seat].user_id]
        result = await act_through_ui(world, table, user, action, slash=steps % slash_every == 1)
        said = answer_text(result)
        assert "✅" in said or "⚠️" in said, (action, said)
        if "⚠️" in said:  # a Da Bai Fen throw: confirm it
            r = await (await world.click(user, answer_message(result), "throw")).wait_for_answer(TIMEOUT)
            said = answer_text(r)
            assert "✅" in said or "❌ Your lead of" in said, said  # played, or the lead failed
        steps += 1
    raise AssertionError("the game did not end")
