"""The leaderboard commands through the offline Discord: notices at the start, /leaderboard with paging that
survives a restart, /stats, /history, the global opt-in and the administrators' commands."""

from __future__ import annotations

import discord
import pytest

from bot.storage.engines import open_store
from tests.botkit.harness import bot_world, embed_text, play_to_the_end


@pytest.fixture
async def world(tmp_path, database):
    async with bot_world(tmp_path, database=database) as w:
        yield w


async def play_a_game(world, client, host, *others, computer=False):
    lobby = await world.new_table(host, "toy", options="target=2")
    for user in others:
        await world.click(user, lobby, "join")
    if computer:
        await world.click(host, lobby, "cpu")
    mark = world.fake.mark()
    await world.click(host, lobby, "start")
    notice = await world.fake.wait_for_message(world.channel, lambda m: "rated" in m.content, since=mark)
    table_id = int(lobby.content.split("table #")[1].split()[0].rstrip(","))
    table = await play_to_the_end(world, client, table_id)
    await world.settle(client)
    return table, notice


async def test_a_rated_game_reaches_the_leaderboard_stats_and_history(world):
    async with world.running() as client:
        table, notice = await play_a_game(world, client, world.alice, world.bob)
        assert notice.content == f"Table #{table.id}: This game is rated."
        winner = table.seats[table.match.winner].user_id

        r = await world.slash(world.alice, "leaderboard", {"game": "toy"})
        text = embed_text(r)
        assert "Card Club, all time" in text and "2 rated players" in text
        first = text.split("`  1`")[1].split("\n")[0]
        assert ("alice" if winner == world.alice.id else "bob") in first and "100% won" in first

        r = await world.slash(world.bob, "player", {"game": "toy"}, subcommand="stats")
        text = embed_text(r)
        assert "bob — statistics" in text and "1 game ·" in text and "Rating **" in text
        assert "1 game this week" in text

        r = await world.slash(world.alice, "player", {"player": world.bob}, subcommand="history")
        text = embed_text(r)
        assert f"table #{table.id}" in text and ("rating +" in text or "rating -" in text)
        assert f"/channels/{world.guild.id}/{world.channel.id}/" in text


async def test_a_game_with_a_computer_is_announced_unrated_and_stays_off_the_board(world):
    async with world.running() as client:
        table, notice = await play_a_game(world, client, world.alice, computer=True)
        assert "not rated: a computer player is seated (seat 2)" in notice.content
        r = await world.slash(world.alice, "leaderboard", {"game": "toy"})
        assert "No rated games yet" in embed_text(r)
        r = await world.slash(world.alice, "player", {}, subcommand="history")
        assert "unrated: a computer player" in embed_text(r)
        r = await world.slash(world.alice, "player", {}, subcommand="stats")
        assert "1 game ·" in embed_text(r) and "Not rated here yet" in embed_text(r)


