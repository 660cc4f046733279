"""Game words in each language: cards, suits, counts of cards, as the players of each language write them.

French (as at a French card table): roi, dame, valet are R, D, V; pique, cœur, carreau, trèfle; atout, sans atout.
Chinese (simplified, as at a Sheng Ji table): 黑桃, 红桃, 方块, 梅花; 大王 (the red joker), 小王 (the black joker);
主牌 (trumps), 无主 (no trumps); a count of cards is "3张红桃".
"""

from __future__ import annotations

from rules.errors import Term

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LETTERS = {"fr": {"K": "R", "Q": "D", "J": "V"}}
JOKERS = {
    "en": {"JK": "Joker", "BJ": "Black joker", "RJ": "Red joker"},
    "fr": {"JK": "Joker", "BJ": "Petit joker", "RJ": "Grand joker"},
    "zh": {"JK": "王", "BJ": "小王", "RJ": "大王"},
}
SUIT_WORDS = {  # (one, several)
    "fr": {"S": ("pique", "piques"), "H": ("cœur", "cœurs"), "D": ("carreau", "carreaux"), "C": ("trèfle", "trèfles"),
           "NT": ("sans atout", "sans atout"), "trump": ("atout", "atouts"), "card": ("carte", "cartes"),
           "other card": ("autre carte", "autres cartes")},
    "zh": {"S": ("黑桃", "黑桃"), "H": ("红桃", "红桃"), "D": ("方块", "方块"), "C": ("梅花", "梅花"),
           "NT": ("无主", "无主"), "trump": ("主牌", "主牌"), "card": ("牌", "牌"), "other card": ("其他牌", "其他牌")},
}  # fmt: skip

# What a player tried to do, as a verb ("you cannot {action} now"): the action types of rules/actions.py.
ACTION_VERBS = {
    "fr": {"pass": "passer", "bid": "enchérir", "keep": "garder", "counter": "contrer", "recounter": "surcontrer",
           "discard": "écarter", "trump": "nommer l'atout", "call": "appeler", "draw": "piocher", "expose": "montrer",
           "claim_draw": "annuler la donne", "play": "jouer", "undo": "reprendre"},
    "zh": {"pass": "不叫", "bid": "叫牌", "keep": "保留", "counter": "加倍", "recounter": "再加倍", "discard": "扣底",
           "trump": "定主", "call": "叫搭档", "draw": "摸牌", "expose": "亮主", "claim_draw": "要求重发",
           "play": "出牌", "undo": "悔牌"},
}  # fmt: skip
# Five Hundred's contracts that are not a number of tricks in a suit.
CONTRACT_WORDS = {
    "fr": {"misere": "misère", "open_misere": "misère ouverte", "NT": "SA"},
    "zh": {"misere": "不赢", "open_misere": "明牌不赢", "NT": "无主"},
}  # fmt: skip


def card_text(name: str, lang: str) -> str:
    """A card in ``lang``: 10♥ (English), V♥ (French: valet), 红桃J (Chinese), 大王."""
    jokers = JOKERS.get(lang, JOKERS["en"])
    if name in jokers:
        return jokers[name]
    rank, suit = name[:-1], name[-1]
    if suit not in SUIT_SYMBOLS:
        return name
    if lang == "zh":
        return SUIT_WORDS["zh"][suit][0] + rank
    return RANK_LETTERS.get(lang, {}).get(rank, rank) + SUIT_SYMBOLS[suit]


def suit_text(key: str, number: int, lang: str) -> str:
    words = SUIT_WORDS.get(lang)
    if words is None or key not in words:
        return str(Term("suit", key, number))
    one, several = words[key]
    return one if number == 1 else several


def term_text(term: Term, lang: str, seat_names: list[str] | None = None) -> str:
    if term.kind == "card":
        return card_text(term.value, lang)
    if term.kind in ("cards", "cards_spaced"):
        return (", " if term.kind == "cards" and lang != "zh" else "、" if term.kind == "cards" else " ").join(
            card_text(c, lang) for c in term.value
        )
    if term.kind == "action":
        return ACTION_VERBS.get(lang, {}).get(term.value, str(term))
    if term.kind == "contract":
        return contract_text(term.value, lang) or str(term)
    if term.kind == "seat":
        names = seat_names or []
        return names[term.value] if 0 <= term.value < len(names) else str(term)
    if term.kind == "players":  # a side: its players' names
        names = seat_names or []
        if all(0 <= seat < len(names) for seat in term.value):
            return " & ".join(names[seat] for seat in term.value)
        return str(term)
    if term.kind == "suit":
        return suit_text(term.value, term.number, lang)
    if term.kind == "count":
        if lang == "zh":
            return f"{term.number}张{suit_text(term.value, term.number, lang)}"
        return f"{term.number} {suit_text(term.value, term.number, lang)}"
    return str(term)


def contract_text(key: str, lang: str) -> str | None:
    """A contract ("7S", "10NT", "misere") in ``lang``: 7♠, 10 SA, 不赢; None for English (the game's own words)."""
    words = CONTRACT_WORDS.get(lang)
    if words is None:
        return None
    if key in words:
        return words[key]
    tricks, suit = key.rstrip("SHDCNT"), key[len(key.rstrip("SHDCNT")) :]
    if suit == "NT":
        return f"{tricks} {words['NT']}" if lang == "fr" else f"{tricks}{words['NT']}"
    return f"{tricks}{SUIT_SYMBOLS.get(suit, suit)}"
