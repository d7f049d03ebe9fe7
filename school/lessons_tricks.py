"""The school's Hokm lessons on the trick: following suit (C-3, H4-3), cutting (C-3, C-4), who wins it (C-4).

Split from ``school.lessons`` (issue 35); ``school.lessons.LESSONS`` gathers every lesson.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import IllegalAction
from games.engine.tricks import winning_index

from .positions import HOKM4, LEARNER, first_event, play, play_out, position
from .steps import (
    Lesson,
    Step,
    Verdict,
    _card,
    _scene,
    card_text,
    seat_name,
    suit_name,
)

# ---------------------------------------------------------------------------------------------
# 5. A trick, following suit (C-3, H4-3).

_L5_HANDS = {2: ["QD"], 3: ["4D"], 4: ["KD"], 1: ["7D", "KH", "AS", "9C", "3D", "JH", "5S"]}
_L5_TRICK = ["QD", "4D", "KD"]


def _l5_state() -> dict:
    return position(hakem=2, trump="H", hands=_L5_HANDS, trick=_L5_TRICK)


def _legal_cards(state, seat) -> list[str]:
    return [a["card"] for a in HOKM4.legal_actions(state, seat) if a["type"] == "play"]


def _follow_check(answer) -> Verdict:
    state = _l5_state()
    card = _card(answer, state["hands"][LEARNER - 1])
    try:
        after, events = play(state, LEARNER, card)
    except IllegalAction as exc:
        lead = state["trick"][0][1]
        return Verdict(
            False,
            exc.code,  # "must_follow_suit"
            "C-3",
            _(
                "Not allowed: %(lead)s was led and you hold %(suit)s, so you must play one of them. "
                "This rule has no way out, not even with a trump."
            )
            % {"lead": card_text(lead), "suit": suit_name(lead[1])},
            {"legal": _legal_cards(state, LEARNER)},
        )
    won = first_event(events, "trick_won")
    return Verdict(
        True,
        "ok",
        "C-3",
        _("Yes: you followed suit. The trick goes to %(who)s.") % {"who": seat_name(won["seat"])},
        {"played": card, "winner": won["seat"]},
    )


L5 = Lesson(
    5,
    gettext_lazy("A trick: following suit"),
    gettext_lazy(
        "Each player puts one card on the table, in turn: that is a trick. The hakem leads the first trick with "
        "any card. If you hold a card of the suit that was led, you must play that suit."
    ),
    [
        Step(
            "C-3",
            "hand",
            gettext_lazy("Diamonds were led. Play a card."),
            lambda: _scene(_l5_state()),
            _follow_check,
        )
    ],
)


# ---------------------------------------------------------------------------------------------
# 6. Cutting: no card of the suit led, so a trump may win (C-3, C-4).

_L6_HANDS = {2: ["AC"], 3: ["5C"], 4: ["KC"], 1: ["4H", "QS", "8D", "2S", "JD", "9H", "6S"]}
_L6_TRICK = ["AC", "5C", "KC"]


def _l6_state() -> dict:
    return position(hakem=2, trump="H", hands=_L6_HANDS, voids={1: "C"}, trick=_L6_TRICK)


def _cut_check(answer) -> Verdict:
    state = _l6_state()
    card = _card(answer, state["hands"][LEARNER - 1])
    after, events = play(state, LEARNER, card)  # every card is legal: no club in hand (C-3)
    won = first_event(events, "trick_won")
    if won["seat"] == LEARNER:
        return Verdict(
            True,
            "ok",
            "C-4",
            _("Cut! You had no club, so you played a trump, and even a small trump beats the ace of clubs."),
            {"played": card, "winner": won["seat"]},
        )
    return Verdict(
        False,
        "does_not_win",
        "C-4",
        _(
            "That card is allowed, but it does not win: the trick goes to %(who)s. With no club you may cut: "
            "play a trump (%(trump)s)."
        )
        % {"who": seat_name(won["seat"]), "trump": suit_name(state["trump"])},
        {"played": card, "winner": won["seat"]},
    )


L6 = Lesson(
    6,
    gettext_lazy("A trick: cutting"),
    gettext_lazy(
        "If you have no card of the suit led, you may play a trump: that is cutting. Or you may throw away "
        "a card of another suit."
    ),
    [
        Step(
            "C-4",
            "hand",
            gettext_lazy("Hearts are trump. Clubs were led and you have none. Win the trick."),
            lambda: _scene(_l6_state()),
            _cut_check,
        )
    ],
)


# ---------------------------------------------------------------------------------------------
# 7. Who wins the trick (C-4).


def _winner_step(hands, voids, trump, cards, prompt, why_wrong) -> Step:
    def state():
        return position(hakem=2, trump=trump, hands=hands, voids=voids)

    def scene():
        st = state()
        trick = [{"seat": s, "card": c} for s, c in zip([2, 3, 4, 1], cards, strict=True)]
        return _scene(st, trick=trick, hand=[])

    def check(answer) -> Verdict:
        card = _card(answer, cards)
        _after, events = play_out(state(), cards)  # the engine plays the whole trick
        won = first_event(events, "trick_won")
        best = won["cards"][winning_index(won["cards"], trump)]
        if card == best:
            return Verdict(
                True,
                "ok",
                "C-4",
                _("Yes: %(card)s wins, and %(who)s leads the next trick.")
                % {"card": card_text(best), "who": seat_name(won["seat"])},
                {"winner": won["seat"]},
            )
        return Verdict(
            False,
            "not_the_winner",
            "C-4",
            str(why_wrong) % {"card": card_text(card), "best": card_text(best)},
            {"winner": won["seat"], "best": best},
        )

    return Step("C-4", "cards", prompt, scene, check)


L7 = Lesson(
    7,
    gettext_lazy("A trick: who wins"),
    gettext_lazy(
        "If nobody cut, the highest card of the suit led wins the trick. If someone cut, the highest trump wins. "
        "A high card of another suit never wins."
    ),
    [
        _winner_step(
            {2: ["9S"], 3: ["KS"], 4: ["AD"], 1: ["2S"]},
            {4: "S"},
            "H",
            ["9S", "KS", "AD", "2S"],
            gettext_lazy("Hearts are trump. Which card wins this trick? Click it."),
            gettext_lazy(
                "%(card)s does not win. Spades were led and nobody cut, so the highest spade wins: %(best)s."
            ),
        ),
        _winner_step(
            {2: ["AS"], 3: ["2H"], 4: ["KS"], 1: ["QS"]},
            {3: "S"},
            "H",
            ["AS", "2H", "KS", "QS"],
            gettext_lazy("And this one? Hearts are trump."),
            gettext_lazy(
                "%(card)s does not win. Someone cut with a trump, so the highest trump wins: %(best)s."
            ),
        ),
    ],
)
