"""Rubber bridge (RULES.md B-1..B-10, D-6).

The pure pieces come first, each usable on its own and tested directly:

- ``score_contract``: one deal's contract score (B-5, B-6, B-7, B-9);
- ``honours``: one hand's honours (B-8);
- ``Auction``: calls, their legality and the final contract (B-2, B-3);
- ``RubberSheet``: the score sheet of one rubber (B-5 games, B-10).

``Bridge`` (the instance ``BRIDGE``) is the game object of docs/engine.md.

Decisions where RULES.md (and its Hungarian source) leave room:

- A passed-out deal (four passes, B-2) scores nothing and the deal passes to
  the next dealer, as in the laws of rubber bridge (the Hungarian text says
  only "új osztás következik", a new deal follows; B-1 has the dealer rotate
  each deal). The platform shows it like any finished round (``round_over``).
- A match is one rubber (room option ``rubbers``: 1). It ends when a side has
  won two games; ``result`` gives the side with the higher total (both
  columns, B-10) as winner, and on equal totals the side that won the rubber.
- Honours (B-8) are scored for every played deal, made or not (neither text
  ties them to the result, and rubber bridge does not), to the side whose
  single hand holds them (the Hungarian "az adott oldal", that side). They
  are counted from the hands as dealt, once the strain is known, and stay
  hidden until the deal is scored.
- Unfinished rubber (B-10): the 300 and 100 go only to a side that has the
  *only* game or the *only* part score (the Hungarian: "amennyiben a másik
  oldal még nem ..." / "... még nincs pontja"). The game object never closes
  a rubber early; ``RubberSheet.totals(close=True)`` is there for the
  platform when a match is abandoned.
- Board mode (issue 37, the daily challenge): the hidden table rule
  ``board`` (1..16, not a room option of the lobby) makes the match one
  duplicate board: its dealer and vulnerability come from the board number
  (``board_of``), the deal is scored alone (``duplicate_score``: no honours,
  no rubber; a made contract adds 50 for a part score, 300 / 500 for a game),
  a passed-out board scores 0 and ends the match. Without it, rubber bridge
  as above, unchanged.
- Dummy (B-4): when it is dummy's turn, ``to_act`` is declarer's seat and
  declarer plays one of dummy's cards with an ordinary ``play`` action.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import CHANCE
from .base import Game
from .cards import DECK52, POWER, check_permutation, sort_hand
from .errors import IllegalAction
from .seats import next_seat, partner, team_of
from .tricks import overtakes_by_cut, playable, winning_index

PLAYERS = 4
LETTERS = "NESW"  # seat 1..4 (B-1)
SEAT_OF = {letter: i + 1 for i, letter in enumerate(LETTERS)}
SIDES = ("NS", "EW")  # team 0 = seats 1, 3; team 1 = seats 2, 4
STRAINS = ("C", "D", "H", "S", "NT")  # B-2, lowest first
BIDS = tuple(f"{level}{strain}" for level in range(1, 8) for strain in STRAINS)
BID_INDEX = {bid: i for i, bid in enumerate(BIDS)}
PASS, DOUBLE, REDOUBLE = "P", "X", "XX"
CALLS = (PASS, DOUBLE, REDOUBLE) + BIDS
_CALL_SET = frozenset(CALLS)
GAME_POINTS = 100  # B-5
_HONOUR_RANKS = "AKQJT"


def _side_index(side: str) -> int:
    try:
        return SIDES.index(side)
    except ValueError:
        raise IllegalAction("bad_side", f"A side is 'NS' or 'EW', not {side!r}.") from None


def _check_strain(strain: str) -> None:
    if strain not in STRAINS:
        raise IllegalAction("bad_strain", f"A strain is one of {STRAINS}, not {strain!r}.")


# --------------------------------------------------------------------------
# Contract score (B-5, B-6, B-7, B-9)


@dataclass(frozen=True)
class ContractScore:
    """One deal's contract score. ``declarer_above`` is the sum of the parts below it."""

    declarer_below: int = 0
    declarer_above: int = 0
    defenders_above: int = 0
    overtricks: int = 0  # B-6, part of declarer_above
    insult: int = 0  # B-6 (made doubled 50 / redoubled 100), part of declarer_above
    slam: int = 0  # B-9, part of declarer_above

    @property
    def made(self) -> bool:
        return self.defenders_above == 0


def trick_score(strain: str, odd_tricks: int, doubled: int = 0) -> int:
    """Below-the-line value of ``odd_tricks`` bid and made (B-5): NT 40 first then 30."""
    if odd_tricks <= 0:
        return 0
    if strain == "NT":
        base = 40 + 30 * (odd_tricks - 1)
    else:
        base = (20 if strain in ("C", "D") else 30) * odd_tricks
    return base * (1, 2, 4)[doubled]


