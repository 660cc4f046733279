"""Images for the bot: pure Pillow, data in, PNG bytes out.  No discord import; the only files read are render's
own packaged assets (the bundled font)."""

from render.hand import render_hand
from render.leaderboard import render_leaderboard
from render.sheets import render_deal_summary, render_score_sheet
from render.sorting import sort_hand
from render.standings import render_standings
from render.table_png import render_table

__all__ = ["render_hand", "render_table", "render_deal_summary", "render_score_sheet", "render_leaderboard",
           "render_standings", "sort_hand"]  # fmt: skip
