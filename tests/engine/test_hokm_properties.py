"""Random-play properties of hokm4 and hokm2 (thousands of rounds per variant).

Hypothesis draws the seeds; each seed drives a ``random.Random`` that plays
whole matches with random table rules, random legal actions (early cards and
take-backs from seats that are not to act, runs, middle card, the hokm2
draft) and random illegal ones. At every step:

- every card is in exactly one place (C-1, D-2, D-3);
- an action that ``legal_actions`` does not list is refused with a code and
  changes nothing (C-6); the listed ones are accepted; ``apply`` never
  changes its input;
- a round ends exactly when a side reaches 7 tricks (H4-4, H2-1);
- the match score is the sum of the round results and ends at the target
  (H4-5, H4-6);
- the state round-trips through JSON;
- no view holds a card its viewer may not see, and the public view holds no
  hand card, no put-aside card and no undrafted card (H4-2, H2-6, R-6).
"""

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import CHANCE, IllegalAction
from games.engine.cards import DECK52

H4 = engine.get("hokm4")
H2 = engine.get("hokm2")
CARD_RE = re.compile(r'"([AKQJT2-9][SHDC])"')
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "database": None}


def random_rules(game, rng, **fixed):
    rules = {k: rng.choice(spec["choices"]) for k, spec in game.RULE_OPTIONS.items()}
    rules.update(fixed)
    return game.validate_rules(rules)


def places(state):
    """Every card of the round with its place; a card in two places shows up twice."""
    out = []
    for h in state["hands"] + state["hidden"]:
        out += h
    out += [c for _, c in state["trick"]]
    out += state["won"][0] + state["won"][1]
    if state["game"] == "hokm4":
        out += [c for c in state["early"] if c is not None]
        if state["run"]:
            out += state["run"]["cards"]
    else:
        for pairs in state["pairs"]:
            for pair in pairs:
                out += pair
        for side in (0, 1):
            out += state["refused"][side] + state["discarded"][side]
        out += state["rest"] + state["removed"]
    return out


def visible(state, seat):
    """The cards ``seat`` (None: anyone) may see now."""
    ok = {c for _, c in state["trick"]}
    if state["last_trick"]:
        ok |= {x["card"] for x in state["last_trick"]["cards"]}
    for trick in state.get("past_tricks", []):  # every earlier trick of the round was played face up
        ok |= {x["card"] for x in trick["cards"]}
    if state["game"] == "hokm4":
        if state["middle"]:
            ok.add(state["middle"])  # H4-X1: face up until picked up
        if state["run"]:
            ok |= set(state["run"]["cards"])  # H4-X3: put down face up
    if seat is not None:
        ok |= set(state["hands"][seat - 1])
        if state["game"] == "hokm4":
            if state["early"][seat - 1]:
                ok.add(state["early"][seat - 1])
        elif state["phase"] == "draft" and state["pairs"][seat - 1]:
            ok.add(state["pairs"][seat - 1][0][0])  # H2-4: his current draft card only
    return ok


def check_views(game, state):
    for seat in list(range(1, game.players + 1)) + [None]:
        view = game.view(state, seat)
        text = json.dumps(view)
        shown = set(CARD_RE.findall(text))
        assert shown <= visible(state, seat), (seat, shown - visible(state, seat))
        if seat is None:
            assert view["hand"] is None and view["legal"] == []
        else:
            assert sorted(view["hand"]) == sorted(state["hands"][seat - 1])
            assert view["legal"] == game.legal_actions(state, seat)
        assert view["hand_counts"] == [len(h) for h in state["hands"]]


