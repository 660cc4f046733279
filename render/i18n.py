"""The few words the images show, in English, French and Chinese (simplified).  ``t(key, lang)`` falls back to
English for an unknown language or key, so a missing translation never breaks an image."""

from __future__ import annotations

from rules.registry import lookup

LANGS = ("en", "fr", "zh")

LABELS: dict[str, dict[str, str]] = {
    "deal": {"en": "Deal", "fr": "Donne", "zh": "局"},
    "dealer": {"en": "dealer", "fr": "donneur", "zh": "庄"},
    "starter": {"en": "starter", "fr": "premier", "zh": "先摸"},
    "to_play": {"en": "to play", "fr": "à jouer", "zh": "出牌"},
    "to_bid": {"en": "to bid", "fr": "à parler", "zh": "叫牌"},
    "to_act": {"en": "to act", "fr": "à vous", "zh": "轮到"},
    "to_draw": {"en": "drawing", "fr": "pioche", "zh": "摸牌"},
    "contract": {"en": "Contract", "fr": "Contrat", "zh": "定约"},
    "leader": {"en": "Leader", "fr": "Meneur", "zh": "庄家"},
    "trump": {"en": "Trump", "fr": "Atout", "zh": "主牌"},
    "trump_rank": {"en": "Trump rank", "fr": "Rang d'atout", "zh": "级牌"},
    "no_trumps": {"en": "No trumps", "fr": "Sans atout", "zh": "无主"},
    "nt": {"en": "NT", "fr": "SA", "zh": "无主"},  # a contract's no trumps, short: 10 NT, 10 SA
    "none_yet": {"en": "not yet", "fr": "pas encore", "zh": "未定"},
    "misere": {"en": "Misère", "fr": "Misère", "zh": "不赢"},
    "open_misere": {"en": "Open misère", "fr": "Misère ouverte", "zh": "明牌不赢"},
    "capot": {"en": "Capot", "fr": "Capot", "zh": "全墩"},
    "countered": {"en": "countered ×2", "fr": "contré ×2", "zh": "加倍 ×2"},
    "recountered": {"en": "recountered ×4", "fr": "surcontré ×4", "zh": "再加倍 ×4"},
    "alone": {"en": "alone", "fr": "seul", "zh": "单打"},
    "partner_card": {"en": "partner", "fr": "partenaire", "zh": "搭档"},
    "trick_one": {"en": "trick", "fr": "pli", "zh": "墩"},
    "tricks": {"en": "tricks", "fr": "plis", "zh": "墩"},
    "points": {"en": "points", "fr": "points", "zh": "分"},
    "score": {"en": "Score", "fr": "Score", "zh": "得分"},
    "scores": {"en": "Scores", "fr": "Scores", "zh": "比分"},
    "level": {"en": "Level", "fr": "Niveau", "zh": "级"},
    "lead_failed": {
        "en": "{name}'s lead of {cards} failed",
        "fr": "L'entame de {cards} de {name} a échoué",
        "zh": "{name} 甩牌 {cards} 失败",
    },
    "levels": {"en": "Levels", "fr": "Niveaux", "zh": "级别"},
    "target": {"en": "target", "fr": "objectif", "zh": "目标"},
    "last_trick": {"en": "Last trick", "fr": "Dernier pli", "zh": "上一墩"},
    "open_hand": {"en": "Open hand", "fr": "Main ouverte", "zh": "明牌"},
    "exposed": {"en": "showed", "fr": "a montré", "zh": "亮"},
    "joker_as": {"en": "as", "fr": "pour", "zh": "当"},
    "trick": {"en": "Trick", "fr": "Pli", "zh": "本墩"},
    "total": {"en": "Total", "fr": "Total", "zh": "合计"},
    "before": {"en": "before", "fr": "avant", "zh": "之前"},
    "after": {"en": "after", "fr": "après", "zh": "之后"},
    "change": {"en": "this deal", "fr": "cette donne", "zh": "本局"},
    "made": {"en": "Contract made", "fr": "Contrat réussi", "zh": "定约完成"},
    "failed": {"en": "Contract failed", "fr": "Contrat chuté", "zh": "定约失败"},
    "thrown_in": {"en": "Thrown in: nobody bid", "fr": "Donne annulée : tous passent", "zh": "无人叫牌，重新发牌"},
    "annulled": {"en": "Deal annulled", "fr": "Donne annulée", "zh": "本局作废"},
    "no_contract": {"en": "No contract", "fr": "Pas de contrat", "zh": "无定约"},
    "deal_summary": {"en": "Deal {n}", "fr": "Donne {n}", "zh": "第{n}局"},
    "score_sheet": {"en": "Score sheet", "fr": "Feuille de marque", "zh": "记分表"},
    "progress": {"en": "Scores after each deal", "fr": "Scores après chaque donne", "zh": "每局后的比分"},
    "earlier": {"en": "… {n} earlier deals", "fr": "… {n} donnes précédentes", "zh": "… 之前 {n} 局"},
    "winner": {"en": "Winner", "fr": "Vainqueur", "zh": "获胜"},
    "wins": {"en": "{name} wins", "fr": "{name} gagne", "zh": "{name} 获胜"},
    "win": {"en": "{name} win", "fr": "{name} gagnent", "zh": "{name} 获胜"},
    "game_over": {"en": "Game over", "fr": "Partie terminée", "zh": "游戏结束"},
    "no_winner": {"en": "No winner", "fr": "Pas de vainqueur", "zh": "无人获胜"},
    "leaderboard": {"en": "Leaderboard", "fr": "Classement", "zh": "排行榜"},
    "rank": {"en": "#", "fr": "#", "zh": "名次"},
    "player": {"en": "Player", "fr": "Joueur", "zh": "玩家"},
    "rating": {"en": "Rating", "fr": "Cote", "zh": "积分"},
    "games": {"en": "Games", "fr": "Parties", "zh": "局数"},
    "win_rate": {"en": "Win rate", "fr": "Victoires", "zh": "胜率"},
    "page": {"en": "Page {page} of {pages}", "fr": "Page {page} sur {pages}", "zh": "第 {page} / {pages} 页"},
    "no_rows": {"en": "No games played yet", "fr": "Aucune partie jouée", "zh": "还没有对局"},
    # Tournament standings (render/standings.py)
    "standings": {"en": "Standings", "fr": "Classement", "zh": "排名"},
    "st_entrant": {"en": "Player", "fr": "Joueur", "zh": "选手"},
    "st_match_points": {"en": "Match pts", "fr": "Pts match", "zh": "比赛分"},
    "st_cumulative": {"en": "Points", "fr": "Points", "zh": "总分"},
    "st_levels": {"en": "Levels", "fr": "Niveaux", "zh": "升级"},
    "st_matchpoints": {"en": "Matchpoints", "fr": "Points de match", "zh": "比赛分"},
    "st_percent": {"en": "Score %", "fr": "Score %", "zh": "得分率"},
    "st_played": {"en": "Played", "fr": "Joués", "zh": "已打"},
    "st_won": {"en": "Won", "fr": "Gagnés", "zh": "胜"},
    "st_boards": {"en": "Boards", "fr": "Donnes", "zh": "牌局"},
    "st_buchholz": {"en": "Buchholz", "fr": "Buchholz", "zh": "布赫霍尔茨"},
    "st_empty": {"en": "No results yet", "fr": "Pas encore de résultat", "zh": "暂无成绩"},
    "st_more": {"en": "… and {n} more", "fr": "… et {n} autres", "zh": "… 另有 {n} 人"},
    "st_running": {"en": "running", "fr": "en cours", "zh": "进行中"},
    "st_final": {"en": "final", "fr": "final", "zh": "最终"},
    "your_hand": {"en": "Your hand", "fr": "Votre main", "zh": "你的手牌"},
    "kitty": {"en": "Kitty", "fr": "Talon", "zh": "底牌"},
    "declarers": {"en": "declarers", "fr": "preneurs", "zh": "庄家方"},
    "phase_deal": {"en": "Drawing", "fr": "Tirage", "zh": "摸牌"},
    "phase_bidding": {"en": "Bidding", "fr": "Enchères", "zh": "叫牌"},
    "phase_exchange": {"en": "Exchange", "fr": "Écart", "zh": "扣底"},
    "phase_trump": {"en": "Naming trump", "fr": "Choix de l'atout", "zh": "定主"},
    "phase_play": {"en": "Play", "fr": "Jeu", "zh": "出牌"},
    "phase_between_deals": {"en": "Deal over", "fr": "Donne terminée", "zh": "本局结束"},
    "phase_game_over": {"en": "Game over", "fr": "Partie terminée", "zh": "游戏结束"},
    "team": {"en": "Team", "fr": "Équipe", "zh": "队"},
    "S": {"en": "Spades", "fr": "Pique", "zh": "黑桃"},
    "H": {"en": "Hearts", "fr": "Cœur", "zh": "红桃"},
    "D": {"en": "Diamonds", "fr": "Carreau", "zh": "方块"},
    "C": {"en": "Clubs", "fr": "Trèfle", "zh": "梅花"},
}


