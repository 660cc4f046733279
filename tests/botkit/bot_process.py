"""The bot as its own process, against a FakeDiscord that lives in the test's process, so that a test can kill it
(``SIGKILL``: no clean-up of any kind) and start it again on the same database.

``python -m tests.botkit.bot_process API_BASE GATEWAY_URL`` runs ``cardtable run`` (settings from the environment,
as in production) with discord.py's two base URLs pointed at the fake (tests/fakediscord/patch.py), the toy game
registered and images off (drawing is not what these tests are about, and it would only slow each start).
``BotProcess`` starts it, waits for it to be ready (its "logged in as" log line), kills and stops it.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

READY_LINE = "logged in as"
ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    def __init__(self, fake, db_path: str, guild_id: int, log_path: str, **settings: str) -> None:
        self.fake = fake
        self.log_path = log_path
        self.env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "CARDTABLE_DB": db_path,
            "CARDTABLE_DEV_GUILD": str(guild_id),
            "CARDTABLE_AI_DELAY": "0",
            "CARDTABLE_EDIT_INTERVAL": "0",
            "CARDTABLE_DRAW_INTERVAL": "0",
            "CARDTABLE_KITTY_PAUSE": "0",
            "CARDTABLE_CHANNEL_WINDOW": "0",
            "CARDTABLE_LOG_LEVEL": "INFO",
            **settings,
        }
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.kills = 0

    def log(self) -> str:
        return Path(self.log_path).read_text() if os.path.exists(self.log_path) else ""

    async def start(self, timeout: float = 60.0) -> None:
        """Start the bot and return once discord.py says it is ready (its tables resumed)."""
        ready_before = self.log().count(READY_LINE)
        with open(self.log_path, "a") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.botkit.bot_process", self.fake.api_base, self.fake.gateway_url,
                env=self.env, cwd=ROOT, stdout=log, stderr=log,
            )  # fmt: skip
        self.starts += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.log().count(READY_LINE) <= ready_before:
            if self.process.returncode is not None:
                raise RuntimeError(f"the bot exited ({self.process.returncode}):\n{self.log()[-3000:]}")
            if loop.time() > deadline:
                raise TimeoutError(f"the bot was not ready after {timeout} s:\n{self.log()[-3000:]}")
            await asyncio.sleep(0.05)

    async def kill(self) -> None:
        """SIGKILL: the process ends at once, whatever it was doing."""
        assert self.process is not None
        self.process.kill()
        await self.process.wait()
        self.kills += 1

    async def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (a service manager's stop; SIGINT may be ignored by a process started in the background); killed
        if it does not end in time."""
        if self.process is None or self.process.returncode is not None:
            return
        self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            await self.kill()


def main() -> int:
    api_base, gateway_url = sys.argv[1], sys.argv[2]
    import tests.botkit.toy  # noqa: F401  (the toy game)
    from bot.presentation import images
    from bot.process import cli
    from tests.fakediscord.patch import point_discord_at

    images.enabled = False
    with point_discord_at(api_base, gateway_url):
        return cli.main(["run", "--env-file", os.devnull])


if __name__ == "__main__":
    sys.exit(main())
