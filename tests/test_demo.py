"""`cardtable demo` as a newcomer runs it (no token, no Discord), and the deal replay GIF behind it: the files a
player would have seen are written, the GIF animates one frame per moment of the deal, and it stays small enough to
post on Discord."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageSequence

from bot.presentation.deal_replay import PAUSE_MS, deal_gif, deal_moments, moment_image
from bot.process.cli import build_parser
from bot.process.demo import LEVELS, find_game
from render.animation import to_gif
from rules import registry
from rules.players import make_player
from rules.playing import play_game
from rules.records import GameRecord, loads, replay

# The games this repository ships (a test may register its toy game beside them).
BUILT_IN_GAMES = [game for game in registry.games() if game.engine.startswith(registry.BUILT_IN)]

GIF_BUDGET = 2_000_000  # bytes per deal: far under Discord's attachment limit, and quick to load on a phone


def cardtable(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, timeout=300, check=False
    )


@pytest.fixture(scope="module")
def two_hundred_demo(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    out = tmp_path_factory.mktemp("demo") / "two-hundred"
    return out, cardtable("demo", "--game", "200", "--out", str(out), "--seed", "2", "--deals", "2")


def test_demo_writes_what_the_players_saw(two_hundred_demo):
    out, done = two_hundred_demo
    assert done.returncode == 0, done.stderr
    assert "deals: 2 (the game was stopped there)" in done.stdout and "index.html" in done.stdout
    record = loads((out / "record.json").read_text())
    assert record.game == "two_hundred" and len(record.deals) == 2
    state = replay(record).output()
    assert state["error"] is None and len(state["deal_results"]) == 2
    for d, result in enumerate(state["deal_results"], 1):
        hands = sorted(out.glob(f"deal-{d:02d}-hand-*.png"))
        assert len(hands) == 4
        tricks = sorted(out.glob(f"deal-{d:02d}-trick-*.png"))
        assert len(tricks) == (0 if result["thrown_in"] else 9)  # the 36 cards: 9 tricks of four
        assert (out / f"deal-{d:02d}-summary.png").is_file()
    assert (out / "score-sheet.png").is_file()
    for png in out.glob("*.png"):
        with Image.open(png) as image:
            assert image.format == "PNG" and image.width >= 400
    index = (out / "index.html").read_text()
    assert all(f'src="{p.name}"' in index for p in out.glob("*.png"))


def test_demo_gif_animates_the_first_deal_played(two_hundred_demo):
    out, _ = two_hundred_demo
    record = loads((out / "record.json").read_text())
    gifs = list(out.glob("*.gif"))
    assert len(gifs) == 1
    deal = int(gifs[0].stem.split("-")[1]) - 1
    assert not replay(record).output()["deal_results"][deal]["thrown_in"]
    moments = deal_moments(record, deal)
    with Image.open(gifs[0]) as gif:
        assert gif.format == "GIF" and gif.is_animated and gif.n_frames == len(moments)
        assert gif.info["loop"] == 0
        durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert durations == [PAUSE_MS[m.kind] for m in moments]
    assert gifs[0].stat().st_size < GIF_BUDGET


def test_demo_refuses_an_unknown_game_level_or_option_in_words(tmp_path):
    bad_game = cardtable("demo", "--game", "bridge", "--out", str(tmp_path / "a"))
    assert bad_game.returncode == 2 and "unknown game 'bridge'" in bad_game.stderr and "dabaifen" in bad_game.stderr
    bad_level = cardtable("demo", "--game", "belote", "--out", str(tmp_path / "b"), "--players", "genius")
    assert bad_level.returncode == 2 and "genius" in bad_level.stderr
    bad_option = cardtable("demo", "--game", "belote", "--out", str(tmp_path / "c"), "--option", "colour=red")
    assert bad_option.returncode == 2 and "unknown option" in bad_option.stderr
    no_deal = cardtable("demo", "--game", "belote", "--out", str(tmp_path / "d"), "--deals", "0")
    assert no_deal.returncode == 2 and "at least one deal" in no_deal.stderr
    assert "Traceback" not in bad_game.stderr + bad_level.stderr + bad_option.stderr + no_deal.stderr
    assert not any(tmp_path.iterdir())  # nothing half-written


@cache
def played(game: str, seed: int) -> GameRecord:
    rng = random.Random(seed)
    match = registry.new_match(game, {})
    record = GameRecord(game, {}, 0)
    play_game(match, [make_player("heuristic")] * match.players, rng, record, max_deals=1)
    return record


@pytest.mark.parametrize("game", [g.id for g in BUILT_IN_GAMES])
def test_a_deal_replay_shows_each_call_and_card_and_every_trick(game):
    record = played(game, 5)
    moments = deal_moments(record, 0)
    kinds = [m.kind for m in moments]
    assert kinds[0] == "start" and kinds[-1] == "end" and "end" not in kinds[:-1]
    result = replay(record).output()["deal_results"][0]
    if not result["thrown_in"]:
        assert moments[-1].last_trick and moments[-1].state["phase"] in ("between_deals", "game_over")
        assert kinds.count("trick") + 1 == moments[-1].trick_number  # the last trick is the end's picture
    # One picture per call or card once the cards are in hand: a deal drawn from a stock shows no single draw.
    actions = record.deals[0].actions
    drawn = sum(a["type"] == "draw" for a in actions)
    plays = sum(a["type"] == "play" for a in actions)
    if drawn:
        assert plays < len(moments) <= 1 + len(actions) - drawn
    else:
        assert len(moments) == 1 + len(actions)
    for m in moments:
        assert "hands" not in m.state and "legal" not in m.state  # a public picture: never a hand
    gif = deal_gif(record, 0)
    with Image.open(io.BytesIO(gif)) as image:
        assert image.n_frames == len(moments)
    assert len(gif) < GIF_BUDGET


def test_the_gif_frames_are_the_table_pictures():
    """Each frame, decoded, is the table image of its moment (one shared palette: at most a shade off at edges)."""
    record = played("two_hundred", 5)
    moments = deal_moments(record, 0)
    names = [f"Seat {seat + 1}" for seat in range(4)]
    with Image.open(io.BytesIO(deal_gif(record, 0, names, title="Deal 1"))) as gif:
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(gif)]

    def far_off(frame: Image.Image, moment) -> float:
        """The share of pixels more than a shade away from the moment's picture (a card's size is about 2 %)."""
        drawn = moment_image(moment, names, title="Deal 1").convert("RGB")
        assert frame.size == drawn.size
        off = ImageChops.difference(frame, drawn).convert("L").point(lambda v: 255 if v > 48 else 0)
        return off.histogram()[255] / (frame.width * frame.height)

    for i in (0, len(moments) // 2, len(moments) - 1):
        assert far_off(frames[i], moments[i]) < 0.002
    assert far_off(frames[len(moments) // 2], moments[len(moments) // 2 + 1]) > 0.002  # the next card shows


def test_deal_gif_refuses_a_deal_the_record_does_not_have():
    with pytest.raises(ValueError, match="no deal 3"):
        deal_gif(played("belote", 5), 2)


def test_to_gif_pads_frames_to_one_size_and_keeps_their_colours():
    red = Image.new("RGB", (60, 40), (200, 30, 30))
    green = Image.new("RGB", (60, 30), (20, 120, 60))
    gif = to_gif([red, green], [500, 1500])
    with Image.open(io.BytesIO(gif)) as image:
        frames = [frame.convert("RGB") for frame in ImageSequence.Iterator(image)]
    assert [f.size for f in frames] == [(60, 40), (60, 40)]
    assert frames[0].getpixel((5, 5)) == (200, 30, 30)
    assert frames[1].getpixel((5, 5)) == (20, 120, 60) and frames[1].getpixel((5, 35)) == (20, 120, 60)


def test_to_gif_refuses_what_it_cannot_animate():
    frame = Image.new("RGB", (10, 10))
    with pytest.raises(ValueError, match="at least one frame"):
        to_gif([], [])
    with pytest.raises(ValueError, match="durations"):
        to_gif([frame, frame], [100])


def test_demo_help_lists_the_levels():
    done = cardtable("demo", "--help")
    assert done.returncode == 0 and "heuristic" in done.stdout and "expert" in done.stdout
    assert "--game" in done.stdout and "--out" in done.stdout


def test_the_readme_shows_the_demo_command_and_its_gif():
    """The README's first screen: how to see a game now, and what it looks like."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    first_screen = readme[: readme.index("## Run the bot")]
    commands = [
        line.split("#")[0].split() for line in readme.splitlines() if line.startswith(".venv/bin/cardtable demo")
    ]
    assert commands and any(" ".join(c) in first_screen for c in commands)
    parser = build_parser()
    for command in commands:
        args = parser.parse_args(command[1:])
        assert find_game(args.game) and args.players in LEVELS
    gif = re.search(r"!\[[^]]*\]\((docs/images/[^)]+\.gif)\)", first_screen)
    assert gif is not None
    with Image.open(Path(__file__).resolve().parents[1] / gif.group(1)) as image:
        assert image.is_animated and image.n_frames > 20
