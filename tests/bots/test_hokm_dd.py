"""Issue 38: Hokm for four solved double dummy (games/bots/hokm_dd.py) and the careful yardstick."""

from __future__ import annotations

import random

import pytest

from games import bots, engine
from games.bots import careful, hokm, hokm_dd
from games.engine import hokm_fast as hf
from games.engine.cards import CARD_INDEX

pytestmark = pytest.mark.skipif(not hokm_dd.HAVE_DDS, reason="endplay (DDS) is not installed")


def _wins(fs: hf.FastHokm, side: int) -> bool:
    """Exhaustive search: does ``side`` reach 7 tricks first (H4-4) with best play by everyone?"""
    if fs.over:
        return fs.tricks[side] >= hf.TRICKS_TO_WIN
    mover = hf.TEAM[4][fs.turn] == side
    legal = hf.legal_mask(fs)
    for c in range(52):
        if legal >> c & 1:
            nxt = fs.copy()
            hf.play(nxt, c)
            if _wins(nxt, side) == mover:
                return mover
    return not mover


def _endgame(rng: random.Random, left: int, on_table: int) -> hf.FastHokm:
    cards = list(range(52))
    rng.shuffle(cards)
    ours = rng.randint(13 - left - 6, 6)
    fs = hf.FastHokm.__new__(hf.FastHokm)
    fs.n = 4
    fs.hands = [hf.cards_to_mask(hf.CARDS[c] for c in cards[left * p : left * p + left]) for p in range(4)]
    fs.trump = rng.randrange(4)
    fs.turn = fs.leader = fs.hakem = rng.randrange(4)
    fs.trick = []
    fs.best = fs.best_seat = -1
    fs.tricks = [ours, 13 - left - ours]
    fs.played = 0
    fs.early = [-1] * 4
    fs.run_seat = -1
    fs.run = []
    fs.over = False
    for _ in range(on_table):
        legal = [c for c in range(52) if hf.legal_mask(fs) >> c & 1]
        hf.play(fs, rng.choice(legal))
    return fs


@pytest.mark.parametrize("on_table", [0, 1, 2, 3])
def test_h4_4_the_solver_agrees_with_exhaustive_search(on_table):
    """C-3, C-4, H4-4: for every card of the seat to act, DDS's "reaches 7 first" is the exhaustive answer."""
    rng = random.Random(38 + on_table)
    for _ in range(40):
        fs = _endgame(rng, 3, on_table)
        side = hf.TEAM[4][fs.turn]
        need = hf.TRICKS_TO_WIN - fs.tricks[side]
        solved = hokm_dd._winners(hokm_dd._deal(fs), need)
        legal = hf.legal_mask(fs)
        for c in range(52):
            if legal >> c & 1:
                nxt = fs.copy()
                hf.play(nxt, c)
                assert bool(solved >> c & 1) == _wins(nxt, side), (fs, hf.CARDS[c])
        assert solved & ~legal == 0  # only legal cards (C-3)


def _acting(name: str, rounds: int, seed: int):
    """(state, view, seat) of each seat to act in play, from rounds played by auto_action."""
    game = engine.get(name)
    rng = random.Random(seed)
    for _ in range(rounds):
        state = game.new_match(game.validate_rules({}))
        while not game.round_over(state):
            seats = game.to_act(state)
            if engine.CHANCE in seats:
                kind, cards = game.pending_chance(state)
                deck = list(cards)
                rng.shuffle(deck)
                state, _ = game.apply(state, engine.CHANCE, {"type": kind, "deck": deck})
                continue
            seat = min(seats)
            view = game.view(state, seat)
            if view["phase"] == "play":
                yield state, view, seat
            state, _ = game.apply(state, seat, game.auto_action(state, seat))


def _play_views(name: str, rounds: int, seed: int):
    """Views of seats to act in play, from rounds played by auto_action."""
    return ((view, seat) for _, view, seat in _acting(name, rounds, seed))


def test_c3_the_strong_level_plays_legal_cards_by_double_dummy():
    seen = 0
    for view, seat in _play_views("hokm4", 3, 5):
        assert hokm_dd.applicable(view)
        action = bots.choose("hokm4", view, seat, level="strong", seed=seen, budget_ms=60)
        assert action in view["legal"]
        seen += 1
    assert seen > 20


def test_h4_x2_x3_table_rules_fall_back_to_playouts():
    view = {"players": 4, "phase": "play", "rules": {"early_play": True}}
    assert not hokm_dd.applicable(view)
    assert not hokm_dd.applicable({"players": 2, "phase": "play", "rules": {}})
    assert hokm_dd.applicable({"players": 4, "phase": "play", "rules": {"middle_card": True}})


@pytest.mark.parametrize("name", ["hokm4", "hokm2"])
def test_c3_the_careful_player_plays_legal_cards_from_its_view(name):
    count = 0
    for view, seat in _play_views(name, 6, 9):
        assert careful.choose(view, seat) in view["legal"]
        count += 1
    assert count > 30


def test_careful_lets_the_partners_sure_winner_stand():
    """Keep the partner's winner: partner's ace of a plain suit, nothing higher out, last to play."""
    view = {
        "players": 4,
        "phase": "play",
        "trump": "H",
        "hand": ["KS", "3S", "2C"],
        "past_tricks": [],
        "trick": [{"seat": 1, "card": "5S"}, {"seat": 2, "card": "AS"}, {"seat": 3, "card": "4S"}],
        "legal": [{"type": "play", "card": "KS"}, {"type": "play", "card": "3S"}],
    }
    assert careful.choose(view, 4) == {"type": "play", "card": "3S"}


