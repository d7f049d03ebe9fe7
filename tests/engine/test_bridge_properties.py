"""Random bridge deals never break the rules (B-1..B-10, D-6): properties over thousands of deals.

Hypothesis draws the seeds; a ``random.Random`` built from each seed shuffles
and chooses the actions, so every failure replays from its seed.
"""

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import CHANCE, bridge_fast
from games.engine.bridge import BRIDGE, CALLS, Contract, RubberSheet, honours, score_contract
from games.engine.cards import DECK52
from games.engine.errors import IllegalAction
from games.engine.seats import partner, team_of

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SLOW_OK = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
CARD = re.compile(r"^[AKQJT2-9][SHDC]$")
CALL_KEYS = {"call", "text"}  # a call such as "2C" is written like a card: skip those values
CONTRACT_KINDS = {"contract", "overtricks", "insult", "slam", "undertricks"}


def _cards_walked(data, key=None):
    """Every card id in a JSON-like value, calls left out (the slow, plain walk)."""
    if isinstance(data, str):
        if key not in CALL_KEYS and CARD.match(data):
            yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _cards_walked(v, k)
    elif isinstance(data, (list, tuple)):
        for v in data:
            yield from _cards_walked(v, key)


# In json.dumps' text: a whole string that is a card id and is not a key, or a "call"/"text"
# key with its string (consumed whole so that a call such as "2C" is not read as a card).
CARD_TEXT = re.compile(r'"(?:call|text)": "(?:[^"\\]|\\.)*"|"([AKQJT2-9][SHDC])"(?!:)')
NESTED_UNDER_CALL_KEYS = re.compile(r'"(?:call|text)": [\[{]')


def cards_in(data, text=None):
    """Every card id in a JSON-like value, calls left out.

    Read from the value's JSON text (``text``, if the caller has it) with one regular
    expression: the views of thousands of deals are walked, and a Python walk of every
    node was most of this module's time. A list or object under a call key (none today)
    falls back to the plain walk, which leaves its contents out as before.
    """
    if text is None:
        text = json.dumps(data)
    if NESTED_UNDER_CALL_KEYS.search(text):
        return set(_cards_walked(data))
    return {card for card in CARD_TEXT.findall(text) if card}


def test_cards_in_reads_cards_and_leaves_calls_out():
    """The reader above agrees with the plain walk, calls and keys left out (B-4's leak checks rest on it)."""
    value = {
        "hand": ["AS", "2C"],
        "auction": [{"seat": 1, "call": "2C"}, {"seat": 2, "call": "X"}],
        "log": [{"text": "7H"}, {"card": "7H"}],
        "AS": 1,
        "note": "AS and 2C",
        "nested": {"call": ["3D"], "x": [["QH"]]},
    }
    assert cards_in(value) == set(_cards_walked(value)) == {"AS", "2C", "7H", "QH"}
    flat = {k: v for k, v in value.items() if k != "nested"}
    assert cards_in(flat) == set(_cards_walked(flat)) == {"AS", "2C", "7H"}


class Deal:
    """What the test itself knows about the deal in progress (from the deck and the events)."""

    def __init__(self, state):
        self.hands = {s: set(state["hands"][s - 1]) for s in (1, 2, 3, 4)}
        self.played: list[str] = []
        self.lead_made = False
        self.contract = None

    def public(self):
        seen = set(self.played)
        if self.lead_made:
            seen |= self.hands[partner(self.contract["declarer"], 4)]
        return seen

    def visible_to(self, viewer):
        return self.public() | (self.hands[viewer] if viewer else set())


def check_view(state, deal, viewer):
    view = BRIDGE.view(state, viewer)
    text = json.dumps(view)
    assert json.loads(text) == view
    leaked = cards_in(view, text) - deal.visible_to(viewer)
    assert not leaked, f"seat {viewer} sees {leaked}"
    if viewer is None:
        assert view["hand"] is None and view["legal"] == []
    else:
        assert view["hand"] == state["hands"][viewer - 1]
        assert view["legal"] == BRIDGE.legal_actions(state, viewer)
    if deal.contract and not deal.lead_made:
        assert view["dummy_hand"] is None  # B-4: dummy is shown only after the opening lead
    return view


def check_cards(state, deal):
    """Every card in exactly one place: a hand, or played in this deal."""
    in_hands = [c for h in state["hands"] for c in h]
    assert sorted(in_hands + deal.played) == sorted(DECK52)
    on_table = [t["card"] for t in state["trick"]]
    assert on_table == deal.played[len(deal.played) - len(on_table) :]
    assert len(on_table) == len(deal.played) % 4
    assert sum(state["tricks_won"]) == len(deal.played) // 4


