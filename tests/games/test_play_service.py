"""The play service around the engine: seats moved by the draw, rounds and the move log."""

from __future__ import annotations

import pytest

from games import engine, fairdeal, services
from games.models import Match, Move, Round
from rooms import services as room_service
from rooms.models import Seat
from tests.rooms.conftest import make_room

pytestmark = pytest.mark.django_db(transaction=True)


def test_h4_x6_partners_by_ace_draw_move_the_players_to_their_new_seats(
    monkeypatch, alice, bob, charlie, dave, settings
):
    settings.DEADLINES = "inprocess"

    fair_order = fairdeal.order

    def draw_order(cards, *args, purpose, **kwargs):
        # D-1: the first card to seat 1 (an ace: hakem), the next to seat 4 (an ace: his partner)
        deck = fair_order(cards, *args, purpose=purpose, **kwargs)
        if purpose != "draw":
            return deck
        return ["AS", "AH", *(c for c in deck if c not in ("AS", "AH"))]

    monkeypatch.setattr(fairdeal, "order", draw_order)
    room = make_room(alice, [bob, charlie, dave], rules={"ace_partners": True})
    match = room_service.start(room, alice)
    match.refresh_from_db()
    # dave (seat 4) drew the partner's ace: he now sits opposite alice, charlie takes his place
    assert Seat.objects.get(room=room, number=3).user == dave
    assert Seat.objects.get(room=room, number=4).user == charlie
    assert match.seat_of_user(dave.pk) == 3 and match.seat_of_user(charlie.pk) == 4
    swap = Move.objects.get(match=match, seq=1).events
    assert any(e["type"] == "swap_seats" for e in swap)


def test_every_deal_opens_a_round_and_its_last_card_closes_it(alice, bob, settings):
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob], game="hokm2")
    match = room_service.start(room, alice)
    game = engine.get("hokm2")
    for _ in range(200):
        match.refresh_from_db()
        if game.round_over(match.state) or not game.to_act(match.state):
            break
        seat = min(game.to_act(match.state))
        services.play(match.pk, game.auto_action(match.state, seat), seat=seat, version=match.version)
    rounds = list(Round.objects.filter(match=match))
    assert len(rounds) == 1 and rounds[0].last_seq == Match.objects.get(pk=match.pk).version
    assert any(e["type"] in {"round_won"} for e in rounds[0].result["events"])


def test_moves_are_append_only(alice, bob, settings):
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob], game="hokm2")
    match = room_service.start(room, alice)
    move = Move.objects.filter(match=match).first()
    with pytest.raises(ValueError):
        move.save()


def test_h4_x2_an_early_card_sent_before_another_players_move_still_counts(
    alice, bob, charlie, dave, settings
):
    settings.DEADLINES = "inprocess"
    room = make_room(alice, [bob, charlie, dave], rules={"early_play": True, "middle_card": False})
    match = room_service.start(room, alice)
    game = engine.get("hokm4")
    match.refresh_from_db()
    hakem = min(game.to_act(match.state))
    services.play(match.pk, {"type": "trump", "suit": "S"}, seat=hakem, version=match.version)
    match.refresh_from_db()
    services.play(match.pk, game.auto_action(match.state, hakem), seat=hakem, version=match.version)
    match.refresh_from_db()
    seen = match.version  # what the early player saw: the lead on the table
    early_seat = engine.seats.next_seat(hakem, 4, 3)  # the last to play in this trick
    early = next(a for a in game.legal_actions(match.state, early_seat) if a["type"] == "early")
    nxt = engine.seats.next_seat(hakem, 4)
    services.play(
        match.pk, game.auto_action(match.state, nxt), seat=nxt, version=seen
    )  # the next player moves
    services.play(match.pk, early, seat=early_seat, version=seen)  # stale by one move, still accepted
    match.refresh_from_db()
    assert match.moves.order_by("-seq").first().action == early
    third = engine.seats.next_seat(hakem, 4, 2)
    services.play(match.pk, game.auto_action(match.state, third), seat=third, version=match.version)
    played = [
        e
        for m in Move.objects.filter(match=match).order_by("seq")
        for e in m.events
        if e["type"] == "card_played" and e["seat"] == early_seat
    ]
    assert played and played[-1]["card"] == early["card"]  # his turn came: the early card was played
    match.refresh_from_db()
    # the player to act cannot use a stale version
    turn = min(game.to_act(match.state))
    with pytest.raises(services.PlayError) as exc:
        services.play(match.pk, game.auto_action(match.state, turn), seat=turn, version=seen)
    assert exc.value.code == "stale_version"