async def seed_board(path: str, guild_id: int, players: int) -> None:
    store = await open_store(path)
    rows = [
        (guild_id, "all", "toy", 1000 + i, f"player{i:02d}", 25.0 + i / 10, 3.0, 25.0 + i / 10 - 9.0, 10, i % 10, 1)
        for i in range(players)
    ]
    await store.write_all([("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row) for row in rows])
    await store.close()


async def test_paging_with_buttons_survives_a_restart(world):
    await seed_board(world.db_path, world.guild.id, 25)
    async with world.running():
        r = await world.slash(world.alice, "leaderboard", {"game": "toy"})
        message = r.message
        assert "player24" in embed_text(r) and "Page 1 of 3" in embed_text(r)
        ids = message.custom_ids()
        assert len(ids) == 2 and ids[1].startswith("lb:n:")
        click = await world.fake.click(world.bob, message, ids[1])
        await click.wait(10)
        assert click.callback_type == 7
        assert "Page 2 of 3" in embed_text(click)
        assert "player14" in embed_text(click) and "player24" not in embed_text(click)
        message = click.message
    async with world.running():  # a new process: the buttons are rebuilt from their custom ids
        next_id = [c for c in message.custom_ids() if c.startswith("lb:n:")][0]
        click = await world.fake.click(world.carol, message, next_id)
        await click.wait(10)
        text = embed_text(click)
        assert "Page 3 of 3" in text and "player00" in text and "` 25`" in text
        assert message.find_component([c for c in click.message.custom_ids() if c.startswith("lb:n:")][0])["disabled"]


async def test_the_leaderboard_image_comes_from_render(tmp_path):
    async with bot_world(tmp_path, images_on=True) as world:
        await seed_board(world.db_path, world.guild.id, 3)
        async with world.running():
            r = await world.slash(world.alice, "leaderboard", {"game": "toy", "period": "all"})
            assert [a.filename for a in r.message.attachments] == ["leaderboard.png"]
            assert r.message.attachments[0].data.startswith(b"\x89PNG")
            assert r.embeds[0]["image"]["url"] == "attachment://leaderboard.png"


async def test_admin_commands_are_checked_on_the_server_side(world):
    admin = world.fake.add_user("admin")
    world.fake.add_member(world.guild, admin, permissions=discord.Permissions(manage_guild=True).value)
    async with world.running() as client:
        table, _ = await play_a_game(world, client, world.alice, world.bob)
        r = await world.slash(world.alice, "ratings", {}, subcommand="newseason")
        assert r.ephemeral and "manage this server" in r.content
        r = await world.slash(world.bob, "ratings", {"table": table.id, "reason": "nope"}, subcommand="removegame")
        assert r.ephemeral and "manage this server" in r.content

        r = await world.slash(admin, "ratings", {}, subcommand="newseason")
        assert "Season 2 has started" in r.content
        r = await world.slash(world.alice, "leaderboard", {"game": "toy", "period": "season"})
        assert "season 2" in embed_text(r) and "No rated games yet" in embed_text(r)
        r = await world.slash(world.alice, "leaderboard", {"game": "toy", "season": 1})
        assert "season 1" in embed_text(r) and "2 rated players" in embed_text(r)

        r = await world.slash(
            admin, "ratings", {"table": table.id, "reason": "testing removal"}, subcommand="removegame"
        )
        assert f"Table #{table.id}" in r.content and "testing removal" in r.content
        r = await world.slash(world.alice, "leaderboard", {"game": "toy"})
        assert "No rated games yet" in embed_text(r)
        r = await world.slash(admin, "ratings", {"table": table.id, "reason": "again"}, subcommand="removegame")
        assert r.ephemeral and "already removed" in r.content
        r = await world.slash(admin, "ratings", {}, subcommand="recompute")
        await r.wait_for_followup()
        assert "0 rated games" in r.followups[0].content
        r = await world.slash(admin, "ratings", {}, subcommand="log")
        assert f"Table #{table.id}" in r.content and "removed from the ratings: testing removal" in r.content
        assert "Season 2 started." in r.content
        admin.locale = "fr"
        r = await world.slash(admin, "ratings", {}, subcommand="log")
        assert "retirée des cotes : testing removal" in r.content and "Saison 2 commencée." in r.content, r.content


async def test_global_opt_in(world):
    async with world.running() as client:
        await play_a_game(world, client, world.alice, world.bob)
        r = await world.slash(world.alice, "leaderboard", {"game": "toy", "period": "global"})
        assert "No rated games yet" in embed_text(r)
        r = await world.slash(world.alice, "player", {"enabled": True}, subcommand="globalrating")
        assert r.ephemeral and "now listed" in r.content
        r = await world.slash(world.bob, "leaderboard", {"game": "toy", "period": "global"})
        assert "alice" in embed_text(r) and "bob" not in embed_text(r).split("global")[1]
        r = await world.slash(world.alice, "player", {"game": "toy"}, subcommand="stats")
        assert "Global rating" in embed_text(r)


def test_ratings_are_drawn_as_whole_numbers(monkeypatch):
    """A rating is shown as 1097, never 1097.0, in the image as in the texts (bot/ratings/rating.py rounds it)."""
    import render.leaderboard as drawing

    drawn: list[str] = []
    real = drawing.draw_text
    monkeypatch.setattr(
        drawing, "draw_text", lambda draw, xy, text, *a, **k: drawn.append(text) or real(draw, xy, text, *a, **k)
    )
    rows = [{"rank": 1, "name": "ann", "rating": 1097.0, "games": 3, "win_rate": 0.5},
            {"rank": 2, "name": "bo", "rating": 1040.6, "games": 2, "win_rate": 0}]  # fmt: skip
    drawing.render_leaderboard(rows, title="Toy")
    assert "1097" in drawn and "1041" in drawn and not any(".0" in text for text in drawn)
