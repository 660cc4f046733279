"""``cardtable run``: settings from the environment and .env, and one clear line instead of a traceback."""

from __future__ import annotations

import discord
import pytest

from bot.process import cli
from bot.process.client import CardTableBot
from bot.process.settings import Settings, SettingsError, read_env_file
from tests.fakediscord import FakeDiscord

# Well-shaped tokens (three base64url parts, the first a user id's digits) that Discord never issued.
FILE_TOKEN = "MTExMTExMTExMTExMTExMTEx.ZmlsZQ.ZnJvbS1maWxl"
ENV_TOKEN = "MjIyMjIyMjIyMjIyMjIyMjIy.ZW52.ZnJvbS1lbnY"
WRONG_TOKEN = "MzMzMzMzMzMzMzMzMzMzMzMz.d3Jvbmc.cmVzZXQtdG9rZW4"


def test_settings_from_env_file_and_environment(tmp_path):
    env = tmp_path / ".env"
    env.write_text(
        f'# a comment\nDISCORD_TOKEN="{FILE_TOKEN}"\nexport CARDTABLE_DB=tables.db\nCARDTABLE_DEV_GUILD=42\n'
    )
    settings = Settings.load({}, str(env))
    assert (settings.token, settings.db_path, settings.dev_guild_id) == (FILE_TOKEN, "tables.db", 42)
    settings = Settings.load({"DISCORD_TOKEN": ENV_TOKEN, "CARDTABLE_AI_DELAY": "0"}, str(env))
    assert settings.token == ENV_TOKEN and settings.ai_delay == 0  # the environment wins
    assert Settings.load({"DISCORD_TOKEN": ENV_TOKEN}, None).dev_guild_id is None  # global commands by default
    assert read_env_file(tmp_path / "missing") == {}


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": ENV_TOKEN, "CARDTABLE_DEV_GUILD": "abc"}, "CARDTABLE_DEV_GUILD must be a number"),
        ({"DISCORD_TOKEN": ENV_TOKEN, "CARDTABLE_AI_DELAY": "-1"}, "cannot be negative"),
    ],
)
def test_bad_settings_are_named(environ, message):
    with pytest.raises(SettingsError, match=message):
        Settings.load(environ, None)


def test_run_without_a_token_is_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["run", "--env-file", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0 and "DISCORD_TOKEN is not set" in err


@pytest.mark.parametrize(
    "token",
    [
        "fake-bot-token",
        f"Bot {ENV_TOKEN}",  # the Authorization header's prefix, pasted with it
        ENV_TOKEN.rsplit(".", 1)[0],  # cut short
        "abc.def.ghi",  # three parts, but the first is no user id
        "x4Zq9mN2bV7cL1kJ8hG5fD3sA6pO0iUy",  # an application's client secret
    ],
)
def test_a_malformed_token_is_refused_before_any_network_call(monkeypatch, capsys, tmp_path, token):
    async def never(self, token, *, reconnect=True):
        raise AssertionError("a malformed token reached the network")

    monkeypatch.setenv("DISCORD_TOKEN", token)
    monkeypatch.setattr(CardTableBot, "start", never)
    assert cli.main(["run", "--env-file", str(tmp_path / "none"), "--db", str(tmp_path / "t.db")]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0
    assert err.startswith("cardtable run: DISCORD_TOKEN is not a bot token: it should be three parts joined by dots")
    assert not (tmp_path / "t.db").exists()


def test_run_with_a_refused_token_is_one_line(monkeypatch, capsys, tmp_path):
    async def refused(self, token, *, reconnect=True):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", WRONG_TOKEN)
    monkeypatch.setattr(CardTableBot, "start", refused)
    monkeypatch.setattr("bot.process.logs.setup_logging", lambda level: None)
    assert cli.main(["run", "--env-file", str(tmp_path / "none"), "--db", str(tmp_path / "t.db")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "cardtable run: Discord refused the token (DISCORD_TOKEN is invalid or was reset)"


async def test_discord_refuses_a_wrong_token_with_login_failure(tmp_path):
    """What `cardtable run` turns into that line: the fake answers 401, as Discord does."""
    async with FakeDiscord() as fake:
        with fake.patched():
            bot = CardTableBot(Settings(token=WRONG_TOKEN, db_path=str(tmp_path / "t.db")))
            with pytest.raises(discord.LoginFailure):
                async with bot:
                    await bot.start(WRONG_TOKEN)
