"""Proves the fake Discord server against the real discord.py client with a tiny bot."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord

TIMEOUT = 10.0


class World:
    """The fixture's fake plus the entities the tests use."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Card Club")
        self.channel = fake.add_text_channel(self.guild, "tables")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob", dms_closed=True)
        fake.add_member(self.guild, self.alice, permissions=discord.Permissions(manage_guild=True).value)
        fake.add_member(self.guild, self.bob)


class Clicker(discord.ui.DynamicItem[discord.ui.Button], template=r"count:(?P<n>\d+)"):
    """A stateless counter button: survives restarts because its state is in the custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"clicked {n}", custom_id=f"count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Clicker(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class PickView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="pick-suit",
        options=[discord.SelectOption(label=s, value=s) for s in ("hearts", "spades", "clubs")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"you picked {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your table"):
    name = discord.ui.TextInput(label="Name", custom_id="table-name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"table {self.name.value} created")


def make_bot(guild_id: int) -> discord.Client:
    # guild_ready_timeout: discord.py waits this long after the last GUILD_CREATE before "ready".
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)
    guild = discord.Object(guild_id)
    client.events = asyncio.Queue()  # type: ignore[attr-defined]

    table = app_commands.Group(name="table", description="Card tables", guild_ids=[guild_id])

    @table.command(name="new", description="Open a table")
    @app_commands.describe(game="Which game")
    async def new(interaction: discord.Interaction, game: str, seats: int = 4) -> None:
        perms = interaction.permissions.manage_guild
        view = discord.ui.View(timeout=None)
        view.add_item(Clicker(0))
        await interaction.response.send_message(f"{game} for {seats} (manage_guild={perms})", view=view)

    @new.autocomplete("game")
    async def game_autocomplete(interaction: discord.Interaction, current: str):
        games = ["belote", "five hundred", "two hundred", "da bai fen"]
        return [app_commands.Choice(name=g, value=g) for g in games if current in g]

    tree.add_command(table)

    @tree.command(name="suits", description="Pick a suit", guild=guild)
    async def suits(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick one", view=PickView())

    @tree.command(name="poke", description="DM somebody", guild=guild)
    async def poke(interaction: discord.Interaction, who: discord.User) -> None:
        try:
            await who.send("poke!")
        except discord.Forbidden as exc:
            client.events.put_nowait(exc)  # type: ignore[attr-defined]
            await interaction.response.send_message(f"cannot DM {who.name} ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("poked")

    @tree.command(name="deal", description="Slow answer with a picture", guild=guild)
    async def deal(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="dealt")
        picture = discord.File(io.BytesIO(b"\x89PNG fake hand"), filename="hand.png")
        await interaction.followup.send("your hand", file=picture, ephemeral=True)

    @tree.command(name="rename", description="Opens a modal", guild=guild)
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @tree.command(name="ping", description="Global command, usable in DMs")
    async def ping(interaction: discord.Interaction) -> None:
        where = "DM" if isinstance(interaction.channel, discord.DMChannel) else "guild"
        await interaction.response.send_message(f"pong from {where} to {interaction.user.name}")

    async def setup_hook() -> None:
        client.add_dynamic_items(Clicker)
        client.add_view(PickView())
        await tree.sync(guild=guild)
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]

    @client.event
    async def on_message(message: discord.Message) -> None:
        if message.author != client.user:
            client.events.put_nowait(message)  # type: ignore[attr-defined]

    return client


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        with fake.patched():
            yield World(fake)
        assert fake.unknown_routes == []


@pytest.fixture
async def bot(world: World) -> AsyncIterator[discord.Client]:
    async with world.fake.running(make_bot(world.guild.id)) as client:
        yield client


async def test_login_ready_and_guild_sync(world: World, bot: discord.Client) -> None:
    assert bot.user is not None and bot.user.id == world.fake.bot_user.id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.get_channel(world.channel.id) is not None
    assert guild.member_count == 3 and guild.me is not None
    assert world.fake.calls("PUT", "/applications/{app_id}/guilds/{guild_id}/commands")


async def test_slash_command_reply_and_button_edit(world: World, bot: discord.Client) -> None:
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "table", {"game": "belote"}, subcommand="new")
    await result
    assert result.callback_type == 4
    assert result.content == "belote for 4 (manage_guild=True)"
    assert not result.ephemeral
    assert result.message is fake.last_message(world.channel)

    mark = fake.rest_mark()
    click = await fake.click(world.bob, result.message, "count:0")
    await click
    assert click.callback_type == 7
    # One REST call per click: the UPDATE_MESSAGE callback.
    assert [c.route for c in fake.calls(since=mark)] == ["/interactions/{interaction_id}/{token}/callback"]
    assert result.message.content == "count=1"
    assert result.message.custom_ids() == ["count:1"]
    assert result.message.edits[0]["content"] == "belote for 4 (manage_guild=True)"

    # Bob lacks manage_guild; the member permissions reach the bot.
    other = await fake.slash(world.bob, world.channel, "table", {"game": "belote", "seats": 3}, subcommand="new")
    assert (await other).content == "belote for 3 (manage_guild=False)"


async def test_an_edit_keeps_the_earlier_versions_as_they_were(world: World, bot: discord.Client) -> None:
    """The fake copies a message's components once per edit (its own copy, and one for its history) and shares them
    with the payloads it sends: what an earlier version showed, and what was sent of it, stay as they were."""
    fake = world.fake
    result = await fake.slash(world.alice, world.channel, "table", {"game": "belote"}, subcommand="new")
    await result
    message = result.message
    sent = message.to_payload(fake.base_url)
    assert sent["components"] == message.components and message.custom_ids() == ["count:0"]
    await (await fake.click(world.bob, message, "count:0"))
    await (await fake.click(world.bob, message, "count:1"))
    assert message.custom_ids() == ["count:2"]
    assert [edit["components"][0]["components"][0]["custom_id"] for edit in message.edits] == ["count:0", "count:1"]
    assert sent["components"][0]["components"][0]["custom_id"] == "count:0"
    body = next(c for c in reversed(fake.calls()) if c.json and "components" in c.json.get("data", {}))
    body.json["data"]["components"].clear()  # what discord.py sent is not what the message holds
    assert message.custom_ids() == ["count:2"]


def test_json_copy_is_a_deep_copy() -> None:
    from tests.fakediscord.models import json_copy

    data = {"a": [1, {"b": [True, None, 2.5, "x"]}], "c": {"d": []}}
    copied = json_copy(data)
    assert copied == data
    copied["a"][1]["b"].append(0)
    copied["c"]["d"].append(1)
    assert data == {"a": [1, {"b": [True, None, 2.5, "x"]}], "c": {"d": []}}


async def test_select_menu(world: World, bot: discord.Client) -> None:
    fake = world.fake
    menu = await fake.slash(world.alice, world.channel, "suits")
    await menu
    pick = await fake.select(world.alice, menu.message, "pick-suit", ["spades"])
    await pick
    assert pick.content == "you picked spades"
    assert pick.ephemeral
    assert fake.last_message(world.channel) is menu.message  # ephemeral replies are hidden by default


async def test_autocomplete(world: World, bot: discord.Client) -> None:
    result = await world.fake.autocomplete(world.alice, world.channel, "table", "game", "hun", subcommand="new")
    await result
    assert [c["value"] for c in result.choices] == ["five hundred", "two hundred"]


async def test_invalid_user_actions_fail_fast(world: World, bot: discord.Client) -> None:
    fake = world.fake
    with pytest.raises(LookupError, match="not registered"):
        await fake.slash(world.alice, world.channel, "nope")
    with pytest.raises(ValueError, match="missing required"):
        await fake.slash(world.alice, world.channel, "table", subcommand="new")
    with pytest.raises(ValueError, match="needs a subcommand"):
        await fake.slash(world.alice, world.channel, "table")
    menu = await (await fake.slash(world.alice, world.channel, "suits")).wait_for_message()
    with pytest.raises(ValueError, match="not options"):
        await fake.select(world.alice, menu, "pick-suit", ["jokers"])
    with pytest.raises(ValueError, match="no component"):
        await fake.click(world.alice, menu, "missing")


async def test_closed_dms_raise_forbidden_50007(world: World, bot: discord.Client) -> None:
    result = await world.fake.slash(world.alice, world.channel, "poke", {"who": world.bob})
    assert (await result).content == "cannot DM bob (50007)"
    exc = await asyncio.wait_for(bot.events.get(), TIMEOUT)  # type: ignore[attr-defined]
    assert isinstance(exc, discord.Forbidden) and exc.code == 50007

    ok = await world.fake.slash(world.bob, world.channel, "poke", {"who": world.alice})
    assert (await ok).content == "poked"
    dm = await world.fake.wait_for_message(world.fake.dm_channel(world.alice), timeout=TIMEOUT)
    assert dm.content == "poke!"


async def test_deferred_edit_and_followup_with_attachment(world: World, bot: discord.Client) -> None:
    result = await world.fake.slash(world.alice, world.channel, "deal")
    await result
    assert result.deferred
    original = await result.wait_for_message()
    assert original.content == "dealt"
    followup = await result.wait_for_followup()
    assert followup.content == "your hand" and followup.ephemeral
    [attachment] = followup.attachments
    assert (attachment.filename, attachment.data) == ("hand.png", b"\x89PNG fake hand")
    upload = world.fake.calls("POST", "/webhooks/{app_id}/{token}")[-1]
    assert upload.files[0].data == b"\x89PNG fake hand"


async def test_modal_submit(world: World, bot: discord.Client) -> None:
    opened = await world.fake.slash(world.alice, world.channel, "rename")
    await opened
    assert opened.modal is not None and opened.modal["title"] == "Name your table"
    submitted = await world.fake.submit_modal(world.alice, opened, {"table-name": "high rollers"})
    assert (await submitted).content == "table high rollers created"


async def test_user_message_reaches_bot(world: World, bot: discord.Client) -> None:
    await world.fake.send_message(world.alice, world.channel, "hello")
    message = await asyncio.wait_for(bot.events.get(), TIMEOUT)  # type: ignore[attr-defined]
    assert message.author.id == world.alice.id
    assert message.content == ""  # no message_content intent: Discord blanks the content


async def test_dm_attachment_reaches_bot(world: World, bot: discord.Client) -> None:
    dm = world.fake.dm_channel(world.alice)
    await world.fake.send_message(world.alice, dm, "my hand", files={"hand.txt": b"AS KH 10D"})
    message = await asyncio.wait_for(bot.events.get(), TIMEOUT)  # type: ignore[attr-defined]
    assert isinstance(message.channel, discord.DMChannel) and message.content == "my hand"
    assert await message.attachments[0].read() == b"AS KH 10D"


async def test_global_command_in_dm(world: World, bot: discord.Client) -> None:
    result = await world.fake.slash(world.alice, world.fake.dm_channel(world.alice), "ping")
    assert (await result).content == "pong from DM to alice"
    in_guild = await world.fake.slash(world.alice, world.channel, "ping")
    assert (await in_guild).content == "pong from guild to alice"


async def test_reconnect_resumes_session(world: World, bot: discord.Client) -> None:
    await world.fake.request_reconnect()
    assert world.fake.identify_count == 1
    result = await world.fake.slash(world.alice, world.channel, "suits")
    assert (await result).content == "pick one"


async def test_restart_keeps_world(world: World) -> None:
    fake = world.fake
    async with fake.running(make_bot(world.guild.id)):
        first = await fake.slash(world.alice, world.channel, "table", {"game": "belote"}, subcommand="new")
        message = (await first).message
    assert fake.identify_count == 1

    async with fake.running(make_bot(world.guild.id)):
        assert fake.identify_count == 2
        # The button on a message sent by the previous process still works.
        click = await fake.click(world.alice, message, "count:0")
        await click
        assert message.content == "count=1"
    assert len(fake.world.command_scope(world.guild.id)) == 5
