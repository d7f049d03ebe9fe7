"""The daily challenge (E-1, E-2).

Each day (the site's time zone) and each game, a fixed set of deals that
every entrant plays from seat 1 against the same strong bots. The deals come
from the fair deal's shuffle (``deal-v1``, games/fairdeal.py) driven by the
day's seed: its SHA-256 fingerprint is public from the moment the day's row
is made (the ticker makes tomorrow's today), the seed itself once the day has
closed; with it anyone re-derives every deal (``deck_of``; in the browser,
static/js/fairdeal.js's ``order`` with the same arguments).

Round ``n`` of day ``D`` for game ``G`` (its table name ``challenge.D.G``):

    deal deck     = deal-v1 order(cards, seed, [seed], purpose "deal", table, round n)
    ace draw deck = deal-v1 order(DECK52, seed, [seed], purpose "draw", table, round n)

Each deal is played as a one-round practice match in a private room (rooms'
public services make and start it); its decks come from the list above
through games/decks.py (``given_decks``), its bots' seed from the day's seed
and the deal's number, so the same play meets the same answer.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import date, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import engine, fairdeal
from games.decks import Given
from games.engine.bridge import BOARD_VULNERABILITY, board_of
from games.engine.cards import DECK52
from games.errors import PlayError
from games.models import Match
from rooms import services as rooms_services

from . import scoring
from .models import ChallengeDay, ChallengeDeal, ChallengeEntry

DEALS = {"hokm4": 8, "shelem4": 6, "bridge": 8}
"""E-1: how many deals a day holds, per game."""

PLAYABLE = ("hokm4", "shelem4", "bridge")
"""Games whose deals can be played here (Bridge's as duplicate boards: the
engine's board mode, dealer and vulnerability by board number)."""

ENTRANT_SEAT = 1
BOT_LEVEL = "strong"
BOT_BUDGET_MS = 60_000.0
"""A budget that never cuts the bots' search: their answer depends only on the
view and the seed (games/bots: "a budget that does not cut the search")."""
TURN_SECONDS = 60


def bot_level() -> str:
    """The challenge's bots: ``strong`` (E-1); a test server may ask for a
    quicker level (``EVENTS_CHALLENGE_BOT_LEVEL``, the browser suite's)."""
    return getattr(settings, "EVENTS_CHALLENGE_BOT_LEVEL", BOT_LEVEL)


def bot_worlds() -> int | None:
    """The challenge bots' sampled worlds per decision: their level's own
    (None); the suite asks for fewer (``EVENTS_CHALLENGE_BOT_WORLDS``) to keep
    a whole day's play quick. Any fixed number keeps E-1's promise: the search
    is never cut by time, so the same play meets the same answer."""
    return getattr(settings, "EVENTS_CHALLENGE_BOT_WORLDS", None)


VULNERABILITY = BOARD_VULNERABILITY
"""Duplicate bridge: the vulnerability of board n is VULNERABILITY[(n - 1) % 16]."""


class ChallengeError(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


# --- the day and its deals -----------------------------------------------------------


def today() -> date:
    return timezone.localdate()


def table_name(day_date: date, game: str) -> str:
    return f"challenge.{day_date.isoformat()}.{game}"


def cards_of(game: str) -> list[str]:
    definition = engine.get(game)
    state = definition.new_match(definition.default_rules())
    state = {**state, "phase": "deal"}
    return list(definition.pending_chance(state)[1])


def deck_of(seed: str, day_date: date, game: str, number: int, purpose: str = "deal") -> list[str]:
    """Deal ``number`` of the day (E-1): the fair deal's shuffle from the day's seed."""
    cards = DECK52 if purpose == "draw" else cards_of(game)
    table = table_name(day_date, game)
    return fairdeal.order(cards, seed, [seed], purpose=purpose, table=table, round_number=number)


def board(number: int) -> dict:
    """Duplicate bridge: the dealer (1 North .. 4 West) and vulnerability of board ``number``."""
    return {"dealer": board_of(number)["dealer"], "vulnerable": VULNERABILITY[(number - 1) % 16]}


def rules_of(game: str, number: int) -> dict:
    """The room's table rules for deal ``number``: Bridge plays it as duplicate
    board ``number`` (the engine's hidden ``board`` rule)."""
    rules = {"turn_seconds": TURN_SECONDS}
    if game == "bridge":
        rules["board"] = (number - 1) % 16 + 1
    return rules


def get_day(day_date: date, game: str) -> ChallengeDay:
    """The day's row, made with a fresh seed if new (idempotent: one row per date and game)."""
    if game not in DEALS:
        raise ChallengeError("bad_game")
    seed = secrets.token_hex(32)
    day, _ = ChallengeDay.objects.get_or_create(
        date=day_date, game=game, defaults={"seed": seed, "fingerprint": fairdeal.commitment(seed)}
    )
    return day


def prepare(now=None) -> list[ChallengeDay]:
    """Today's and tomorrow's rows (the fingerprint is public before the day starts)."""
    local = timezone.localdate(now) if now else today()
    dates = (local, local + timedelta(days=1))
    days = list(ChallengeDay.objects.filter(date__in=dates))
    if len(days) == len(dates) * len(DEALS):
        return sorted(days, key=lambda d: (d.date, list(DEALS).index(d.game)))
    return [get_day(d, g) for d in dates for g in DEALS]


def public(day: ChallengeDay) -> dict:
    """What anyone may know of a day: the seed only after the close (E-1)."""
    data = {
        "date": day.date.isoformat(),
        "game": day.game,
        "deals": DEALS[day.game],
        "table": table_name(day.date, day.game),
        "fingerprint": day.fingerprint,
        "algorithm": fairdeal.ALGORITHM,
        "closed": day.closed,
        "seed": day.seed if day.closed else None,
        "cards": cards_of(day.game),
        "draw": day.game == "hokm4",
    }
    if day.game == "bridge":
        data["boards"] = [board(n) for n in range(1, DEALS["bridge"] + 1)]
    return data


def bot_seed(day: ChallengeDay, number: int) -> int:
    digest = hashlib.sha256(f"{day.seed}|bots|{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


# --- the hook: a challenge deal's match takes the day's decks (games/decks.py) ---------------

_given_cache: dict[int, Given | None] = {}
"""Match id -> its answer: a match's deal never changes (kept per process)."""


def given_decks(match) -> Given | None:
    """games.decks' source: the day's decks for a challenge deal's own match,
    else None. A rematch in the same room (R-3) is a match of its own: it is
    dealt by the fair deal as any practice match, and does not count."""
    if match.pk in _given_cache:
        return _given_cache[match.pk]
    row = ChallengeDeal.objects.filter(room_id=match.room_id).select_related("entry__day").first()
    if row is None or row.match_id not in (None, match.pk):
        found = None
    else:
        day, n = row.entry.day, row.number
        decks = {("deal", 1): deck_of(day.seed, day.date, day.game, n)}
        decks[("draw", 1)] = deck_of(day.seed, day.date, day.game, n, "draw")
        found = Given(
            decks=decks,
            rounds=1,
            bot_seed=bot_seed(day, n),
            bot_budget_ms=BOT_BUDGET_MS,
            bot_worlds=bot_worlds(),
        )
    if len(_given_cache) > 4096:
        _given_cache.clear()
    if row is None or row.match_id is not None:  # while it is being made, ask again
        _given_cache[match.pk] = found
    return found


# --- playing -------------------------------------------------------------------------------


def entry_of(day: ChallengeDay, user) -> ChallengeEntry | None:
    return ChallengeEntry.objects.filter(day=day, user=user).first()


def play(user, game: str, day_date: date | None = None) -> ChallengeDeal:
    """The deal ``user`` plays now: the one he left unfinished (resumed), else
    the next one, started (a deal once started counts, E-1). Refused: a
    closed or not-today day, a finished day, a game not playable here."""
    day_date = day_date or today()
    if game not in PLAYABLE:
        raise ChallengeError("not_playable")
    if day_date != today():
        raise ChallengeError("not_today")
    day = get_day(day_date, game)
    if day.closed:
        raise ChallengeError("closed")
    with transaction.atomic():
        entry, _ = ChallengeEntry.objects.get_or_create(day=day, user=user)
        entry = ChallengeEntry.objects.select_for_update().get(pk=entry.pk)
        running = entry.deals.filter(done=False).order_by("number").first()
        if running is not None:
            return running
        number = entry.deals.count() + 1
        if number > DEALS[game]:
            raise ChallengeError("finished")
        definition = engine.get(game)
        try:  # one table at a time: not while he plays a match elsewhere (L-3)
            room = rooms_services.create_room(user, game, rules_of(game, number), is_private=True, move=True)
        except PlayError as exc:
            raise ChallengeError(exc.code) from None
        deal = ChallengeDeal.objects.create(entry=entry, number=number, room_id=room.pk)
        for seat in range(1, definition.players + 1):
            if seat != ENTRANT_SEAT:
                rooms_services.set_bot(room, user, seat, True, bot_level())
        match = rooms_services.start(room, user)
        deal.match_id = match.pk
        deal.save(update_fields=["match_id"])
        return deal


def deal_value(game: str, state: dict) -> int:
    """The entrant's side's result of a finished deal (team of seats 1 and 3)."""
    last = state.get("last_result") or {}
    if game.startswith("hokm"):
        tricks = last.get("tricks") or state.get("tricks") or [0, 0]
        return int(tricks[0]) - int(tricks[1])
    if game.startswith("shelem"):
        score = last.get("score") or [0, 0]
        return int(score[0]) - int(score[1])
    score = state.get("score") or [0, 0]  # Bridge: the board's duplicate score, N-S minus E-W
    return int(score[0]) - int(score[1])


LOWEST = -(10**6)
"""An abandoned deal's value: below every played result."""


def match_ended(sender, match, **kwargs) -> None:
    """games.signals.match_ended: a challenge deal's match is over; its result counts."""
    if not match.practice:
        return
    deal = ChallengeDeal.objects.filter(match_id=match.pk).first()
    if deal is None or deal.done:
        return
    if match.status == Match.Status.FINISHED:
        deal.value = deal_value(match.game, match.state)
    else:
        deal.value = LOWEST
    deal.done = True
    deal.save(update_fields=["done", "value"])


# --- the field: ranking and the close (E-1, E-2) ------------------------------------------


def results(day: ChallengeDay) -> dict[int, dict[int, int]]:
    """{deal number: {user id: value}} of every finished deal of the day."""
    table: dict[int, dict[int, int]] = {}
    rows = ChallengeDeal.objects.filter(entry__day=day, done=True).values_list(
        "number", "entry__user_id", "value"
    )
    for number, user_id, value in rows:
        table.setdefault(number, {})[user_id] = value
    return table


def ranking(day: ChallengeDay) -> list[dict]:
    """The live ranking (names and totals only, E-2): match points (Hokm,
    Shelem, as a percentage) or IMPs across the field (Bridge)."""
    field = results(day)
    totals = scoring.imps_totals(field) if day.game == "bridge" else scoring.matchpoint_totals(field)
    names = dict(day.entries.values_list("user_id", "user__username"))
    played = {}
    for deals in field.values():
        for user_id in deals:
            played[user_id] = played.get(user_id, 0) + 1
    rows = [
        {
            "user_id": uid,
            "name": names.get(uid, "?"),
            "total": totals.get(uid, 0.0),
            "deals": played.get(uid, 0),
        }
        for uid in names
    ]
    rows.sort(key=lambda r: (-r["total"], -r["deals"], r["name"]))
    for place, row in enumerate(rows, start=1):
        row["place"] = place
    return rows


def close(day: ChallengeDay, now=None) -> bool:
    """Close the day: once (the first caller wins the row's compare and swap;
    any other, at once or later, finds it closed and does nothing). Deals still
    running are ended as they stand (E-1: a started deal counts). Returns
    whether this call closed it."""
    now = now or timezone.now()
    with transaction.atomic():
        won = ChallengeDay.objects.filter(pk=day.pk, closed_at__isnull=True).update(closed_at=now)
        if not won:
            return False
        for deal in ChallengeDeal.objects.filter(entry__day=day, done=False):
            deal.done = True
            deal.value = LOWEST
            deal.save(update_fields=["done", "value"])
        day.refresh_from_db()
        day.ranking = ranking(day)
        day.save(update_fields=["ranking"])
    return True


def close_due(now=None) -> int:
    """Every day before today still open (the ticker; idempotent)."""
    local = timezone.localdate(now) if now else today()
    closed = 0
    for day in ChallengeDay.objects.filter(date__lt=local, closed_at__isnull=True):
        closed += close(day, now)
    return closed


def can_review(day: ChallengeDay, deal: ChallengeDeal, user) -> bool:
    """E-2: one's own deal once finished; anyone's only after the day closed."""
    if user is None or not user.is_authenticated:
        return False
    if deal.entry.user_id == user.pk:
        return deal.done
    return day.closed
