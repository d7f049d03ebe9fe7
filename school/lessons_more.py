"""Issue 38: the school's lessons for Shelem and Bridge, checked by the real engines like the Hokm lessons.

Shelem (lesson 10): what a trick is worth (SH-9), the auction's steps (SH-3,
decided on a real shelem4 auction), the round's score (SH-10) and the jokers
(SH-7). Bridge (lesson 11): the auction's ladder (B-2), the declarer (B-3),
the opening lead and the dummy (B-4), and the score below the line (B-5).
Every answer is a choice; the engines decide (``games.engine.shelem``,
``games.engine.bridge``, ``games.engine.tricks``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.templatetags.persian import localise_digits
from games import engine
from games.engine import CHANCE
from games.engine.bridge import BID_INDEX, Auction, score_contract
from games.engine.seats import next_seat
from games.engine.shelem import TRICK_POINTS, hand_points, side_scores
from games.engine.tricks import winning_index

from .steps import BadAnswer, Lesson, Step, Verdict, _scene, card_text

SEAT_LETTER = {1: "N", 2: "E", 3: "S", 4: "W"}


def _compass(seat: int) -> str:
    return {1: _("North"), 2: _("East"), 3: _("South"), 4: _("West")}[seat]


def _choice(answer, values):
    if isinstance(answer, bool) or answer not in values:
        raise BadAnswer("not a choice of this step")
    return answer


def _numbers(values):
    return [[n, f"\u2066{localise_digits(n)}\u2069"] for n in values]


# ---------------------------------------------------------------------------------------------
# 10. Shelem: points, the auction, the score, the jokers (SH-3, SH-7, SH-9, SH-10).

_TRICK = ["AS", "TH", "5D", "KC"]


def _points_check(answer) -> Verdict:
    right = hand_points(_TRICK) + TRICK_POINTS  # SH-9: the cards' points and 5 for the trick
    n = _choice(answer, (20, 25, 30))
    if n == right:
        return Verdict(
            True, "ok", "SH-9", _("Yes: the ace 10, the ten 10, the five 5, and 5 for the trick itself.")
        )
    return Verdict(
        False,
        "wrong_points",
        "SH-9",
        _("Not %(n)s. Aces and tens are worth 10, fives 5, other cards nothing, and every trick 5 more.")
        % {"n": localise_digits(n)},
    )


def _auction_state():
    """A real shelem4 auction where the bids have reached 120 (SH-3)."""
    game = engine.get("shelem4")
    state = game.new_match(game.validate_rules({"jokers": False}))
    while True:
        seats = game.to_act(state)
        if CHANCE in seats:
            kind, cards = game.pending_chance(state)
            state, _events = game.apply(state, CHANCE, {"type": kind, "deck": sorted(cards)})
            continue
        seat = min(seats)
        view = game.view(state, seat)
        if view["high_bid"] is not None and view["high_bid"] >= 120:
            return game, state, seat
        amount = 100 if view["high_bid"] is None else 120
        state, _events = game.apply(state, seat, {"type": "bid", "amount": amount})


def _bid_check(answer) -> Verdict:
    game, state, seat = _auction_state()
    n = _choice(answer, (115, 120, 125))
    legal = {a["amount"] for a in game.view(state, seat)["legal"] if a["type"] == "bid"}  # the engine decides
    if n in legal:
        return Verdict(True, "ok", "SH-3", _("Yes: each bid is higher than the last, in steps of 5."))
    return Verdict(
        False,
        "bid_not_higher",
        "SH-3",
        _("The highest bid is 120: a new bid must be higher, in steps of 5 (or pass)."),
    )


def _score_check(answer) -> Verdict:
    right = side_scores(0, 120, 115, False)[0]  # SH-10
    n = _choice(answer, (115, -120, -240))
    if n == right:
        return Verdict(
            True,
            "ok",
            "SH-10",
            _(
                "Yes: short of the bid, the bidder's side loses the bid (twice the bid if the others took more)."
            ),
        )
    return Verdict(
        False,
        "wrong_score",
        "SH-10",
        _("The bid was not reached, so the side scores minus the bid; the others took less, so only once."),
    )


_JOKER_TRICK = ["AS", "BJ", "RJ"]


def _joker_check(answer) -> Verdict:
    card = _choice(answer, tuple(_JOKER_TRICK))
    best = _JOKER_TRICK[winning_index(_JOKER_TRICK, "S")]  # SH-7, the trick core's own order
    if card == best:
        return Verdict(
            True, "ok", "SH-7", _("Yes: the red joker beats the black one, and both beat every card.")
        )
    return Verdict(
        False, "not_the_winner", "SH-7", _("No: the jokers beat every card, and the red beats the black.")
    )


def _joker_name(card: str) -> str:
    return {"RJ": _("Red joker"), "BJ": _("Black joker")}.get(card) or card_text(card)


L10 = Lesson(
    10,
    gettext_lazy("Shelem: bids and points"),
    gettext_lazy(
        "In Shelem the sides bid for the right to name the trump: the bid is the points the side promises to "
        "take. Aces and tens are worth 10, fives 5, and every trick 5 more."
    ),
    [
        Step(
            "SH-9",
            "choice",
            gettext_lazy("Your side won this trick. How many points does it bring?"),
            lambda: _scene(cards=list(_TRICK)) | {"choices": _numbers((20, 25, 30))},
            _points_check,
        ),
        Step(
            "SH-3",
            "choice",
            gettext_lazy("The highest bid so far is 120. Which bid may you make?"),
            lambda: _scene() | {"choices": _numbers((115, 120, 125))},
            _bid_check,
        ),
        Step(
            "SH-10",
            "choice",
            gettext_lazy(
                "Your side bid 120 and took 115 points; the others took 50. What does your side score?"
            ),
            lambda: _scene() | {"choices": _numbers((115, -120, -240))},
            _score_check,
        ),
        Step(
            "SH-7",
            "choice",
            gettext_lazy(
                "Spades are trump. The ace of spades, the black joker and the red joker: which one wins?"
            ),
            lambda: _scene() | {"choices": [[c, _joker_name(c)] for c in _JOKER_TRICK]},
            _joker_check,
        ),
    ],
)


# ---------------------------------------------------------------------------------------------
# 11. Bridge: the ladder of bids, the declarer, the lead and the dummy, the score (B-2..B-5).


def _bid_text(call: str) -> str:
    symbol = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660", "NT": _("NT")}[call[1:]]
    return f"\u2066{localise_digits(call[0])}{symbol}\u2069"


def _ladder_check(answer) -> Verdict:
    call = _choice(answer, ("2C", "1NT"))
    higher = max(("2C", "1NT"), key=BID_INDEX.get)  # B-2: the engine's ladder
    if call == higher:
        return Verdict(
            True, "ok", "B-2", _("Yes: a higher level always outranks a lower one, whatever the suit.")
        )
    return Verdict(
        False,
        "lower_bid",
        "B-2",
        _(
            "No: first the level counts (2 is above 1), then the suit: clubs, diamonds, hearts, spades, notrump."
        ),
    )


_AUCTION = ["1H", "P", "4H", "P", "P", "P"]


def _contract():
    auction = Auction("N")
    for call in _AUCTION:
        auction.call(call)
    return auction.contract


def _declarer_check(answer) -> Verdict:
    seat = _choice(answer, (1, 2, 3, 4))
    declarer = {"N": 1, "E": 2, "S": 3, "W": 4}[_contract().declarer]  # B-3
    if seat == declarer:
        return Verdict(
            True, "ok", "B-3", _("Yes: North named hearts first for his side, so North plays the hand.")
        )
    return Verdict(
        False,
        "not_declarer",
        "B-3",
        _("No: the declarer is the player of the winning side who first named the contract's suit."),
    )


def _lead_check(answer) -> Verdict:
    seat = _choice(answer, (1, 2, 3, 4))
    declarer = {"N": 1, "E": 2, "S": 3, "W": 4}[_contract().declarer]
    leader = next_seat(declarer, 4)  # B-4: declarer's left-hand opponent
    if seat == leader:
        return Verdict(
            True,
            "ok",
            "B-4",
            _(
                "Yes: the player on declarer's left leads; then declarer's partner lays his cards face up: the dummy."
            ),
        )
    return Verdict(
        False, "wrong_leader", "B-4", _("No: the first card comes from the player on declarer's left.")
    )


def _score_below_check(answer) -> Verdict:
    n = _choice(answer, (60, 90, 120))
    right = score_contract(2, "H", 0, False, 8).declarer_below  # B-5
    if n == right:
        return Verdict(True, "ok", "B-5", _("Yes: two odd tricks in hearts, 30 each: 60 below the line."))
    return Verdict(
        False,
        "wrong_score",
        "B-5",
        _("Only the tricks bid count below the line: clubs and diamonds 20 each, hearts and spades 30."),
    )


def _seat_choices():
    return [[s, _compass(s)] for s in (1, 2, 3, 4)]


L11 = Lesson(
    11,
    gettext_lazy("Bridge: the auction and the contract"),
    gettext_lazy(
        "In Bridge the four players bid on a ladder of levels and suits; the last bid is the contract, and the "
        "side that made it must take six tricks plus the level."
    ),
    [
        Step(
            "B-2",
            "choice",
            gettext_lazy("Which bid is higher?"),
            lambda: _scene() | {"choices": [[c, _bid_text(c)] for c in ("2C", "1NT")]},
            _ladder_check,
        ),
        Step(
            "B-3",
            "choice",
            gettext_lazy("North opened 1♥, South jumped to 4♥, and everyone passed. Who is declarer?"),
            lambda: _scene() | {"choices": _seat_choices()},
            _declarer_check,
        ),
        Step(
            "B-4",
            "choice",
            gettext_lazy("North plays 4♥. Who puts down the first card?"),
            lambda: _scene() | {"choices": _seat_choices()},
            _lead_check,
        ),
        Step(
            "B-5",
            "choice",
            gettext_lazy(
                "The contract was 2♥ and declarer took 8 tricks. How many points go below the line?"
            ),
            lambda: _scene() | {"choices": _numbers((60, 90, 120))},
            _score_below_check,
        ),
    ],
)

MORE = (L10, L11)
