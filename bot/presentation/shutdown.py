"""Output work that fails unexpectedly: a traceback in the log, unless the bot is shutting down.

Tables' queued output (a table edit, a hand) can still be running when the bot closes its HTTP session; it then
fails with aiohttp's "Session is closed", which says nothing about a fault: one line, not a traceback each.
"""

from __future__ import annotations

import logging

import discord


def report_failure(bot: discord.Client, log: logging.Logger, message: str, *args: object) -> None:
    """Log an unexpected failure of output work (call from an ``except`` block)."""
    if bot.is_closed():
        log.warning(message + ": not sent, the bot is shutting down", *args)
    else:
        log.exception(message, *args)
