"""The Bridge daily challenge (E-1, E-2): 8 duplicate boards, dealer and
vulnerability by board number, played against the strong bots, each board's
duplicate score (B-5..B-7, B-9) ranked in IMPs against the field (Butler)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from events import challenge, scoring
from events.models import ChallengeDeal
from games import engine
from games.engine.bridge import board_of, duplicate_score
from games.models import Match, Move

from .conftest import play_out

pytestmark = pytest.mark.django_db


def log(match_id: int) -> list:
    return list(Move.objects.filter(match_id=match_id).order_by("seq").values_list("seat", "action"))


def test_e1_a_bridge_board_is_one_duplicate_board_with_its_dealer_and_vulnerability(alice):
    deal = challenge.play(alice, "bridge")
    assert deal.number == 1
    match = Match.objects.get(pk=deal.match_id)
    assert match.rules["board"] == 1
    assert match.seat_of_user(alice.pk) == challenge.ENTRANT_SEAT  # North
    assert all(p["bot"] and p["level"] == "strong" for p in match.players if p["seat"] != 1)
    day = deal.entry.day
    first = Move.objects.filter(match_id=match.pk, seat=0).order_by("seq").first()
    assert first.action["deck"] == challenge.deck_of(day.seed, day.date, "bridge", 1)
    assert match.state["dealer"] == board_of(1)["dealer"]
    match = play_out(match.pk)
    assert match.status == Match.Status.FINISHED
    assert match.rounds.count() == 1
    deal.refresh_from_db()
    assert deal.done
    state = match.state
    assert deal.value == state["score"][0] - state["score"][1]
    last = state["last_result"]
    if not last["passed_out"]:  # the board's duplicate score, N-S's sign
        c = last["contract"]
        side = engine.get("bridge").team_of(c["declarer"])
        scored = duplicate_score(
            c["level"], c["strain"], c["doubled"], board_of(1)["vulnerable"][side], last["tricks"]
        )
        assert deal.value == (scored if side == 0 else -scored)
    else:
        assert deal.value == 0


def test_e1_the_second_board_has_east_dealing_and_north_south_vulnerable(alice):
    first = challenge.play(alice, "bridge")
    play_out(first.match_id)
    second = challenge.play(alice, "bridge")
    assert second.number == 2
    match = Match.objects.get(pk=second.match_id)
    assert match.rules["board"] == 2
    assert match.state["board"] == {"number": 2, "dealer": 2, "vulnerable": [True, False]}
    assert match.state["dealer"] == 2
    day = second.entry.day
    deck = Move.objects.filter(match_id=match.pk, seat=0).order_by("seq").first().action["deck"]
    assert deck == challenge.deck_of(day.seed, day.date, "bridge", 2)


def test_e1_bridge_bots_answer_the_same_play_the_same_way(alice, bob):
    a = challenge.play(alice, "bridge")
    b = challenge.play(bob, "bridge")
    play_out(a.match_id)
    play_out(b.match_id)
    assert log(a.match_id) == log(b.match_id)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.value == b.value


def test_e1_the_bridge_ranking_is_imps_across_the_field(alice, bob, charlie):
    day = challenge.get_day(challenge.today(), "bridge")
    entries = {}
    for user, values in ((alice, [620, -100]), (bob, [170, -100]), (charlie, [-100, 140])):
        entry = day.entries.create(user=user)
        entries[user.username] = entry
        for number, value in enumerate(values, start=1):
            ChallengeDeal.objects.create(entry=entry, number=number, room_id=0, done=True, value=value)
    field = challenge.results(day)
    assert field == {
        1: {alice.pk: 620, bob.pk: 170, charlie.pk: -100},
        2: {alice.pk: -100, bob.pk: -100, charlie.pk: 140},
    }
    # board 1: alice 620 against (170 - 100) / 2 = 35: +585 -> 11 IMPs; bob 170 against 260:
    #          -90 -> -3; charlie -100 against 395: -495 -> -10.
    # board 2: alice, bob -100 against 20: -120 -> -3; charlie 140 against -100: +240 -> 6.
    assert scoring.butler(field[1]) == {alice.pk: 11, bob.pk: -3, charlie.pk: -10}
    assert scoring.butler(field[2]) == {alice.pk: -3, bob.pk: -3, charlie.pk: 6}
    rows = challenge.ranking(day)
    assert [(r["name"], r["total"]) for r in rows] == [("alice", 8), ("charlie", -4), ("bob", -6)]


def test_e1_e2_the_bridge_board_review_works_after_the_close(client, alice, bob):
    a = challenge.play(alice, "bridge")
    play_out(a.match_id)
    b = challenge.play(bob, "bridge")
    play_out(b.match_id)
    client.force_login(bob)
    data_url = reverse("events:review_data", args=[a.pk])
    assert client.get(data_url).status_code == 404  # E-2
    own = client.get(reverse("events:review_data", args=[b.pk]))
    assert own.status_code == 200 and own.json()["replayable"] is True
    challenge.close(a.entry.day)
    assert client.get(data_url).status_code == 200
    assert client.get(reverse("events:review", args=[a.pk])).status_code == 200
    day_url = reverse("events:day", args=[a.entry.day.date.isoformat(), "bridge"])
    page = client.get(day_url).content.decode()
    assert reverse("events:review", args=[a.pk]) in page


def test_e1_the_bridge_page_offers_play_and_leads_to_the_table(client, alice):
    client.force_login(alice)
    day_url = reverse("events:day", args=[challenge.today().isoformat(), "bridge"])
    page = client.get(day_url).content.decode()
    assert 'data-testid="play-deal"' in page
    response = client.post(reverse("events:play", args=["bridge"]))
    assert response.status_code == 302 and response.url.startswith("/rooms/")
    assert client.get(response.url).status_code == 200
