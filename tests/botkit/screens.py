"""Pictures of what the bot sends, from the real bot: the player guide's screenshots.

    .venv/bin/python -m tests.botkit.screens docs/images

Starts the bot against the offline Discord (images on), seats four humans (alice, bob, carol, dan) at seeded games,
plays to chosen moments by tapping the live hands' panels as players do, and draws each chosen message as a phone
shows it (``render/tools/message_preview.py``) from the message's real content, picture and components.  The games
are seeded, so re-running changes the pictures only when the bot or the drawing changes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from render.tools.message_preview import preview_png
from rules.game import BETWEEN_DEALS, DEAL, EXCHANGE, GAME_OVER, PLAY
from tests.botkit.harness import TIMEOUT, BotWorld, bot_world, tap_action
from tests.fakediscord.models import Message, User

SEED = 14


class Screens:
    """One game's world: four humans at table 1, and ways to reach moments and save what a player sees."""

    def __init__(self, world: BotWorld, client: Any, out: Path):
        self.world, self.client, self.out = world, client, out
        self.users = [world.alice, world.bob, world.carol, world.dan]
        self.rng = random.Random(SEED)

    async def open(self, game: str, options: str | None = None) -> None:
        lobby = await self.world.new_table(self.world.alice, game, options=options)
        for user in self.users[1:]:
            await self.world.click(user, lobby, "join")
        await self.world.click(self.world.alice, lobby, "start")

    @property
    def table(self) -> Any:
        return self.client.manager.tables[1]

    def user_at(self, seat: int) -> User:
        user_id = self.table.seats[seat].user_id
        return next(u for u in self.users if u.id == user_id)

    def hand(self, user: User) -> Message:
        """The user's live hand: the DM the bot keeps current."""
        hands = [m for m in self.world.dms(user) if "**Your hand**" in m.content]
        assert hands, f"{user.username} has no live hand"
        return hands[-1]

    async def settle(self) -> None:
        await self.world.settle(self.client)

    async def tap(self, user: User, message: Message, label: str, *, settle: bool = True) -> Message:
        """Tap the enabled button labelled ``label`` on ``message``; the message as it is after."""
        button = next(
            (
                b
                for row in message.components
                for b in row.get("components", [])
                if b.get("label") == label and not b.get("disabled")
            ),
            None,
        )
        assert button is not None, f"no {label!r} button on {message.id}"
        result = await self.world.fake.click(user, message, button["custom_id"])
        await result.wait(TIMEOUT)
        if settle:  # (not while the draw's pace is waiting: settling would wait for it)
            await self.settle()
        return self.world.fake.world.messages[message.id]

    async def play_until(self, moment: Callable[[], bool], *, steps: int = 400) -> None:
        """The players to move take random legal actions through their live hands until ``moment()``."""
        for _ in range(steps):
            await self.settle()
            if moment():
                return
            match = self.table.match
            if match.phase == GAME_OVER:
                break
            seat = match.to_move
            legal = [a for a in match.legal_json() if a.get("seat") == seat] if seat is not None else []
            if match.phase == BETWEEN_DEALS or not legal or all(a["type"] == "draw" for a in legal):
                continue  # the next deal, or the draw, comes by itself
            action = {k: v for k, v in self.rng.choice(legal).items() if k != "seat"}
            if action["type"] == "discard":
                action = {"type": "discard", "cards": self.rng.sample(action["from"], action["choose"])}
            user = self.user_at(seat)
            result = await tap_action(self.world, self.table, user, self.hand(user), action)
            if result is not None and result.message is not None and "⚠️" in result.message.content:
                await self.world.click(user, result.message, "throw")  # a risky Da Bai Fen lead: confirm it
        raise AssertionError("the moment never came")

    def save(self, name: str, message: Message) -> None:
        picture = message.attachments[0].data if message.attachments else None
        names = {u.id: u.username for u in self.world.fake.world.users.values()}
        embeds = [e.get("description", "") for e in message.embeds]
        png = preview_png(
            message.content, message.components, picture, names=names, ephemeral=message.ephemeral, embeds=embeds
        )
        path = self.out / f"{name}.png"
        path.write_bytes(png)
        print(f"{path} ({len(png) // 1024} KB)")


