"""After a deal and at the end: the deal summary (the result with its arithmetic) and the score sheet (every deal,
with a chart of the scores' progress)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import state as st
from render import theme
from render.fonts import draw_text, fit_text, font
from render.i18n import game_name, t
from render.png import to_png
from render.text import Segment, draw_segments, suit_seg

W = 1000
PAD = 28


def scores_after(state: dict) -> list[list[int]]:
    """Cumulative scores after each finished deal: the engine's own figures when it gives them, else the final
    scores minus the later deals' changes (the spec: scores are the sum of the deal results' changes)."""
    results = state.get("deal_results") or []
    scores = list(state.get("scores") or [])
    out: list[list[int]] = []
    running = scores
    for result in reversed(results):
        out.append(list(running))
        change = result.get("score_change") or [0] * len(scores)
        running = [a - c for a, c in zip(running, change, strict=False)]
    out.reverse()
    return out


def start_scores(state: dict) -> list[int]:
    results = state.get("deal_results") or []
    after = scores_after(state)
    if not results:
        return list(state.get("scores") or [])
    change = results[0].get("score_change") or []
    return [a - c for a, c in zip(after[0], change, strict=False)]


def _signed(v) -> str:
    return f"+{v}" if isinstance(v, int | float) and v > 0 else f"{v}".replace("-", "−")


def _header(draw: ImageDraw.ImageDraw, title: str, sub: str) -> int:
    draw_text(draw, (PAD, PAD + 18), title, 34, theme.TEXT, bold=True, anchor="lm", max_width=W - 2 * PAD)
    if sub:
        draw_text(draw, (PAD, PAD + 58), sub, 22, theme.TEXT_DIM, anchor="lm", max_width=W - 2 * PAD)
        return PAD + 86
    return PAD + 54


def _result_segments(result: dict, state: dict, names: list[str], lang: str) -> list:
    """The deal's contract in a few symbols: ``110 ♥ ×2 · Alice`` or, in a game of leaders, ``♣ 2 · Wang``."""
    failed = result.get("failed_throw")
    if isinstance(failed, dict) and isinstance(failed.get("seat"), int):
        # What happened, not the trump: the lead of several cards that another hand could beat decided the deal.
        before, _, after = t("lead_failed", lang, name=st.seat_name(names, failed["seat"]), cards="\0").partition("\0")
        parts: list[Segment] = [before]
        for card in failed.get("cards") or []:
            card = str(card)
            suit = card[-1] if card[-1] in "SHDC" and len(card) > 1 else None
            parts += [card[:-1], suit_seg(suit), " "] if suit else [card, " "]
        return [*parts[:-1], after]
    if st.leader_not_contract(state):
        segs: list = []
        if result.get("trump") in ("S", "H", "D", "C"):
            segs.append(suit_seg(result["trump"]))
        if result.get("trump_rank"):
            segs.append(f" {result['trump_rank']}")
        leader = result.get("leader")
        if isinstance(leader, int):
            segs.append(f" · {st.seat_name(names, leader)}")
        return segs
    contract = result.get("contract")
    segs = st.contract_segments(contract, lang)
    if contract and isinstance(contract.get("seat"), int):
        segs.append(f" · {st.seat_name(names, contract['seat'])}")
    return segs


def _details(result: dict, side: int, state: dict, names: list[str], lang: str) -> str:
    """What a side took in the deal, from whatever the engine reports: tricks, card points, totals."""
    k = st.side_count(state, names)
    parts = []
    if st.leader_not_contract(state):
        declarers = result.get("declarers")
        if isinstance(declarers, int):
            key = "declarer_points" if side == declarers else "opponent_points"
            if isinstance(result.get(key), int):
                parts.append(f"{result[key]} {t('points', lang)}")
            if side == declarers:
                parts.append(t("declarers", lang))
        return " · ".join(parts)
    for key in ("tricks_by_side", "tricks", "tricks_won"):
        v = result.get(key)
        if isinstance(v, list) and len(v) == k:
            parts.append(st.tricks_text(v[side], lang))
            break
    for key in ("totals", "card_points", "points"):
        v = result.get(key)
        if key == "points" and isinstance(v, list) and isinstance(result.get("sides"), list):
            # the contractor's side is listed first: "sides" says which team each entry is
            by_team: list = [None] * k
            for units, points in zip(result["sides"], v, strict=False):
                for u in units if isinstance(units, list) else []:
                    if isinstance(u, int) and 0 <= u < k:
                        by_team[u] = points
            v = by_team
            if v[side] is None:
                continue
        if isinstance(v, list) and len(v) == k:
            parts.append(f"{v[side]} {t('points', lang)}")
            break
    return " · ".join(parts)