def undertrick_penalty(down: int, doubled: int, vulnerable: bool) -> int:
    """The defenders' score for ``down`` undertricks, B-7's table as written."""
    if doubled == 0:
        return down * (100 if vulnerable else 50)
    total = 0
    for n in range(1, down + 1):
        if vulnerable:
            total += 200 if n == 1 else 300
        else:
            total += 100 if n == 1 else 200 if n <= 3 else 300
    return total * doubled  # redoubled is twice doubled: 200/400/600, 400/600


def score_contract(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> ContractScore:
    """The contract score of a deal; ``tricks`` is what declarer's side took (0..13).

    Honours (B-8) are not in it: they depend on the hands, see ``honours``.
    """
    _check_strain(strain)
    if level not in range(1, 8) or doubled not in (0, 1, 2) or tricks not in range(0, 14):
        raise IllegalAction("bad_score_input", "level 1..7, doubled 0..2, tricks 0..13.")
    needed = 6 + level
    if tricks < needed:
        return ContractScore(defenders_above=undertrick_penalty(needed - tricks, doubled, vulnerable))
    below = trick_score(strain, level, doubled)
    over = tricks - needed
    if doubled:
        overtricks = over * (200 if vulnerable else 100) * doubled  # B-6: 100/200, redoubled 200/400
    else:
        overtricks = over * (30 if strain == "NT" else trick_score(strain, 1))
    insult = 50 * doubled
    slam = {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(level, 0)
    return ContractScore(
        declarer_below=below,
        declarer_above=overtricks + insult + slam,
        overtricks=overtricks,
        insult=insult,
        slam=slam,
    )


def honours(strain: str, hand) -> int:
    """B-8 for one hand: 150 (five top trumps, or four aces in NT), 100 (four of five), else 0."""
    _check_strain(strain)
    if strain == "NT":
        return 150 if sum(1 for c in hand if c[0] == "A") == 4 else 0
    held = sum(1 for c in hand if c[1] == strain and c[0] in _HONOUR_RANKS)
    return 150 if held == 5 else 100 if held == 4 else 0


# --------------------------------------------------------------------------
# Duplicate boards (issue 37): dealer and vulnerability by board number, one board's score

BOARD_VULNERABILITY = ("none", "ns", "ew", "both", "ns", "ew", "both", "none",
                       "ew", "both", "none", "ns", "both", "none", "ns", "ew")  # fmt: skip
"""The standard duplicate cycle: board n is BOARD_VULNERABILITY[(n - 1) % 16]."""
PART_SCORE_BONUS = 50
GAME_BONUS = (300, 500)  # not vulnerable, vulnerable


def board_of(number: int) -> dict:
    """Board ``number`` (1..): its dealer seat (N E S W rotating from 1) and
    vulnerability, as ``{"number", "dealer", "vulnerable": [NS, EW]}``."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise IllegalAction("bad_board", f"A board number is 1 or more, not {number!r}.")
    vul = BOARD_VULNERABILITY[(number - 1) % 16]
    return {
        "number": number,
        "dealer": (number - 1) % 4 + 1,
        "vulnerable": [vul in ("ns", "both"), vul in ("ew", "both")],
    }


def duplicate_entries(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> list[dict]:
    """One board's score as entries ``{"kind", "points", "line", "declarer": bool}``:
    the contract score (B-5..B-7, B-9) plus the duplicate bonus for a made
    contract (part score 50, game 300 / 500 vulnerable); no honours, no rubber."""
    score = score_contract(level, strain, doubled, vulnerable, tricks)
    if not score.made:
        return [{"kind": "undertricks", "points": score.defenders_above, "line": "above", "declarer": False}]
    game = score.declarer_below >= GAME_POINTS
    bonus = GAME_BONUS[vulnerable] if game else PART_SCORE_BONUS
    parts = [
        ("contract", score.declarer_below, "below"),
        ("overtricks", score.overtricks, "above"),
        ("insult", score.insult, "above"),
        ("game" if game else "partscore", bonus, "above"),
        ("slam", score.slam, "above"),
    ]
    return [{"kind": k, "points": p, "line": line, "declarer": True} for k, p, line in parts if p]


def duplicate_score(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> int:
    """Declarer's side's score of one duplicate board (negative when it went down)."""
    return sum(
        e["points"] if e["declarer"] else -e["points"]
        for e in duplicate_entries(level, strain, doubled, vulnerable, tricks)
    )


# --------------------------------------------------------------------------
# The auction (B-2, B-3)


@dataclass(frozen=True)
class Contract:
    level: int
    strain: str
    doubled: int  # 0, 1 doubled, 2 redoubled
    declarer: str  # seat letter N E S W

    @property
    def declarer_seat(self) -> int:
        return SEAT_OF[self.declarer]

    @property
    def side(self) -> str:
        return SIDES[team_of(self.declarer_seat, PLAYERS)]

    @property
    def trump(self) -> str | None:
        return None if self.strain == "NT" else self.strain

    @property
    def text(self) -> str:
        return f"{self.level}{self.strain}{('', 'X', 'XX')[self.doubled]}"

    def to_data(self) -> dict:
        return {
            "level": self.level,
            "strain": self.strain,
            "doubled": self.doubled,
            "declarer": self.declarer_seat,
            "text": self.text,
        }

    @classmethod
    def from_data(cls, data: dict) -> Contract:
        return cls(data["level"], data["strain"], data["doubled"], LETTERS[data["declarer"] - 1])


class Auction:
    """The calls of one deal (B-2), the contract and its declarer (B-3).

    ``calls`` are the call strings in order; the dealer calls first and the
    turn goes clockwise (N, E, S, W).
    """

    def __init__(self, dealer: str):
        if dealer not in SEAT_OF:
            raise IllegalAction("bad_dealer", f"The dealer is one of N E S W, not {dealer!r}.")
        self.dealer = dealer
        self.calls: list[str] = []
        self._bid = -1  # index in BIDS of the last bid
        self._bidder = 0  # its seat
        self._doubled = 0
        self._passes = 0  # passes in a row
        self._first = [[0] * 5, [0] * 5]  # per team, per strain: first seat to name it
        self.is_over = False
        self.passed_out = False

    # plain data for the game state
    def to_data(self) -> dict:
        return {
            "calls": list(self.calls),
            "bid": self._bid,
            "bidder": self._bidder,
            "doubled": self._doubled,
            "passes": self._passes,
            "first": [list(self._first[0]), list(self._first[1])],
            "over": self.is_over,
            "passed_out": self.passed_out,
        }

    @classmethod
    def from_data(cls, dealer: str, data: dict) -> Auction:
        a = cls(dealer)
        a.calls = list(data["calls"])
        a._bid, a._bidder, a._doubled, a._passes = (
            data["bid"],
            data["bidder"],
            data["doubled"],
            data["passes"],
        )
        a._first = [list(data["first"][0]), list(data["first"][1])]
        a.is_over, a.passed_out = data["over"], data["passed_out"]
        return a

    @property
    def seat_to_call(self) -> int:
        """The seat (1..4) whose call is next."""
        return next_seat(SEAT_OF[self.dealer], PLAYERS, len(self.calls))

    @property
    def to_call(self) -> str | None:
        return None if self.is_over else LETTERS[self.seat_to_call - 1]

    @property
    def history(self) -> list[tuple[str, str]]:
        """(seat letter, call) pairs in order."""
        first = SEAT_OF[self.dealer]
        return [(LETTERS[next_seat(first, PLAYERS, i) - 1], c) for i, c in enumerate(self.calls)]

    def legal_calls(self) -> list[str]:
        if self.is_over:
            return []
        team = team_of(self.seat_to_call, PLAYERS)
        calls = [PASS]
        if self._bid >= 0:
            ours = team_of(self._bidder, PLAYERS) == team
            if not ours and self._doubled == 0:
                calls.append(DOUBLE)
            if ours and self._doubled == 1:
                calls.append(REDOUBLE)
        calls.extend(BIDS[self._bid + 1 :])
        return calls

    def call(self, call: str) -> None:
        """Make the next call; IllegalAction (nothing changes) if it is not legal now."""
        if self.is_over:
            raise IllegalAction("auction_over", "The auction is over.")
        if not isinstance(call, str) or call not in _CALL_SET:
            raise IllegalAction("bad_call", f"Not a call: {call!r} (P, X, XX, 1C .. 7NT).")
        seat = self.seat_to_call
        team = team_of(seat, PLAYERS)
        if call == PASS:
            self._passes += 1
            if self._passes == (3 if self._bid >= 0 else 4):
                self.is_over = True
                self.passed_out = self._bid < 0
        elif call == DOUBLE:
            if self._bid < 0:
                raise IllegalAction("nothing_to_double", "There is no bid to double.")
            if team_of(self._bidder, PLAYERS) == team:
                raise IllegalAction("double_own_side", "Only the opponents' bid can be doubled.")
            if self._doubled:
                raise IllegalAction("double_already_doubled", "That bid is already doubled.")
            self._doubled, self._passes = 1, 0
        elif call == REDOUBLE:
            if self._bid < 0 or self._doubled == 0:
                raise IllegalAction("redouble_undoubled", "Only a doubled bid can be redoubled.")
            if self._doubled == 2:
                raise IllegalAction("redouble_already_redoubled", "That bid is already redoubled.")
            if team_of(self._bidder, PLAYERS) != team:
                raise IllegalAction("redouble_opponents", "Only one's own side's bid can be redoubled.")
            self._doubled, self._passes = 2, 0
        else:
            index = BID_INDEX[call]
            if index <= self._bid:
                raise IllegalAction("insufficient_bid", f"{call} does not outrank {BIDS[self._bid]}.")
            self._bid, self._bidder, self._doubled, self._passes = index, seat, 0, 0
            strain = STRAINS.index(call[1:])
            if not self._first[team][strain]:
                self._first[team][strain] = seat  # B-3
        self.calls.append(call)

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over (None while open or passed out)."""
        if not self.is_over or self.passed_out:
            return None
        bid = BIDS[self._bid]
        strain = bid[1:]
        declarer = self._first[team_of(self._bidder, PLAYERS)][STRAINS.index(strain)]
        return Contract(int(bid[0]), strain, self._doubled, LETTERS[declarer - 1])


# --------------------------------------------------------------------------
# The rubber score sheet (B-5 games and vulnerability, B-10)


class RubberSheet:
    """We/They, above and below the line, for one rubber.

    Every entry is a dict ``{"deal": n, "kind": k, "points": p}`` with kind one
    of ``contract`` (below), ``overtricks``, ``insult``, ``slam``,
    ``undertricks``, ``honours``, ``rubber`` (above). ``below(side)`` is the
    current game; ``games_below(side)`` the games already finished, in order.
    ``to_data``/``from_data`` give the plain form stored in the game state.
    """

    def __init__(self):
        self._above: list[list[dict]] = [[], []]
        self._below: list[list[dict]] = [[], []]
        self._finished: list[list[list[dict]]] = []  # each finished game: [ns entries, ew entries]
        self._games = [0, 0]
        self._deals = 0
        self._winner: int | None = None

    def to_data(self) -> dict:
        return {
            "above": [list(self._above[0]), list(self._above[1])],
            "below": [list(self._below[0]), list(self._below[1])],
            "games_below": [[list(g[0]), list(g[1])] for g in self._finished],
            "games": list(self._games),
            "deals": self._deals,
            "winner": self._winner,
        }

    @classmethod
    def from_data(cls, data: dict) -> RubberSheet:
        sheet = cls()
        sheet._above = [list(data["above"][0]), list(data["above"][1])]
        sheet._below = [list(data["below"][0]), list(data["below"][1])]
        sheet._finished = [[list(g[0]), list(g[1])] for g in data["games_below"]]
        sheet._games = list(data["games"])
        sheet._deals = data["deals"]
        sheet._winner = data["winner"]
        return sheet

    # reading
    def above(self, side: str) -> list[dict]:
        return list(self._above[_side_index(side)])

    def below(self, side: str) -> list[dict]:
        """The side's below-the-line entries in the current (unfinished) game."""
        return list(self._below[_side_index(side)])

    def games_below(self, side: str) -> list[list[dict]]:
        """The side's below-the-line entries of each finished game, in order."""
        i = _side_index(side)
        return [list(g[i]) for g in self._finished]

    def part_score(self, side: str) -> int:
        return sum(e["points"] for e in self._below[_side_index(side)])

    def games_won(self, side: str) -> int:
        return self._games[_side_index(side)]

    def vulnerable(self, side: str) -> bool:
        return self._games[_side_index(side)] >= 1  # B-5

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def winner(self) -> str | None:
        """The side that won the rubber (two games), None while it goes on."""
        return None if self._winner is None else SIDES[self._winner]

    @property
    def deals(self) -> int:
        return self._deals

    def closing_bonuses(self) -> dict[str, int]:
        """B-10 unfinished rubber: 300 for the only game, 100 for the only part score."""
        bonus = {"NS": 0, "EW": 0}
        if self.is_over:
            return bonus
        g = self._games
        if g[0] != g[1] and min(g) == 0:
            bonus[SIDES[0 if g[0] else 1]] += 300
        parts = [sum(e["points"] for e in self._below[t]) for t in (0, 1)]
        if (parts[0] > 0) != (parts[1] > 0):
            bonus[SIDES[0 if parts[0] else 1]] += 100
        return bonus

    def totals(self, close: bool = False) -> dict[str, int]:
        """Both columns added up (B-10); ``close`` adds the unfinished-rubber bonuses."""
        totals = {}
        for t, side in enumerate(SIDES):
            total = sum(e["points"] for e in self._above[t]) + sum(e["points"] for e in self._below[t])
            total += sum(e["points"] for g in self._finished for e in g[t])
            totals[side] = total
        if close:
            for side, points in self.closing_bonuses().items():
                totals[side] += points
        return totals

    # writing
    def record(
        self, contract, tricks: int, honours_ns: int = 0, honours_ew: int = 0, deal: int | None = None
    ) -> list[dict]:
        """Score one played deal: ``contract`` (level, strain, doubled, declarer letter),
        ``tricks`` taken by declarer's side, the honours each side held (B-8).
        ``deal`` is the number written on the entries (default: played deals so far + 1).

        Returns the new entries, each with its ``side`` and ``line``; a won
        rubber's bonus (B-10) is among them.
        """
        if self.is_over:
            raise IllegalAction("rubber_over", "The rubber is over.")
        if honours_ns not in (0, 100, 150) or honours_ew not in (0, 100, 150):
            raise IllegalAction("bad_honours", "Honours are 0, 100 or 150.")
        declarer = SEAT_OF[contract.declarer]
        team = team_of(declarer, PLAYERS)
        defenders = team_of(next_seat(declarer, PLAYERS), PLAYERS)
        score = score_contract(
            contract.level, contract.strain, contract.doubled, self._games[team] >= 1, tricks
        )
        self._deals += 1
        number = self._deals if deal is None else deal
        new: list[dict] = []

        def add(t: int, line: str, kind: str, points: int) -> None:
            if points:
                entry = {"deal": number, "kind": kind, "points": points}
                (self._below if line == "below" else self._above)[t].append(entry)
                new.append({"side": SIDES[t], "team": t, "line": line, **entry})

        add(team, "below", "contract", score.declarer_below)
        add(team, "above", "overtricks", score.overtricks)
        add(team, "above", "insult", score.insult)
        add(team, "above", "slam", score.slam)
        add(defenders, "above", "undertricks", score.defenders_above)
        add(0, "above", "honours", honours_ns)
        add(1, "above", "honours", honours_ew)
        if sum(e["points"] for e in self._below[team]) >= GAME_POINTS:  # B-5: a game
            self._games[team] += 1
            self._finished.append(self._below)
            self._below = [[], []]
            if self._games[team] == 2:  # B-10
                self._winner = team
                add(team, "above", "rubber", 700 if self._games[defenders] == 0 else 500)
        return new

    def public(self) -> dict:
        """The sheet as the views show it (team-indexed lists, 0 = NS)."""
        data = self.to_data()
        totals = self.totals()
        data["vulnerable"] = [self._games[0] >= 1, self._games[1] >= 1]
        data["totals"] = [totals["NS"], totals["EW"]]
        return data


# --------------------------------------------------------------------------
# The game object


def _hcp(hand) -> int:
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c[0], 0) for c in hand)