async def belote(s: Screens) -> None:
    await s.open("belote")
    await s.settle()
    bidder = s.user_at(s.table.match.to_move)
    s.save("panel-belote", await s.tap(bidder, s.hand(bidder), "100"))

    def bob_must_follow() -> bool:
        match = s.table.match
        if match.phase != PLAY or s.user_at(match.to_move) is not s.world.bob:
            return False
        plays = {c for a in match.legal_json() if a["type"] == "play" for c in a["cards"]}
        return 0 < len(plays) < len(match.hand(match.to_move)) - 1

    await s.play_until(bob_must_follow)
    s.save("live-hand-belote", s.hand(s.world.bob))
    s.save("live-hand-waiting", s.hand(s.world.alice))


async def five_hundred(s: Screens) -> None:
    await s.open("500", "players=4")
    await s.settle()
    bidder = s.user_at(s.table.match.to_move)
    s.save("panel-five_hundred", await s.tap(bidder, s.hand(bidder), "8"))


async def two_hundred(s: Screens) -> None:
    await s.open("200")
    await s.settle()
    bidder = s.user_at(s.table.match.to_move)
    s.save("panel-two_hundred", s.hand(bidder))


async def da_bai_fen_discard(s: Screens) -> None:
    await s.open("dabaifen")
    await s.play_until(lambda: s.table.match.phase == EXCHANGE)
    discarder = s.user_at(s.table.match.to_move)
    hand = s.hand(discarder)
    for _ in range(2):  # the two lowest cards (the panel lists the hand in its picture's order)
        toggles = [b for row in hand.components for b in row.get("components", []) if b.get("style") == 1]
        hand = await s.tap(discarder, hand, [b["label"] for b in toggles if not b.get("disabled")][-1])
    s.save("discard-da_bai_fen", hand)


async def da_bai_fen_draw(s: Screens) -> None:
    """The humans tap Draw in turn (the pace's own draws are 30 s apart) until one draws a card of the trump rank."""
    await s.open("dabaifen")
    for _ in range(48):
        await s.client.presenter.drain(s.table)
        offered = [u for u in s.users if "expose it?" in s.hand(u).content]
        if offered:
            s.save("draw-da_bai_fen", s.hand(offered[0]))
            return
        match = s.table.match
        assert match.phase == DEAL, match.phase
        drawer = s.user_at(match.to_move)
        await s.tap(drawer, s.hand(drawer), "Draw", settle=False)
    raise AssertionError("nobody drew a card of the trump rank")


async def manners(s: Screens) -> None:
    """A vote to stop, claims (proven, and put to the opponents), a four-colour hand."""
    from rules.claims import check_claim

    await s.open("belote", "target=100000")  # random bids (a recountered capot) would end a shorter game
    await s.settle()
    await s.world.slash(s.world.carol, "table", {}, subcommand="stop")
    vote = next(m for m in reversed(s.world.fake.messages(s.world.channel)) if "proposes" in m.content)
    s.save("stop-vote", vote)
    s.save("stop-vote-answered", await s.tap(s.world.dan, vote, "Play on"))
    await s.tap(s.world.alice, vote, "Play on")
    await s.world.slash(s.world.alice, "player", {"four_colour": True}, subcommand="settings")
    await s.settle()
    s.save("hand-four-colour", s.hand(s.world.alice))

    def claim(proven: bool) -> Callable[[], bool]:
        def now() -> bool:
            match = s.table.match
            if match.phase != PLAY or len(match.hand(match.to_move)) > 4:
                return False
            check = check_claim(match, match.to_move)
            return check.proven if proven else (check.possible is True and not check.proven)

        return now

    await s.play_until(claim(True))
    proven = await s.world.slash(s.user_at(s.table.match.to_move), "table", {}, subcommand="claim")
    await proven.wait_for_followup(1)
    s.save(
        "claim-proven",
        next(m for m in reversed(s.world.fake.messages(s.world.channel)) if "claimed" in m.content and not m.ephemeral),
    )
    await s.settle()
    await s.play_until(claim(False))
    asked = await s.world.slash(s.user_at(s.table.match.to_move), "table", {}, subcommand="claim")
    await asked.wait_for_followup(1)
    s.save(
        "claim-question",
        next(m for m in reversed(s.world.fake.messages(s.world.channel)) if "claims" in m.content and not m.ephemeral),
    )


