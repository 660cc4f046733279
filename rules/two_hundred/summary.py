"""Two Hundred in a few pages for ``/rules``, from the rule texts (docs/rules/two_hundred.md)."""

PAGES = (
    (
        "Cards, partners and the bidding",
        "Four players, North–South against East–West, partners opposite. A 36-card pack: A K Q J 10 9 8 7 5 of each "
        "suit, nine cards each. Aces and tens are worth 10 points, fives 5: 100 points in the pack.\n\n"
        "Starting left of the dealer, each player bids (50 or more, in steps of 5, higher than the last bid) or "
        "passes; a player who has passed cannot bid again. If all four pass, the deal is thrown in. The highest "
        "bidder is the contractor and names trumps (or the first card they lead does).",
    ),
    (
        "The play",
        "The contractor leads the first trick. Follow suit if you can; otherwise play any card (there is no "
        "obligation to trump or to win the trick). The highest trump wins the trick, or else the highest card of "
        "the suit led. The winner leads the next trick.\n\n"
        "Won tricks lie face down: nobody may look at them again until the end of the play.",
    ),
    (
        "Scoring and the end",
        "If the contractor's side takes at least the points it bid, it scores every point it took; otherwise the bid "
        "is taken off its score. The other side scores the points it took — except that a side already at 100 or "
        "more scores only if one of its players bid in that auction.\n\n"
        "The first side to reach 200 wins (the bidding side if both do on the same deal). A side at −200 or worse "
        "while the other is at 0 or more loses.",
    ),
)
