"""Five Hundred in a few pages for ``/rules``, from the rule text (seed 001; docs/rules/five_hundred.md)."""

PAGES = (
    (
        "Cards and the bidding",
        "Three players each for themselves (other forms for 2, 4, 5 or 6 players). 33 cards: A K Q J 10 9 8 7 of each "
        "suit and the Joker; ten cards each and three face down, the widow.\n\n"
        "Starting left of the dealer, each bids a number of tricks (6 to 10) with a trump suit or no trumps, or "
        "misère, or passes; each bid must be worth more than the last (from 6♠ = 40 to 10 NT = 520), and a player "
        "who passed is out of the auction. The highest bidder takes the widow and discards three.",
    ),
    (
        "The trumps and the play",
        "In trumps, from the top: the Joker, the jack of trumps (right bower), the other jack of the same colour "
        "(left bower, which counts as a trump, not as its own suit), then A K Q 10 9 8 7. At no trumps the Joker is "
        "the only trump.\n\n"
        "The bidder leads. Follow suit if you can; otherwise play any card. The highest trump wins, or else the "
        "highest card of the suit led. In misère the bidder must lose every trick.",
    ),
    (
        "Scoring and the end",
        "Making the contract scores its value; failing takes its value off. The other players score 10 for each "
        "trick they took. If everyone passes, the deal is played at no trumps and each scores 10 a trick.\n\n"
        "The first to reach 500 wins (the bidder's score counts first when several would). A player at −500 or "
        "worse ends the game: the highest score wins.",
    ),
)
