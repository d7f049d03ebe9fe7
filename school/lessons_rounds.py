"""The school's Hokm lessons on counting (H4-4 to H4-7) and the table rules (H4-X1 to H4-X3).

Split from ``school.lessons`` (issue 35); ``school.lessons.LESSONS`` gathers every lesson.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.templatetags.persian import localise_digits
from games.engine import IllegalAction

from .positions import HOKM4, LEARNER, dealt, first_event, play_out, position
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
    suit_name,
)

# ---------------------------------------------------------------------------------------------
# 8. Counting: the round (H4-4), kot and hakem kot (H4-5), the match (H4-6), the next hakem (H4-7).

# The last trick: seat 2 leads, your partner (seat 3) wins it with the ace.
_LAST = {2: ["4S"], 3: ["AS"], 4: ["7S"], 1: ["9S"]}
_LAST_CARDS = ["4S", "AS", "7S", "9S"]
# The same trick won by the opponents: seat 4's ace.
_LOST = {2: ["4S"], 3: ["7S"], 4: ["AS"], 1: ["9S"]}
_LOST_CARDS = ["4S", "7S", "AS", "9S"]


def _round_state(hakem, tricks, score=(0, 0), kot=False, target=7, hands=None):
    rules = {"kot": kot, "target": target}
    # seat 2 leads the last trick: it won the previous one (C-4)
    state = position(
        hakem=hakem,
        trump="H",
        hands=hands or _LAST,
        rules=rules,
        late={"tricks": tricks, "score": list(score)},
    )
    state = dict(state, turn=2, leader=2)
    return state


def _round_scene(state, cards) -> dict:
    hand = [c for c in HOKM4.view(state, LEARNER)["hand"] if c not in cards]
    return _scene(
        state,
        hand=hand,
        trick=[{"seat": s, "card": c} for s, c in zip([2, 3, 4, 1], cards, strict=True)],
        rounds=list(state["score"]),
        target=state["rules"]["target"],
        kot=state["rules"]["kot"],
    )


def _points_step(hakem, tricks, kot, prompt, teach) -> Step:
    def state():
        return _round_state(hakem, tricks, kot=kot)

    def check(answer) -> Verdict:
        if type(answer) is not int or answer not in (1, 2, 3):
            raise BadAnswer("1, 2 or 3")
        _after, events = play_out(state(), _LAST_CARDS)
        won = first_event(events, "round_won")  # the engine counts the round (H4-5)
        points = won["points"]
        if answer == points:
            return Verdict(True, "ok", "H4-5", str(teach), {"points": points})
        return Verdict(
            False,
            "wrong_count",
            "H4-5",
            _("Not %(n)s. %(teach)s") % {"n": localise_digits(answer), "teach": teach},
            {"points": points},
        )

    return Step(
        "H4-5",
        "choice",
        prompt,
        lambda: (
            _round_scene(state(), _LAST_CARDS) | {"choices": [[n, localise_digits(n)] for n in (1, 2, 3)]}
        ),
        check,
    )


def _match_check(answer) -> Verdict:
    if type(answer) is not bool:
        raise BadAnswer("yes or no")
    after, _events = play_out(_round_state(1, [6, 3], score=(6, 5)), _LAST_CARDS)
    over = HOKM4.result(after) is not None  # H4-6
    if answer == over:
        return Verdict(
            True,
            "ok",
            "H4-6",
            _("Yes: your side has reached seven rounds first, so you have won the match."),
        )
    return Verdict(
        False,
        "match_is_over",
        "H4-6",
        _("It is over: the first side to reach the target (here seven rounds) wins the match at once."),
    )


def _next_hakem_check(answer) -> Verdict:
    seat = _seat(answer)
    after, _events = play_out(_round_state(1, [3, 6], hands=_LOST), _LOST_CARDS)
    hakem = after["hakem"]  # the engine moves the hakem (H4-7)
    if seat == hakem:
        return Verdict(
            True,
            "ok",
            "H4-7",
            _("Yes: the hakem's side lost the round, so the hakem moves to the player on his right."),
        )
    return Verdict(
        False,
        "hakem_moves",
        "H4-7",
        _(
            "No. The hakem stays only while his side wins rounds; you were the hakem and lost, so the next "
            "player in play order, the one on your right, becomes hakem."
        ),
        {"hakem": hakem},
    )


L8 = Lesson(
    8,
    gettext_lazy("Counting: round, kot and the match"),
    gettext_lazy(
        "The first side to take seven tricks wins the round; the rest is not played. The first side to win "
        "seven rounds (or the table's target) wins the match."
    ),
    [
        _points_step(
            1,
            [6, 3],
            False,
            gettext_lazy(
                "Your partner takes this trick: your side's seventh. How many rounds does your side get?"
            ),
            gettext_lazy("Seven tricks win the round, and a won round counts one."),
        ),
        _points_step(
            1,
            [6, 0],
            True,
            gettext_lazy(
                "With the kot table rule on: seven tricks to none, and you are the hakem. How many rounds?"
            ),
            gettext_lazy("Seven to none is kot: it counts two rounds instead of one."),
        ),
        _points_step(
            2,
            [6, 0],
            True,
            gettext_lazy(
                "Again seven to none, but this time the hakem sits on the side with no trick. How many rounds?"
            ),
            gettext_lazy("Kot against the hakem's own side is hakem kot: three rounds."),
        ),
        Step(
            "H4-6",
            "choice",
            gettext_lazy(
                "The match is played to seven rounds; your side has six. You win this round. Is the match over?"
            ),
            lambda: (
                _round_scene(_round_state(1, [6, 3], score=(6, 5)), _LAST_CARDS)
                | {"choices": [[True, _("Yes")], [False, _("No")]]}
            ),
            _match_check,
        ),
        Step(
            "H4-7",
            "seat",
            gettext_lazy(
                "You are the hakem, and the opponents take their seventh trick. Who is the next hakem?"
            ),
            lambda: _round_scene(_round_state(1, [3, 6], hands=_LOST), _LOST_CARDS),
            _next_hakem_check,
        ),
    ],
)


# ---------------------------------------------------------------------------------------------
# 9. The table rules: partner's middle card (H4-X1), early play (H4-X2), leading a run (H4-X3).

# Your partner (seat 3) is the hakem; the third card dealt to you (his partner) is the middle card.
_L9_MIDDLE = {1: ["5C", "TS", "8D", "KH", "3C"]}


def _l9_middle_state() -> dict:
    return dealt(3, _L9_MIDDLE, rules={"middle_card": True})


def _middle_check(answer) -> Verdict:
    suit = _suit(answer)
    state = _l9_middle_state()
    after, events = HOKM4.apply(state, 3, {"type": "trump", "suit": "middle"})
    named = first_event(events, "trump_named")
    if suit == after["trump"]:
        return Verdict(
            True,
            "ok",
            "H4-X1",
            _("Yes: the middle card %(card)s was turned face up, so %(suit)s are trump.")
            % {"card": card_text(named["middle"]), "suit": suit_name(after["trump"])},
            {"trump": after["trump"]},
        )
    return Verdict(
        False,
        "middle_suit",
        "H4-X1",
        _("With «partner's middle card» the suit of the card turned face up is trump: %(card)s, so %(suit)s.")
        % {"card": card_text(named["middle"]), "suit": suit_name(after["trump"])},
        {"trump": after["trump"]},
    )


_L9_EARLY = {2: ["JC"], 1: ["8C", "AD", "QC", "7H", "2S", "KD", "9S"]}


def _l9_early_state() -> dict:
    return position(hakem=2, trump="D", hands=_L9_EARLY, rules={"early_play": True}, trick=["JC"])


def _early_check(answer) -> Verdict:
    state = _l9_early_state()
    card = _card(answer, state["hands"][LEARNER - 1])
    try:
        HOKM4.apply(state, LEARNER, {"type": "early", "card": card})
    except IllegalAction as exc:
        legal = [a["card"] for a in HOKM4.legal_actions(state, LEARNER) if a["type"] == "early"]
        return Verdict(
            False,
            exc.code,  # "must_follow_suit"
            "H4-X2",
            _("An early card must already be legal: clubs were led and you hold clubs, so lay a club."),
            {"legal": legal},
        )
    return Verdict(
        True,
        "ok",
        "H4-X2",
        _(
            "Laid face down: the others see only its back. When your turn comes it is played by itself; until "
            "then you may take it back. Then you wait three tricks before the next early card."
        ),
        {"played": card},
    )


# You lead the first trick with A K Q of clubs, A K J of spades and two small trumps (hearts).
_L9_RUN = {1: ["AC", "KC", "QC", "7C", "AS", "KS", "JS", "5H", "3H", "9D", "4D", "8C", "6S"]}


def _l9_run_state() -> dict:
    return position(hakem=1, trump="H", hands=_L9_RUN, rules={"lead_run": True})


def _run_check(answer) -> Verdict:
    suit = _suit(answer)
    state = _l9_run_state()
    runs = [
        a["cards"]
        for a in HOKM4.legal_actions(state, LEARNER)
        if a["type"] == "run" and a["cards"][0][1] == suit
    ]
    if runs:
        cards = max(runs, key=len)
        _after, events = HOKM4.apply(state, LEARNER, {"type": "run", "cards": cards})
        led = first_event(events, "run_led")
        return Verdict(
            True,
            "ok",
            "H4-X3",
            _(
                "Yes: %(cards)s go down together and are led one per trick. Each trick is still answered as "
                "usual, so a plain run can be cut."
            )
            % {"cards": " ".join(card_text(c) for c in led["cards"])},
            {"run": led["cards"]},
        )
    # The run the learner may think he has: A K Q of a plain suit, the two highest trumps out.
    tried = [r + suit for r in ("AKQ" if suit != state["trump"] else "AK")]
    try:
        HOKM4.apply(state, LEARNER, {"type": "run", "cards": tried})
    except IllegalAction as exc:
        return Verdict(
            False,
            exc.code,  # "bad_run"
            "H4-X3",
            _(
                "No run in %(suit)s: a run is the ace, king and queen of a plain suit, or in trumps two or more "
                "of the highest trumps still out. Look for the suit where you hold all three."
            )
            % {"suit": suit_name(suit)},
        )
    raise AssertionError("the lesson's hand holds one run only")  # pragma: no cover


L9 = Lesson(
    9,
    gettext_lazy("The table rules"),
    gettext_lazy(
        "Every table in Iran has its own rules; a room shows its rules before you sit. Three of them: the "
        "partner's middle card, early play, and leading a run."
    ),
    [
        Step(
            "H4-X1",
            "suit",
            gettext_lazy(
                "Your partner is the hakem and says «partner's middle card»: your third card is turned face up. "
                "Which suit is trump?"
            ),
            lambda: _scene(None, hakem=3, middle=_l9_middle_state()["hidden"][LEARNER - 1][2]),
            _middle_check,
        ),
        Step(
            "H4-X2",
            "hand",
            gettext_lazy(
                "At this table early play is on. It is not your turn yet: lay a card face down early."
            ),
            lambda: _scene(_l9_early_state(), rules_on=[str(pgettext_lazy("table rule", "Early play"))]),
            _early_check,
        ),
        Step(
            "H4-X3",
            "suit",
            gettext_lazy(
                "At this table leading a run is on, and you lead the first trick. In which suit may you put "
                "down a run?"
            ),
            lambda: _scene(_l9_run_state(), rules_on=[str(pgettext_lazy("table rule", "Leading a run"))]),
            _run_check,
        ),
    ],
)
