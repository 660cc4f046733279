"""Cards as players type them in their language, rewritten into the short form the parsers read ("AS", "10H", "RJ").

French: rank R (roi), D (dame), V (valet), A (as), 7-10, then the suit P (pique), C (cœur), K (carreau), T (trèfle):
``VC`` is the jack of hearts; the words work too (``valet de cœur``, ``as de pique``).  Chinese: the suit then the
rank, ``红桃A``, ``黑桃10``, ``梅花J``, and ``大王`` / ``小王`` for the red and black jokers, with or without spaces.
Suit symbols (``V♥``, ``♥A``) are read in every language.

A word that reads as a card in the player's language is taken in that language: a French player's ``AC`` is the ace
of hearts (as de cœur), not of clubs.  Anything else is left as typed, for the short form's parser (and its refusal).
"""

from __future__ import annotations

import re

_FR_RANKS = {"R": "K", "D": "Q", "V": "J", "A": "A", "ROI": "K", "DAME": "Q", "VALET": "J", "AS": "A"}
_FR_SUITS = {"P": "S", "C": "H", "K": "D", "T": "C", "PIQUE": "S", "CŒUR": "H", "COEUR": "H", "CARREAU": "D",
             "TRÈFLE": "C", "TREFLE": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}  # fmt: skip
_FR_WORDS = re.compile(r"(roi|dame|valet|as|10|[2-9])\s+(?:de\s+|d')?(pique|cœur|coeur|carreau|trèfle|trefle)s?", re.I)
_FR_SHORT = re.compile(r"^(10|[2-9]|[RDVA])([PCKT♠♥♦♣])$", re.I)

_ZH_SUITS = {"黑桃": "S", "红桃": "H", "方块": "D", "方片": "D", "梅花": "C", "草花": "C",
             "♠": "S", "♥": "H", "♦": "D", "♣": "C"}  # fmt: skip
_ZH_JOKERS = {"大王": "RJ", "小王": "BJ"}
_ZH_CARD = re.compile(r"(大王|小王|(黑桃|红桃|方块|方片|梅花|草花|[♠♥♦♣])\s*(10|[2-9JQKAjqka]))")


def _french(text: str) -> str:
    text = _FR_WORDS.sub(lambda m: _FR_RANKS.get(m[1].upper(), m[1]) + _FR_SUITS[m[2].upper()], text)
    words = []
    for word in re.split(r"([\s,;]+)", text):
        m = _FR_SHORT.match(word)
        words.append(_FR_RANKS.get(m[1].upper(), m[1]) + _FR_SUITS[m[2].upper()] if m else word)
    return "".join(words)


def _chinese(text: str) -> str:
    def card(m: re.Match[str]) -> str:
        if m[1] in _ZH_JOKERS:
            return f" {_ZH_JOKERS[m[1]]} "
        return f" {m[3].upper()}{_ZH_SUITS[m[2]]} "

    return _ZH_CARD.sub(card, text).strip()


def to_short_form(text: str, lang: str) -> str:
    """``text`` with the cards written in ``lang`` rewritten as "AS", "10H"…; other words left as they are."""
    if lang == "fr":
        return _french(text)
    if lang == "zh":
        return _chinese(text)
    return text


_BID_WORDS = {
    "fr": {"tout atout": "tout_atout", "sans atout": "NT", "cœur": "H", "coeur": "H", "pique": "S", "carreau": "D",
           "trèfle": "C", "trefle": "C"},
    "zh": {"红桃": "H", "黑桃": "S", "方块": "D", "梅花": "C", "无主": "NT", "全墩": "capot"},
}  # fmt: skip


def bid_to_short_form(text: str, lang: str) -> str:
    """A bid typed in ``lang`` ("80 cœur", "tout atout", "100 红桃") in the short form ("80 H", "tout_atout")."""
    for word, short in _BID_WORDS.get(lang, {}).items():
        text = re.sub(re.escape(word) + "s?", f" {short} ", text, flags=re.I)
    return " ".join(text.split())