def listed(game, state, seat, action):
    legal = game.legal_actions(state, seat)
    if type(action) is not dict:
        return False
    if seat == CHANCE:
        deck = action.get("deck")
        return (
            bool(legal)
            and set(action) == {"type", "deck"}
            and action["type"] == legal[0]["type"]
            and isinstance(deck, list)
            and sorted(deck) == sorted(DECK52)
        )
    if action.get("type") == "run" and isinstance(action.get("cards"), list) and len(action) == 2:
        cards = action["cards"]
        return any(
            a["type"] == "run" and sorted(a["cards"]) == sorted(cards) and len(set(cards)) == len(cards)
            for a in legal
        )
    text = json.dumps(action, sort_keys=True)  # JSON tells 1 from True, == does not
    return any(json.dumps(a, sort_keys=True) == text for a in legal)


def random_action(game, state, rng):
    """Any action at all, legal or not, for any seat."""
    seat = rng.choice([CHANCE, *range(1, game.players + 1), game.players + 1])
    card = rng.choice(DECK52)
    hand = state["hands"][seat - 1] if 1 <= seat <= game.players else []
    if hand and rng.random() < 0.6:
        card = rng.choice(hand)
    kind = rng.randrange(12)
    if kind == 0:
        deck = list(DECK52)
        rng.shuffle(deck)
        if rng.random() < 0.3:
            deck[0] = deck[1]
        return seat, {"type": rng.choice(["deal", "draw"]), "deck": deck}
    if kind == 1:
        return seat, {"type": "trump", "suit": rng.choice(["S", "H", "D", "C", "middle", "X", None])}
    if kind == 2:
        return seat, {"type": "draft", "take": rng.choice([True, False, 1, None])}
    if kind == 3:
        return seat, {"type": "early", "card": card}
    if kind == 4:
        return seat, {"type": "take_back"}
    if kind == 5:
        return seat, {"type": "run", "cards": rng.sample(hand or list(DECK52), min(3, len(hand) or 3))}
    if kind == 6:
        return seat, rng.choice(
            [
                {"type": "play"},
                {"type": "play", "card": card, "x": 1},
                {"card": card},
                "play",
                None,
                {"type": "play", "card": 12},
                {"type": "bid", "amount": 100},
            ]
        )
    return seat, {"type": "play", "card": card}


def choose(game, state, rng):
    """A random legal action (off-turn early cards included) and its seat."""
    seats = game.to_act(state)
    if CHANCE in seats:
        kind, cards = game.pending_chance(state)
        deck = list(cards)
        rng.shuffle(deck)
        return CHANCE, {"type": kind, "deck": deck}
    if state["phase"] == "play" and state["game"] == "hokm4" and state["rules"]["early_play"]:
        others = [s for s in range(1, 5) if s not in seats and game.legal_actions(state, s)]
        if others and rng.random() < 0.4:
            seat = rng.choice(others)
            return seat, rng.choice(game.legal_actions(state, seat))
    seat = rng.choice(sorted(seats))
    actions = game.legal_actions(state, seat)
    runs = [a for a in actions if a["type"] == "run"]
    if runs and rng.random() < 0.5:
        action = dict(rng.choice(runs))
        action["cards"] = rng.sample(action["cards"], len(action["cards"]))  # any order
        return seat, action
    if rng.random() < 0.15:
        return seat, game.auto_action(state, seat)
    return seat, rng.choice(actions)