def check_scored(event, deal, sheet_before, sheet_after):
    contract = Contract.from_data(event["contract"])
    side = contract.side
    entries = event["entries"]
    # the contract's score lands on exactly one side per line
    below = [e for e in entries if e["line"] == "below"]
    assert all(e["side"] == side and e["kind"] == "contract" for e in below)
    contract_above = {e["side"] for e in entries if e["line"] == "above" and e["kind"] in CONTRACT_KINDS}
    assert len(contract_above) <= 1
    vulnerable = RubberSheet.from_data(sheet_before).vulnerable(side)
    score = score_contract(contract.level, contract.strain, contract.doubled, vulnerable, event["tricks"])
    assert sum(e["points"] for e in below) == score.declarer_below
    assert sum(e["points"] for e in entries if e["kind"] in CONTRACT_KINDS - {"contract"}) == (
        score.declarer_above + score.defenders_above
    )
    if score.made:
        assert contract_above <= {side}
    else:
        assert contract_above == {"EW" if side == "NS" else "NS"}
    # B-8 honours from the hands as dealt, to the side holding them
    held = [0, 0]
    for s, hand in deal.hands.items():
        held[team_of(s, 4)] += honours(contract.strain, hand)
    assert event["honours"] == held
    for t, name in enumerate(("NS", "EW")):
        assert sum(e["points"] for e in entries if e["kind"] == "honours" and e["side"] == name) == held[t]
    # the sheet grew by exactly these entries
    before = RubberSheet.from_data(sheet_before).totals()
    after = RubberSheet.from_data(sheet_after).totals()
    for name in ("NS", "EW"):
        assert after[name] - before[name] == sum(e["points"] for e in entries if e["side"] == name)


def probe_illegal(state, seat, legal, rng, everything=False):
    """Actions outside legal_actions are refused, and refusing changes nothing."""
    snapshot = json.dumps(state)
    if everything:
        candidates = [(s, {"type": "call", "call": c}) for s in (1, 2, 3, 4) for c in CALLS]
        candidates += [(s, {"type": "play", "card": c}) for s in (1, 2, 3, 4) for c in DECK52]
    else:
        candidates = [
            (rng.randint(1, 4), {"type": "call", "call": rng.choice(CALLS)}),
            (rng.randint(1, 4), {"type": "play", "card": rng.choice(DECK52)}),
            (seat, {"type": "play", "card": rng.choice(DECK52)}),
            (seat, {"type": "call", "call": rng.choice(CALLS)}),
        ]
    candidates.append((seat, {"type": "deal", "deck": list(DECK52)}))
    candidates.append((seat, {"type": "nonsense"}))
    for s, action in candidates:
        if s == seat and action in legal:
            continue
        try:
            BRIDGE.apply(state, s, action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"seat {s} was allowed {action} outside {legal}")
    assert json.dumps(state) == snapshot


def play_random(seed, deals, exhaustive_rate=0.02):
    rng = random.Random(seed)
    auto_rate = rng.random()  # from fully random to fully automatic players
    state = BRIDGE.new_match({})
    deal = None
    dealt = 0
    while True:
        seats = BRIDGE.to_act(state)
        if not seats:
            return state
        (seat,) = seats  # bridge never has two seats acting at once
        legal = BRIDGE.legal_actions(state, seat)
        for other in {CHANCE, 1, 2, 3, 4} - {seat}:
            assert BRIDGE.legal_actions(state, other) == []
        if seat == CHANCE:
            if dealt == deals:
                return state
            deck = list(DECK52)
            rng.shuffle(deck)
            action = {"type": "deal", "deck": deck}
        else:
            probe_illegal(state, seat, legal, rng, everything=rng.random() < exhaustive_rate)
            if rng.random() < auto_rate:
                action = BRIDGE.auto_action(state, seat)
                assert action in legal
            else:
                action = rng.choice(legal)
        sheet_before = state["sheet"]
        new, events = BRIDGE.apply(state, seat, action)
        # plain JSON data, deterministic: the decoded state gives the same move
        again, events_again = BRIDGE.apply(
            json.loads(json.dumps(state)), seat, json.loads(json.dumps(action))
        )
        assert again == new and events_again == events
        assert json.loads(json.dumps(new)) == new
        state = new
        if seat == CHANCE:
            dealt += 1
            deal = Deal(state)
            for s in (1, 2, 3, 4):  # D-6: d[0] to the dealer's left, one card at a time
                assert deal.hands[s] == set(action["deck"][(s - state["dealer"] - 1) % 4 :: 4])
        for event in events:
            kind = event["type"]
            if kind == "card_played":
                deal.played.append(event["card"])
                deal.lead_made = True
            elif kind == "auction_over":
                deal.contract = event["contract"]
            elif kind == "deal_scored":
                check_scored(event, deal, sheet_before, state["sheet"])
            leaked = set(cards_in(event)) - deal.public()
            assert not leaked, f"event {kind} shows {leaked}"
        check_cards(state, deal)
        for viewer in (1, 2, 3, 4, None):
            check_view(state, deal, viewer)


