"""The school («مکتب‌خانه»): nine Hokm lessons for someone who never held cards.

Each lesson is a few steps; each step shows a tiny table (``scene``) and asks
the learner to do one thing. ``check(answer)`` decides with the real engine
(``games.engine.get("hokm4")``: ``legal_actions``, ``apply``, and the trick
core's winner) and explains a mistake with the rule's id from RULES.md.
The browser only draws scenes and sends answers; it knows no rule.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.templatetags.persian import localise_digits
from games.engine import CHANCE, IllegalAction
from games.engine.cards import suit_of
from games.engine.seats import partner
from games.engine.tricks import winning_index

from .positions import HOKM4, LEARNER, dealt, draw_deck, first_event, play, play_out, position
from .steps import (  # noqa: F401 - the building blocks, also read from here
    RANK_TEXT,
    SUIT_SYMBOL,
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


LESSONS: dict[int, Lesson] = {lesson.number: lesson for lesson in (L1, L2, L3, L4, L5, L6, L7, L8, L9)}

from .lessons_more import MORE  # noqa: E402 - issue 38: Shelem and Bridge, built on the steps above

LESSONS.update((lesson.number, lesson) for lesson in MORE)


def check(number: int, step: int, answer) -> Verdict:
    """The lesson's verdict on ``answer`` at ``step`` (raises BadAnswer, KeyError, IndexError)."""
    return LESSONS[number].steps[step].check(answer)
