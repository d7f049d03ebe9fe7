"""Issue 38: every call the bridge bots make has a meaning, worded in Persian and English (B-2)."""

from __future__ import annotations

import random

import pytest
from django.utils import translation

from games import engine
from games.bots import bridge as bb
from games.bots.bridge_meaning import CODES, meaning
from rooms import explain


def _bot_auctions(count: int, seed: int):
    """Auctions called by the bots at all four seats from shuffled deals."""
    game = engine.get("bridge")
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_match(game.validate_rules({}))
        while True:
            seats = game.to_act(state)
            if engine.CHANCE in seats:
                kind, cards = game.pending_chance(state)
                if kind != "deal" and state.get("phase") != "deal":
                    break
                deck = list(cards)
                rng.shuffle(deck)
                state, _ = game.apply(state, engine.CHANCE, {"type": kind, "deck": deck})
                continue
            view = game.view(state, min(seats))
            if view["phase"] != "auction":
                break
            state, _ = game.apply(state, min(seats), bb.choose_call(view, min(seats)))
        yield view["calls"] if view["phase"] == "auction" else game.view(state, 1)["calls"]


def test_b2_every_code_is_worded_in_both_languages():
    assert set(explain.TEXTS) == set(CODES)
    for code in CODES:
        args = {"lo": 6, "hi": 9, "n": 4, "suit": "H", "aces": "2"}
        with translation.override("en"):
            en = explain.text(code, args)
        with translation.override("fa"):
            fa = explain.text(code, args)
        assert en and fa and en != fa, code
        assert any("\u0600" <= ch <= "\u06ff" for ch in fa), code


def test_b2_every_call_the_bots_make_is_explained_in_both_languages():
    seen = set()
    calls_total = 0
    for calls in _bot_auctions(150, 38):
        for i in range(len(calls)):
            code, args = meaning(calls, i)
            assert code in CODES
            seen.add((calls[i]["call"], code))
            calls_total += 1
        with translation.override("en"):
            en = explain.texts(calls)
        with translation.override("fa"):
            fa = explain.texts(calls)
        assert len(en) == len(fa) == len(calls)
        for e, f in zip(en, fa, strict=True):
            assert e and f and e != f and "%(" not in e + f
    assert calls_total > 600
    codes = {code for _, code in seen}
    assert {"open_pass", "nt", "suit", "pass"} <= codes
    assert len(codes) >= 8, codes


def test_b2_the_system_reads_the_usual_calls():
    def m(*names, dealer=1):
        calls = [{"seat": (dealer - 1 + i) % 4 + 1, "call": c} for i, c in enumerate(names)]
        return meaning(calls, len(calls) - 1)

    assert m("1NT") == ("nt", {"lo": 15, "hi": 17})
    assert m("1NT", "P", "2C")[0] == "stayman"
    assert m("1H", "X")[0] == "takeout"
    assert m("1S", "P", "4NT")[0] == "blackwood"
    assert m("1S", "P", "4NT", "P", "5D") == ("aces", {"aces": "1"})
    assert m("2H") == ("weak", {"lo": 6, "hi": 10, "n": 6, "suit": "H"})


@pytest.mark.django_db
def test_b2_the_explain_endpoint_answers_public_auctions_only(client):
    ok = client.get("/rooms/explain/bridge/", {"dealer": "1", "calls": "1NT,P,2C"}, HTTP_ACCEPT_LANGUAGE="en")
    assert ok.status_code == 200
    assert len(ok.json()["meanings"]) == 3
    for bad in ({"dealer": "5", "calls": "1C"}, {"dealer": "1", "calls": "1C,8NT"}, {"calls": "1C"}):
        assert client.get("/rooms/explain/bridge/", bad).status_code == 400
    assert client.post("/rooms/explain/bridge/", {"dealer": "1"}).status_code == 405


def _rebid_view(part: int) -> dict:
    """North opened 1H, South raised to 2H; North (13 HCP, five hearts) to call; NS has ``part`` below the line."""
    calls = [
        {"seat": 1, "call": "1H"},
        {"seat": 2, "call": "P"},
        {"seat": 3, "call": "2H"},
        {"seat": 4, "call": "P"},
    ]
    legal = [
        {"type": "call", "call": c} for c in ("P", "X", "2S", "2NT", "3C", "3D", "3H", "3S", "3NT", "4H")
    ]
    return {
        "phase": "auction",
        "hand": ["AH", "KH", "7H", "5H", "3H", "AS", "8S", "4S", "QD", "9D", "6D", "5C", "2C"],
        "calls": calls,
        "legal": legal,
        "score": {"below": [[{"points": part}] if part else [], []]},
    }


def test_b5_a_part_score_makes_a_lower_contract_enough():
    """B-5: 60 below the line: 2H is a game, so the opener passes instead of inviting with 3H."""
    assert bb.choose_call(_rebid_view(0), 1) == {"type": "call", "call": "3H"}
    assert bb.choose_call(_rebid_view(60), 1) == {"type": "call", "call": "P"}
    assert bb._game_level("NT", 60) == 1 and bb._game_level("C", 0) == 5 and bb._game_level("S", 40) == 2


