"""Hokm: four players (H4) and two players (H2), one trick core.

RULES.md sections C, H4, H2 and D-1..D-3 are the authority; this module is
the engine contract of docs/engine.md for ``hokm4`` and ``hokm2``.

Steps of a match (``state["phase"]``)::

    draw  -> deal -> trump -> [draft (hokm2)] -> play -> round_over -> deal ...
                                                      \\-> match_over

``draw`` and ``deal`` (and ``round_over``, which waits for the next deal) are
chance steps: ``to_act`` is ``{CHANCE}`` and the caller applies
``{"type": "draw"|"deal", "deck": <a permutation of DECK52>}``.

Decisions taken here where RULES.md leaves room (each also in the class
docstrings):

- H4-2: the deal is one chance action with the whole permutation; until trump
  is named every hand but the hakem's is empty and the undealt-to-the-eye
  cards wait in ``state["hidden"]`` (the hakem's eight later cards too).
  hokm2 follows the same rule: the other player's five stay hidden until
  trump is named (H2-3 says nothing; nobody can then be told a card early).
- H4-X1: the middle card (``d[12]``) belongs to the partner's hand from the
  deal. It is face up for everyone (``view["middle"]``) until exactly one of
  three things happens (RULES.md's Decision on early play): the partner picks
  it up (``{"type": "pick_up"}``, his alone, on or off his turn, an event
  ``middle_picked_up``), his first card is actually played (played from the
  hand, led in a run, or an early card turned and played), or he lays the
  middle card itself early (H4-X2; it is then face down). Laying another card
  early is not playing it: the middle card stays up. Like early play,
  ``pick_up`` is accepted from a seat that is not in ``to_act``.
- H4-X2: ``to_act`` holds only the seat whose turn it is (the platform runs a
  clock for it alone); ``legal_actions(state, other_seat)`` still lists that
  seat's ``early`` / ``take_back`` actions and ``apply`` accepts them. An early
  card leaves the hand face down (``state["early"]``); when the turn reaches
  its owner it is played inside the same ``apply`` (a ``card_played`` event
  with ``"early": true``). The three-trick wait starts when the early card is
  played (trick t allows the next one from trick t+4), so a card taken back
  never counts.
- H4-X3: the run's cards leave the hand face up (``state["run"]``, public).
  The first is led at once; each later one is led by the runner at the start
  of the next trick, whoever won the previous one (inside the ``apply`` that
  ends that trick). ``legal_actions`` lists each possible run once, cards
  high to low; ``apply`` accepts the same cards in any order and leads them in
  that order. If the round ends during a run the rest go back to the hand.
- H4-X6: the engine's seats stay physical seats; the draw emits
  ``{"type": "swap_seats", "a": x, "b": y}`` and the platform moves players.
- H4-7: the next hakem is set when the round ends (``round_over`` views show
  who deals next); ``last_result`` keeps the round's own hakem.
"""

from __future__ import annotations

from . import CHANCE
from .base import Game
from .cards import DECK52, POWER, SUITS, check_permutation, sort_hand, suit_of
from .errors import IllegalAction
from .seats import clockwise_from, in_order_from, next_seat, partner, team_of
from .tricks import overtakes_by_cut, playable, winning_index

TRICKS_TO_WIN = 7  # H4-4, H2-1

_BOOL = [False, True]

TABLE_RULES = {
    "tea": {"choices": _BOOL, "default": False},  # H4-X4: tea with the narrator
    "throwing": {"choices": _BOOL, "default": False},  # H4-X5: throwing things
}
"""Table rules the platform alone plays (games/tea.py, rooms' throws): the
engine only validates them, and its views leave them out (they change no card)."""
_SUIT_SET = frozenset(SUITS)  # not `in SUITS`: "SH" is a substring of "SHDC"


def _not_your_turn(seat):
    return IllegalAction("not_your_turn", f"Seat {seat} may not act now.")


def _bad_action(message="Malformed action."):
    return IllegalAction("bad_action", message)


def _is_card(value) -> bool:
    return type(value) is str and value in POWER and value[1] in SUITS