def opening_call(hand) -> str:
    """A plain opening for the automatic caller: 1NT with a balanced 15-17,
    one of the longest suit (the higher of equals) with 13+ points, else pass."""
    points = _hcp(hand)
    lengths = {s: sum(1 for c in hand if c[1] == s) for s in "SHDC"}
    shape = sorted(lengths.values())
    if 15 <= points <= 17 and shape in ([3, 3, 3, 4], [2, 3, 4, 4], [2, 3, 3, 5]):
        return "1NT"
    if points >= 13:
        longest = max("SHDC", key=lambda s: lengths[s])  # max keeps the first (highest) of equals
        return "1" + longest
    return PASS


class Bridge(Game):
    """The bridge game object (docs/engine.md).

    Phases: ``deal`` (chance) -> ``auction`` -> ``play`` -> ``round_over``
    (chance: the next deal) ... -> ``match_over``. A passed-out auction goes
    straight to ``round_over``. ``state["turn"]`` is the seat whose cards go
    next (dummy's seat on dummy's turn, when ``to_act`` is declarer's).

    Views add to the common keys: ``calls`` [{seat, call}], ``contract``
    ({level, strain, doubled, declarer seat, text}), ``declarer``, ``dummy``,
    ``dummy_hand`` (after the opening lead, for everyone), ``next_hand``,
    ``tricks_won`` [NS, EW], ``score`` (the sheet, ``RubberSheet.public``) and
    ``last_result``. Events: dealt, call, auction_over / passed_out,
    card_played, dummy_shown, trick_won, deal_scored, rubber_won, match_won.
    """

    name = "bridge"
    label = "Rubber bridge"
    family = "bridge"
    players = PLAYERS
    RULE_OPTIONS = {
        "turn_seconds": {"choices": [10, 20, 30, 60], "default": 30},
        "rubbers": {"choices": [1], "default": 1},  # a match is one rubber
    }

    # -- metadata --------------------------------------------------------
    def validate_rules(self, rules=None) -> dict:
        """The room options, plus the hidden ``board`` (1..16) of board mode (issue 37)."""
        if isinstance(rules, dict) and "board" in rules:
            rest = {k: v for k, v in rules.items() if k != "board"}
            number = rules["board"]
            if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 16:
                raise IllegalAction("bad_rules", f"Table rule 'board' cannot be {number!r}.")
            return {**super().validate_rules(rest), "board": number}
        return super().validate_rules(rules)

    def new_match(self, rules=None) -> dict:
        rules = self.validate_rules(rules)
        state = self._new_match(rules)
        if "board" in rules:  # one duplicate board: its own dealer and vulnerability
            board = board_of(rules["board"])
            state.update(dealer=board["dealer"], board=board, score=[0, 0])
        return state

    def _new_match(self, rules) -> dict:
        return {
            "game": self.name,
            "rules": rules,
            "phase": "deal",
            "round": 0,
            "dealer": 1,  # D-6: North deals first
            "hands": [[], [], [], []],
            "auction": None,
            "contract": None,
            "turn": None,  # whose cards are to be played (dummy's seat on dummy's turn)
            "trick": [],
            "last_trick": None,
            "past_tricks": [],  # the deal's finished tricks, as last_trick (public)
            "tricks_won": [0, 0],
            "dummy_shown": False,
            "honours": [0, 0],  # hidden until scored: it tells about the hands
            "sheet": RubberSheet().to_data(),
            "last_result": None,
        }

    # -- whose turn -----------------------------------------------------
    def pending_chance(self, state):
        if state["phase"] in ("deal", "round_over"):
            return ("deal", DECK52)
        return None

    def round_over(self, state) -> bool:
        return state["phase"] == "round_over"

    def to_act(self, state) -> set[int]:
        phase = state["phase"]
        if phase in ("deal", "round_over"):
            return {CHANCE}
        if phase == "auction":
            return {next_seat(state["dealer"], PLAYERS, len(state["auction"]["calls"]))}
        if phase == "play":
            return {self._acting_seat(state)}
        return set()

    def _acting_seat(self, state) -> int:
        turn = state["turn"]
        declarer = state["contract"]["declarer"]
        return declarer if turn == partner(declarer, PLAYERS) else turn  # B-4: declarer plays dummy

    def _auction(self, state) -> Auction:
        return Auction.from_data(LETTERS[state["dealer"] - 1], state["auction"])

    def _trump(self, state) -> str | None:
        strain = state["contract"]["strain"]
        return None if strain == "NT" else strain

    def _lead(self, state) -> str | None:
        return state["trick"][0]["card"] if state["trick"] else None

    def legal_actions(self, state, seat) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        if seat == CHANCE:
            return [{"type": "deal"}]
        if phase == "auction":
            return [{"type": "call", "call": c} for c in self._auction(state).legal_calls()]
        hand = state["hands"][state["turn"] - 1]
        return [{"type": "play", "card": c} for c in playable(hand, self._lead(state), self._trump(state))]

    # -- moves ------------------------------------------------------------
    def apply(self, state, seat, action):
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("bad_action", "An action is a dict with a 'type'.")
        phase = state["phase"]
        if phase == "match_over":
            raise IllegalAction("match_over", "The match is over.")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", f"Seat {seat} may not act now.")
        if phase in ("deal", "round_over"):
            return self._deal(state, action)
        if phase == "auction":
            return self._call(state, seat, action)
        return self._play(state, action)

    def _deal(self, state, action):
        if action["type"] != "deal":
            raise IllegalAction("bad_action", "A deal is due.")
        deck = check_permutation(action.get("deck"), DECK52)
        dealer = state["dealer"] if state["phase"] == "deal" else next_seat(state["dealer"], PLAYERS)
        hands = [[], [], [], []]
        for i, card in enumerate(deck):  # D-6: one at a time, d[0] to dealer's left
            hands[next_seat(dealer, PLAYERS, i + 1) - 1].append(card)
        new = dict(state)
        new.update(
            phase="auction",
            round=state["round"] + 1,
            dealer=dealer,
            hands=[sort_hand(h) for h in hands],
            auction=Auction(LETTERS[dealer - 1]).to_data(),
            contract=None,
            turn=None,
            trick=[],
            last_trick=None,
            past_tricks=[],
            tricks_won=[0, 0],
            dummy_shown=False,
            honours=[0, 0],
        )
        return new, [{"type": "dealt", "dealer": dealer, "round": new["round"]}]

    def _call(self, state, seat, action):
        if action["type"] != "call" or "call" not in action:
            raise IllegalAction("bad_action", "The auction is on: make a call.")
        auction = self._auction(state)
        auction.call(action["call"])  # raises IllegalAction with the rule's code
        new = dict(state)
        new["auction"] = auction.to_data()
        events = [{"type": "call", "seat": seat, "call": action["call"]}]
        if not auction.is_over:
            return new, events
        if auction.passed_out:  # B-2: redeal, no score; the next dealer deals
            new["phase"] = "round_over"
            new["last_result"] = {"round": state["round"], "passed_out": True}
            events.append({"type": "passed_out", "dealer": state["dealer"]})
            if state.get("board"):  # a passed-out duplicate board scores 0 and is over
                new["last_result"]["entries"] = []
                new["phase"] = "match_over"
                events.append({"type": "match_won", **self.result(new)})
            return new, events
        contract = auction.contract
        declarer = contract.declarer_seat
        held = [0, 0]
        for s, hand in enumerate(state["hands"], start=1):  # B-8, from the hands as dealt
            held[team_of(s, PLAYERS)] += honours(contract.strain, hand)
        new.update(phase="play", contract=contract.to_data(), turn=next_seat(declarer, PLAYERS), honours=held)
        events.append({"type": "auction_over", "contract": contract.to_data()})
        return new, events

    def _play(self, state, action):
        card = action.get("card")
        if action["type"] != "play" or not isinstance(card, str):
            raise IllegalAction("bad_action", "Play a card: {'type': 'play', 'card': ...}.")
        turn = state["turn"]
        hand = state["hands"][turn - 1]
        if card not in hand:
            raise IllegalAction("not_in_hand", f"{card} is not in that hand.")
        trump = self._trump(state)
        if card not in playable(hand, self._lead(state), trump):
            raise IllegalAction("must_follow_suit", "A card of the suit led must be played (B-4).")
        new = dict(state)
        hands = list(state["hands"])
        hands[turn - 1] = [c for c in hand if c != card]
        new["hands"] = hands
        trick = state["trick"] + [{"seat": turn, "card": card}]
        cards = [t["card"] for t in trick]
        events = [{"type": "card_played", "seat": turn, "card": card, "cut": overtakes_by_cut(cards, trump)}]
        declarer = state["contract"]["declarer"]
        if not state["dummy_shown"]:  # B-4: after the opening lead dummy is face up
            dummy = partner(declarer, PLAYERS)
            new["dummy_shown"] = True
            events.append({"type": "dummy_shown", "seat": dummy, "cards": list(hands[dummy - 1])})
        if len(trick) < PLAYERS:
            new["trick"] = trick
            new["turn"] = next_seat(turn, PLAYERS)
            return new, events
        winner = trick[winning_index(cards, trump)]["seat"]
        won = list(state["tricks_won"])
        won[team_of(winner, PLAYERS)] += 1
        last = {"cards": trick, "winner": winner}
        # every finished trick of the deal stays public (bots read voids from it)
        past = state.get("past_tricks", []) + [last]
        new.update(trick=[], last_trick=last, past_tricks=past, turn=winner, tricks_won=won)
        events.append({"type": "trick_won", "seat": winner, "cards": cards, "leader": trick[0]["seat"]})
        if sum(won) == 13:
            self._score(new, events)
        return new, events

    def _score(self, new, events) -> None:
        """The deal is played out: write it on the sheet (B-5..B-10). Mutates ``new`` (a fresh copy)."""
        if new.get("board"):
            return self._score_board(new, events)
        contract = Contract.from_data(new["contract"])
        taken = new["tricks_won"][team_of(contract.declarer_seat, PLAYERS)]
        sheet = RubberSheet.from_data(new["sheet"])
        entries = sheet.record(contract, taken, new["honours"][0], new["honours"][1], deal=new["round"])
        new["sheet"] = sheet.to_data()
        new["turn"] = None
        result = {
            "round": new["round"],
            "passed_out": False,
            "contract": new["contract"],
            "tricks": taken,
            "honours": list(new["honours"]),
            "entries": entries,
        }
        new["last_result"] = result
        events.append({"type": "deal_scored", **result})
        if sheet.is_over:
            new["phase"] = "match_over"
            outcome = self.result(new)
            events.append(
                {
                    "type": "rubber_won",
                    "team": SIDES.index(sheet.winner),
                    "side": sheet.winner,
                    "score": outcome["score"],
                }
            )
            events.append({"type": "match_won", **outcome})
        else:
            new["phase"] = "round_over"

    def _score_board(self, new, events) -> None:
        """Board mode: the board's duplicate score (issue 37); the match is over."""
        contract = Contract.from_data(new["contract"])
        team = team_of(contract.declarer_seat, PLAYERS)
        taken = new["tricks_won"][team]
        vulnerable = new["board"]["vulnerable"][team]
        parts = duplicate_entries(contract.level, contract.strain, contract.doubled, vulnerable, taken)
        entries, score = [], [0, 0]
        for part in parts:
            t = team if part["declarer"] else 1 - team
            score[t] += part["points"]
            entries.append(
                {
                    "side": SIDES[t],
                    "team": t,
                    "line": part["line"],
                    "deal": new["round"],
                    "kind": part["kind"],
                    "points": part["points"],
                }  # fmt: skip
            )
        new.update(score=score, turn=None, phase="match_over")
        result = {
            "round": new["round"],
            "passed_out": False,
            "contract": new["contract"],
            "tricks": taken,
            "honours": [0, 0],
            "entries": entries,
            "board": new["board"]["number"],
        }
        new["last_result"] = result
        events.append({"type": "deal_scored", **result})
        events.append({"type": "match_won", **self.result(new)})

    def _board_sheet(self, state) -> dict:
        """Board mode's ``score`` for the views: the sheet's shape (the table draws
        it as it draws a rubber), with the board's entries, vulnerability and totals."""
        lines = {"above": [[], []], "below": [[], []]}
        for e in (state.get("last_result") or {}).get("entries") or []:
            lines[e["line"]][e["team"]].append({"deal": e["deal"], "kind": e["kind"], "points": e["points"]})
        return {
            **lines,
            "games_below": [],
            "games": [0, 0],
            "deals": 1 if state["phase"] == "match_over" else 0,
            "winner": None,
            "vulnerable": list(state["board"]["vulnerable"]),
            "totals": list(state["score"]),
            "board": state["board"]["number"],
        }

    # -- what each seat sees ----------------------------------------------
    def view(self, state, seat) -> dict:
        viewer = seat if seat in (1, 2, 3, 4) else None
        contract = state["contract"]
        dummy = partner(contract["declarer"], PLAYERS) if contract else None
        auction = state["auction"]
        calls = []
        if auction is not None:
            calls = [
                {"seat": next_seat(state["dealer"], PLAYERS, i), "call": c}
                for i, c in enumerate(auction["calls"])
            ]
        phase = state["phase"]
        hands = state["hands"]
        return {
            "game": self.name,
            "players": PLAYERS,
            "phase": phase,
            "viewer": viewer,
            "to_act": sorted(self.to_act(state)),
            "legal": self.legal_actions(state, viewer) if viewer else [],
            "hand": list(hands[viewer - 1]) if viewer else None,
            "hand_counts": [len(h) for h in hands],
            "trick": list(state["trick"]),
            "last_trick": state["last_trick"],
            "past_tricks": list(state.get("past_tricks", [])),
            "trump": contract["strain"] if contract and contract["strain"] != "NT" else None,
            "round": state["round"],
            "dealer": state["dealer"] if state["round"] else None,
            "calls": calls,
            "contract": contract,
            "declarer": contract["declarer"] if contract else None,
            "dummy": dummy,
            "dummy_hand": list(hands[dummy - 1]) if dummy and state["dummy_shown"] else None,
            "next_hand": state["turn"] if phase == "play" else None,  # whose cards go next
            "tricks_won": list(state["tricks_won"]),
            "score": self._board_sheet(state)
            if state.get("board")
            else RubberSheet.from_data(state["sheet"]).public(),
            "last_result": state["last_result"],
            **({"board": state["board"]} if state.get("board") else {}),
        }

    # -- timeouts -----------------------------------------------------------
    def auto_action(self, state, seat) -> dict:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("not_your_turn", f"Seat {seat} may not act now.")
        if state["phase"] == "auction":
            auction = state["auction"]
            ours = auction["bid"] >= 0 and team_of(auction["bidder"], PLAYERS) == team_of(seat, PLAYERS)
            call = PASS if ours else opening_call(state["hands"][seat - 1])
            if call not in {a["call"] for a in legal}:
                call = PASS
            return {"type": "call", "call": call}
        if state["phase"] != "play":
            return legal[0]
        return {"type": "play", "card": self._auto_card(state, [a["card"] for a in legal])}

    def _auto_card(self, state, legal: list[str]) -> str:
        trump = self._trump(state)
        turn = state["turn"]

        def cheap(c):  # a trump costs more than any other card
            return (c[1] == trump, POWER[c])

        trick = state["trick"]
        if not trick:  # lead from the longest suit: its top card if it is a winner, else a low one
            hand = state["hands"][turn - 1]
            out = {c for s, h in enumerate(state["hands"], start=1) if s != turn for c in h}
            suit = max("SHDC", key=lambda s: sum(1 for c in hand if c[1] == s))
            mine = sorted((c for c in hand if c[1] == suit), key=POWER.get)
            top = mine[-1]
            if not any(c[1] == suit and POWER[c] > POWER[top] for c in out):
                return top
            return mine[0]
        cards = [t["card"] for t in trick]
        best = trick[winning_index(cards, trump)]["seat"]
        if team_of(best, PLAYERS) != team_of(turn, PLAYERS):  # win cheaply if we can
            winners = [c for c in legal if winning_index(cards + [c], trump) == len(cards)]
            if winners:
                return min(winners, key=cheap)
        return min(legal, key=cheap)  # partner is winning, or we cannot: play low

    def result(self, state) -> dict | None:
        if state["phase"] != "match_over":
            return None
        if state.get("board"):  # one duplicate board: the side that scored wins it (none if passed out)
            score = list(state["score"])
            winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
            return {"winner": winner, "score": score, "board": state["board"]["number"]}
        sheet = RubberSheet.from_data(state["sheet"])
        totals = sheet.totals()
        score = [totals["NS"], totals["EW"]]
        if score[0] != score[1]:
            winner = 0 if score[0] > score[1] else 1
        else:
            winner = SIDES.index(sheet.winner)
        return {"winner": winner, "score": score}


BRIDGE = Bridge()