def _wrap(text: str, width: float, size: int) -> list[str]:
    f = font(size)
    words = text.split(" ")
    lines, line = [], ""
    for w in words:
        cand = f"{line} {w}".strip()
        if f.getlength(cand) <= width or not line:
            line = cand
        else:
            lines.append(line)
            line = w
    if line:
        lines.append(line)
    return lines


def build_deal_summary(state: dict, names: list[str], deal_index: int = -1, *, lang: str = "en") -> Image.Image:
    results = state.get("deal_results") or []
    game = state.get("game", "")
    if not results:
        raise ValueError("no finished deal to summarise")
    index = deal_index if deal_index >= 0 else len(results) + deal_index
    result = results[index]
    after = scores_after(state)[index]
    change = result.get("score_change") or [0] * len(after)
    before = [a - c for a, c in zip(after, change, strict=False)]
    k = len(after)
    explain = result.get("explain") if lang == "en" or not result.get("explain_" + lang) else result["explain_" + lang]
    explain_lines = _wrap(explain, W - 2 * PAD - 32, 21) if isinstance(explain, str) and explain else []

    row_h = 62
    height = 86 + PAD + 70 + 50 + row_h * k + 20 + (34 + 30 * len(explain_lines) if explain_lines else 0) + PAD
    img = Image.new("RGB", (W, height), theme.PAGE)
    draw = ImageDraw.Draw(img)
    y = _header(draw, f"{game_name(game, lang)} · {t('deal_summary', lang, n=index + 1)}", "")

    # The outcome banner.
    if result.get("thrown_in"):
        banner, colour = t("thrown_in", lang), theme.TEXT_DIM
    elif result.get("made") is True:
        banner, colour = t("made", lang), theme.GOOD
    elif result.get("made") is False and not st.leader_not_contract(state):
        banner, colour = t("failed", lang), theme.BAD
    else:
        banner, colour = "", theme.TEXT
    draw.rounded_rectangle((PAD, y, W - PAD, y + 58), radius=12, fill=theme.PANEL)
    x: float = PAD + 18
    if banner:
        draw.ellipse((x, y + 21, x + 16, y + 37), fill=colour)
        draw_text(draw, (x + 28, y + 29), banner, 26, colour, bold=True, anchor="lm")
        x += 28 + font(26, True).getlength(banner) + 24
    segs = _result_segments(result, state, names, lang)
    if segs:
        draw_segments(img, (x, y + 29), segs, 26, theme.TEXT, bold=True, max_width=W - PAD - 18 - x)
    y += 70

    # One row per side: what it took, then before + change = after.
    cols = (PAD + 18, 520, 640, 780, W - PAD - 18)
    for label, cx, anchor in ((t("before", lang), cols[1] + 50, "mm"), (t("change", lang), cols[2] + 70, "mm"),
                              (t("after", lang), cols[4], "rm")):  # fmt: skip
        draw_text(draw, (cx, y + 20), label.upper(), 17, theme.TEXT_DIM, bold=True, anchor=anchor)
    y += 44
    for side in range(k):
        top = y + side * row_h
        draw.rounded_rectangle((PAD, top, W - PAD, top + row_h - 8), radius=10, fill=theme.PANEL)
        mid = top + (row_h - 8) / 2
        draw.rounded_rectangle((PAD + 12, mid - 10, PAD + 30, mid + 8), radius=4, fill=theme.side_colour(side))
        detail = _details(result, side, state, names, lang)
        name_y = mid - 10 if detail else mid
        draw_text(draw, (PAD + 42, name_y), st.side_name(side, state, names), 24, theme.TEXT, bold=True,
                  anchor="lm", max_width=cols[1] - PAD - 60)  # fmt: skip
        if detail:
            draw_text(draw, (PAD + 42, mid + 15), detail, 18, theme.TEXT_DIM, anchor="lm", max_width=cols[1] - PAD - 60)
        c = change[side] if side < len(change) else 0
        ccol = theme.GOOD if c > 0 else theme.BAD if c < 0 else theme.TEXT_DIM
        draw_text(draw, (cols[1] + 50, mid), st.score_text(state, before[side]), 26, theme.TEXT_DIM, anchor="mm")
        draw_text(draw, (cols[2] + 70, mid), _signed(c), 28, ccol, bold=True, anchor="mm")
        draw_text(draw, (cols[3] - 10, mid), "=", 26, theme.TEXT_DIM, anchor="mm")
        draw_text(draw, (cols[4], mid), st.score_text(state, after[side]), 30, theme.TEXT, bold=True, anchor="rm")
    y += row_h * k + 12

    if explain_lines:  # the engine's own arithmetic, in words
        draw.rounded_rectangle((PAD, y, W - PAD, y + 20 + 30 * len(explain_lines)), radius=10, fill=theme.PANEL)
        for i, line in enumerate(explain_lines):
            draw_text(draw, (PAD + 16, y + 25 + 30 * i), line, 21, theme.TEXT, anchor="lm")
        y += 20 + 30 * len(explain_lines)
    return img.crop((0, 0, W, y + PAD))