class _Hokm(Game):
    """The trick core shared by hokm4 and hokm2 (C-2..C-4, H4-3..H4-7)."""

    family = "hokm"

    # ------------------------------------------------------------------ state

    def new_match(self, rules=None) -> dict:
        rules = self.validate_rules(rules)
        n = self.players
        state = {
            "game": self.name,
            "rules": rules,
            "phase": "draw",
            "round": 0,
            "hakem": None,
            "hands": [[] for _ in range(n)],
            "hidden": [[] for _ in range(n)],
            "trump": None,
            "turn": None,
            "leader": None,
            "trick": [],  # [[seat, card], ...] in the order played
            "trick_no": 0,  # tricks finished in this round
            "tricks": [0, 0],  # tricks per side, this round
            "won": [[], []],  # cards of the tricks each side took
            "last_trick": None,
            "past_tricks": [],  # this round's finished tricks, as last_trick (public)
            "score": [0, 0],  # rounds per side (points with kot)
            "last_result": None,
            "winner": None,
        }
        state.update(self._extra_state())
        return state

    def _extra_state(self) -> dict:
        return {}

    def pending_chance(self, state):
        phase = state["phase"]
        if phase == "draw":
            return ("draw", DECK52)
        if phase in ("deal", "round_over"):
            return ("deal", DECK52)
        return None

    def round_over(self, state) -> bool:
        return state["phase"] == "round_over"

    def result(self, state):
        if state["phase"] != "match_over":
            return None
        return {"winner": state["winner"], "score": list(state["score"])}

    def to_act(self, state) -> set:
        phase = state["phase"]
        if phase == "play":
            return {state["turn"]}
        if phase == "trump":
            return {state["hakem"]}
        if phase in ("draw", "deal", "round_over"):
            return {CHANCE}
        if phase == "draft":
            return {i + 1 for i, pairs in enumerate(state["pairs"]) if pairs}
        return set()

    # ---------------------------------------------------------------- actions

    def legal_actions(self, state, seat) -> list:
        phase = state["phase"]
        if phase == "play":
            if seat != state["turn"]:
                return self._legal_off_turn(state, seat)
            hand = state["hands"][seat - 1]
            trick = state["trick"]
            if trick:
                cards = playable(hand, trick[0][1], state["trump"])
                actions = [{"type": "play", "card": c} for c in cards]
            else:
                actions = [{"type": "play", "card": c} for c in hand]
                if state["rules"].get("lead_run"):
                    actions += [{"type": "run", "cards": r} for r in self._runs(state, seat)]
            return actions + self._legal_any_turn(state, seat)
        if phase == "trump":
            if seat != state["hakem"]:
                return []
            actions = [{"type": "trump", "suit": s} for s in SUITS]
            if state["rules"].get("middle_card"):
                actions.append({"type": "trump", "suit": "middle"})
            return actions
        if phase in ("draw", "deal", "round_over"):
            if seat != CHANCE:
                return []
            return [{"type": self.pending_chance(state)[0]}]
        if phase == "draft":
            if seat in (1, 2) and state["pairs"][seat - 1]:
                return [{"type": "draft", "take": True}, {"type": "draft", "take": False}]
            return []
        return []

    def _legal_off_turn(self, state, seat) -> list:
        return []

    def _legal_any_turn(self, state, seat) -> list:
        return []

    def _runs(self, state, seat) -> list:
        return []

    def apply(self, state, seat, action):
        if type(action) is not dict:
            raise _bad_action("An action is a dict with a 'type'.")
        kind = action.get("type")
        phase = state["phase"]
        if phase == "play":
            if kind == "play":
                if seat != state["turn"]:
                    raise _not_your_turn(seat)
                card = action.get("card")
                if len(action) != 2 or type(card) is not str:
                    raise _bad_action("A play is {'type': 'play', 'card': card}.")
                return self._apply_play(state, seat, card)
            if kind in ("early", "take_back", "run", "pick_up"):
                return self._apply_special(state, seat, kind, action)
        elif phase == "match_over":
            raise IllegalAction("match_over", "The match is over.")
        elif phase in ("draw", "deal", "round_over"):
            if seat != CHANCE:
                raise _not_your_turn(seat)
            expected = self.pending_chance(state)[0]
            if kind != expected or len(action) != 2 or "deck" not in action:
                raise _bad_action(f"Expected {{'type': {expected!r}, 'deck': [...]}}.")
            deck = check_permutation(action["deck"], DECK52)
            if expected == "draw":
                return self._apply_draw(state, deck)
            return self._apply_deal(state, deck)
        elif phase == "trump":
            if seat != state["hakem"]:
                raise _not_your_turn(seat)
            if kind == "trump":
                if len(action) != 2 or "suit" not in action:
                    raise _bad_action("A trump is {'type': 'trump', 'suit': S|H|D|C}.")
                return self._apply_trump(state, action["suit"])
        elif phase == "draft":
            if seat not in (1, 2) or not state["pairs"][seat - 1]:
                raise _not_your_turn(seat)
            if kind == "draft":
                take = action.get("take")
                if len(action) != 2 or type(take) is not bool:
                    raise _bad_action("A draft is {'type': 'draft', 'take': true|false}.")
                return self._apply_draft(state, seat, take)
        if seat not in self.to_act(state):
            raise _not_your_turn(seat)
        raise _bad_action(f"{kind!r} is not an action of this step ({phase}).")

    def _apply_special(self, state, seat, kind, action):
        raise _bad_action(f"{kind!r} is not an action of {self.name}.")

    # ----------------------------------------------------------- draw (H4-1)

    def _draw_order(self):
        """Seats in the turning order of the ace draw, repeated (D-1)."""
        return clockwise_from(1, self.players) * (52 // self.players)

    def _apply_draw(self, state, deck):
        # D-1: turn cards to seat 1, then clockwise, until an ace appears.
        turned = []
        hakem = None
        for seat, card in zip(self._draw_order(), deck, strict=True):
            turned.append({"seat": seat, "card": card})
            if card[0] == "A":
                hakem = seat
                break
        st = dict(state)
        st["hakem"] = hakem
        st["phase"] = "deal"
        events = [{"type": "hakem", "seat": hakem, "draw": turned}]
        events += self._after_draw(st, deck, len(turned), hakem)
        return st, events

    def _after_draw(self, st, deck, used, hakem) -> list:
        return []

    # --------------------------------------------------------- trick core

    def _apply_play(self, state, seat, card):
        hand = state["hands"][seat - 1]
        if card not in hand:
            raise IllegalAction("not_in_hand", f"{card} is not in seat {seat}'s hand.")
        trick = state["trick"]
        if trick:
            lead = trick[0][1]
            if card[1] != lead[1] and card not in playable(hand, lead, state["trump"]):
                raise IllegalAction("must_follow_suit", f"Seat {seat} must follow {lead[1]} (C-3).")
        st = dict(state)
        st["hands"] = list(state["hands"])
        events = []
        self._put(st, seat, card, events, "hand")
        self._advance(st, events)
        return st, events

    def _put(self, st, seat, card, events, source):
        """Put ``card`` of ``seat`` on the trick (C-3 checked by the caller).

        ``st`` is this apply's own shallow copy; every list changed here is
        replaced, never mutated, so the input state stays untouched.
        """
        if source == "hand":
            hands = st["hands"]
            hand = list(hands[seat - 1])
            hand.remove(card)
            hands[seat - 1] = hand
        trick = st["trick"] + [[seat, card]]
        st["trick"] = trick
        trump = st["trump"]
        # only a trump on a non-trump lead can be a cut; ask the core then.
        cut = card[1] == trump and trick[0][1][1] != trump and overtakes_by_cut([c for _, c in trick], trump)
        event = {"type": "card_played", "seat": seat, "card": card, "cut": cut}
        if source == "early":
            event["early"] = True
        events.append(event)
        self._on_card_put(st, seat)
        if len(trick) == self.players:
            self._finish_trick(st, events)
        else:
            st["turn"] = next_seat(seat, self.players)

    def _on_card_put(self, st, seat):
        pass

    def _advance(self, st, events):
        """Cards that play themselves: none in the trick core."""

    def _finish_trick(self, st, events):
        trick = st["trick"]
        cards = [c for _, c in trick]
        winner = trick[winning_index(cards, st["trump"])][0]
        team = team_of(winner, self.players)
        tricks = list(st["tricks"])
        tricks[team] += 1
        won = list(st["won"])
        won[team] = won[team] + cards
        st["tricks"] = tricks
        st["won"] = won
        st["trick"] = []
        st["trick_no"] += 1
        st["last_trick"] = {"cards": [{"seat": s, "card": c} for s, c in trick], "winner": winner}
        # Every earlier trick of the round, face up when played (public; bots read voids from it).
        st["past_tricks"] = st.get("past_tricks", []) + [st["last_trick"]]
        events.append({"type": "trick_won", "seat": winner, "cards": cards, "tricks": list(tricks)})
        if tricks[team] >= TRICKS_TO_WIN:  # H4-4: the rest is not played
            self._end_round(st, team, events)
        else:
            st["turn"] = st["leader"] = winner  # C-4

    def _end_round(self, st, team, events):
        rules = st["rules"]
        tricks = st["tricks"]
        hakem = st["hakem"]
        hakem_team = team_of(hakem, self.players)
        points = 1
        kot = None
        if rules["kot"] and tricks[team] == sum(tricks):  # H4-5: 7-0
            kot = "kot" if hakem_team == team else "hakem_kot"
            points = 2 if hakem_team == team else 3
        score = list(st["score"])
        score[team] += points
        st["score"] = score
        st["last_result"] = {
            "round": st["round"],
            "hakem": hakem,
            "winner": team,
            "tricks": list(tricks),
            "points": points,
            "kot": kot,
        }
        st["turn"] = None
        self._on_round_end(st)
        events.append(
            {
                "type": "round_won",
                "team": team,
                "points": points,
                "kot": kot,
                "tricks": list(tricks),
                "score": list(score),
            }
        )
        if score[team] >= rules["target"]:  # H4-6
            st["phase"] = "match_over"
            st["winner"] = team
            events.append({"type": "match_won", "team": team, "score": list(score)})
            return
        st["phase"] = "round_over"
        # H4-7: the hakem stays if his side won, else the next seat in play order.
        if hakem_team != team:
            st["hakem"] = next_seat(hakem, self.players)
        events.append({"type": "next_hakem", "seat": st["hakem"], "stays": hakem_team == team})

    def _on_round_end(self, st):
        pass

    def _new_round(self, st, hakem):
        n = self.players
        st["round"] = st["round"] + 1
        st["trump"] = None
        st["trick"] = []
        st["trick_no"] = 0
        st["tricks"] = [0, 0]
        st["won"] = [[], []]
        st["last_trick"] = None
        st["past_tricks"] = []
        st["phase"] = "trump"
        st["turn"] = None
        st["leader"] = hakem
        st["hidden"] = [[] for _ in range(n)]

    # --------------------------------------------------------------- trump

    def _apply_trump(self, state, suit):
        if suit == "middle":
            if not state["rules"].get("middle_card"):
                raise IllegalAction("not_allowed", "Partner's middle card is not a rule of this table.")
        elif type(suit) is not str or suit not in _SUIT_SET:
            raise _bad_action("Trump is one of S H D C.")
        st = dict(state)
        event = {"type": "trump_named", "seat": state["hakem"], "suit": suit, "middle": None}
        self._name_trump(st, suit, event)
        return st, [event]

    def _name_trump(self, st, suit, event):
        raise NotImplementedError

    # ---------------------------------------------------------------- views

    def view(self, state, seat=None) -> dict:
        if seat is not None and seat not in range(1, self.players + 1):
            seat = None
        hands = state["hands"]
        rules = state["rules"]
        v = {
            "game": self.name,
            "players": self.players,
            "phase": state["phase"],
            "viewer": seat,
            "to_act": sorted(self.to_act(state)),
            "legal": self.legal_actions(state, seat) if seat is not None else [],
            "hand": sort_hand(hands[seat - 1]) if seat is not None else None,
            "hand_counts": [len(h) for h in hands],
            "trick": [{"seat": s, "card": c} for s, c in state["trick"]],
            "last_trick": _copy_last_trick(state["last_trick"]),
            "trump": state["trump"],
            "round": state["round"],
            "hakem": state["hakem"],
            "leader": state["leader"],
            "turn": state["turn"],
            "score": {  # H4-8: trump, tricks and rounds of each side
                "rounds": list(state["score"]),
                "tricks": list(state["tricks"]),
                "target": rules["target"],
            },
            "last_result": dict(state["last_result"]) if state["last_result"] else None,
            "past_tricks": [_copy_last_trick(t) for t in state.get("past_tricks", [])],
            "result": self.result(state),
            "rules": {k: v for k, v in rules.items() if k not in TABLE_RULES},
        }
        self._view_extra(state, seat, v)
        return v

    def views(self, state, seats) -> dict:
        """The public view built once, then each seat's own parts (Game.views)."""
        public = None
        out = {}
        for key in seats:
            seat = key if key in range(1, self.players + 1) else None
            if public is None:
                public = self.view(state, None)
            if seat is None:
                out[key] = public
                continue
            v = dict(public)
            v["viewer"] = seat
            v["legal"] = self.legal_actions(state, seat)
            v["hand"] = sort_hand(state["hands"][seat - 1])
            self._view_extra(state, seat, v)
            out[key] = v
        return out

    def _view_extra(self, state, seat, v):
        pass

    # ----------------------------------------------------------- automatic

    def auto_action(self, state, seat) -> dict:
        phase = state["phase"]
        if seat == CHANCE or seat not in self.to_act(state):
            raise _not_your_turn(seat)
        if phase == "trump":
            return {"type": "trump", "suit": _strongest_suit(state["hands"][seat - 1])}
        if phase == "draft":
            first = state["pairs"][seat - 1][0][0]
            take = POWER[first] >= POWER["T" + first[1]] or first[1] == state["trump"]
            return {"type": "draft", "take": take}
        return {"type": "play", "card": self._auto_card(state, seat)}

    def _auto_card(self, state, seat) -> str:
        hand = state["hands"][seat - 1]
        trump = state["trump"]
        trick = state["trick"]

        def cheap(c):  # non-trumps before trumps, then low before high
            return (c[1] == trump, POWER[c])

        if not trick:
            aces = [c for c in hand if c[0] == "A" and c[1] != trump]
            return aces[0] if aces else min(hand, key=cheap)
        cards = [c for _, c in trick]
        legal = playable(hand, cards[0], trump)
        best = trick[winning_index(cards, trump)][0]
        if self.players == 4 and best == partner(seat, 4):
            return min(legal, key=cheap)  # the partner already wins
        n = len(cards)
        winners = [c for c in legal if winning_index(cards + [c], trump) == n]
        if winners:
            return min(winners, key=lambda c: POWER[c])
        return min(legal, key=cheap)


def _copy_last_trick(last):
    if last is None:
        return None
    return {"cards": [dict(x) for x in last["cards"]], "winner": last["winner"]}


def _strongest_suit(hand) -> str:
    """Most cards, counting A 4 K 3 Q 2 J 1 extra; ties in S H D C order."""

    def strength(s):
        return sum(4 + max(0, POWER[c] - 10) for c in hand if c[1] == s)

    return max(SUITS, key=lambda s: (strength(s), -SUITS.index(s)))


class Hokm4(_Hokm):
    """Hokm for four players, seats 1+3 against 2+4 (C-2, H4).

    Table rules (``RULE_OPTIONS``): ``target`` 3/5/7 rounds (H4-6), ``kot``
    (H4-5), ``middle_card`` (H4-X1, default on), ``early_play`` (H4-X2),
    ``lead_run`` (H4-X3), ``ace_partners`` (H4-X6) and ``turn_seconds``,
    which only the platform reads.

    Early play (H4-X2): ``to_act`` returns only the seat whose turn it is, the
    one the platform's clock runs for. A seat that may lay or take back an
    early card is not in ``to_act``, yet ``legal_actions(state, seat)`` lists
    its ``{"type": "early", "card": c}`` or ``{"type": "take_back"}`` and
    ``apply`` accepts them. When the turn reaches a seat with an early card the
    card is played inside the same ``apply`` (``card_played`` with
    ``"early": true``). The three-trick wait is counted from the trick where
    the early card was played; a card taken back does not count.

    Middle card (H4-X1): ``{"type": "trump", "suit": "middle"}`` makes the suit
    of ``d[12]`` (the partner's third card) trump. The card is part of the
    partner's hand and shown to everyone in ``view["middle"]`` until the
    partner picks it up (``{"type": "pick_up"}``, legal for him alone, on or
    off his turn, event ``middle_picked_up``), his first card is played
    (from the hand, in a run, or an early card turned over), or he lays the
    middle card itself early. Another card laid early leaves it up.

    Runs (H4-X3): ``{"type": "run", "cards": [...]}`` on lead: A K Q of a
    non-trump suit, or two or more of the highest trumps not yet played.
    ``legal_actions`` lists each run once, high to low; any order of those
    cards is accepted and is the order they are led, one per trick, by the
    runner (``view["run"]`` shows what is left, to everyone).
    """

    name = "hokm4"
    label = "Hokm"
    players = 4
    RULE_OPTIONS = {
        "target": {"choices": [3, 5, 7], "default": 7},
        "kot": {"choices": _BOOL, "default": False},
        "middle_card": {"choices": _BOOL, "default": True},
        "early_play": {"choices": _BOOL, "default": False},
        "lead_run": {"choices": _BOOL, "default": False},
        "ace_partners": {"choices": _BOOL, "default": False},
        "turn_seconds": {"choices": [10, 20, 30, 60], "default": 30},
        **TABLE_RULES,
    }

    def _extra_state(self) -> dict:
        return {
            "middle": None,  # H4-X1: the face-up middle card while it is visible
            "early": [None, None, None, None],  # H4-X2: face-down early cards
            "early_from": [0, 0, 0, 0],  # H4-X2: first trick each seat may lay early again
            "run": None,  # H4-X3: {"seat": s, "cards": [still to lead]}
        }

    # H4-X6: the draw goes on until an ace reaches another seat.
    def _after_draw(self, st, deck, used, hakem) -> list:
        if not st["rules"]["ace_partners"]:
            return []
        order = self._draw_order()
        turned = []
        mate = None
        for i in range(used, 52):
            seat, card = order[i], deck[i]
            turned.append({"seat": seat, "card": card})
            if card[0] == "A" and seat != hakem:
                mate = seat
                break
        events = [{"type": "partner_draw", "seat": mate, "draw": turned}]
        opposite = partner(hakem, 4)
        if mate is not None and mate != opposite:
            events.append({"type": "swap_seats", "a": mate, "b": opposite})
        return events

    def _apply_deal(self, state, d):
        # D-2: five each from the hakem in play order, then four, then four.
        st = dict(state)
        hakem = st["hakem"]
        self._new_round(st, hakem)
        hands = [None] * 4
        hidden = [None] * 4
        for k, seat in enumerate(in_order_from(hakem, 4)):
            first = d[5 * k : 5 * k + 5]
            later = d[20 + 4 * k : 24 + 4 * k] + d[36 + 4 * k : 40 + 4 * k]
            if seat == hakem:  # H4-2: only the hakem sees cards before trump
                hands[seat - 1] = first
                hidden[seat - 1] = later
            else:
                hands[seat - 1] = []
                hidden[seat - 1] = first + later  # first five first: d[12] is [2]
        st["hands"] = hands
        st["hidden"] = hidden
        st["middle"] = None
        st["early"] = [None, None, None, None]
        st["early_from"] = [0, 0, 0, 0]
        st["run"] = None
        st["turn"] = hakem
        return st, [{"type": "dealt", "round": st["round"], "hakem": hakem}]

    def _name_trump(self, st, suit, event):
        hakem = st["hakem"]
        if suit == "middle":  # H4-X1: the partner's third card, d[12]
            card = st["hidden"][partner(hakem, 4) - 1][2]
            suit = suit_of(card)
            st["middle"] = card
            event["suit"] = suit
            event["middle"] = card
        st["trump"] = suit
        st["hands"] = [h + x for h, x in zip(st["hands"], st["hidden"], strict=True)]
        st["hidden"] = [[], [], [], []]
        st["phase"] = "play"
        st["turn"] = st["leader"] = hakem  # H4-3

    def _on_card_put(self, st, seat):
        # H4-X1: the partner's first card played (not merely laid early) picks the middle card up.
        if st["middle"] is not None and seat == partner(st["hakem"], 4):
            st["middle"] = None

    def _on_round_end(self, st):
        run = st["run"]
        if run is not None:  # H4-4 ended the round inside a run
            hands = list(st["hands"])
            hands[run["seat"] - 1] = hands[run["seat"] - 1] + run["cards"]
            st["hands"] = hands
            st["run"] = None

    def _advance(self, st, events):
        """Play what plays itself: the next card of a run (H4-X3), early cards (H4-X2)."""
        while st["phase"] == "play":
            if not st["trick"]:
                run = st["run"]
                if run is None:
                    return
                card, rest = run["cards"][0], run["cards"][1:]
                st["run"] = {"seat": run["seat"], "cards": rest} if rest else None
                self._put(st, run["seat"], card, events, "run")
                continue
            seat = st["turn"]
            card = st["early"][seat - 1]
            if card is None:
                return
            early = list(st["early"])
            early[seat - 1] = None
            st["early"] = early
            early_from = list(st["early_from"])
            early_from[seat - 1] = st["trick_no"] + 4  # H4-X2: wait three tricks
            st["early_from"] = early_from
            self._put(st, seat, card, events, "early")

    def _legal_off_turn(self, state, seat) -> list:
        # H4-X2: a seat that is not to act may lay a card early or take it back.
        actions = []
        if state["rules"]["early_play"] and seat in (1, 2, 3, 4):
            if state["early"][seat - 1] is not None:
                actions.append({"type": "take_back"})
            else:
                refusal, cards = _early_check(state, seat)
                if refusal is None:
                    actions += [{"type": "early", "card": c} for c in cards]
        return actions + self._legal_any_turn(state, seat)

    def _legal_any_turn(self, state, seat) -> list:
        # H4-X1: the partner may pick the face-up middle card up, on or off his turn.
        if _pick_up_refusal(state, seat) is None:
            return [{"type": "pick_up"}]
        return []

    def _runs(self, state, seat) -> list:
        """H4-X3: the runs the leader may put down, each high to low."""
        if state["run"] is not None or state["trick"]:
            return []
        hand = state["hands"][seat - 1]
        trump = state["trump"]
        runs = []
        for s in SUITS:
            if s != trump and ("A" + s) in hand and ("K" + s) in hand and ("Q" + s) in hand:
                runs.append(["A" + s, "K" + s, "Q" + s])
        # Trumps not yet played are all in hands while nobody has led.
        out = sorted((c for h in state["hands"] for c in h if c[1] == trump), key=POWER.get, reverse=True)
        top = 0
        while top < len(out) and out[top] in hand:
            top += 1
        runs += [out[:k] for k in range(2, top + 1)]
        return runs

    def _apply_special(self, state, seat, kind, action):
        rules = state["rules"]
        if kind == "pick_up":  # H4-X1
            if len(action) != 1:
                raise _bad_action("A pick-up is {'type': 'pick_up'}.")
            refusal = _pick_up_refusal(state, seat)
            if refusal is not None:
                raise refusal
            st = dict(state)
            st["middle"] = None
            return st, [{"type": "middle_picked_up", "seat": seat}]
        if kind == "run":
            if not rules["lead_run"]:
                raise IllegalAction("not_allowed", "Leading a run is not a rule of this table.")
            if seat != state["turn"]:
                raise _not_your_turn(seat)
            cards = action.get("cards")
            if len(action) != 2 or not isinstance(cards, list) or not all(_is_card(c) for c in cards):
                raise _bad_action("A run is {'type': 'run', 'cards': [cards]}.")
            if state["trick"] or state["run"] is not None:
                raise IllegalAction("bad_run", "Only the leader may put down a run.")
            wanted = sorted(cards)
            if len(set(cards)) != len(cards) or not any(sorted(r) == wanted for r in self._runs(state, seat)):
                raise IllegalAction(
                    "bad_run", "Not A K Q of a plain suit nor the highest trumps out (H4-X3)."
                )
            st = dict(state)
            hands = list(state["hands"])
            hands[seat - 1] = [c for c in hands[seat - 1] if c not in cards]
            st["hands"] = hands
            st["run"] = {"seat": seat, "cards": list(cards[1:])}
            events = [{"type": "run_led", "seat": seat, "cards": list(cards)}]
            self._put(st, seat, cards[0], events, "run")
            self._advance(st, events)
            return st, events
        # H4-X2
        if not rules["early_play"]:
            raise IllegalAction("not_allowed", "Early play is not a rule of this table.")
        if seat not in (1, 2, 3, 4):
            raise _not_your_turn(seat)
        i = seat - 1
        if kind == "take_back":
            if len(action) != 1:
                raise _bad_action("A take-back is {'type': 'take_back'}.")
            card = state["early"][i]
            if card is None:
                raise IllegalAction("no_early_card", f"Seat {seat} has no early card to take back.")
            st = dict(state)
            early = list(state["early"])
            early[i] = None
            hands = list(state["hands"])
            hands[i] = hands[i] + [card]
            st["early"] = early
            st["hands"] = hands
            return st, [{"type": "early_taken_back", "seat": seat}]
        card = action.get("card")
        if len(action) != 2 or type(card) is not str:
            raise _bad_action("An early play is {'type': 'early', 'card': card}.")
        refusal, cards = _early_check(state, seat)  # the same check as legal_actions
        if refusal is not None:
            raise refusal
        hand = state["hands"][i]
        if card not in hand:
            raise IllegalAction("not_in_hand", f"{card} is not in seat {seat}'s hand.")
        if card not in cards:
            raise IllegalAction(
                "must_follow_suit", f"Seat {seat} must follow {state['trick'][0][1][1]} (C-3)."
            )
        st = dict(state)
        early = list(state["early"])
        early[i] = card
        hands = list(state["hands"])
        hands[i] = [c for c in hand if c != card]
        st["early"] = early
        st["hands"] = hands
        # H4-X1 Decision: a card laid early is not yet played; the middle card stays
        # face up unless it is the very card laid (then it lies face down).
        if card == state["middle"]:
            st["middle"] = None
        return st, [{"type": "early_laid", "seat": seat}]

    def _view_extra(self, state, seat, v):
        v["middle"] = state["middle"]
        v["early"] = [c is not None for c in state["early"]]
        v["my_early"] = state["early"][seat - 1] if seat is not None else None
        v["early_from"] = list(state["early_from"])
        run = state["run"]
        v["run"] = {"seat": run["seat"], "cards": list(run["cards"])} if run else None


def _pick_up_refusal(state, seat):
    """Why ``seat`` may not pick the middle card up now (H4-X1), or None if he may."""
    if state["middle"] is None:
        return IllegalAction("no_middle_card", "No middle card is face up on the table (H4-X1).")
    if seat != partner(state["hakem"], 4):
        return IllegalAction("not_your_card", "Only the hakem's partner picks the middle card up (H4-X1).")
    return None


def _early_check(state, seat):
    """H4-X2, the one rule of laying a card early, for ``legal_actions`` and ``apply``.

    Returns ``(refusal, cards)``: ``refusal`` is the ``IllegalAction`` that
    refuses any early card of ``seat`` now (None if he may lay one), ``cards``
    the cards he may lay (C-3: legal on the suit led). The table rule and the
    seat's range are the caller's.
    """
    i = seat - 1
    trick = state["trick"]
    if seat == state["turn"]:
        return IllegalAction("your_turn", "It is your turn: play the card."), []
    if not trick:
        return IllegalAction("trick_not_begun", "Early play waits until a trick has begun."), []
    if any(s == seat for s, _ in trick):
        return IllegalAction("already_played", f"Seat {seat} has played to this trick."), []
    if state["early"][i] is not None:
        return IllegalAction("early_already_laid", f"Seat {seat} already has an early card."), []
    if state["trick_no"] < state["early_from"][i]:
        return IllegalAction("early_wait", "Three tricks must pass between early plays (H4-X2)."), []
    return None, playable(state["hands"][i], trick[0][1], state["trump"])


class Hokm2(_Hokm):
    """Hokm for two players (H2), seat 1 against seat 2.

    D-3: the first two 2s of the deal's permutation are removed unseen; each
    player gets five, the hakem names trump, then both draft their eight
    pairs at the same time (``to_act`` holds every seat with pairs left) with
    ``{"type": "draft", "take": true|false}``. A view shows the viewer's own
    current draft card (the first card of his current pair) and, for both
    players, only how many pairs each has drafted (H2-6). The other player's
    five stay hidden until trump is named, as in H4-2.
    """

    name = "hokm2"
    label = "Hokm for two"
    players = 2
    RULE_OPTIONS = {
        "target": {"choices": [3, 5, 7], "default": 7},
        "kot": {"choices": _BOOL, "default": False},
        "turn_seconds": {"choices": [10, 20, 30, 60], "default": 30},
        **TABLE_RULES,
    }

    def _extra_state(self) -> dict:
        return {
            "pairs": [[], []],  # H2-4: the pairs still to draft, first card first
            "refused": [[], []],  # first cards refused (their owner saw them)
            "discarded": [[], []],  # second cards put aside unseen after a take
            "rest": [],  # e[42:50], put aside unseen (H2-5)
            "removed": [],  # the two 2s (H2-2)
        }

    def _apply_deal(self, state, d):
        # D-3: remove the first two 2s; e[0:5] hakem, e[5:10] other, pairs, rest.
        removed = [c for c in d if c[0] == "2"][:2]
        e = [c for c in d if c not in removed]
        st = dict(state)
        hakem = st["hakem"]
        other = next_seat(hakem, 2)
        self._new_round(st, hakem)
        hands = [None, None]
        hidden = [[], []]
        pairs = [None, None]
        hands[hakem - 1] = e[0:5]
        hands[other - 1] = []
        hidden[other - 1] = e[5:10]  # seen once trump is named
        pairs[hakem - 1] = [[e[i], e[i + 1]] for i in range(10, 26, 2)]
        pairs[other - 1] = [[e[i], e[i + 1]] for i in range(26, 42, 2)]
        st["hands"] = hands
        st["hidden"] = hidden
        st["pairs"] = pairs
        st["refused"] = [[], []]
        st["discarded"] = [[], []]
        st["rest"] = e[42:50]
        st["removed"] = removed
        st["turn"] = hakem
        return st, [{"type": "dealt", "round": st["round"], "hakem": hakem}]

    def _name_trump(self, st, suit, event):
        st["trump"] = suit
        st["hands"] = [h + x for h, x in zip(st["hands"], st["hidden"], strict=True)]
        st["hidden"] = [[], []]
        st["phase"] = "draft"  # H2-3: the draft starts after trump is named
        st["turn"] = None

    def _apply_draft(self, state, seat, take):
        i = seat - 1
        pairs = list(state["pairs"])
        first, second = pairs[i][0]
        pairs[i] = pairs[i][1:]
        hands = list(state["hands"])
        st = dict(state)
        if take:  # H2-4: the second card goes aside unseen
            hands[i] = hands[i] + [first]
            discarded = list(state["discarded"])
            discarded[i] = discarded[i] + [second]
            st["discarded"] = discarded
        else:  # the first goes aside, the second joins the hand
            hands[i] = hands[i] + [second]
            refused = list(state["refused"])
            refused[i] = refused[i] + [first]
            st["refused"] = refused
        st["hands"] = hands
        st["pairs"] = pairs
        events = [{"type": "drafted", "seat": seat, "count": 8 - len(pairs[i])}]
        if not pairs[0] and not pairs[1]:  # H2-5: the hakem leads
            st["phase"] = "play"
            st["turn"] = st["leader"] = st["hakem"]
            events.append({"type": "draft_done"})
        return st, events

    def _view_extra(self, state, seat, v):
        pairs = state["pairs"]
        drafting = state["phase"] == "draft"
        v["drafted"] = [8 - len(p) if state["round"] else 0 for p in pairs]
        v["pairs_left"] = [len(p) for p in pairs]
        v["draft_card"] = pairs[seat - 1][0][0] if seat is not None and drafting and pairs[seat - 1] else None


HOKM4 = Hokm4()
HOKM2 = Hokm2()

__all__ = ["HOKM2", "HOKM4", "Hokm2", "Hokm4"]