@settings(SLOW_OK, max_examples=100)
@given(seed=SEEDS)
def test_b_2_b_4_random_deals_never_break_the_rules(seed):
    play_random(seed, deals=6)


@settings(SLOW_OK, max_examples=100)
@given(seed=SEEDS)
def test_fast_path_deals_replay_identically_through_the_engine(seed):
    """bridge_fast (bitmasks) and the public engine agree on 20 deals: calls, cards, score (B-2..B-10)."""
    rng = random.Random(seed)
    sheet = RubberSheet()
    state = BRIDGE.new_match({})
    dealer = 1
    for _ in range(20):
        log = {}
        entries = bridge_fast.play_deal(rng, dealer, sheet, log)
        state, _ = BRIDGE.apply(state, CHANCE, {"type": "deal", "deck": log["deck"]})
        assert state["dealer"] == dealer
        for call in log["calls"]:
            (seat,) = BRIDGE.to_act(state)
            state, _ = BRIDGE.apply(state, seat, {"type": "call", "call": call})
        for card in log.get("cards", []):
            (seat,) = BRIDGE.to_act(state)
            state, _ = BRIDGE.apply(state, seat, {"type": "play", "card": card})
        if entries is None:
            assert state["last_result"] == {"round": state["round"], "passed_out": True}
        else:
            mine = [(e["side"], e["line"], e["kind"], e["points"]) for e in state["last_result"]["entries"]]
            assert mine == [(e["side"], e["line"], e["kind"], e["points"]) for e in entries]
        dealer = bridge_fast.NEXT[dealer]
        if sheet.is_over:
            assert BRIDGE.result(state)["score"] == [sheet.totals()["NS"], sheet.totals()["EW"]]
            sheet, state, dealer = RubberSheet(), BRIDGE.new_match({}), 1
        else:
            assert state["phase"] == "round_over"


@settings(SLOW_OK, max_examples=25)
@given(seed=SEEDS)
def test_b_10_whole_rubbers_end_with_consistent_totals(seed):
    rng = random.Random(seed)
    state = BRIDGE.new_match({})
    rounds = 0
    while BRIDGE.to_act(state):
        (seat,) = BRIDGE.to_act(state)
        if seat == CHANCE:
            deck = list(DECK52)
            rng.shuffle(deck)
            action = {"type": "deal", "deck": deck}
            rounds += 1
        elif rng.random() < 0.8:
            action = BRIDGE.auto_action(state, seat)
        else:
            action = rng.choice(BRIDGE.legal_actions(state, seat))
        state, _ = BRIDGE.apply(state, seat, action)
    assert state["round"] == rounds
    sheet = RubberSheet.from_data(state["sheet"])
    winner = sheet.winner
    loser = "EW" if winner == "NS" else "NS"
    assert sheet.games_won(winner) == 2 and sheet.games_won(loser) in (0, 1)
    bonus = [e["points"] for e in sheet.above(winner) if e["kind"] == "rubber"]
    assert bonus == [700 if sheet.games_won(loser) == 0 else 500]
    assert not [e for e in sheet.above(loser) if e["kind"] == "rubber"]
    games = sheet.games_below("NS")
    assert len(games) == 2 + sheet.games_won(loser)
    # each finished game: exactly one side reached 100 below the line (B-5)
    for ns, ew in zip(games, sheet.games_below("EW"), strict=True):
        assert (sum(e["points"] for e in ns) >= 100) != (sum(e["points"] for e in ew) >= 100)
    totals = sheet.totals()
    assert totals == sheet.totals(close=True)  # a finished rubber has no unfinished bonus
    result = BRIDGE.result(state)
    assert result["score"] == [totals["NS"], totals["EW"]]
    if totals["NS"] != totals["EW"]:
        assert result["winner"] == (0 if totals["NS"] > totals["EW"] else 1)


def test_contract_scores_are_consistent_for_every_input():
    for level in range(1, 8):
        for strain in ("C", "D", "H", "S", "NT"):
            for doubled in (0, 1, 2):
                for vulnerable in (False, True):
                    previous = None
                    for tricks in range(14):
                        s = score_contract(level, strain, doubled, vulnerable, tricks)
                        made = tricks >= 6 + level
                        assert s.made == made
                        assert (s.declarer_below > 0) == made and (s.defenders_above > 0) == (not made)
                        assert s.declarer_above == s.overtricks + s.insult + s.slam
                        net = s.declarer_below + s.declarer_above - s.defenders_above
                        assert previous is None or net > previous  # every trick helps declarer
                        previous = net
                        if doubled and not made:  # doubling never makes a penalty smaller
                            less = score_contract(level, strain, doubled - 1, vulnerable, tricks)
                            assert s.defenders_above > less.defenders_above