def play_match(game, rules, rng, *, views=1.0, illegal=2, every_legal=0.1, deep=1.0):
    """One random match, checking the properties at every step; returns the number of rounds.

    ``views``, ``every_legal`` and ``deep`` (JSON round trip, input unchanged)
    are the shares of steps that get those slower checks.
    """
    state = game.new_match(rules)
    points = [0, 0]
    rounds = 0
    while game.to_act(state):
        is_deep = rng.random() < deep
        if is_deep:
            assert json.loads(json.dumps(state)) == state
        if state["round"]:
            cards = places(state)
            assert sorted(cards) == sorted(DECK52), "a card is missing or in two places"
        if state["phase"] == "play":
            assert max(state["tricks"]) < 7
        if rng.random() < views:
            check_views(game, state)
        for seat in game.to_act(state) - {CHANCE}:  # C-8: the timeout move is legal
            assert listed(game, state, seat, game.auto_action(state, seat))
        snapshot = json.dumps(state, sort_keys=True) if is_deep else None
        for _ in range(illegal):
            seat, action = random_action(game, state, rng)
            if listed(game, state, seat, action):
                game.apply(state, seat, action)
                continue
            try:
                game.apply(state, seat, action)
            except IllegalAction as e:
                assert e.code
            else:
                raise AssertionError(f"accepted an unlisted action {action!r} of seat {seat}")
        if rng.random() < every_legal:
            for seat in range(1, game.players + 1):
                for action in game.legal_actions(state, seat):
                    game.apply(state, seat, action)
        if is_deep:
            assert json.dumps(state, sort_keys=True) == snapshot, "apply changed its input"
        seat, action = choose(game, state, rng)
        before_tricks = state["tricks"]
        state, events = game.apply(state, seat, action)
        types = [e["type"] for e in events]
        for i, e in enumerate(events):
            if e["type"] == "trick_won" and max(e["tricks"]) == 7:
                assert types[i + 1] == "round_won"
            if e["type"] == "round_won":
                rounds += 1
                points[e["team"]] += e["points"]
                assert max(state["tricks"]) == 7 and max(before_tricks) < 7
                assert state["tricks"][e["team"]] == 7
                assert state["phase"] in ("round_over", "match_over")
                assert e["points"] == 1 or rules["kot"]
        assert list(state["score"]) == points
    result = game.result(state)
    target = rules["target"]
    assert result == {"winner": state["winner"], "score": points}
    assert points[result["winner"]] >= target > sum(points) - points[result["winner"]]
    return rounds


@settings(max_examples=100, **SETTINGS)
@given(SEEDS)
def test_h4_random_matches_keep_every_invariant(seed):
    rng = random.Random(seed)
    play_match(H4, random_rules(H4, rng, target=3), rng)


@settings(max_examples=100, **SETTINGS)
@given(SEEDS)
def test_h2_random_matches_keep_every_invariant(seed):
    rng = random.Random(seed)
    play_match(H2, random_rules(H2, rng, target=3), rng)


@settings(max_examples=60, **SETTINGS)
@given(SEEDS)
def test_h4_x2_x3_random_matches_with_early_play_and_runs(seed):
    rng = random.Random(seed)
    rules = random_rules(H4, rng, target=3, early_play=True, lead_run=True)
    play_match(H4, rules, rng, views=0.5)


@settings(max_examples=80, **SETTINGS)
@given(SEEDS)
def test_h4_many_rounds_cards_stay_in_one_place_and_only_legal_actions_pass(seed):
    rng = random.Random(seed)
    rounds = 0
    while rounds < 25:
        rounds += play_match(H4, random_rules(H4, rng), rng, views=0.05, illegal=1, every_legal=0, deep=0.1)


@settings(max_examples=80, **SETTINGS)
@given(SEEDS)
def test_h2_many_rounds_cards_stay_in_one_place_and_only_legal_actions_pass(seed):
    rng = random.Random(seed)
    rounds = 0
    while rounds < 25:
        rounds += play_match(H2, random_rules(H2, rng), rng, views=0.05, illegal=1, every_legal=0, deep=0.1)


@settings(max_examples=30, **SETTINGS)
@given(SEEDS)
def test_c_8_automatic_moves_alone_finish_a_match(seed):
    rng = random.Random(seed)
    for game in (H4, H2):
        state = game.new_match(random_rules(game, rng, target=3))
        while game.to_act(state):
            seats = game.to_act(state)
            if CHANCE in seats:
                kind, cards = game.pending_chance(state)
                deck = list(cards)
                rng.shuffle(deck)
                state, _ = game.apply(state, CHANCE, {"type": kind, "deck": deck})
                continue
            seat = min(seats)
            state, _ = game.apply(state, seat, game.auto_action(state, seat))
        assert max(game.result(state)["score"]) >= 3