async def rematch(s: Screens) -> None:
    await s.open("500", "players=4 target=100")
    table = s.table  # (an ended table leaves the manager's memory)
    await s.play_until(lambda: table.status != "playing", steps=3000)
    await s.settle()
    message = s.world.fake.world.messages[table.row.message_id]
    s.save("rematch-button", message)
    asked = await s.world.click(s.world.bob, message, "rematch")
    s.save("rematch-lobby", asked.message)


def mid_trick(s: Screens, tricks: int = 2) -> Callable[[], bool]:
    def moment() -> bool:
        match = s.table.match
        return match.phase == PLAY and match.tricks_completed() >= tricks and bool(match.public_view()["trick"])

    return moment


async def look_back(s: Screens, user: User) -> Message:
    """``user`` taps Look back on the table message: the answer only they see."""
    result = await s.world.click(user, s.world.fake.world.messages[s.table.row.message_id], "look")
    assert result.message is not None, result.content
    return result.message


async def history_two_hundred(s: Screens) -> None:
    """The auction in view during the play, tricks face down (Look back), a spectator's view, a deal's review."""
    await s.open("200")
    await s.play_until(mid_trick(s, 3))
    s.save("table-auction-two_hundred", s.world.fake.world.messages[s.table.row.message_id])
    s.save("look-back-two_hundred", await look_back(s, s.world.bob))
    watched = await s.world.click(s.world.stranger, s.world.fake.world.messages[s.table.row.message_id], "watch")
    assert watched.message is not None, watched.content
    s.save("watch-two_hundred", watched.message)
    await s.play_until(lambda: len(s.table.match.deal_results) >= 1)
    result = next(m for m in s.world.fake.messages(s.world.channel) if "deal 1 result" in m.content)
    s.save("deal-result-review-button", result)
    review = await s.world.click(s.world.stranger, result, "review", "0")
    assert review.message is not None, review.content
    s.save("review-two_hundred", review.message)


async def history_belote(s: Screens) -> None:
    await s.open("belote")
    await s.play_until(mid_trick(s))
    s.save("look-back-belote", await look_back(s, s.world.carol))


async def history_da_bai_fen(s: Screens) -> None:
    await s.open("dabaifen")

    def opponents_counted() -> bool:
        match = s.table.match
        return mid_trick(s, 4)() and (match.public_view()["points"][1 - match.declarers] or 0) > 0

    await s.play_until(opponents_counted)
    s.save("look-back-da_bai_fen", await look_back(s, s.world.dan))


MOMENTS = [(belote, {}), (five_hundred, {}), (two_hundred, {}), (da_bai_fen_discard, {})]
MOMENTS += [(manners, {}), (rematch, {})]
MOMENTS += [(history_two_hundred, {}), (history_belote, {}), (history_da_bai_fen, {})]
MOMENTS += [(da_bai_fen_draw, {"draw_interval": 30.0, "kitty_pause": 30.0})]


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for moment, settings in MOMENTS:
        with tempfile.TemporaryDirectory() as tmp:
            async with bot_world(Path(tmp), images_on=True) as world, world.running(SEED, **settings) as client:
                await moment(Screens(world, client, out))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", default=Path("docs/images"))
    asyncio.run(main(parser.parse_args().out))
    sys.exit(0)
