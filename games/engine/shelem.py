"""Shelem for four players (SH-1..SH-11, D-4) and for two (S2-1..S2-8, D-5).

Both variants share one class: the auction, the widow, sars, the trick play
with jokers (through ``tricks``), the points and the match. Two players differ
only in where a card comes from (hand, or the face-up top of a column) and in
the columns' turning (S2-3, S2-6).

Decisions taken here, beyond RULES.md:

- Room option ``lead`` is a multiplier of the round's total points: 0 (no
  lead rule), 1, 2 or 3, i.e. 165/330/495 without jokers and 200/400/600 with
  them (SH-11). ``turn_seconds`` is read by the platform only.
- SH-3: a bid of the maximum (165, 200 with jokers) ends the auction at once;
  nobody is asked to pass and the other seats keep the call they last made.
- SH-4 ``discard``: ``legal_actions`` gives the single template
  ``{"type": "discard", "count": n}`` (the combinations are too many to list);
  ``apply`` accepts ``{"type": "discard", "cards": [...]}`` with n distinct
  cards of the bidder's hand plus widow, and also the template itself (``count``
  without ``cards``): the engine's own put-aside, as ``auto_action`` picks it.
- SH-8 in shelem2 (S2-5): only the leader's opponent can have the duty, in the
  phase where the other joker is playable for him (his hand, or a face-up
  column top); if the leader holds the other joker anywhere, nobody has it.
- Views hide the widow and the put-aside from everyone once the bidder has put
  aside (from himself too), and events never carry them.
"""

from __future__ import annotations

from . import CHANCE
from .base import Game
from .cards import BLACK_JOKER, DECK52, DECK54, JOKERS, POWER, RED_JOKER, SUITS, check_permutation, sort_hand
from .errors import IllegalAction
from .seats import in_order_from, next_seat
from .tricks import overtakes_by_cut, playable, winning_index

MIN_BID = 100
BID_STEP = 5
TRICK_POINTS = 5  # SH-9
WIDOW_BONUS = 5  # SH-4
TRICKS_PER_ROUND = 12
COLUMNS = 3  # S2-1
COLUMN_DEPTH = 4
HAND = 12

CARD_POINTS = {c: 0 for c in DECK54}
for _suit in SUITS:
    CARD_POINTS["A" + _suit] = 10
    CARD_POINTS["T" + _suit] = 10
    CARD_POINTS["5" + _suit] = 5
CARD_POINTS[RED_JOKER] = 20
CARD_POINTS[BLACK_JOKER] = 15
del _suit


def round_total(jokers: bool) -> int:
    """Points in one round: 165, 200 with jokers (SH-9)."""
    return 200 if jokers else 165


def max_bid(jokers: bool) -> int:
    return round_total(jokers)


def round_score(bid: int, bidder_points: int, jokers: bool) -> tuple[int, int]:
    """(bidder side's score, opponents' score) for one round (SH-10)."""
    total = round_total(jokers)
    others = total - bidder_points
    if bidder_points == total:
        return 2 * total, 0  # a full shelem: 330, 400 with jokers
    if bidder_points >= bid:
        return bidder_points, others
    if others > bidder_points:
        return -2 * bid, others
    return -bid, others


def side_scores(bidder_side: int, bid: int, bidder_points: int, jokers: bool) -> list[int]:
    """``round_score`` as [side 0's score, side 1's score]."""
    mine, theirs = round_score(bid, bidder_points, jokers)
    score = [theirs, theirs]
    score[bidder_side] = mine
    return score


def match_winner(totals: tuple[int, int], cap: int, lead: int | None) -> int | None:
    """The side (0 or 1) that won the match, or None to play on (SH-11)."""
    a, b = totals
    if a == b:
        return None  # equal totals: play goes on
    ahead = 0 if a > b else 1
    if max(a, b) >= cap or min(a, b) <= -cap:  # Decision: at or below -cap loses
        return ahead
    if lead and abs(a - b) >= lead:
        return ahead
    return None