def render_deal_summary(state: dict, names: list[str], deal_index: int = -1, *, lang: str = "en") -> bytes:
    """PNG of one entry of ``state["deal_results"]`` (default: the last) with the arithmetic shown."""
    return to_png(build_deal_summary(state, names, deal_index, lang=lang))


# --- the score sheet -------------------------------------------------------------------------------------------

MAX_ROWS = 18


def _chart(img: Image.Image, box: tuple[int, int, int, int], series: list[list[int]], state: dict, lang: str) -> None:
    draw = ImageDraw.Draw(img)
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=12, fill=theme.PANEL)
    draw_text(draw, (x0 + 16, y0 + 12), t("progress", lang).upper(), 17, theme.TEXT_DIM, bold=True)
    levels = st.scores_are_levels(state)
    target = (state.get("options") or {}).get("target")
    values = [v for s in series for v in s]
    lo: float
    hi: float
    lo, hi = min(values + [0]), max(values + [1])
    if levels:
        lo, hi = min(values + [2]), max(values + [14])
    elif isinstance(target, int) and target > 0:
        hi = max(hi, target)
    span = (hi - lo) or 1
    lo, hi = lo - span * 0.05, hi + span * 0.05
    px0, px1, py0, py1 = x0 + 76, x1 - 24, y0 + 46, y1 - 36
    n = max(len(series[0]) - 1, 1) if series else 1

    def X(i: float) -> float:
        return px0 + (px1 - px0) * i / n

    def Y(v: float) -> float:
        return py1 - (py1 - py0) * (v - lo) / (hi - lo)

    # Grid: a few round values (or the levels) on the left.
    if levels:
        ticks: list[float] = [v for v in (2, 5, 8, 11, 14) if lo <= v <= hi]
    else:
        step = _nice_step((hi - lo) / 4)
        start = int(lo // step) * step
        ticks = [start + i * step for i in range(12) if lo <= start + i * step <= hi]
    for v in ticks:
        draw.line((px0, Y(v), px1, Y(v)), fill=theme.PANEL_LIGHT, width=1)
        label = st.level_name(int(v)) if levels else f"{v:g}".replace("-", "−")
        draw_text(draw, (px0 - 10, Y(v)), label, 16, theme.TEXT_DIM, anchor="rm")
    if lo < 0 < hi and not levels:
        draw.line((px0, Y(0), px1, Y(0)), fill=theme.TEXT_DIM, width=2)
    if isinstance(target, int) and not levels and lo <= target <= hi:
        for xs in range(int(px0), int(px1), 14):  # dashed target line
            draw.line((xs, Y(target), min(xs + 7, px1), Y(target)), fill=theme.GOLD, width=2)
    label_every = max(1, n // 10)
    for i in range(0, n + 1, label_every):
        draw_text(draw, (X(i), py1 + 8), str(i), 15, theme.TEXT_DIM, anchor="mt")
    for side, s in enumerate(series):
        colour = theme.side_colour(side)
        pts = [(X(i), Y(v)) for i, v in enumerate(s)]
        if len(pts) > 1:
            draw.line(pts, fill=colour, width=4, joint="curve")
        for x, y in pts if len(pts) <= 30 else pts[-1:]:
            draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=colour)


def _nice_step(raw: float) -> float:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if step >= raw:
            return step
    return 10000


def build_score_sheet(state: dict, names: list[str], *, lang: str = "en") -> Image.Image:
    game = state.get("game", "")
    results = state.get("deal_results") or []
    after = scores_after(state)
    k = len(state.get("scores") or [])
    shown = list(range(len(results)))
    hidden = 0
    if len(shown) > MAX_ROWS:
        hidden = len(shown) - (MAX_ROWS - 1)
        shown = shown[hidden:]
    row_h = 34
    chart_h = 300
    table_h = 44 + row_h * (len(shown) + (1 if hidden else 0)) + 52
    height = 86 + PAD + 10 + chart_h + 16 + table_h + PAD + 20
    img = Image.new("RGB", (W, height), theme.PAGE)
    draw = ImageDraw.Draw(img)
    sub = ""
    winner = state.get("winner")
    if state.get("phase") == "game_over":
        team = isinstance(winner, int) and len(st.side_seats(winner, state, names)) > 1  # "alice & carol win"
        sub = t("win" if team else "wins", lang, name=st.side_name(winner, state, names)) if isinstance(
            winner, int) else t("game_over", lang)  # fmt: skip
    y = _header(draw, f"{game_name(game, lang)} · {t('score_sheet', lang)}", sub)
    if isinstance(winner, int) and sub:
        x = PAD + font(22).getlength(sub) + 14
        draw.rounded_rectangle((x, PAD + 48, x + 20, PAD + 68), radius=4, fill=theme.side_colour(winner))

    series = [[start_scores(state)[s]] + [a[s] for a in after] for s in range(k)]
    _chart(img, (PAD, y, W - PAD, y + chart_h), series, state, lang)
    # Legend under the chart title, right-aligned.
    lx: float = W - PAD - 16
    for side in reversed(range(k)):
        name = fit_text(st.side_name(side, state, names), 180, 18)
        lx -= font(18).getlength(name)
        draw_text(draw, (lx, y + 20), name, 18, theme.TEXT, anchor="lm")
        lx -= 26
        draw.rounded_rectangle((lx, y + 13, lx + 16, y + 27), radius=3, fill=theme.side_colour(side))
        lx -= 18
    y += chart_h + 16

    # The table: deal, contract, then for each side the change and the running total.
    draw.rounded_rectangle((PAD, y, W - PAD, y + table_h), radius=12, fill=theme.PANEL)
    c_deal, c_contract = PAD + 40, PAD + 80
    side_x0 = PAD + 330
    col_w = (W - PAD - 16 - side_x0) / max(k, 1)
    draw_text(draw, (c_deal, y + 22), "#", 18, theme.TEXT_DIM, bold=True, anchor="mm")
    label = t("leader", lang) if st.leader_not_contract(state) else t("contract", lang)
    draw_text(draw, (c_contract, y + 22), label.upper(), 17, theme.TEXT_DIM, bold=True, anchor="lm")
    for side in range(k):
        cx = side_x0 + col_w * (side + 0.5)
        name = fit_text(st.side_name(side, state, names), col_w - 12, 18, True)
        draw_text(draw, (cx, y + 22), name, 18, theme.side_colour(side), bold=True, anchor="mm")
    ry = y + 44
    if hidden:
        draw_text(draw, (c_contract, ry + row_h / 2), t("earlier", lang, n=hidden), 18, theme.TEXT_DIM, anchor="lm")
        ry += row_h
    for i in shown:
        result = results[i]
        if (i - shown[0]) % 2 == 0:
            draw.rectangle((PAD + 8, ry, W - PAD - 8, ry + row_h), fill=theme.PANEL_LIGHT)
        mid = ry + row_h / 2
        draw_text(draw, (c_deal, mid), str(i + 1), 18, theme.TEXT_DIM, anchor="mm")
        segs = [t("thrown_in", lang).split(":")[0]] if result.get("thrown_in") else _result_segments(
            result, state, names, lang)  # fmt: skip
        if segs:
            colour = theme.TEXT
            if result.get("made") is False and not st.leader_not_contract(state):
                colour = theme.BAD
            draw_segments(img, (c_contract, mid), segs, 19, colour, max_width=side_x0 - c_contract - 12)
        change = result.get("score_change") or [0] * k
        for side in range(k):
            cx = side_x0 + col_w * (side + 0.5)
            c = change[side] if side < len(change) else 0
            ccol = theme.GOOD if c > 0 else theme.BAD if c < 0 else theme.TEXT_DIM
            draw_text(draw, (cx - 8, mid), _signed(c), 17, ccol, anchor="rm")
            draw_text(draw, (cx + 4, mid), st.score_text(state, after[i][side]), 20, theme.TEXT, bold=True,
                      anchor="lm")  # fmt: skip
        ry += row_h
    # Totals.
    draw.line((PAD + 8, ry + 6, W - PAD - 8, ry + 6), fill=theme.TEXT_DIM, width=2)
    draw_text(draw, (c_contract, ry + 30), t("total", lang).upper(), 20, theme.TEXT, bold=True, anchor="lm")
    scores = state.get("scores") or []
    for side in range(k):
        cx = side_x0 + col_w * (side + 0.5)
        colour = theme.GOLD if side == winner else theme.TEXT
        draw_text(draw, (cx + 4, ry + 30), st.score_text(state, scores[side]), 24, colour, bold=True, anchor="lm")
    return img.crop((0, 0, W, y + table_h + PAD))


def render_score_sheet(state: dict, names: list[str], *, lang: str = "en") -> bytes:
    """PNG of every deal's result with the running totals and a chart of the scores across deals."""
    return to_png(build_score_sheet(state, names, lang=lang))
