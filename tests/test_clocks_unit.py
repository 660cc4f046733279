"""The clock, the timers and the clock/settings parsing, without Discord."""

from __future__ import annotations

import pytest

from bot.clocks.clock import FakeClock, Timers
from bot.clocks.service import close_after, remind_lead
from bot.tables import guild_settings as gs


async def test_fake_clock_fires_timers_in_order_without_waiting():
    clock = FakeClock(start=1000.0)
    timers = Timers(clock)
    fired = []

    def note(name):
        async def callback():
            fired.append((name, clock.now()))
            if name == "a":  # a callback may arm another timer inside the same advance
                timers.at("c", clock.now() + 5, note("c"))

        return callback

    timers.at("a", 1010, note("a"))
    timers.at("b", 1030, note("b"))
    timers.at("x", 1020, note("x"))
    timers.cancel("x")
    timers.at("b", 1012, note("b"))  # re-arming replaces
    await clock.advance(9)
    assert fired == []
    await clock.advance(100)
    assert fired == [("a", 1010), ("b", 1012), ("c", 1015)]
    assert clock.now() == 1109
    assert clock.pending() == []
    await timers.close()


@pytest.mark.parametrize(
    "text, kind, seconds",
    [("live", "live", 60), ("Casual", "casual", 600), ("async", "async", 86400), ("90s", "custom", 90),
     ("5m", "custom", 300), ("2 h", "custom", 7200), ("3d", "custom", 259200), ("custom 45", "custom", 45)],
)  # fmt: skip
def test_clock_parsing(text, kind, seconds):
    choice = gs.parse_clock(text)
    assert (choice.kind, choice.seconds) == (kind, seconds)
    assert gs.parse_clock(choice.spec()) == choice


@pytest.mark.parametrize("text", ["banana", "10", "8d", "5 parsecs", ""])
def test_bad_clocks_are_explained(text):
    with pytest.raises(gs.SettingsRefusal):
        gs.parse_clock(text)


def test_reminders_and_closing_times():
    assert remind_lead(gs.parse_clock("live")) == 15
    assert remind_lead(gs.parse_clock("async")) == 3 * 3600
    assert remind_lead(gs.parse_clock("4m")) == 60
    assert close_after(gs.parse_clock("live")) == 15 * 60
    assert close_after(gs.parse_clock("live"), lobby=True) == 3600
    assert close_after(gs.parse_clock("async")) == 7 * 86400
    assert close_after(gs.parse_clock("2h")) == 20 * 3600
    assert gs.duration_text(5400) == "1 h 30 min" and gs.duration_text(3 * 86400) == "3 days"


def test_settings_round_trip_and_changes():
    s = gs.apply_changes(gs.GuildSettings(), {"game": "belote", "clock": "async", "allowed_clocks": "all"})
    assert s.game_clocks == {"belote": "async"} and s.clock_for("belote", None).kind == "async"
    assert s.clock_for("five_hundred", None).kind == "casual"
    assert gs.GuildSettings.from_json(s.to_json()) == s
    with pytest.raises(gs.SettingsRefusal, match="default clock of belote is async"):
        gs.apply_changes(s, {"allowed_clocks": "live,casual"})
