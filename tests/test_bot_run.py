"""``cardtable run``: settings from the environment and .env, and one clear line instead of a traceback."""

from __future__ import annotations

import discord
import pytest

from bot.process import cli
from bot.process.client import CardTableBot
from bot.process.settings import Settings, SettingsError, read_env_file
from tests.fakediscord import FakeDiscord


def test_settings_from_env_file_and_environment(tmp_path):
    env = tmp_path / ".env"
    env.write_text('# a comment\nDISCORD_TOKEN="from-file"\nexport CARDTABLE_DB=tables.db\nCARDTABLE_DEV_GUILD=42\n')
    settings = Settings.load({}, str(env))
    assert (settings.token, settings.db_path, settings.dev_guild_id) == ("from-file", "tables.db", 42)
    settings = Settings.load({"DISCORD_TOKEN": "from-env", "CARDTABLE_AI_DELAY": "0"}, str(env))
    assert settings.token == "from-env" and settings.ai_delay == 0  # the environment wins
    assert Settings.load({"DISCORD_TOKEN": "t"}, None).dev_guild_id is None  # global commands by default
    assert read_env_file(tmp_path / "missing") == {}


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "t", "CARDTABLE_DEV_GUILD": "abc"}, "CARDTABLE_DEV_GUILD must be a number"),
        ({"DISCORD_TOKEN": "t", "CARDTABLE_AI_DELAY": "-1"}, "cannot be negative"),
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


def test_run_with_a_refused_token_is_one_line(monkeypatch, capsys, tmp_path):
    async def refused(self, token, *, reconnect=True):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setenv("DISCORD_TOKEN", "wrong")
    monkeypatch.setattr(CardTableBot, "start", refused)
    monkeypatch.setattr("bot.process.logs.setup_logging", lambda level: None)
    assert cli.main(["run", "--env-file", str(tmp_path / "none"), "--db", str(tmp_path / "t.db")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "cardtable run: Discord refused the token (DISCORD_TOKEN is invalid or was reset)"


async def test_discord_refuses_a_wrong_token_with_login_failure(tmp_path):
    """What `cardtable run` turns into that line: the fake answers 401, as Discord does."""
    async with FakeDiscord() as fake:
        with fake.patched():
            bot = CardTableBot(Settings(token="wrong", db_path=str(tmp_path / "t.db")))
            with pytest.raises(discord.LoginFailure):
                async with bot:
                    await bot.start("wrong")