def hand_points(cards) -> int:
    return sum(CARD_POINTS[c] for c in cards)


class _Shelem(Game):
    """The rules both variants share; ``players`` and the card sources differ."""

    family = "shelem"
    RULE_OPTIONS = {
        "jokers": {"choices": [False, True], "default": False},
        "cap": {"choices": [300, 600, 900, 1200], "default": 600},
        "lead": {"choices": [0, 1, 2, 3], "default": 0},
        "turn_seconds": {"choices": [10, 20, 30, 60], "default": 30},
    }

    # -- metadata ---------------------------------------------------------

    def new_match(self, rules: dict | None = None) -> dict:
        rules = self.validate_rules(rules)
        return {
            "game": self.name,
            "rules": rules,
            "phase": "deal",
            "round": 0,
            "first_bidder": None,
            "turn": None,
            "hands": [[] for _ in range(self.players)],
            "widow": [],
            "aside": [],
            "bids": [None] * self.players,
            "high_bid": None,
            "high_bidder": None,
            "bidder": None,
            "bid": None,
            "sars": None,
            "trump": None,
            "leader": None,
            "trick": [],
            "tricks": [],
            "points": [0, 0],
            "totals": [0, 0],
            "last_result": None,
            "winner": None,
            **self._extra_state(),
        }

    def _extra_state(self) -> dict:
        return {}

    def pending_chance(self, state: dict):
        if state["phase"] in ("deal", "round_over"):
            return ("deal", DECK54 if state["rules"]["jokers"] else DECK52)
        return None

    def to_act(self, state: dict) -> set[int]:
        phase = state["phase"]
        if phase == "match_over":
            return set()
        if phase == "deal" or phase == "round_over":
            return {CHANCE}
        return {state["turn"]}

    def round_over(self, state: dict) -> bool:
        return state["phase"] in ("round_over", "match_over") and state["round"] > 0

    def result(self, state: dict) -> dict | None:
        if state["phase"] != "match_over":
            return None
        return {"winner": state["winner"], "score": list(state["totals"])}

    # -- legal actions ----------------------------------------------------

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        phase = state["phase"]
        if phase == "deal" or phase == "round_over":
            return [{"type": "deal"}] if seat == CHANCE else []
        if phase == "match_over" or seat != state["turn"]:
            return []
        if phase == "play":
            return [{"type": "play", "card": c} for c in self._playable(state, seat)]
        if phase == "bidding":
            actions = [{"type": "bid", "amount": a} for a in self._bid_amounts(state)]
            if state["high_bid"] is not None:
                actions.append({"type": "pass"})
            return actions
        if phase == "discard":
            return [{"type": "discard", "count": len(state["widow"])}]
        if phase == "sars":
            return [{"type": "sars", "sars": True}, {"type": "sars", "sars": False}]
        return []

    def _bid_amounts(self, state: dict) -> range:
        high = state["high_bid"]
        low = MIN_BID if high is None else high + BID_STEP
        return range(low, max_bid(state["rules"]["jokers"]) + 1, BID_STEP)

    def _sources(self, state: dict, seat: int) -> list[str]:
        """The cards ``seat`` may choose from at this point of the trick."""
        return state["hands"][seat - 1]

    def _not_a_source(self, state: dict, seat: int, card) -> IllegalAction:
        """The refusal of a card ``seat`` cannot play from where the trick now draws."""
        return IllegalAction("not_in_hand", f"{card!r} is not a card you can play from now.")

    def _playable(self, state: dict, seat: int, cards: list[str] | None = None) -> list[str]:
        if cards is None:
            cards = self._sources(state, seat)
        trick = state["trick"]
        if not trick:
            return list(cards)
        duty = self._joker_duty(state, seat, cards)
        if duty:
            return [duty]
        return playable(cards, trick[0], state["trump"])

    def _joker_duty(self, state: dict, seat: int, cards: list[str]) -> str | None:
        """SH-8: the round's first card a joker -> the other joker, if ``cards`` hold it."""
        trick = state["trick"]
        if trick and trick[0] in JOKERS and not state["tricks"] and seat != state["leader"]:
            other = BLACK_JOKER if trick[0] == RED_JOKER else RED_JOKER
            if other in cards:
                return other
        return None

    # -- apply ------------------------------------------------------------

    def apply(self, state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action", "An action is a dict with a 'type'.")
        kind = action["type"]
        phase = state["phase"]
        if phase == "match_over":
            raise IllegalAction("match_over", "The match is over.")
        if phase == "deal" or phase == "round_over":
            if seat != CHANCE:
                raise IllegalAction("not_your_turn", "A deal is due.")
            if kind != "deal":
                raise IllegalAction("bad_action", "Only a deal is possible now.")
            return self._deal(state, action.get("deck"))
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn", f"It is seat {state['turn']}'s turn.")
        if kind == "play":
            if phase != "play":
                raise IllegalAction("wrong_phase", f"No card can be played in phase {phase}.")
            return self._play(state, seat, action.get("card"))
        if kind == "bid" or kind == "pass":
            if phase != "bidding":
                raise IllegalAction("wrong_phase", "The auction is over.")
            if kind == "pass":
                return self._pass(state, seat)
            return self._bid(state, seat, action.get("amount"))
        if kind == "discard":
            if phase != "discard":
                raise IllegalAction("wrong_phase", "Nothing to put aside now.")
            return self._discard(state, seat, action)
        if kind == "sars":
            if phase != "sars":
                raise IllegalAction("wrong_phase", "Sars is not chosen now.")
            choice = action.get("sars")
            if not isinstance(choice, bool):
                raise IllegalAction("bad_action", "'sars' must be true or false.")
            return self._choose_sars(state, seat, choice)
        raise IllegalAction("bad_action", f"Unknown action type {kind!r}.")

    # deal (D-4, D-5, SH-2)

    def _first_bidder_from_deck(self, deck: list[str]) -> int:
        """D-4/D-5: the seat of the first ace, card i going to seat 1 + i mod n."""
        for i, card in enumerate(deck):
            if card[0] == "A":
                return next_seat(1, self.players, i)
        raise AssertionError("a deck without an ace")  # pragma: no cover

    def _deal(self, state: dict, deck) -> tuple[dict, list[dict]]:
        jokers = state["rules"]["jokers"]
        deck = check_permutation(deck, DECK54 if jokers else DECK52)
        if state["round"] == 0:
            first = self._first_bidder_from_deck(deck)
        else:
            first = next_seat(state["first_bidder"], self.players)  # SH-2
        s = dict(state)
        s.update(self._layout(deck, first))
        s.update(
            phase="bidding",
            round=state["round"] + 1,
            first_bidder=first,
            turn=first,
            widow=deck[48:],
            aside=[],
            bids=[None] * self.players,
            high_bid=None,
            high_bidder=None,
            bidder=None,
            bid=None,
            sars=None,
            trump=None,
            leader=None,
            trick=[],
            tricks=[],
            points=[0, 0],
        )
        return s, [{"type": "dealt", "round": s["round"], "first_bidder": first}]

    def _layout(self, deck: list[str], first: int) -> dict:
        raise NotImplementedError

    # auction (SH-3)

    def _bid(self, state: dict, seat: int, amount) -> tuple[dict, list[dict]]:
        if type(amount) is not int:
            raise IllegalAction("bad_action", "A bid's amount is a whole number.")
        top = max_bid(state["rules"]["jokers"])
        if amount % BID_STEP:
            raise IllegalAction("bid_not_multiple_of_5", f"{amount} is not a multiple of 5.")
        if amount < MIN_BID:
            raise IllegalAction("bid_below_minimum", f"Bids go from {MIN_BID} to {top}.")
        if amount > top:
            raise IllegalAction("bid_above_maximum", f"Bids go from {MIN_BID} to {top}.")
        if state["high_bid"] is not None and amount <= state["high_bid"]:
            raise IllegalAction("bid_not_higher", f"A bid must be higher than {state['high_bid']}.")
        bids = list(state["bids"])
        bids[seat - 1] = amount
        s = dict(state, bids=bids, high_bid=amount, high_bidder=seat)
        events = [{"type": "bid", "seat": seat, "amount": amount}]
        if amount == top:  # Decision: the maximum ends the auction at once
            return self._auction_won(s, events)
        return self._next_bidder(s, seat, events)

    def _pass(self, state: dict, seat: int) -> tuple[dict, list[dict]]:
        if state["high_bid"] is None:
            raise IllegalAction("first_bidder_must_bid", "The first bidder may not pass.")
        bids = list(state["bids"])
        bids[seat - 1] = "pass"
        s = dict(state, bids=bids)
        return self._next_bidder(s, seat, [{"type": "passed", "seat": seat}])

    def _next_bidder(self, s: dict, seat: int, events: list[dict]):
        bids = s["bids"]
        left = [t for t in range(1, self.players + 1) if bids[t - 1] != "pass"]
        if len(left) == 1:
            return self._auction_won(s, events)
        turn = next_seat(seat, self.players)
        while bids[turn - 1] == "pass":
            turn = next_seat(turn, self.players)
        s["turn"] = turn
        return s, events

    def _auction_won(self, s: dict, events: list[dict]):
        bidder = s["high_bidder"]
        s.update(phase="discard", bidder=bidder, bid=s["high_bid"], turn=bidder)
        events.append({"type": "auction_won", "seat": bidder, "amount": s["bid"]})
        events.append({"type": "widow_taken", "seat": bidder, "count": len(s["widow"])})
        return s, events

    # widow (SH-4) and sars (SH-5)

    def _discard(self, state: dict, seat: int, action: dict) -> tuple[dict, list[dict]]:
        widow = state["widow"]
        n = len(widow)
        pool = state["hands"][seat - 1] + widow
        cards = action.get("cards")
        count = action.get("count")
        if count is not None and count != n:
            raise IllegalAction("bad_discard", f"Exactly {n} cards are put aside.")
        if cards is None:
            if count is None:
                raise IllegalAction("bad_discard", f"Put aside {n} cards.")
            cards = self._auto_discard(state, seat)
        if (
            not isinstance(cards, (list, tuple))
            or len(cards) != n
            or len(set(cards)) != n
            or not all(isinstance(c, str) and c in pool for c in cards)
        ):
            raise IllegalAction("bad_discard", f"Put aside {n} different cards of your hand and the widow.")
        aside = sort_hand(cards)
        hands = list(state["hands"])
        hands[seat - 1] = sort_hand(c for c in pool if c not in aside)
        points = list(state["points"])
        points[self.team_of(seat)] += WIDOW_BONUS + hand_points(aside)
        s = dict(state, hands=hands, widow=[], aside=aside, points=points)
        events = [{"type": "discarded", "seat": seat, "count": n}]
        if state["rules"]["jokers"]:
            s.update(phase="play", leader=seat, turn=seat)  # SH-5: the first card decides
        else:
            s["phase"] = "sars"
        return s, events

    def _choose_sars(self, state: dict, seat: int, sars: bool):
        s = dict(state, sars=sars, phase="play", leader=seat, turn=seat)  # SH-6
        return s, [{"type": "sars_chosen", "seat": seat, "sars": sars}]

    # play (SH-5..SH-9, S2-2..S2-7)

    def _play(self, state: dict, seat: int, card) -> tuple[dict, list[dict]]:
        sources = self._sources(state, seat)
        legal = self._playable(state, seat, sources)
        if card not in legal:
            if card not in sources:
                raise self._not_a_source(state, seat, card)
            if self._joker_duty(state, seat, sources):
                raise IllegalAction("must_play_joker", f"The first trick's joker duty: play {legal[0]}.")
            raise IllegalAction("must_follow_suit", "You must follow the suit led.")
        s = dict(state)
        events: list[dict] = []
        self._take_card(s, seat, card)
        trick = state["trick"] + [card]
        if len(trick) == 1 and not state["tricks"]:
            # SH-5: the round's first card sets trump or sars.
            if state["rules"]["jokers"]:
                s["sars"] = card in JOKERS
            s["trump"] = None if s["sars"] else card[1]
            events.append({"type": "trump_named", "suit": s["trump"], "sars": s["sars"]})
        trump = s["trump"]
        events.append(
            {"type": "card_played", "seat": seat, "card": card, "cut": overtakes_by_cut(trick, trump)}
        )
        self._after_card(s, state, trick, events)
        if len(trick) < 4:
            s["trick"] = trick
            s["turn"] = next_seat(seat, self.players)
            return s, events
        return self._gather(s, trick, events)

    def _take_card(self, s: dict, seat: int, card: str) -> None:
        hands = list(s["hands"])
        hand = list(hands[seat - 1])
        hand.remove(card)
        hands[seat - 1] = hand
        s["hands"] = hands

    def _after_card(self, s: dict, state: dict, trick: list[str], events: list[dict]) -> None:
        pass

    def _gather(self, s: dict, trick: list[str], events: list[dict]):
        leader = s["leader"]
        trump = s["trump"]
        winner = next_seat(leader, self.players, winning_index(trick, trump))
        won = TRICK_POINTS + hand_points(trick)
        points = list(s["points"])
        points[self.team_of(winner)] += won
        tricks = s["tricks"] + [{"leader": leader, "cards": trick, "winner": winner, "points": won}]
        s.update(trick=[], tricks=tricks, points=points, leader=winner, turn=winner)
        events.append({"type": "trick_won", "seat": winner, "cards": list(trick), "points": won})
        self._after_gather(s, events)
        if len(tricks) == TRICKS_PER_ROUND:
            self._score_round(s, events)
        return s, events

    def _after_gather(self, s: dict, events: list[dict]) -> None:
        pass

    def _score_round(self, s: dict, events: list[dict]) -> None:
        rules = s["rules"]
        jokers = rules["jokers"]
        side = self.team_of(s["bidder"])
        score = side_scores(side, s["bid"], s["points"][side], jokers)
        totals = [s["totals"][0] + score[0], s["totals"][1] + score[1]]
        result = {
            "round": s["round"],
            "bidder": s["bidder"],
            "bid": s["bid"],
            "sars": s["sars"],
            "trump": s["trump"],
            "points": list(s["points"]),
            "score": score,
            "totals": totals,
        }
        lead = rules["lead"] * round_total(jokers) or None
        winner = match_winner((totals[0], totals[1]), rules["cap"], lead)
        s.update(
            totals=totals,
            last_result=result,
            turn=None,
            winner=winner,
            phase="round_over" if winner is None else "match_over",
        )
        events.append({"type": "round_scored", **result})
        if winner is not None:
            events.append({"type": "match_won", "winner": winner, "score": list(totals)})

    # -- views ------------------------------------------------------------

    def view(self, state: dict, seat: int | None = None) -> dict:
        phase = state["phase"]
        n = self.players
        to_act = sorted(self.to_act(state))
        viewer = seat if seat in range(1, n + 1) else None
        hand = None
        widow = None
        if viewer is not None:
            hand = list(state["hands"][viewer - 1])
            if phase == "discard" and viewer == state["bidder"]:
                widow = sort_hand(state["widow"])  # SH-4: only now, only to him
                hand = sort_hand(hand + widow)
        leader = state["leader"]
        trick = [{"seat": next_seat(leader, n, i), "card": c} for i, c in enumerate(state["trick"])]
        last = state["tricks"][-1] if state["tricks"] else None
        if last is not None:
            last_trick = {
                "cards": [
                    {"seat": next_seat(last["leader"], n, i), "card": c} for i, c in enumerate(last["cards"])
                ],
                "winner": last["winner"],
                "points": last["points"],
            }
        else:
            last_trick = None
        hand_counts = [len(h) for h in state["hands"]]
        if phase == "discard":
            hand_counts[state["bidder"] - 1] += len(state["widow"])
        return {
            "game": self.name,
            "players": n,
            "phase": phase,
            "viewer": viewer,
            "to_act": to_act,
            "legal": self.legal_actions(state, viewer) if viewer in to_act else [],
            "hand": hand,
            "widow": widow,
            "widow_count": len(state["widow"]) if phase in ("bidding", "discard") else 0,
            "hand_counts": hand_counts,
            "trick": trick,
            "last_trick": last_trick,
            "tricks": [
                {
                    "leader": t["leader"],
                    "cards": list(t["cards"]),
                    "winner": t["winner"],
                    "points": t["points"],
                }
                for t in state["tricks"]
            ],
            "trump": state["trump"],
            "sars": state["sars"],
            "round": state["round"],
            "first_bidder": state["first_bidder"],
            "bids": list(state["bids"]),
            "high_bid": state["high_bid"],
            "high_bidder": state["high_bidder"],
            "bidder": state["bidder"],
            "bid": state["bid"],
            "leader": leader,
            "rules": dict(state["rules"]),
            "score": {
                "points": list(state["points"]),
                "totals": list(state["totals"]),
                "last_result": _copy_result(state["last_result"]),
                "winner": state["winner"],
            },
            **self._extra_view(state, viewer),
        }

    def _extra_view(self, state: dict, viewer: int | None) -> dict:
        return {}

    # -- automatic moves (C-8) --------------------------------------------

    def auto_action(self, state: dict, seat: int) -> dict:
        phase = state["phase"]
        if seat == CHANCE or seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", "Nothing to do for this seat now.")
        if phase == "bidding":
            return self._auto_bid(state, seat)
        if phase == "discard":
            return {"type": "discard", "cards": self._auto_discard(state, seat)}
        if phase == "sars":
            return {"type": "sars", "sars": _prefers_sars(state["hands"][seat - 1])}
        return {"type": "play", "card": self._auto_card(state, seat)}

    def _auto_bid(self, state: dict, seat: int) -> dict:
        amounts = self._bid_amounts(state)
        high_bidder = state["high_bidder"]
        if high_bidder is None:
            return {"type": "bid", "amount": MIN_BID}  # the first bidder must bid
        if high_bidder != seat and self.team_of(high_bidder) == self.team_of(seat):
            return {"type": "pass"}  # never outbid the partner
        estimate = _estimate(state["hands"][seat - 1], state["rules"]["jokers"])
        if amounts and estimate >= amounts[0]:
            return {"type": "bid", "amount": amounts[0]}
        return {"type": "pass"}

    def _auto_discard(self, state: dict, seat: int) -> list[str]:
        """Keep the strong cards: put aside the lowest non-point cards, short suits first."""
        pool = state["hands"][seat - 1] + state["widow"]
        n = len(state["widow"])
        long_suit = _long_suit(pool)
        length = {s: 0 for s in SUITS}
        for c in pool:
            if c not in JOKERS:
                length[c[1]] += 1

        def keep(c: str):
            if c in JOKERS:
                return (3, 0, 0, POWER[c])
            return (2 if CARD_POINTS[c] else 0, c[1] == long_suit, length[c[1]], POWER[c])

        return sort_hand(sorted(pool, key=keep)[:n])

    def _auto_card(self, state: dict, seat: int) -> str:
        legal = self._playable(state, seat)
        if len(legal) == 1:
            return legal[0]
        trick = state["trick"]
        if not trick:
            return _auto_lead(state, legal)
        trump = state["trump"]
        n = self.players
        best = winning_index(trick, trump)
        best_seat = next_seat(state["leader"], n, best)
        last = len(trick) == 3
        cheap = min(legal, key=lambda c: (CARD_POINTS[c], POWER[c], c))
        if self.team_of(best_seat) == self.team_of(seat):
            if last:  # our trick for sure: add points to it
                return max(legal, key=lambda c: (CARD_POINTS[c], -POWER[c], c))
            return cheap
        winners = [c for c in legal if winning_index(trick + [c], trump) == len(trick)]
        if winners:
            return min(winners, key=lambda c: (c in JOKERS, trump is not None and c[1] == trump, POWER[c], c))
        return cheap


def _copy_result(result):
    if result is None:
        return None
    return {k: (list(v) if isinstance(v, list) else v) for k, v in result.items()}


def _long_suit(cards) -> str:
    """The suit a hand would take as trump: the longest, then the strongest."""
    best, best_key = "S", (-1, -1)
    for s in SUITS:
        mine = [c for c in cards if c[1] == s and c not in JOKERS]
        key = (len(mine), sum(POWER[c] for c in mine))
        if key > best_key:
            best, best_key = s, key
    return best


def _estimate(hand, jokers: bool) -> int:
    """How many points a hand hopes to take with the widow: high cards, length, jokers."""
    strength = 0
    lengths = {s: 0 for s in SUITS}
    for c in hand:
        if c == RED_JOKER:
            strength += 25
        elif c == BLACK_JOKER:
            strength += 20
        else:
            lengths[c[1]] += 1
            strength += {"A": 12, "K": 6, "Q": 3, "T": 3}.get(c[0], 0)
    strength += 6 * max(0, max(lengths.values()) - 3)
    return (60 + strength) * round_total(jokers) // 165


def _prefers_sars(hand) -> bool:
    """Sars suits a balanced hand with many aces; a long suit wants trumps."""
    lengths = {s: 0 for s in SUITS}
    for c in hand:
        lengths[c[1]] += 1
    aces = sum(1 for c in hand if c[0] == "A")
    return max(lengths.values()) <= 4 and aces >= 3


def _auto_lead(state: dict, legal: list[str]) -> str:
    if not state["tricks"]:
        # The round's first card sets trump (SH-5): the top of the longest suit.
        if state["sars"] is False or state["rules"]["jokers"]:
            long_suit = _long_suit(legal)
            return max((c for c in legal if c[1] == long_suit and c not in JOKERS), key=POWER.get)
    gone = {c for t in state["tricks"] for c in t["cards"]}
    # The highest ordinary card still out in its suit, points first (a likely winner).
    for c in sorted(legal, key=lambda c: (-CARD_POINTS[c], -POWER[c], c)):
        if c in JOKERS:
            continue
        higher = [h for h in DECK52 if h[1] == c[1] and POWER[h] > POWER[c] and h not in gone]
        if not higher:
            return c
    plain = [c for c in legal if c not in JOKERS and not CARD_POINTS[c]] or legal
    long_suit = _long_suit(plain)
    return min(plain, key=lambda c: (c[1] != long_suit, CARD_POINTS[c], POWER[c], c))


class Shelem4(_Shelem):
    name = "shelem4"
    label = "Shelem"
    players = 4

    def _layout(self, deck: list[str], first: int) -> dict:
        # D-4: four cards to each in play order from the first bidder, three times.
        hands: list[list[str]] = [[] for _ in range(4)]
        order = in_order_from(first, 4)
        for i in range(12):
            seat = order[i % 4]
            hands[seat - 1].extend(deck[4 * i : 4 * i + 4])
        return {"hands": [sort_hand(h) for h in hands]}


class Shelem2(_Shelem):
    name = "shelem2"
    label = "Shelem for two"
    players = 2

    def _extra_state(self) -> dict:
        return {
            "columns": [[[] for _ in range(COLUMNS)] for _ in range(2)],
            "columns_up": False,
            "used": [None, None],
        }

    def _layout(self, deck: list[str], first: int) -> dict:
        # D-5: hands d[0:12], d[12:24]; columns d[24:36], d[36:48], top card first.
        other = next_seat(first, 2)
        hands: list[list[str]] = [[], []]
        columns: list[list[list[str]]] = [[], []]
        hands[first - 1] = sort_hand(deck[0:HAND])
        hands[other - 1] = sort_hand(deck[HAND : 2 * HAND])
        for seat, start in ((first, 24), (other, 36)):
            columns[seat - 1] = [
                deck[start + COLUMN_DEPTH * j : start + COLUMN_DEPTH * (j + 1)] for j in range(COLUMNS)
            ]
        return {"hands": hands, "columns": columns, "columns_up": False, "used": [None, None]}

    def _tops(self, state: dict, seat: int) -> list[str]:
        """The face-up column cards of ``seat`` (S2-3, S2-6, S2-8)."""
        if not state["columns_up"]:
            return []
        used = state["used"][seat - 1]
        return [col[0] for j, col in enumerate(state["columns"][seat - 1]) if col and j != used]

    def _sources(self, state: dict, seat: int) -> list[str]:
        # S2-2/S2-4: hand cards for the trick's first two cards, column tops after.
        if len(state["trick"]) < 2:
            return state["hands"][seat - 1]
        return self._tops(state, seat)

    def _not_a_source(self, state: dict, seat: int, card) -> IllegalAction:
        # S2-2/S2-4: a card of the right kind in the wrong phase says which kind is due.
        if len(state["trick"]) >= 2 and card in state["hands"][seat - 1]:
            return IllegalAction("column_card_due", f"{card!r} is in your hand: a column card is due (S2-4).")
        if len(state["trick"]) < 2 and card in self._tops(state, seat):
            return IllegalAction("hand_card_due", f"{card!r} is a column card: a hand card is due (S2-2).")
        return super()._not_a_source(state, seat, card)

    def _take_card(self, s: dict, seat: int, card: str) -> None:
        if len(s["trick"]) < 2:
            super()._take_card(s, seat, card)
            return
        columns = list(s["columns"])
        mine = list(columns[seat - 1])
        j = next(j for j, col in enumerate(mine) if col and col[0] == card)
        mine[j] = mine[j][1:]
        columns[seat - 1] = mine
        used = list(s["used"])
        used[seat - 1] = j  # the card under it stays face down until the trick is gathered
        s["columns"] = columns
        s["used"] = used

    def _after_card(self, s: dict, state: dict, trick: list[str], events: list[dict]) -> None:
        if len(trick) == 2 and not state["columns_up"]:
            s["columns_up"] = True  # S2-3: after the round's first two cards
            events.append(
                {
                    "type": "columns_turned",
                    "cards": [
                        {"seat": seat, "column": j + 1, "card": col[0]}
                        for seat in (1, 2)
                        for j, col in enumerate(s["columns"][seat - 1])
                        if col
                    ],
                }
            )

    def _after_gather(self, s: dict, events: list[dict]) -> None:
        # S2-6: only now is the card under each used column turned face up.
        turned = []
        for seat in (1, 2):
            j = s["used"][seat - 1]
            if j is not None:
                col = s["columns"][seat - 1][j]
                if col:
                    turned.append({"seat": seat, "column": j + 1, "card": col[0]})
        s["used"] = [None, None]
        if turned:
            events.append({"type": "columns_turned", "cards": turned})

    def _extra_view(self, state: dict, viewer: int | None) -> dict:
        up = state["columns_up"]
        columns = []
        for seat in (1, 2):
            used = state["used"][seat - 1]
            columns.append(
                [
                    {"count": len(col), "top": col[0] if up and col and j != used else None}
                    for j, col in enumerate(state["columns"][seat - 1])
                ]
            )
        return {"columns": columns}


SHELEM4 = Shelem4()
SHELEM2 = Shelem2()

__all__ = ["SHELEM2", "SHELEM4", "CARD_POINTS", "match_winner", "round_score", "round_total"]
