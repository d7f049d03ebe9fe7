"""The frames of one version, built inside the transaction that made it.

Every accepted action produces exactly one version; its frames are built
here from the state in memory (no database read) while the row lock is
held, and sent unchanged after commit. So a frame's events, view and
version always belong together, whatever happens to the match next.

A frame goes to one viewer class only (docs/protocol.md): each player of
the match gets his own seat's view (by user: after an H4-X6 seat swap the
player follows his new seat), everyone else the public view. No message
carries more than one viewer class's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from . import clock, standin, tea


def state_fields(match, game) -> dict:
    """What every state frame of ``match`` carries besides its view and events (an allow-list)."""
    return {
        "match": match.pk,
        "v": match.version,
        "status": match.status,
        "deadlines": {k: int(v * 1000) for k, v in (match.deadlines or {}).items()},
        "turn_seconds": int(match.rules.get("turn_seconds") or 30),
        "result": match.result,
        "leaver": match.leaver_seat,
        "tea": tea.public(match),  # H4-X4: null unless the room plays with tea
        "stand_in": standin.seats(match),  # L-7: the seats a stand-in plays for (their players are gone)
    }


def viewer_seat(match, user_id) -> int | None:
    """The seat whose view ``user_id`` may see in ``match``: the one he holds
    in that match, whatever its status (issue 14: a later sitter of an
    ended match sees only the public view). None: the public view."""
    if user_id is None:
        return None
    return match.seat_of_user(user_id)


def state_frame(
    match,
    game,
    seat: int | None,
    events=(),
    full: bool = False,
    prev: int | None = None,
    *,
    view: dict | None = None,
    fields: dict | None = None,
    now: float | None = None,
) -> dict:
    """One connection's state frame: the engine's view for ``seat`` (None: public).

    ``prev`` is the version before the action this frame reports: its events
    cover the versions after ``prev`` up to ``v`` (one action may add several
    versions: a card and the deal that follows it). A client that last saw a
    version below ``prev`` missed a frame. A full frame has ``prev == v``.
    Every state frame is made here; ``view``, ``fields`` and ``now``, when
    given, are that viewer's view, ``state_fields`` and the time, made once
    for all the frames of a version (``build``)."""
    frame = {"type": "state", **(state_fields(match, game) if fields is None else fields)}
    frame.update(
        prev=match.version if prev is None else prev,
        view=game.view(match.state, seat) if view is None else view,
        events=list(events),
        server_time=int((clock.now() if now is None else now) * 1000),
        full=full,
    )
    if full:
        frame["rounds"] = past_rounds(match)
    return frame


# --- rounds: the match's finished rounds on a full frame (issue 15, the score sheet) ---------
#
# A page that opens a table mid-match (a late joiner, a reload, a spectator)
# sees every round of the sheet, not only those it saw end. Read from the
# database: the match's Round rows and the move log's events of the move that
# dealt and the move that ended each round. Everything here was announced to
# the whole table when it happened (public events), so every viewer class
# gets the same list. Only full frames carry it (a database read, outside the
# play path's transaction); the live frames' views carry the last round's
# result, from which a page adds the rounds it sees end.

SCORED = {"round_won": "hokm", "round_scored": "shelem", "deal_scored": "bridge"}


def past_rounds(match) -> list[dict]:
    """The finished rounds of ``match``, oldest first, one dict each, in the
    shape of the views' last round's result (docs/protocol.md, "rounds"):

    - hokm: ``round, hakem, winner, tricks, points, kot, score`` (rounds won after it)
    - shelem: ``round, bidder, bid, sars, trump, points, score, totals``
    - bridge: ``round, passed_out, contract, tricks, honours, entries, totals``
      (both columns added up after the deal); a passed-out deal ``round, passed_out``.
    """
    closed = list(
        match.rounds.filter(last_seq__isnull=False)
        .order_by("number")
        .values_list("number", "first_seq", "last_seq")
    )
    if not closed:
        return []
    seqs = {seq for _, first, last in closed for seq in (first, last)}
    events = dict(match.moves.filter(seq__in=seqs).values_list("seq", "events"))
    rows = []
    totals = [0, 0]  # bridge: the sheet's two columns so far (B-10)
    for number, first, last in closed:
        dealt = next((e for e in events.get(first) or [] if e.get("type") == "dealt"), {})
        number = dealt.get("round", number)
        ended = events.get(last) or []
        scored = next((e for e in ended if e.get("type") in SCORED), None)
        if scored is None:
            if any(e.get("type") == "passed_out" for e in ended):  # B-2
                rows.append({"round": number, "passed_out": True})
            continue
        kind = SCORED[scored["type"]]
        if kind == "hokm":
            rows.append(
                {
                    "round": number,
                    "hakem": dealt.get("hakem"),
                    "winner": scored["team"],
                    "tricks": list(scored["tricks"]),
                    "points": scored["points"],
                    "kot": scored["kot"],
                    "score": list(scored["score"]),
                }
            )
        elif kind == "shelem":
            rows.append({k: v for k, v in scored.items() if k != "type"})
        else:
            for entry in scored["entries"]:
                totals[entry["team"]] += entry["points"]
            rows.append({**{k: v for k, v in scored.items() if k != "type"}, "totals": list(totals)})
    return rows


# --- end of rounds ----------------------------------------------------------------------------


def dumps(frame) -> str:
    """Compact JSON text, non-ASCII as it is: for the data frames hold
    (strings, integers, booleans, null, lists, dicts) the same text as
    ``json.dumps(frame, ensure_ascii=False, separators=(",", ":"))``, several
    times faster on the move path (issue 13; tests/games/test_frames_json.py)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass
class Frames:
    """One version's frames, serialised: ``public`` for spectators and
    anonymous viewers, ``users[user_id]`` for each human player."""

    match_id: int
    room_id: int
    version: int
    prev: int
    status: str
    events: list
    public: str
    users: dict = field(default_factory=dict)
    players: list = field(default_factory=list)  # every human player's user id (public knowledge)
    round_record: dict | bool | None = None
    """F-3: the ended round's public record when the action's path read it
    already (the event loop's round end, games/plain.py), False when that
    path found none to publish; None: not read (rooms reads it)."""

    @property
    def ends_match(self) -> bool:
        return self.status != "active"


def build(match, game, events: list, prev: int) -> Frames:
    """The frames of ``match`` at its current version: ``events`` happened since version ``prev``.

    The same frames as ``state_frame`` for each viewer class, with what they
    share made once: the match's fields, the time, and the engine's views
    together (``Game.views``: the public parts built once; issue 13)."""
    events = list(events or [])
    seats = {}
    for p in match.players:
        uid = p.get("user_id")
        if uid is not None:
            seats[uid] = p["seat"]
    views = game.views(match.state, [None, *seats.values()])
    fields, now = state_fields(match, game), clock.now()

    def text(seat) -> str:
        return dumps(
            state_frame(match, game, seat, events, prev=prev, view=views[seat], fields=fields, now=now)
        )

    users = {uid: text(seat) for uid, seat in seats.items()}
    return Frames(
        match_id=match.pk,
        room_id=match.room_id,
        version=match.version,
        prev=prev,
        status=match.status,
        events=events,
        public=text(None),
        users=users,
        players=sorted(users),
    )
