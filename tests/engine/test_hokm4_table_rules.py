"""Hokm's optional table rules in the engine: picking up the middle card
(H4-X1) and the one check of early play (H4-X2) shared by ``legal_actions``
and ``apply``."""

import random

import pytest

from games.engine import CHANCE, IllegalAction
from games.engine.seats import partner

from .test_hokm4 import EARLY, H4, HANDS_A, act, play, raises, started, view_cards

PICK_UP = {"type": "pick_up"}


def test_h4_x1_the_partner_picks_the_middle_card_up_off_his_turn():
    state = started(HANDS_A, trump="middle")  # 9H, seat 3's third card
    assert state["middle"] == "9H" and state["turn"] == 1
    assert PICK_UP in H4.legal_actions(state, 3)  # off his turn
    for seat in (1, 2, 4):
        assert PICK_UP not in H4.legal_actions(state, seat)
        raises("not_your_card", state, seat, PICK_UP)
    raises("bad_action", state, 3, {"type": "pick_up", "card": "9H"})
    state, events = act(state, 3, PICK_UP)
    assert events == [{"type": "middle_picked_up", "seat": 3}]
    assert state["turn"] == 1 and state["trick"] == []  # nothing else moved
    for seat in (1, 2, 4, None):
        v = H4.view(state, seat)
        assert v["middle"] is None and "9H" not in view_cards(v)
    v3 = H4.view(state, 3)
    assert "9H" in v3["hand"] and PICK_UP not in v3["legal"]
    raises("no_middle_card", state, 3, PICK_UP)


def test_h4_x1_the_partner_may_pick_it_up_on_his_turn_too():
    state = started(HANDS_A, trump="middle")
    state, _ = play(state, "AD", "2D")
    assert state["turn"] == 3
    legal = H4.legal_actions(state, 3)
    assert PICK_UP in legal and {"type": "play", "card": "5D"} in legal
    state, _ = act(state, 3, PICK_UP)
    assert state["turn"] == 3 and state["middle"] is None
    assert PICK_UP not in H4.legal_actions(state, 3)


def test_h4_x1_his_first_card_ends_the_pick_up_and_the_middle_card():
    state = started(HANDS_A, trump="middle")
    state, _ = play(state, "AD", "2D", "5D")
    assert state["middle"] is None
    raises("no_middle_card", state, 3, PICK_UP)


def test_h4_x1_no_pick_up_without_a_middle_card():
    state = started(HANDS_A, trump="S")
    assert all(PICK_UP not in H4.legal_actions(state, s) for s in (1, 2, 3, 4))
    raises("no_middle_card", state, 3, PICK_UP)


def test_h4_x1_the_middle_card_is_visible_to_all_until_exactly_pick_up_or_first_card():
    """Random whole games: ``view["middle"]`` is the card for every viewer
    from the trump until the partner's pick-up, his first card played or the
    middle card itself laid early, then None."""
    rng = random.Random(20)
    rules = {"middle_card": True, "early_play": True, "lead_run": True, "target": 3}
    checked = picked = kept_up = 0
    for _ in range(12):
        state = H4.new_match(H4.validate_rules(rules))
        shown = None
        for _step in range(2000):
            if H4.result(state) is not None:
                break
            to_act = H4.to_act(state)
            if CHANCE in to_act:
                kind, cards = H4.pending_chance(state)
                deck = list(cards)
                rng.shuffle(deck)
                state, _ = H4.apply(state, CHANCE, {"type": kind, "deck": deck})
                continue
            if state["phase"] == "trump":
                seat = state["hakem"]
                action = {"type": "trump", "suit": "middle"}
            else:
                movers = [s for s in (1, 2, 3, 4) if H4.legal_actions(state, s)]
                seat = rng.choice(movers) if rng.random() < 0.3 else min(to_act)
                action = rng.choice(H4.legal_actions(state, seat))
            state, events = H4.apply(state, seat, action)
            mate = partner(state["hakem"], 4)
            for e in events:
                if e["type"] == "trump_named":
                    shown = e["middle"]
                elif shown is not None and (
                    e["type"] == "middle_picked_up"
                    or (e["type"] == "card_played" and e["seat"] == mate)
                    # The H4-X1 Decision: only the middle card itself, laid early, ends it.
                    or (e["type"] == "early_laid" and e["seat"] == mate and action["card"] == shown)
                ):
                    picked += e["type"] == "middle_picked_up"
                    shown = None
            for viewer in (1, 2, 3, 4, None):
                assert H4.view(state, viewer)["middle"] == shown
            checked += 1
            kept_up += bool(
                shown and action.get("type") == "early" and seat == mate and action["card"] != shown
            )
    assert checked > 500 and picked and kept_up


