"""``cardtable demo``: a game between computer players, written out as the pictures its players would have seen.

No Discord and no token: the game is played by the computer players into a record (as ``simulate`` does), and the
record is then shown through the bot's own drawing path, ``bot/presentation/images.py`` (the functions the
presenter and the live hands call) and ``deal_replay`` (the animated GIF of a deal).  What is written:

- ``deal-NN-hand-S.png``: each player's hand as its deal starts (for a deal drawn from a stock, when the draw ends);
- ``deal-NN-trick-TT.png``: the table message's picture after each trick (the trick on the felt, its winner in
  gold), the deal's last one with the scores after the deal;
- ``deal-NN-summary.png``: the deal's result, as posted in the table's channel;
- ``score-sheet.png``: the score sheet of the game (posted when a game ends);
- ``deal-NN.gif``: the first deal that was played out (not thrown in), animated call by call and card by card;
- ``record.json``: the game record (``cardtable replay`` reads it); ``index.html``: every picture, in order.
"""

from __future__ import annotations

import asyncio
import html
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.presentation import images
from bot.presentation.deal_replay import deal_gif, deal_moments, walk_deal
from bot.presentation.result_words import result_in_words
from rules import registry
from rules.game import GAME_OVER, Match
from rules.game_type import GameType
from rules.players import make_player
from rules.playing import play_game
from rules.records import GameRecord, new_match_for

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay")  # short: a seat's plate on the table has room for a name
LEVELS = ("heuristic", "expert", "random")


@dataclass
class Demo:
    game: GameType
    record: GameRecord
    match: Match
    names: list[str]
    out: Path
    written: list[tuple[str, str]] = field(default_factory=list)  # (file name, caption), in the order shown

    def save(self, name: str, data: bytes | None, caption: str) -> None:
        if data is None:
            raise RuntimeError(f"the picture for {name} could not be drawn (see the log)")
        (self.out / name).write_bytes(data)
        self.written.append((name, caption))


def find_game(typed: str) -> GameType:
    found = registry.find(typed)
    if found is None:
        choices = ", ".join(f"{g.id} ({g.short_name})" for g in registry.games())
        raise ValueError(f"unknown game {typed!r}; the games are {choices}")
    return found


def play(game: GameType, options: dict, seed: int, level: str, deals: int | None) -> tuple[GameRecord, Match]:
    """A game (or its first ``deals`` deals) between computer players of ``level``, deterministic for ``seed``."""
    if level not in LEVELS:
        raise ValueError(f"unknown computer player level {level!r}; choose from {', '.join(LEVELS)}")
    if deals is not None and deals < 1:
        raise ValueError("--deals needs at least one deal to show")
    rng = random.Random(seed)
    match = registry.new_match(game.id, options)  # checks the options (RecordError names a bad one)
    first_dealer = rng.randrange(match.players)
    match = registry.new_match(game.id, options, first_dealer)
    record = GameRecord(game.id, dict(options), first_dealer)
    play_game(match, [make_player(level) for _ in range(match.players)], rng, record, deals)
    return record, match


async def _draw_deal(demo: Demo, d: int) -> None:
    game, names, prefix = demo.game, demo.names, f"deal-{d + 1:02d}"
    for match, _ in walk_deal(demo.record, d):  # the first step: the cards are in the players' hands
        for seat, name in enumerate(names):
            view = match.seat_view(seat)
            png = await images.hand_image(game.id, view["hand"], view, None, f"{name} · deal {d + 1}")
            demo.save(f"{prefix}-hand-{seat + 1}.png", png, f"Deal {d + 1}: {name}'s hand")
        break
    tricks = [m for m in deal_moments(demo.record, d) if m.last_trick and not m.state.get("trick")]
    for n, moment in enumerate(tricks, 1):
        png = await images.table_image(
            moment.state,
            names,
            to_move=moment.to_move,
            title=f"{game.name()} · deal {d + 1}",
            show_last_trick=True,
            last_trick=moment.last_trick,
        )
        caption = "the deal is over" if moment.kind == "end" else f"after trick {n}"
        demo.save(f"{prefix}-trick-{n:02d}.png", png, f"Deal {d + 1}: the table {caption}")
    after = _after_deal(demo.record, d)
    levels = game.scores_are_levels
    state = result_in_words(after.public_view(), d, names, after.seat_teams(), levels)
    png = await images.deal_summary_image(state, names, d)
    demo.save(f"{prefix}-summary.png", png, f"Deal {d + 1}: the result")


def _after_deal(record: GameRecord, d: int) -> Match:
    match = new_match_for(record)
    for step, _ in walk_deal(record, d):
        match = step
    return match


async def _draw(demo: Demo) -> None:
    for d in range(len(demo.record.deals)):
        await _draw_deal(demo, d)
    png = await images.score_sheet_image(demo.match.public_view(), demo.names)
    demo.save("score-sheet.png", png, "The score sheet")


def first_deal_played(match: Match) -> int:
    """The first deal that was played out (a thrown-in deal is a few passes: nothing to watch)."""
    results = match.deal_results
    return next((d for d, result in enumerate(results) if not result.get("thrown_in")), 0)


def run(game: GameType, options: dict, out: Path, seed: int, level: str, deals: int | None) -> Demo:
    record, match = play(game, options, seed, level, deals)
    out.mkdir(parents=True, exist_ok=True)
    demo = Demo(game, record, match, list(NAMES[: match.players]), out)
    (out / "record.json").write_text(record.dumps(indent=1), encoding="utf-8")
    images.enabled = True
    asyncio.run(_draw(demo))
    d = first_deal_played(match)
    title = f"{game.name()} · deal {d + 1}"
    demo.save(f"deal-{d + 1:02d}.gif", deal_gif(record, d, demo.names, title=title), f"Deal {d + 1}, animated")
    write_index(demo)
    return demo


def write_index(demo: Demo) -> None:
    """``index.html``: every picture in the order the players saw them, the GIF first."""
    order = sorted(demo.written, key=lambda item: not item[0].endswith(".gif"))
    rows = "\n".join(
        f'<figure><img src="{html.escape(name)}" alt="{html.escape(caption)}" loading="lazy">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        for name, caption in order
    )
    head = f"{demo.game.name()}: {', '.join(demo.names)} (computer players)"
    page = (
        '<!doctype html><meta charset="utf-8">'
        f"<title>{html.escape(head)}</title>"
        "<style>body{background:#1e1f22;color:#ddd;font-family:sans-serif}"
        "img{max-width:520px;display:block}figure{display:inline-block;vertical-align:top;margin:8px}</style>"
        f"<h1>{html.escape(head)}</h1><p>The game record is <a href='record.json'>record.json</a>.</p>\n{rows}\n"
    )
    (demo.out / "index.html").write_text(page, encoding="utf-8")


def summary_lines(demo: Demo) -> Sequence[str]:
    state = demo.match.public_view()
    done = "the game is over" if demo.match.phase == GAME_OVER else "the game was stopped there"
    return [
        f"game: {demo.game.name()} ({demo.game.id})  players: {', '.join(demo.names)}",
        f"deals: {len(demo.record.deals)} ({done})  final scores: {state['scores']}",
        f"wrote {len(demo.written)} pictures, record.json and index.html to {demo.out}",
        f"open {demo.out / 'index.html'} in a browser to see them in order",
    ]