def test_b5_a_game_the_opponents_bid_over_is_not_given_up():
    """B-5: with 60 below the line 2H is a game, but West's 3D took it away: the opener competes with
    3H as from a clean sheet, where the bot of the first pass passed ("the game is already bid")."""
    view = _rebid_view(60)
    view["calls"] = view["calls"][:3] + [{"seat": 4, "call": "3D"}]
    view["legal"] = [{"type": "call", "call": c} for c in ("P", "X", "3H", "3S", "3NT", "4H")]
    assert bb.choose_call(view, 1) == {"type": "call", "call": "3H"}
    view["calls"][-1] = {"seat": 4, "call": "P"}  # nobody took it: the game stands
    assert bb.choose_call(view, 1) == {"type": "call", "call": "P"}


def _response_view(part: int, opening: str, hand: list[str]) -> dict:
    """North opened ``opening``; South (``hand``) to respond; NS has ``part`` below the line."""
    from games.engine.bridge import BIDS

    start = BIDS.index(opening) + 1
    legal = [{"type": "call", "call": c} for c in ("P", "X", *BIDS[start:])]
    return {
        "phase": "auction",
        "hand": hand,
        "calls": [{"seat": 1, "call": opening}, {"seat": 2, "call": "P"}],
        "legal": legal,
        "score": {"below": [[{"points": part}] if part else [], []]},
    }


# 12 HCP, four hearts
RAISE_HAND = ["KH", "QH", "8H", "4H", "AS", "9S", "3S", "KD", "7D", "4D", "8C", "6C", "2C"]


def test_b5_the_response_bids_no_higher_than_the_game_needs():
    """B-5: with 40 below the line 2H is a game: responder raises 1H to 2H, not 3H (the invitation
    it makes from a clean sheet); ``mc`` (the yardstick, score-blind) still invites."""
    assert bb.choose_call(_response_view(0, "1H", RAISE_HAND), 3) == {"type": "call", "call": "3H"}
    assert bb.choose_call(_response_view(40, "1H", RAISE_HAND), 3) == {"type": "call", "call": "2H"}
    assert bb.choose_call(_response_view(40, "1H", RAISE_HAND), 3, score_aware=False) == {
        "type": "call",
        "call": "3H",
    }


def test_b5_an_opening_that_is_already_game_is_passed():
    """B-5: with 70 below the line partner's 1H makes the game (30 more): responder passes below a
    slam try; a 1C opening (20) does not, and a slam-going hand still responds."""
    assert bb.choose_call(_response_view(70, "1H", RAISE_HAND), 3) == {"type": "call", "call": "P"}
    assert bb.choose_call(_response_view(70, "1C", RAISE_HAND), 3)["call"] != "P"
    strong = ["AH", "KH", "QH", "4H", "AS", "KS", "3S", "KD", "7D", "4D", "8C", "6C", "2C"]  # 19 HCP
    assert bb.choose_call(_response_view(70, "1H", strong), 3)["call"] != "P"
    overcalled = _response_view(70, "1H", RAISE_HAND)  # East bid 1S over it: the game is not ours any more
    overcalled["calls"][1] = {"seat": 2, "call": "1S"}
    assert bb.choose_call(overcalled, 3)["call"] != "P"


def test_card_play_takes_the_lowest_of_equal_cards(monkeypatch):
    """Issue 38: among cards worth the same tricks in every sampled world the strong bot plays the lowest
    (following suit, B-3); ``mc`` (the yardstick, the strong bot before) took the first in name order."""
    from types import SimpleNamespace

    from games.bots.clock import Budget
    from games.bots.rng import Rng

    if not bb.HAVE_DDS:
        pytest.skip("endplay is not installed")

    def card(name):
        suit = {v: k for k, v in bb.SUIT_LETTER.items()}[name[1]]
        return SimpleNamespace(rank=SimpleNamespace(abbr=name[0]), suit=SimpleNamespace(name=suit))

    hand = ["AC", "KC", "QC"]
    monkeypatch.setattr(bb, "_constraints", lambda view, seat: {})
    monkeypatch.setattr(bb, "_sample", lambda view, seat, rng, shown: [[], [], [], []])
    monkeypatch.setattr(bb, "_pbn", lambda hands: "")
    monkeypatch.setattr(bb, "Deal", lambda pbn: SimpleNamespace(play=lambda c: None))
    monkeypatch.setattr(bb, "solve", lambda deal: [(card(c), 3) for c in hand])
    view = {
        "legal": [{"type": "play", "card": c} for c in hand],
        "contract": {"strain": "NT"},
        "trick": [],
        "next_hand": 1,
    }
    strong = bb.choose_card(view, 1, 2, Budget(1000), Rng(1), low_ties=True)
    old = bb.choose_card(view, 1, 2, Budget(1000), Rng(1), low_ties=False)
    assert strong["card"] == "QC" and old["card"] == "AC"