def test_h4_x1_an_early_lay_of_another_card_keeps_the_middle_card_up():
    """The H4-X1 Decision: a card laid face down early is not yet played."""
    state = started(HANDS_A, rules=EARLY, trump="middle")  # 9H, seat 3's third card
    state, _ = play(state, "AH")
    state, events = act(state, 3, {"type": "early", "card": "8H"})
    assert events == [{"type": "early_laid", "seat": 3}]
    for viewer in (1, 2, 3, 4, None):
        v = H4.view(state, viewer)
        assert v["middle"] == "9H" and "9H" in view_cards(v)
        assert v["early"] == [False, False, True, False]
    for viewer in (1, 2, 4, None):
        assert "8H" not in view_cards(H4.view(state, viewer))  # face down
    assert PICK_UP in H4.legal_actions(state, 3)  # he may still pick it up
    # Taken back, it was never played: the middle card is still up.
    taken, _ = act(state, 3, {"type": "take_back"})
    assert taken["middle"] == "9H" and "8H" in taken["hands"][2]
    # Seat 2 plays: the early card is turned and played, his first card; the middle card goes.
    state, events = play(state, "2H")
    assert [(e["seat"], e["card"], e.get("early", False)) for e in events if e["type"] == "card_played"] == [
        (2, "2H", False),
        (3, "8H", True),
    ]
    for viewer in (1, 2, 4, None):
        v = H4.view(state, viewer)
        assert v["middle"] is None and "9H" not in view_cards(v)
    assert "9H" in H4.view(state, 3)["hand"]
    raises("no_middle_card", state, 3, PICK_UP)


def test_h4_x1_an_early_lay_of_the_middle_card_itself_ends_it_at_once():
    state = started(HANDS_A, rules=EARLY, trump="middle")
    state, _ = play(state, "AH")
    state, events = act(state, 3, {"type": "early", "card": "9H"})
    assert events == [{"type": "early_laid", "seat": 3}]  # the event does not name the card
    for viewer in (1, 2, 4, None):
        v = H4.view(state, viewer)
        assert v["middle"] is None and "9H" not in view_cards(v)  # now face down
        assert v["early"] == [False, False, True, False]
    assert H4.view(state, 3)["my_early"] == "9H"
    raises("no_middle_card", state, 3, PICK_UP)
    # Taken back, it goes into his hand, not back onto the table.
    state, _ = act(state, 3, {"type": "take_back"})
    assert state["middle"] is None and "9H" in state["hands"][2]
    for viewer in (1, 2, 4, None):
        assert "9H" not in view_cards(H4.view(state, viewer))


def test_h4_x1_a_refused_early_lay_leaves_the_middle_card_up():
    state = started(HANDS_A, rules=EARLY, trump="middle")
    state, _ = play(state, "AH")
    raises("must_follow_suit", state, 3, {"type": "early", "card": "5D"})
    raises("not_in_hand", state, 3, {"type": "early", "card": "AS"})
    assert state["middle"] == "9H" and state["early"] == [None] * 4


def test_h4_x1_the_fast_model_never_guesses_the_face_up_middle_card_as_an_early_card():
    """hokm_fast's worlds for another seat: the partner's face-down early card is any
    of his unseen hearts, never the middle card everyone sees on the table."""
    from games.engine import hokm_fast as hf

    state = started(HANDS_A, rules=EARLY, trump="middle")
    state, _ = play(state, "AH")
    state, _ = act(state, 3, {"type": "early", "card": "8H"})
    guessed = set()
    for k in range(200):
        fs = hf.from_state(state, seat=2, rng=random.Random(k))
        card = hf.CARDS[fs.early[2]]
        assert card != "9H"
        assert fs.hands[2] & hf.BIT[hf.CARD_INDEX["9H"]]  # the middle card is still his
        guessed.add(card)
    assert len(guessed) > 1


def test_h4_x2_apply_and_legal_actions_agree_on_every_early_card():
    """One check for both (issue 12): in random states every seat's early
    cards are exactly those apply accepts, and apply's refusal code is the
    same for every card when none is legal."""
    rng = random.Random(12)
    compared = 0
    for _ in range(6):
        state = started(HANDS_A, rules={**EARLY, "middle_card": True}, trump=rng.choice("SHDC"))
        while state["phase"] == "play":
            for seat in (1, 2, 3, 4):
                if seat == state["turn"]:
                    continue
                legal = {a["card"] for a in H4.legal_actions(state, seat) if a["type"] == "early"}
                for card in state["hands"][seat - 1]:
                    try:
                        H4.apply(state, seat, {"type": "early", "card": card})
                        accepted = True
                    except IllegalAction:
                        accepted = False
                    assert accepted == (card in legal), (seat, card, legal)
                    compared += 1
            seat = state["turn"]
            actions = [a for a in H4.legal_actions(state, seat) if a["type"] == "play"]
            state, _ = H4.apply(state, seat, rng.choice(actions))
            others = [s for s in (1, 2, 3, 4) if s != state["turn"]]
            if state["phase"] == "play" and rng.random() < 0.4:
                s = rng.choice(others)
                early = [a for a in H4.legal_actions(state, s) if a["type"] == "early"]
                if early:
                    state, _ = H4.apply(state, s, rng.choice(early))
    assert compared > 300


@pytest.mark.parametrize("seat", [2, 3, 4])
def test_h4_x2_a_refused_early_card_changes_nothing(seat):
    state = started(HANDS_A, rules=EARLY)
    with pytest.raises(IllegalAction) as exc:  # no trick begun yet
        act(state, seat, {"type": "early", "card": state["hands"][seat - 1][0]})
    assert exc.value.code == "trick_not_begun"