def test_two_threads_solving_at_once_get_the_answers_of_one():
    """The server's bot pool has two threads: DDS's one slot is shared under a lock, answers unchanged."""
    import threading

    rng = random.Random(7)
    positions = [_endgame(rng, 5, rng.randrange(4)) for _ in range(30)]

    def solve_all():
        return [
            hokm_dd._winners(hokm_dd._deal(fs), hf.TRICKS_TO_WIN - fs.tricks[hf.TEAM[4][fs.turn]])
            for fs in positions
        ]

    alone = solve_all()
    out = [None, None]

    def run(i):
        out[i] = solve_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out[0] == alone and out[1] == alone


def _endgame_views(rounds: int, seed: int, most: int):
    """(state, view, seat) of seats to act in play with at most ``most`` cards in hand, rounds by auto_action."""
    return (
        (state, view, seat)
        for state, view, seat in _acting("hokm4", rounds, seed)
        if len(view["hand"]) <= most and hokm_dd.applicable(view)
    )


def test_h4_4_the_seat_to_act_and_its_side_reach_dds_unchanged():
    """C-3, H4-4: seats, leader, the trick on the table and the tricks won map onto DDS's N E S W as they are.

    Given the true hands in place of a sampled world, the search's card wins the
    round against best play whenever some card does (an exhaustive search of the
    real position), from views of real rounds, mid-trick included.
    """

    class Truth:
        def __init__(self, know, hands):
            self.know, self.hands, self.view = know, hands, know.view

        def deal(self, _rng):
            return list(self.hands)

        def fast(self, hands, rng):
            return self.know.fast(hands, rng)

    checked = won = 0
    for state, view, seat in _endgame_views(8, 38, 3):
        know = hokm._Knowledge(view, seat, reads=False)
        on_table = {c for _s, c in state["trick"]}
        hands = [hf.cards_to_mask([c for c in h if c not in on_table]) for h in state["hands"]]
        fs = know.fast(hands, hokm.Rng(1))
        assert fs.turn == state["turn"] - 1
        assert fs.tricks == list(state["tricks"])
        assert [(s + 1, hf.CARDS[c]) for s, c in fs.trick] == [tuple(x) for x in state["trick"]]
        side = hf.TEAM[4][seat - 1]
        cards = [CARD_INDEX[a["card"]] for a in view["legal"] if a["type"] == "play"]
        winning = set()
        for c in cards:
            nxt = fs.copy()
            hf.play(nxt, c)
            if _wins(nxt, side):
                winning.add(c)
        best = hokm_dd.search(Truth(know, hands), cards, side, 1, hokm.Budget(None), hokm.Rng(2))
        if winning:
            assert best in winning, (view, hf.CARDS[best], [hf.CARDS[c] for c in winning])
            won += 1
        checked += 1
    assert checked > 40 and won > 10


def test_the_strong_level_plays_hokm4_double_dummy_unless_asked_for_playouts(monkeypatch):
    """Issue 38: the strong level's hokm4 cards are searched double dummy in the server; ``mc`` and other levels not."""
    calls = []
    real = hokm_dd.search

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hokm_dd, "search", spy)
    views = [(v, s) for v, s in _play_views("hokm4", 2, 11) if len(v["hand"]) > 6 and len(v["legal"]) > 2]
    view, seat = views[0]
    bots.choose("hokm4", view, seat, level="strong", seed=1, budget_ms=40)
    assert calls == [1]
    bots.choose("hokm4", view, seat, level="strong", seed=1, budget_ms=40, method="mc")
    bots.choose("hokm4", view, seat, level="normal", seed=1, budget_ms=40)
    assert calls == [1]


def test_h4_2_h4_3_a_trump_is_worth_a_round_won_by_the_hakem_on_lead():
    """The trump's solve (H4-2): the hakem (seat 0) leads the first trick (H4-3); one suit per seat.

    Spades or diamonds as trump: his side ruffs nothing it need not and takes all 13; hearts or clubs:
    an opponent ruffs the first spade and runs his suit. With another seat on lead the values differ.
    """
    suits = [hf.cards_to_mask(hf.CARDS[c] for c in range(13 * s, 13 * s + 13)) for s in range(4)]
    assert hokm_dd.trump_values(list(suits), 0, [0, 1, 2, 3]) == [1.0, 0.0, 1.0, 0.0]


def test_h4_2_the_strong_hakem_can_name_the_trump_by_double_dummy(monkeypatch):
    """Issue 38 (``hokm.TRUMP_DD``, off: no gain measured): the strong hakem names the trump by solved
    sampled deals; ``mc`` keeps the playouts."""
    monkeypatch.setattr(hokm, "TRUMP_DD", True)
    calls = []
    real = hokm_dd.trump_values

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(hokm_dd, "trump_values", spy)
    game = engine.get("hokm4")
    state = game.new_match(game.validate_rules({}))
    rng = random.Random(4)
    while state["phase"] != "trump":
        kind, cards = game.pending_chance(state)
        deck = list(cards)
        rng.shuffle(deck)
        state, _ = game.apply(state, engine.CHANCE, {"type": kind, "deck": deck})
    hakem = state["hakem"]
    view = game.view(state, hakem)
    action = bots.choose("hokm4", view, hakem, level="strong", seed=1, budget_ms=60)
    assert action in game.legal_actions(state, hakem)
    assert calls
    calls.clear()
    bots.choose("hokm4", view, hakem, level="strong", seed=1, budget_ms=60, method="mc")
    assert not calls
