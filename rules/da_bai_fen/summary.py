"""Da Bai Fen in a few pages for ``/rules``, from the rule text (seed 004; docs/rules/da_bai_fen.md)."""

PAGES = (
    (
        "Cards, levels and the draw",
        "Four players, partners opposite; play goes counter-clockwise. 54 cards with two jokers; kings and tens "
        "are worth 10, fives 5: 100 points.\n\n"
        "Each side has a level, starting at 2; the declarers' level is the deal's trump rank. Players draw the "
        "cards one by one (twelve each, six left as the kitty). Whoever draws a card of the trump rank may show it "
        "at once: its suit becomes trumps (in the first deal the one who shows it leads and their side declares). "
        "If nobody shows one, the kitty is turned to choose the suit. The leader takes the kitty and puts six "
        "cards back.",
    ),
    (
        "The trumps and the play",
        "Trumps, from the top: the red joker, the black joker, the trump rank in the trump suit, the trump rank in "
        "the other suits, then the rest of the trump suit. The leader plays first.\n\n"
        "You may lead several cards at once: a pair, a run of pairs, or several top cards of one suit (if one of "
        "them can be beaten, the lead fails and only the lowest is played). Follow with as many cards of the suit "
        "led as you can, pairs with pairs. The highest wins; the winner leads next.\n\n"
        "The counting cards the opponents have won lie face up; the other won cards lie face down.",
    ),
    (
        "Scoring and the end",
        "The opponents' points decide (the kitty's counting cards go, doubled, to whoever wins the last trick). "
        "Under 40, the declarers go up a level (two with 0). From 40 the opponents become the declarers, and they "
        "go up a level with 80 (two with 100).\n\n"
        "A side wins when its level goes above the target (A by default).",
    ),
)
