"""Belote Contrée in a few pages for ``/rules``, from the Federation's rules (seed 002; docs/rules/belote.md)."""

PAGES = (
    (
        "Cards, partners and the bidding",
        "Four players, partners opposite; play goes counter-clockwise. 32 cards (A K Q J 10 9 8 7), eight each.\n\n"
        "Starting right of the dealer, each passes or bids a number of points (80 to 160 in tens, or capot: all the "
        "tricks) with a trump suit, higher than the last bid. An opponent of the highest bidder may counter (the "
        "contract counts double, and bidding stops); the bidder's side may then recounter (four times). Three passes "
        "after a bid or a counter end the bidding; four passes throw the deal in.",
    ),
    (
        "The play",
        "The player right of the dealer leads. Follow suit if you can. If you cannot, you must trump when your "
        "partner is not winning the trick; on a trick already trumped, play a higher trump if you can. On a trump "
        "lead, go higher if you can.\n\n"
        "Trumps from the top: J 9 A 10 K Q 8 7; other suits: A 10 K Q J 9 8 7. Trumps count J 20, 9 14, A 11, 10 10, "
        "K 4, Q 3; other suits A 11, 10 10, K 4, Q 3, J 2. The last trick is worth 10 more (162 in all). Holding "
        "the K and Q of trumps (Belote and Rebelote, said as you play them) is worth 20.\n\n"
        "The last trick can be seen by anyone until the next one is gathered.",
    ),
    (
        "Scoring and the end",
        "The contract is made when the bidders take at least the points bid and more than the defenders. Made: "
        "each side scores what it took, the bidders adding their bid. Failed: the defenders score 160 plus the "
        "bid. Countered, the side that wins scores 160 plus the bid, doubled (four times when recountered).\n\n"
        "The first side to reach the target (1000 by default) wins.",
    ),
)
