"""What browsers may see of a fair deal (F-3): the public state, an ended round's record."""

from __future__ import annotations

from infra import adb
from infra.rows import RowReader

from .. import engine
from ..engine.cards import CARD_INDEX, DECK52
from ..models import DealRecord, Match, Move, Round

_RECORD_READ = RowReader(
    DealRecord,
    '"games_dealrecord"."match_id" = %s AND "games_dealrecord"."number" = %s',
    joins='JOIN "games_match" ON "games_match"."id" = "games_dealrecord"."match_id"',
    extra={
        "match_players": (Match._meta.get_field("players"), '"games_match"."players"'),
        "match_status": (Match._meta.get_field("status"), '"games_match"."status"'),
        "match_room_id": (Match._meta.get_field("room"), '"games_match"."room_id"'),
    },
)


# --- what browsers may see --------------------------------------------------------------


def public_state(record: DealRecord) -> dict:
    """What every browser at the table may see while the deal is being made:
    fingerprints and who has answered, never a value nor the server's secret."""
    return {
        "algorithm": record.algorithm,
        "match": record.match_id,
        "round": record.number,
        "table": record.table,
        "phase": record.phase,
        "server_commitment": record.server_commitment,
        "commitments": list(record.commitments),
        "revealed": [v is not None and (i + 1) not in record.substituted for i, v in enumerate(record.values)]
        if record.phase != DealRecord.Phase.COMMIT
        else [False] * record.seats,
        "bots": list(record.bots),
        "substituted": list(record.substituted),
        "deadline": record.deadline.timestamp() if record.deadline else None,
    }


def round_ended(round_: Round) -> bool:
    return round_.ended_at is not None or round_.match.status != Match.Status.ACTIVE


def _round_events(round_: Round):
    """The events of the round's moves, in order (only the events: the deal's
    move carries the whole deck in its action)."""
    moves = Move.objects.filter(match_id=round_.match_id, seq__gte=round_.first_seq)
    if round_.last_seq is not None:
        moves = moves.filter(seq__lte=round_.last_seq)
    return moves.order_by("seq").values_list("events", flat=True)


def value_seat(round_: Round, seat: int) -> int:
    """The seat whose value the player now at ``seat`` sent for this round.

    H4-X6: the partners' draw may move players after the values were in (the
    draw is dealt from them); the record keeps its values by the seats of
    that moment. Undo, newest first, every seat swap logged after the
    record was opened and up to the round's end."""
    record = DealRecord.objects.filter(match_id=round_.match_id, number=round_.number).first()
    if record is None:
        return seat
    moves = Move.objects.filter(match_id=round_.match_id, created_at__gte=record.created_at)
    if round_.last_seq is not None:
        moves = moves.filter(seq__lte=round_.last_seq)
    for events in moves.order_by("-seq").values_list("events", flat=True):
        for event in reversed(events or []):
            if event.get("type") == "swap_seats" and seat in (event["a"], event["b"]):
                seat = event["b"] if seat == event["a"] else event["a"]
    return seat


def public_record(round_: Round) -> dict | None:
    """Everything a browser needs to re-check the round (F-3), or None.

    None until the round has ended (or the match stopped): before that the
    server's secret and the values are private.
    """
    if not round_ended(round_):
        return None
    record = DealRecord.objects.filter(match_id=round_.match_id, number=round_.number).first()
    return public_record_of(record, round_.match, _round_events(round_))


_ROUND_EVENTS_READ = (
    "SELECT events FROM games_move WHERE match_id = %s AND seq >= %s AND seq <= %s ORDER BY seq"
)


async def public_record_on_loop(match: Match, number: int, first_seq: int, last_seq: int) -> dict | None:
    """``public_record`` of round ``number`` of ``match`` (moves ``first_seq``
    to ``last_seq``), which has just ended, read on the event loop's own
    connections (infra/adb.py): the loop's round end (games/plain.py)."""
    record = await _RECORD_READ.aone([match.pk, number])
    if record is None or record.phase != DealRecord.Phase.DEALT:
        return None
    rows = await adb.fetchall(_ROUND_EVENTS_READ, [match.pk, first_seq, last_seq])
    return public_record_of(record, match, (events for (events,) in rows))


def public_record_of(record: DealRecord | None, match: Match, round_events) -> dict | None:
    """The public record (F-3) of an ended round's dealt ``record``, with
    the events of the round's moves in order; None if it was not dealt."""
    if record is None or record.phase != DealRecord.Phase.DEALT:
        return None
    game = engine.get(match.game)
    layout: dict = {}
    played: list[dict] = []
    for events in round_events:
        for event in events:
            kind = event.get("type")
            if kind == "dealt":
                layout = {k: event[k] for k in ("hakem", "first_bidder", "dealer") if k in event}
            elif kind == "auction_won":
                layout["bidder"] = event["seat"]
            elif kind == "card_played":
                played.append({"seat": event["seat"], "card": event["card"]})
    return {
        "algorithm": record.algorithm,
        "game": match.game,
        "match": match.pk,
        "round": record.number,
        "table": record.table,
        "seats": record.seats,
        "server_secret": record.server_secret,
        "server_commitment": record.server_commitment,
        "values": [
            {
                "seat": seat,
                "value": record.values[seat - 1],
                "commitment": record.commitments[seat - 1],
                "bot": seat in record.bots,
                "substituted": seat in record.substituted,
            }
            for seat in range(1, game.players + 1)
        ],
        "cards": sorted(record.deck, key=CARD_INDEX.__getitem__),
        "deck": record.deck,
        "draw_cards": list(DECK52) if record.draw is not None else None,
        "draw": record.draw,
        "ace_partners": bool(match.rules.get("ace_partners")),
        "layout": layout,
        "played": played,
    }
