"""games.fairness: the commit-reveal steps on the server (F-1..F-4, F-6) and the public record (F-3)."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, fairdeal, fairness
from games.engine.cards import DECK52, DECK54
from games.fairdeal import FairnessError
from games.models import DealRecord, Round

from .conftest import deal, exchange, fair_round, make_match, play_out, value_for

pytestmark = pytest.mark.django_db

A, B = value_for("alice"), value_for("bob")


def _codes(call) -> str:
    with pytest.raises(FairnessError) as exc:
        call()
    return exc.value.code


def test_f1_open_round_publishes_only_the_sha256_of_a_fresh_secret(hokm_match):
    record = fairness.open_round(hokm_match, 1)
    assert len(record.server_secret) == 64 and record.algorithm == "deal-v1"
    assert record.server_commitment == hashlib.sha256(bytes.fromhex(record.server_secret)).hexdigest()
    assert fairness.open_round(hokm_match, 1).server_secret == record.server_secret  # idempotent
    other = fairness.open_round(hokm_match, 2)
    assert other.server_secret != record.server_secret
    public = json.dumps(fairness.public_state(record))
    assert record.server_secret not in public


def test_f4_bots_values_are_made_and_committed_by_the_server(hokm_match):
    record = fairness.open_round(hokm_match, 1)
    assert record.bots == [2, 4]
    for seat in (2, 4):
        value = record.values[seat - 1]
        assert record.commitments[seat - 1] == fairdeal.commitment(value)
    assert record.values[0] is None and record.values[2] is None
    assert _codes(lambda: fairness.commit(hokm_match.pk, 1, 2, fairdeal.commitment(A))) == "bot_seat"
    public = json.dumps(fairness.public_state(record))
    assert record.values[1] not in public and record.values[3] not in public


def test_f1_commitments_of_the_wrong_form_or_seat_are_refused(hokm_match):
    fairness.open_round(hokm_match, 1)
    assert _codes(lambda: fairness.commit(hokm_match.pk, 1, 1, "AB" * 32)) == "bad_value"
    assert _codes(lambda: fairness.commit(hokm_match.pk, 1, 1, "ab" * 31)) == "bad_value"
    assert _codes(lambda: fairness.commit(hokm_match.pk, 1, 5, fairdeal.commitment(A))) == "bad_seat"
    assert _codes(lambda: fairness.commit(hokm_match.pk, 9, 1, fairdeal.commitment(A))) == "no_deal_record"
    fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(A))
    fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(A))  # a resent frame is fine
    assert _codes(lambda: fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(B))) == "already_committed"


def test_f2_a_reveal_before_every_commitment_is_refused(hokm_match):
    fairness.open_round(hokm_match, 1)
    fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(A))
    assert _codes(lambda: fairness.reveal(hokm_match.pk, 1, 1, A)) == "reveal_too_early"
    record = fairness.commit(hokm_match.pk, 1, 3, fairdeal.commitment(B))
    assert record.phase == DealRecord.Phase.REVEAL
    assert (
        _codes(lambda: fairness.commit(hokm_match.pk, 1, 3, fairdeal.commitment(A))) == "commitments_closed"
    )


def test_f2_a_value_that_does_not_match_its_commitment_is_refused(hokm_match):
    fairness.open_round(hokm_match, 1)
    fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(A))
    fairness.commit(hokm_match.pk, 1, 3, fairdeal.commitment(B))
    assert _codes(lambda: fairness.reveal(hokm_match.pk, 1, 1, B)) == "value_mismatch"
    assert _codes(lambda: fairness.reveal(hokm_match.pk, 1, 1, A.upper())) == "bad_value"
    assert _codes(lambda: fairness.reveal(hokm_match.pk, 1, 1, A[:-2])) == "bad_value"
    assert _codes(lambda: fairness.reveal(hokm_match.pk, 1, 1, 7)) == "bad_value"
    record = fairness.reveal(hokm_match.pk, 1, 1, A)
    assert record.phase == DealRecord.Phase.REVEAL
    record = fairness.reveal(hokm_match.pk, 1, 3, B)
    assert record.phase == DealRecord.Phase.READY
    assert record.values == [A, record.values[1], B, record.values[3]]


def test_f2_no_deck_before_every_value_is_in(hokm_match):
    fairness.open_round(hokm_match, 1)
    with pytest.raises(fairness.NotReady):
        fairness.chance_action(hokm_match, 1, "draw", DECK52)


def test_f2_the_deck_is_deal_v1_of_every_value_and_f6_the_draw_is_its_own_stream(hokm_match):
    record = fairness.open_round(hokm_match, 1)
    exchange(hokm_match, 1, {1: A, 3: B})
    record.refresh_from_db()
    draw = fairness.chance_action(hokm_match, 1, "draw", DECK52)
    dealt = fairness.chance_action(
        hokm_match, 1, "deal", list(reversed(DECK52))
    )  # any order in: canonical used
    kw = {"table": str(hokm_match.pk), "round_number": 1}
    assert draw == {
        "type": "draw",
        "deck": fairdeal.order(DECK52, record.server_secret, record.values, purpose="draw", **kw),
    }
    assert dealt["deck"] == fairdeal.order(DECK52, record.server_secret, record.values, purpose="deal", **kw)
    assert draw["deck"] != dealt["deck"]
    assert fairness.chance_action(hokm_match, 1, "deal", DECK52) == dealt  # idempotent
    record.refresh_from_db()
    assert (
        record.phase == DealRecord.Phase.DEALT
        and record.deck == dealt["deck"]
        and record.draw == draw["deck"]
    )


def test_f4_a_silent_seat_gets_its_substitute_after_the_wait_and_is_flagged(hokm_match):
    fairness.open_round(hokm_match, 1)
    fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(A))
    # Before the deadline nothing is replaced.
    assert fairness.substitute_missing(hokm_match.pk, 1).phase == DealRecord.Phase.COMMIT
    later = timezone.now() + timedelta(seconds=fairness.wait_seconds() + 1)
    record = fairness.substitute_missing(hokm_match.pk, 1, now=later)
    assert record.substituted == [3] and record.phase == DealRecord.Phase.REVEAL
    assert record.values[2] == fairdeal.substitute(record.server_secret, record.table, 1, 3)
    assert _codes(lambda: fairness.commit(hokm_match.pk, 1, 3, fairdeal.commitment(B))) == "substituted"
    record = fairness.reveal(hokm_match.pk, 1, 1, A)
    assert record.phase == DealRecord.Phase.READY


def test_f4_a_seat_that_committed_but_never_revealed_is_substituted(hokm_match):
    fairness.open_round(hokm_match, 1)
    fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(A))
    fairness.commit(hokm_match.pk, 1, 3, fairdeal.commitment(B))
    fairness.reveal(hokm_match.pk, 1, 1, A)
    record = DealRecord.objects.get(match=hokm_match, number=1)
    assert not fairness.due(record)
    assert fairness.due(record, now=record.deadline)
    record = fairness.substitute_missing(hokm_match.pk, 1, now=record.deadline)
    assert record.substituted == [3] and record.phase == DealRecord.Phase.READY
    assert record.commitments[2] == fairdeal.commitment(B)  # his fingerprint stays on the record
    assert record.values[2] == fairdeal.substitute(record.server_secret, record.table, 1, 3) != B
    assert _codes(lambda: fairness.reveal(hokm_match.pk, 1, 3, B)) == "substituted"


def test_f4_the_substitute_is_fixed_before_anything_is_revealed(hokm_match):
    """Whoever withholds, and whenever, the same seat gets the same value: no choice of deck."""
    record = fairness.open_round(hokm_match, 1)
    expected = fairdeal.substitute(record.server_secret, str(hokm_match.pk), 1, 3)
    fairness.commit(hokm_match.pk, 1, 1, fairdeal.commitment(A))
    record = fairness.substitute_missing(hokm_match.pk, 1, force=True)
    assert record.values[2] == expected


def test_f3_nothing_is_public_before_the_round_ends(hokm_match):
    round_ = fair_round(hokm_match, 1, {1: A, 3: B}, finish=False)
    assert fairness.public_record(round_) is None
    record = DealRecord.objects.get(match=hokm_match, number=1)
    text = json.dumps(fairness.public_state(record))
    for secret in [record.server_secret, *record.values]:
        assert secret not in text


def test_f3_after_the_round_the_record_holds_everything_to_recheck(hokm_match):
    round_ = fair_round(hokm_match, 1, {1: A, 3: B})
    public = fairness.public_record(round_)
    record = DealRecord.objects.get(match=hokm_match, number=1)
    assert public["server_secret"] == record.server_secret
    assert [v["value"] for v in public["values"]] == record.values
    assert [v["bot"] for v in public["values"]] == [False, True, False, True]
    assert public["cards"] == list(DECK52) and public["draw_cards"] == list(DECK52)
    drawn = next(e for m in hokm_match.moves.all() for e in m.events if e["type"] == "hakem")
    assert public["layout"]["hakem"] == drawn["seat"]  # H4-1: the hakem of the ace draw deals round 1
    kw = {"table": public["table"], "round_number": 1}
    values = [v["value"] for v in public["values"]]
    assert (
        fairdeal.order(public["cards"], public["server_secret"], values, purpose="deal", **kw)
        == public["deck"]
    )
    # Every card played is there, each once (the browser checks them against the hands, test_js).
    cards = [p["card"] for p in public["played"]]
    assert len(cards) == len(set(cards)) and len(cards) % 4 == 0 and len(cards) >= 28


def test_f3_an_abandoned_match_publishes_its_unfinished_round(hokm_match):
    round_ = fair_round(hokm_match, 1, {1: A, 3: B}, finish=False)
    hokm_match.status = hokm_match.Status.ABANDONED
    hokm_match.save()
    round_ = Round.objects.get(pk=round_.pk)
    assert fairness.public_record(round_)["server_secret"]


@pytest.mark.parametrize(
    ("game", "rules", "size"), [("shelem4", {"jokers": True}, 54), ("shelem2", {}, 52), ("bridge", {}, 52)]
)
def test_f3_public_record_of_other_games(alice, game, rules, size):
    match = make_match(alice, game, {1: alice}, rules)
    fairness.open_round(match, 1)
    exchange(match, 1, {1: A})
    deal(match, 1)
    play_out(match, 1)
    public = fairness.public_record(Round.objects.get(match=match, number=1))
    assert public["cards"] == list(DECK54 if size == 54 else DECK52)
    assert public["draw"] is None and public["draw_cards"] is None
    assert set(public["layout"]) & {"first_bidder", "dealer"}
    assert engine.get(game).players == len(public["values"])
