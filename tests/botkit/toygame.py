"""A tiny trick game for the bot's tests: fast, deterministic, and exercising bids, a trump choice and play.

Two to four players, three cards each from the top of the spades and hearts; one bidding round ("bid" 1..3 or
"pass"; all pass throws the deal in), the contractor names trump, then three tricks with follow-suit.  The
contractor's side scores 1 if it takes at least the bid in tricks, else the others score 1.  First to ``target``.
"""

from __future__ import annotations

from rules.actions import Action
from rules.cards import ACE, CARD_NAMES, HEARTS, SPADES, make_pack, suit_of
from rules.errors import IllegalAction
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER, PLAY, TRUMP, Match
from rules.game_type import GameType
from rules.options import Option

TOY_RANKS = range(ACE - 5, ACE + 1)

# Everything the bot, the pictures and the ratings know of this game (the defaults elsewhere).
GAME_TYPE = GameType(
    id="toy",
    names={"en": "Toy", "fr": "Jouet", "zh": "玩具"},
    aliases=("toy",),
    engine="tests.botkit.toygame:ToyGame",
    seat_counts=(2, 3, 4),
)


class ToyGame(Match):
    game_id = "toy"
    OPTIONS = (
        Option("players", 2, "how many players", choices=(2, 3, 4)),
        Option("target", 2, "points to win", kind=int, check=lambda v: None if 1 <= v <= 10 else "1 to 10"),
    )

    def pack(self):
        return make_pack(TOY_RANKS, (SPADES, HEARTS))[: 3 * self.players]

    def hand_sizes(self):
        return [3] * self.players

    def next_dealer(self):
        return (self.dealer + 1) % self.players

    def begin_deal(self, cards):
        self.hands = [list(h) for h in cards.hands]
        self.turn = (self.dealer + 1) % self.players
        self.bids: list[Action] = []
        self.best: Action | None = None
        self.trump_suit: int | None = None
        self.trick: list[tuple[int, int]] = []
        self.won = [0] * self.players
        self.last_trick: list[tuple[int, int]] = []
        self.phase = BIDDING
        if not hasattr(self, "_scores"):
            self._scores = [0] * self.players

    @property
    def to_move(self):
        return None if self.phase in (BETWEEN_DEALS, GAME_OVER) else self.turn

    def hand(self, seat):
        return sorted(self.hands[seat])

    def scores(self):
        return list(getattr(self, "_scores", [0] * self.players))

    def state_json(self):
        return {
            "trump": None if self.trump_suit is None else "SH"[self.trump_suit],
            "contract": None if self.best is None else {"seat": self.best.seat, "value": self.best.value},
            "trick": [{"seat": s, "cards": [CARD_NAMES[c]]} for s, c in self.trick],
            "last_trick": [{"seat": s, "cards": [CARD_NAMES[c]]} for s, c in self.last_trick],
        }

    def legal_actions(self):
        s = self.turn
        if self.phase == BIDDING:
            low = (self.best.value + 1) if self.best else 1
            return [Action(s, "pass")] + [Action(s, "bid", value=v) for v in range(low, 4)]
        if self.phase == TRUMP:
            return [Action(s, "trump", suit=x) for x in (SPADES, HEARTS)]
        if self.phase == PLAY:
            return [Action(s, "play", cards=(c,)) for c in self._playable(s)]
        return []

    def tricks_completed(self):
        return sum(getattr(self, "won", ()))

    def last_completed_trick(self):
        winner = self.turn  # the winner leads next
        return winner, [(s, [c]) for s, c in self.last_trick], winner

    def _playable(self, seat):
        hand = self.hand(seat)
        if self.trick:
            led = suit_of(self.trick[0][1])
            same = [c for c in hand if suit_of(c) == led]
            return same or hand
        return hand

    def apply(self, action):
        self.check_turn(action)
        if action not in self.legal_actions():
            if action.type == "play" and len(action.cards) == 1 and action.cards[0] not in self.hands[action.seat]:
                raise IllegalAction(f"you do not hold {CARD_NAMES[action.cards[0]]}")
            if action.type == "play" and self.phase == PLAY:
                raise IllegalAction("you must follow suit")
            raise IllegalAction(f"you cannot {action.type} now")
        s = action.seat
        if self.phase == BIDDING:
            self.bids.append(action)
            if action.type == "bid":
                self.best = action
            if len(self.bids) == self.players:
                if self.best is None:
                    self._finish(thrown_in=True)
                    return
                self.turn = self.best.seat
                self.phase = TRUMP
            else:
                self.turn = (s + 1) % self.players
        elif self.phase == TRUMP:
            self.trump_suit = action.suit
            self.phase = PLAY
        else:
            c = action.cards[0]
            self.hands[s].remove(c)
            self.trick.append((s, c))
            if len(self.trick) < self.players:
                self.turn = (s + 1) % self.players
                return
            led = suit_of(self.trick[0][1])

            def strength(sc):
                suit = suit_of(sc[1])
                return (suit == self.trump_suit, suit == led, sc[1] & 15)

            winner = max(self.trick, key=strength)[0]
            self.won[winner] += 1
            self.last_trick, self.trick = self.trick, []
            self.turn = winner
            if not self.hands[s]:
                self._finish()

    def _finish(self, thrown_in=False):
        change = [0] * self.players
        made = None
        if not thrown_in:
            made = self.won[self.best.seat] >= self.best.value
            if made:
                change[self.best.seat] = 1
            else:
                change = [0 if p == self.best.seat else 1 for p in range(self.players)]
        self._scores = [a + b for a, b in zip(self._scores, change, strict=True)]
        self.deal_results.append({"score_change": change, "thrown_in": thrown_in, "made": made})
        self.phase = BETWEEN_DEALS
        best = max(self._scores)
        if best >= self.options["target"] and self._scores.count(best) == 1:
            self.winner = self._scores.index(best)
            self.phase = GAME_OVER
