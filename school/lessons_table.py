"""The school's first Hokm lessons: the table (C-2), the deck (C-1), the direction of play (C-2), the hakem and trump (H4-1, H4-2).

Split from ``school.lessons`` (issue 35); ``school.lessons.LESSONS`` gathers every lesson.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.templatetags.persian import localise_digits
from games.engine import CHANCE
from games.engine.cards import suit_of
from games.engine.seats import partner
from games.engine.tricks import winning_index

from .positions import HOKM4, LEARNER, dealt, draw_deck, first_event, play, position
from .steps import (
    BadAnswer,
    Lesson,
    Step,
    Verdict,
    _card,
    _scene,
    _seat,
    _suit,
    card_text,
    seat_name,
    suit_name,
)

# ---------------------------------------------------------------------------------------------
# 1. The table: four players, two sides; the partner sits opposite (C-2).


def _table_check(answer) -> Verdict:
    seat = _seat(answer)
    if seat == LEARNER:
        return Verdict(
            False, "that_is_you", "C-2", _("That is you, at the bottom. Find the one who plays with you.")
        )
    if HOKM4.team_of(seat) != HOKM4.team_of(LEARNER):
        return Verdict(
            False,
            "opponent",
            "C-2",
            _("That player sits beside you: an opponent. Your partner is the one opposite you, at the top."),
        )
    return Verdict(
        True,
        "ok",
        "C-2",
        _(
            "Yes: your partner sits opposite you. You two win or lose together; the two beside you play against you."
        ),
        {"partner": partner(LEARNER, 4)},
    )


L1 = Lesson(
    1,
    gettext_lazy("The table"),
    gettext_lazy(
        "Four people sit round the table in two sides. You are at the bottom; the person opposite you is "
        "your partner, the two beside you are your opponents."
    ),
    [Step("C-2", "seat", gettext_lazy("Click your partner."), lambda: _scene(), _table_check)],
)


# ---------------------------------------------------------------------------------------------
# 2. The deck: 52 cards, four suits of 13; A K Q J 10 ... 2 (C-1).


def _highest_step(cards: list[str], prompt) -> Step:
    def check(answer) -> Verdict:
        card = _card(answer, cards)
        best = cards[winning_index(cards, None)]  # the engine's own order (C-1, C-4)
        if card == best:
            return Verdict(
                True, "ok", "C-1", _("Yes: %(card)s is the highest of these.") % {"card": card_text(best)}
            )
        return Verdict(
            False,
            "lower_card",
            "C-1",
            _(
                "%(card)s is lower than %(best)s. In every suit the ace is highest, then king, queen, jack, then 10 down to 2."
            )
            % {"card": card_text(card), "best": card_text(best)},
            {"best": best},
        )

    return Step("C-1", "cards", prompt, lambda: _scene(cards=list(cards)), check)


L2 = Lesson(
    2,
    gettext_lazy("The deck"),
    gettext_lazy(
        "Fifty-two cards in four suits of thirteen: spades, hearts, diamonds and clubs. In each suit the ace "
        "is highest, then king, queen and jack, then the numbers from 10 down to 2."
    ),
    [
        _highest_step(
            ["9H", "KH", "4H", "AH", "QH"], gettext_lazy("Which of these hearts is the highest? Click it.")
        ),
        _highest_step(
            ["TS", "7S", "JS", "2S"], gettext_lazy("And of these spades? Careful with the 10 and the jack.")
        ),
    ],
)


# ---------------------------------------------------------------------------------------------
# 3. The direction of play: to the right, counter-clockwise (C-2).

_L3_HANDS = {1: ["KC", "7S", "2H", "9D", "QS"], 2: ["4C"], 3: ["TC"], 4: ["AC"]}


def _l3_state(played: int) -> dict:
    state = position(hakem=1, trump="S", hands=_L3_HANDS)
    for seat, card in [(1, "KC"), (2, "4C")][:played]:
        state, _ = play(state, seat, card)
    return state


def _next_step(played: int, prompt) -> Step:
    def check(answer) -> Verdict:
        seat = _seat(answer)
        turn = _l3_state(played)["turn"]  # the engine says whose turn it is
        if seat == turn:
            return Verdict(
                True,
                "ok",
                "C-2",
                _("Yes. Play always moves to the right: counter-clockwise round the table."),
            )
        if seat in [s for s, _ in _l3_state(played)["trick"]]:
            return Verdict(
                False, "already_played", "C-2", _("That player has already put his card on the table.")
            )
        return Verdict(
            False,
            "wrong_direction",
            "C-2",
            _(
                "Not that way. Play goes to the right (counter-clockwise): after each player comes the one on his right."
            ),
            {"turn": turn},
        )

    return Step("C-2", "seat", prompt, lambda: _scene(_l3_state(played)), check)


L3 = Lesson(
    3,
    gettext_lazy("The direction of play"),
    gettext_lazy("Dealing and playing both go to the right: counter-clockwise round the table."),
    [
        _next_step(1, gettext_lazy("You have just played a card. Who plays next? Click him.")),
        _next_step(2, gettext_lazy("The player on your right has played. Who is next now?")),
    ],
)


# ---------------------------------------------------------------------------------------------
# 4. The hakem and trump: the ace draw (H4-1) and naming trump from five cards (H4-2).

_L4_TURNED = ["9D", "KS", "4C", "QH", "7C", "JD", "3H"]  # seats 1, 4, 3, 2, 1, 4, 3: the ace goes to 2
_L4_HAKEM = 2
_L4_FIVE = ["AS", "KS", "9S", "4H", "QD"]


def _draw():
    state = HOKM4.new_match()
    return HOKM4.apply(state, CHANCE, {"type": "draw", "deck": draw_deck(_L4_HAKEM, _L4_TURNED)})


def _draw_scene() -> dict:
    _state, events = _draw()
    return _scene(draw=first_event(events, "hakem")["draw"])


def _draw_check(answer) -> Verdict:
    seat = _seat(answer)
    hakem = _draw()[0]["hakem"]  # the engine's ace draw (D-1)
    if seat == hakem:
        return Verdict(
            True, "ok", "H4-1", _("Yes: the first ace went to him, so he is the hakem of the first round.")
        )
    return Verdict(
        False,
        "no_ace",
        "H4-1",
        _(
            "%(who)s got no ace. Cards are turned one by one, and the first player who gets an ace is the hakem."
        )
        % {"who": seat_name(seat).capitalize()},
        {"hakem": hakem},
    )


def _l4_trump_state() -> dict:
    return dealt(LEARNER, {LEARNER: _L4_FIVE})


def _trump_check(answer) -> Verdict:
    suit = _suit(answer)
    state = _l4_trump_state()
    if {"type": "trump", "suit": suit} not in HOKM4.legal_actions(state, LEARNER):
        raise BadAnswer("not a trump of this step")
    five = state["hands"][LEARNER - 1]
    best = HOKM4.auto_action(state, LEARNER)["suit"]  # the engine's choice of the strongest suit
    count = sum(1 for c in five if suit_of(c) == suit)
    if count < sum(1 for c in five if suit_of(c) == best):
        return Verdict(
            False,
            "weak_trump",
            "H4-2",
            _(
                "Any suit may be trump, but you hold only %(n)s of %(suit)s. Choose the suit you hold most of: "
                "with more trumps you can cut more often."
            )
            % {"n": localise_digits(count), "suit": suit_name(suit)},
            {"best": best},
        )
    after, _events = HOKM4.apply(state, LEARNER, {"type": "trump", "suit": suit})
    return Verdict(
        True,
        "ok",
        "H4-2",
        _("%(suit)s are trump for the whole round. Now everyone gets the rest of his thirteen cards.")
        % {"suit": suit_name(suit).capitalize()},
        {"hand": HOKM4.view(after, LEARNER)["hand"], "trump": suit},
    )


L4 = Lesson(
    4,
    gettext_lazy("The hakem and trump"),
    gettext_lazy(
        "Before the first round, cards are turned face up round the table one at a time; the first player to "
        "get an ace is the hakem. The hakem sees his first five cards and names one suit trump: it beats the "
        "other three suits until the round ends."
    ),
    [
        Step("H4-1", "seat", gettext_lazy("Who is the hakem? Click him."), _draw_scene, _draw_check),
        Step(
            "H4-2",
            "suit",
            gettext_lazy("Now you are the hakem. Look at your five cards and name trump."),
            lambda: _scene(_l4_trump_state()),
            _trump_check,
        ),
    ],
)
