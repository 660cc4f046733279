"""``/hint``'s answer in the player's language: the move as the hand's buttons name it, and the computer's reason
(``Words`` from rules/ai/explain.py) with any move named inside it labelled the same way."""

from __future__ import annotations

from typing import Any

from bot.i18n import _, speaking
from bot.i18n.refusals import refusal_text
from bot.presentation.choices import label
from rules.actions import Action
from rules.errors import Words


def hint_text(table_id: int, action: Action, why: Words, lang: str) -> str:
    with speaking(lang):
        name = label(action.to_json())
        reason = refusal_text(why.msgid, _labelled(why.fields), lang)
        if action.type == "play":
            return _("💡 Table #{table}: the expert would play **{action}** — {why}", table=table_id, action=name,
                     why=reason)  # fmt: skip
        return _("💡 Table #{table}: the expert would choose **{action}** — {why}", table=table_id, action=name,
                 why=reason)  # fmt: skip


def _labelled(fields: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in fields.items():
        if isinstance(value, Action):
            out[key] = label(value.to_json())
        elif isinstance(value, Words):
            out[key] = Words(value.msgid, **_labelled(value.fields))
        else:
            out[key] = value
    return out