def t(key: str, lang: str = "en", **fields) -> str:
    entry = LABELS.get(key)
    text = key if entry is None else entry.get(lang) or entry["en"]
    return text.format(**fields) if fields else text


_FR_RANKS = {"K": "R", "Q": "D", "J": "V"}
_FR_SUITS = {"S": "P", "H": "C", "D": "K", "C": "T"}
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_ZH_JOKERS = {"RJ": "大王", "BJ": "小王"}


def face_rank(rank: str, lang: str = "en") -> str:
    """A card face's corner index: French decks print R, D, V on the king, queen and jack; Chinese decks keep the
    letters K, Q, J (as English ones do)."""
    return _FR_RANKS.get(rank, rank) if lang == "fr" else rank


def card_caption(card: str, lang: str = "en") -> str:
    """A card as a player of ``lang`` types it (the caption under it in a hand): 10H; French VC (valet de cœur);
    Chinese ♥A, 大王.  bot/i18n/typed_cards.py reads these back."""
    suit, rank = card[-1:], card[:-1]
    if lang == "fr" and suit in _FR_SUITS and rank:
        return _FR_RANKS.get(rank, rank) + _FR_SUITS[suit]
    if lang == "zh":
        if card in _ZH_JOKERS:
            return _ZH_JOKERS[card]
        if suit in _SYMBOLS and rank:
            return _SYMBOLS[suit] + rank
    return card


def game_name(game: str, lang: str = "en") -> str:
    """The game's name in ``lang``, from its registry entry (the record's id when the game is unknown)."""
    found = lookup(game)
    return found.name(lang) if found else game
