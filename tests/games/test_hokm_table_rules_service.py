"""The play service and Hokm's table rules: the partner's pick-up of the middle card (H4-X1)."""

from __future__ import annotations

import pytest

from games import engine, fairdeal, services
from games.models import Match
from rooms import services as room_service
from tests.engine.test_hokm4 import HANDS_A, deal_deck4, draw_deck
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fixed_deal(monkeypatch):
    """Seat 1 draws the first ace (D-1) and the hands are HANDS_A (D-2): the middle card is 9H."""

    def order(cards, *args, purpose, **kwargs):
        return draw_deck(1) if purpose == "draw" else deal_deck4(1, HANDS_A)

    monkeypatch.setattr(fairdeal, "order", order)


def test_h4_x1_a_pick_up_on_his_own_turn_does_not_restart_the_partners_clock(
    alice, bob, charlie, dave, settings, fixed_deal
):
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": True})
    match = room_service.start(room, alice)
    game = engine.get("hokm4")

    def step(action, user):
        m = Match.objects.get(pk=match.pk)
        return services.play(m.pk, action, user=user, version=m.version)

    step({"type": "trump", "suit": "middle"}, alice)
    step({"type": "play", "card": "AD"}, alice)
    step({"type": "play", "card": "2D"}, bob)
    before = Match.objects.get(pk=match.pk)
    assert game.to_act(before.state) == {3} and before.state["middle"] == "9H"
    step({"type": "pick_up"}, charlie)
    after = Match.objects.get(pk=match.pk)
    assert after.version == before.version + 1 and after.state["middle"] is None
    assert after.deadlines["3"] == before.deadlines["3"]  # the turn's clock runs on
    assert after.state["turn"] == 3 and "9H" in after.state["hands"][2]


def test_h4_x1_a_refused_pick_up_changes_nothing(alice, bob, charlie, dave, settings, fixed_deal):
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": True})
    match = room_service.start(room, alice)
    m = Match.objects.get(pk=match.pk)
    services.play(m.pk, {"type": "trump", "suit": "middle"}, user=alice, version=m.version)
    before = Match.objects.get(pk=match.pk)
    with pytest.raises(services.PlayError) as exc:
        services.play(before.pk, {"type": "pick_up"}, user=bob, version=before.version)
    assert exc.value.code == "not_your_card"
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state, after.deadlines) == (before.version, before.state, before.deadlines)


def test_h4_x1_an_off_turn_pick_up_sent_before_another_players_move_still_counts(
    alice, bob, charlie, dave, settings, fixed_deal
):
    """Like an early card (H4-X2): the partner is not the one to act, so the others'
    moves since the version he saw do not make his pick-up stale."""
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob, charlie, dave], rules={"middle_card": True})
    match = room_service.start(room, alice)
    m = Match.objects.get(pk=match.pk)
    services.play(m.pk, {"type": "trump", "suit": "middle"}, user=alice, version=m.version)
    seen = Match.objects.get(pk=match.pk).version  # what charlie saw
    services.play(m.pk, {"type": "play", "card": "AD"}, user=alice, version=seen)
    services.play(m.pk, {"type": "pick_up"}, user=charlie, version=seen)
    after = Match.objects.get(pk=match.pk)
    assert after.version == seen + 2 and after.state["middle"] is None
    assert after.moves.order_by("-seq").first().action == {"type": "pick_up"}
