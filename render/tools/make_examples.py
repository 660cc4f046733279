"""Write the example images of docs/images/ from seeded random games played by the engines.

    .venv/bin/python render/tools/make_examples.py [--out docs/images]

The games are deterministic (fixed seeds), so re-running only changes the images when the drawing code changes.
"""

from __future__ import annotations

import argparse
import io
import random
from pathlib import Path

from PIL import Image

from render import render_deal_summary, render_hand, render_leaderboard, render_score_sheet, render_table
from render.state import trump_rank
from render.table import SHOWN_WIDTH

ROOT = Path(__file__).resolve().parents[2]
NAMES = {
    "two_hundred": ["Alice", "Bruno", "Chloé", "Dmitri"],
    "five_hundred": ["Ann", "Bob", "Cat"],
    "belote": ["Léa", "Hugo", "Camille", "Louis"],
    "da_bai_fen": ["王芳", "李伟", "张敏", "刘洋"],
}
LANG = {"two_hundred": "en", "five_hundred": "en", "belote": "fr", "da_bai_fen": "zh"}


def play_to(game: str, seed: int, *, deals: int, trick_cards: int, options: dict | None = None):
    """Play random legal moves until deal ``deals`` is in play with ``trick_cards`` plays on the table."""
    from rules.players import RandomPlayer
    from rules.registry import new_match

    m = new_match(game, options or {})
    rng, player = random.Random(seed), RandomPlayer()
    m.start_deal(m.random_deal(rng))
    last_trick = None
    while True:
        if m.phase == "game_over":
            return m, last_trick
        if m.phase == "between_deals":
            m.start_deal(m.random_deal(rng))
            continue
        out = m.output()
        if m.deal_index >= deals and m.phase == "play" and len(out["trick"]) == trick_cards and (
                m.to_move is not None and len(m.hand(m.to_move)) > 3):  # fmt: skip
            return m, out.get("last_trick")
        m.apply(player.choose(m, rng))


def phone_width(png: bytes) -> bytes:
    """The image as a phone shows it: SHOWN_WIDTH pixels wide."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    img = img.resize((SHOWN_WIDTH, round(img.height * SHOWN_WIDTH / img.width)), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    img.save(out, "PNG", optimize=True)
    return out.getvalue()


def finish(game: str, seed: int, options: dict | None = None):
    m, _ = play_to(game, seed, deals=10**6, trick_cards=99, options=options)
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs" / "images"))
    out = Path(ap.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)

    def save(name: str, data: bytes) -> None:
        (out / name).write_bytes(data)
        print(f"{name}: {len(data) / 1000:.0f} KB")

    for game, seed, deal, trick in (("two_hundred", 3, 1, 2), ("five_hundred", 5, 0, 1), ("belote", 11, 0, 3),
                                    ("da_bai_fen", 2, 1, 2)):  # fmt: skip
        m, last = play_to(game, seed, deals=deal, trick_cards=trick)
        if m.phase == "game_over":
            raise SystemExit(f"{game}: seed {seed} ends before deal {deal}; choose another seed")
        state, names, lang = m.output(), NAMES[game], LANG[game]
        table = render_table(state, names, to_move=m.to_move, show_last_trick=bool(last), clock="0:45", lang=lang)
        save(f"table-{game}.png", table)
        save(f"table-phone-{game}.png", phone_width(table))
        legal = {c for a in state["legal"] if a["type"] == "play" for c in a.get("cards", [])}
        seat = m.to_move
        save(f"hand-{game}.png", render_hand(game, m.hand_mask_names(seat), trump=state["trump"],
                                             trump_rank=trump_rank(state), legal=legal,
                                             title=f"{names[seat]} — {len(m.hand(seat))} cards"))  # fmt: skip

    m = play_to("da_bai_fen", 4, deals=0, trick_cards=0)[0]
    state = m.output()
    save("hand-da_bai_fen-four-colour.png", render_hand("da_bai_fen", m.hand_mask_names(0), trump=state["trump"],
                                                        trump_rank=trump_rank(state), four_colour=True,
                                                        title="王芳 · 四色牌"))  # fmt: skip

    belote = finish("belote", 21)
    save("deal-summary-belote.png", render_deal_summary(belote.output(), NAMES["belote"], lang="fr"))
    save("score-sheet-belote.png", render_score_sheet(belote.output(), NAMES["belote"], lang="fr"))
    two = finish("two_hundred", 8)
    save("deal-summary-two_hundred.png", render_deal_summary(two.output(), NAMES["two_hundred"]))
    save("score-sheet-two_hundred.png", render_score_sheet(two.output(), NAMES["two_hundred"]))
    dbf = finish("da_bai_fen", 9)
    save("score-sheet-da_bai_fen.png", render_score_sheet(dbf.output(), NAMES["da_bai_fen"], lang="zh"))

    rows = [{"rank": i + 1, "name": name, "rating": round(31.6 - i * 1.9, 1), "games": 48 - 5 * i,
             "win_rate": 0.66 - i * 0.05}
            for i, name in enumerate(["Léa", "王芳", "Bruno", "Camille", "Dmitri", "刘洋", "Zoë", "Hugo"])]  # fmt: skip
    save("leaderboard.png", render_leaderboard(rows, title="Belote Contrée — this month", page=1, pages=4))


if __name__ == "__main__":
    main()
