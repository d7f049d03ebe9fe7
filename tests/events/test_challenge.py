"""The daily challenge (E-1, E-2): the deals, the bots, the field's scoring, the close."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections
from django.urls import reverse

from events import challenge, scoring
from events.models import ChallengeDay, ChallengeDeal
from games import engine, fairdeal
from games.models import Match, Move

from .conftest import play_out

pytestmark = pytest.mark.django_db


def dealt(match_id: int) -> dict:
    """The chance actions the match's log holds: {kind: deck}."""
    return {
        m.action["type"]: m.action["deck"]
        for m in Move.objects.filter(match_id=match_id, seat=0).order_by("seq")
    }


def test_e1_day_fingerprint_is_the_seeds_sha256_and_the_seed_is_hidden_until_the_close():
    day = challenge.get_day(challenge.today(), "hokm4")
    assert day.fingerprint == fairdeal.commitment(day.seed)
    assert challenge.public(day)["seed"] is None
    assert challenge.get_day(challenge.today(), "hokm4").pk == day.pk  # one row a day: the seed never changes
    challenge.close(day)
    day.refresh_from_db()
    assert challenge.public(day)["seed"] == day.seed


def test_e1_tomorrows_fingerprint_is_published_today():
    days = challenge.prepare()
    tomorrow = challenge.today() + timedelta(days=1)
    assert {(d.date, d.game) for d in days} >= {(tomorrow, g) for g in challenge.DEALS}


def test_e1_deals_are_the_same_for_every_entrant_and_what_the_published_seed_gives(alice, bob):
    a = challenge.play(alice, "hokm4")
    b = challenge.play(bob, "hokm4")
    assert a.number == b.number == 1 and a.match_id != b.match_id
    day = a.entry.day
    da, db_ = dealt(a.match_id), dealt(b.match_id)
    assert da == db_
    assert da["deal"] == challenge.deck_of(day.seed, day.date, "hokm4", 1)
    assert da["draw"] == challenge.deck_of(day.seed, day.date, "hokm4", 1, "draw")
    # The same as deal-v1 directly, as the browser's fairdeal.js computes it.
    table = f"challenge.{day.date.isoformat()}.hokm4"
    assert da["deal"] == fairdeal.order(
        challenge.cards_of("hokm4"), day.seed, [day.seed], purpose="deal", table=table, round_number=1
    )
    match = Match.objects.get(pk=a.match_id)
    assert match.seat_of_user(alice.pk) == challenge.ENTRANT_SEAT
    assert all(p["bot"] and p["level"] == "strong" for p in match.players if p["seat"] != 1)


def test_e1_different_deals_differ_and_shelem_deals_too(alice):
    day = challenge.get_day(challenge.today(), "shelem4")
    decks = [challenge.deck_of(day.seed, day.date, "shelem4", n) for n in range(1, 7)]
    assert len({tuple(d) for d in decks}) == 6
    deal = challenge.play(alice, "shelem4")
    assert dealt(deal.match_id)["deal"] == decks[0]


def test_e1_bots_answer_the_same_play_the_same_way(alice, bob):
    a = challenge.play(alice, "hokm4")
    b = challenge.play(bob, "hokm4")
    play_out(a.match_id)
    play_out(b.match_id)
    log_a = list(Move.objects.filter(match_id=a.match_id).order_by("seq").values_list("seat", "action"))
    log_b = list(Move.objects.filter(match_id=b.match_id).order_by("seq").values_list("seat", "action"))
    assert log_a == log_b
    assert any(seat in (2, 3, 4) for seat, _ in log_a)


def test_e1_a_deal_is_one_round_and_its_result_counts(alice):
    deal = challenge.play(alice, "hokm4")
    match = play_out(deal.match_id)
    assert match.status == Match.Status.FINISHED
    assert match.rounds.count() == 1
    deal.refresh_from_db()
    assert deal.done
    tricks = match.state["last_result"]["tricks"]
    assert deal.value == tricks[0] - tricks[1]


def test_e1_leave_and_resume_the_same_day(alice):
    first = challenge.play(alice, "hokm4")
    again = challenge.play(alice, "hokm4")  # came back before finishing: the same deal
    assert again.pk == first.pk
    play_out(first.match_id)
    second = challenge.play(alice, "hokm4")
    assert second.number == 2 and second.pk != first.pk


def test_e1_a_started_deal_counts_at_the_close(alice, bob):
    a = challenge.play(alice, "hokm4")
    play_out(a.match_id)
    b = challenge.play(bob, "hokm4")  # started, never finished
    day = a.entry.day
    assert challenge.close(day)
    b.refresh_from_db()
    assert b.done and b.value == challenge.LOWEST
    day.refresh_from_db()
    assert [r["name"] for r in day.ranking] == ["alice", "bob"]


def test_e1_refusals_change_nothing(alice):
    with pytest.raises(challenge.ChallengeError) as exc:
        challenge.play(alice, "hokm4", challenge.today() - timedelta(days=1))
    assert exc.value.code == "not_today"
    with pytest.raises(challenge.ChallengeError) as exc:
        challenge.play(alice, "hokm2")
    assert exc.value.code in ("bad_game", "not_playable")
    day = challenge.get_day(challenge.today(), "hokm4")
    challenge.close(day)
    with pytest.raises(challenge.ChallengeError) as exc:
        challenge.play(alice, "hokm4")
    assert exc.value.code == "closed"
    assert not ChallengeDeal.objects.exists()


def test_e1_l_3_no_challenge_deal_while_a_match_of_his_runs_elsewhere(alice, bob, charlie, dave):
    """One table at a time (L-3): a player in a running match elsewhere starts no
    challenge deal (it would be a second match at once); nothing is made."""
    from rooms import services as rooms

    room = rooms.create_room(alice, "hokm4")
    for number, guest in enumerate((bob, charlie, dave), start=2):
        rooms.sit(room, guest, number)
        rooms.set_ready(room, guest, True)
    rooms.start(room, alice)
    with pytest.raises(challenge.ChallengeError) as exc:
        challenge.play(bob, "hokm4")
    assert exc.value.code == "playing_elsewhere"
    assert not ChallengeDeal.objects.exists() and Match.objects.count() == 1


# --- scoring on hand-made fields ------------------------------------------------------------


def test_e1_matchpoints_on_a_known_field():
    # Deal 1: a 5, b 3, c 3, d -7. a beats 3 (6); b, c beat d and tie each other (2 + 1); d 0.
    field = {1: {"a": 5, "b": 3, "c": 3, "d": -7}, 2: {"a": -1, "b": 1, "c": 1}}
    assert scoring.matchpoints(field[1]) == {"a": 6, "b": 3, "c": 3, "d": 0}
    assert scoring.matchpoints(field[2]) == {"a": 0, "b": 3, "c": 3}
    totals = scoring.matchpoint_totals(field)
    # a: (6 + 0) of (6 + 4) = 60%; b: (3 + 3) of 10 = 60%; d: 0 of 6.
    assert totals == {"a": 60.0, "b": 60.0, "c": 60.0, "d": 0.0}


def test_e1_imps_scale_and_butler_on_a_known_field():
    assert [scoring.imps(d) for d in (0, 10, 20, 50, 400, -620, 4000, 9999)] == [0, 0, 1, 2, 9, -12, 24, 24]
    board = {"a": 620, "b": 620, "c": 170, "d": -100}
    # a: average of others (620 + 170 - 100) / 3 = 230, +390 -> 9 IMPs
    # c: (620 + 620 - 100) / 3 = 380, -210 -> -5; d: 470 avg, -570 -> -11
    assert scoring.butler(board) == {"a": 9, "b": 9, "c": -5, "d": -11}
    # Board 2: a 100 below b -> -3 and +3.
    assert scoring.imps_totals({1: board, 2: {"a": -50, "b": 50}}) == {"a": 6, "b": 12, "c": -5, "d": -11}


def test_e1_bridge_boards_follow_duplicate_dealer_and_vulnerability():
    assert [challenge.board(n) for n in (1, 2, 3, 4, 5, 8, 16)] == [
        {"dealer": 1, "vulnerable": "none"},
        {"dealer": 2, "vulnerable": "ns"},
        {"dealer": 3, "vulnerable": "ew"},
        {"dealer": 4, "vulnerable": "both"},
        {"dealer": 1, "vulnerable": "ns"},
        {"dealer": 4, "vulnerable": "none"},
        {"dealer": 4, "vulnerable": "ew"},
    ]
    day = challenge.get_day(challenge.today(), "bridge")
    assert len(challenge.public(day)["boards"]) == 8


def test_e1_live_ranking_shows_names_and_totals_only(alice, bob):
    a = challenge.play(alice, "hokm4")
    play_out(a.match_id)
    b = challenge.play(bob, "hokm4")
    play_out(b.match_id)
    rows = challenge.ranking(a.entry.day)
    assert {tuple(sorted(r)) for r in rows} == {("deals", "name", "place", "total", "user_id")}
    assert sorted(r["name"] for r in rows) == ["alice", "bob"]


# --- E-2: nobody sees another's play before the close -------------------------------------------


def test_e2_no_entry_visible_before_the_close_every_entry_after(client, alice, bob):
    a = challenge.play(alice, "hokm4")
    play_out(a.match_id)
    b = challenge.play(bob, "hokm4")
    play_out(b.match_id)
    client.force_login(bob)
    urls = [reverse(n, args=[a.pk]) for n in ("events:review", "events:review_frame", "events:review_data")]
    for url in urls:
        assert client.get(url).status_code == 404
    assert client.get(reverse("events:review_data", args=[b.pk])).status_code == 200  # his own, finished
    day_url = reverse("events:day", args=[a.entry.day.date.isoformat(), "hokm4"])
    assert reverse("events:review", args=[a.pk]) not in client.get(day_url).content.decode()
    challenge.close(a.entry.day)
    for url in urls:
        assert client.get(url).status_code == 200
    page = client.get(reverse("events:review", args=[a.pk])).content.decode()
    assert reverse("events:review_frame", args=[b.pk]) in page  # side by side with his own
    data = client.get(reverse("events:review_data", args=[a.pk])).json()
    assert data["replayable"] is True
    assert data["mine"] is False  # alice's seat is not "you" to bob in the review
    assert client.get(reverse("events:review_data", args=[b.pk])).json()["mine"] is True
    assert reverse("events:review", args=[a.pk]) in client.get(day_url).content.decode()


def test_e2_anonymous_sees_no_entry_even_after_the_close(client, alice):
    a = challenge.play(alice, "hokm4")
    play_out(a.match_id)
    challenge.close(a.entry.day)
    assert client.get(reverse("events:review_data", args=[a.pk])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_e1_closing_runs_once_with_two_workers(alice, bob):
    a = challenge.play(alice, "hokm4")
    play_out(a.match_id)
    challenge.play(bob, "hokm4")
    day = a.entry.day
    results, barrier = [], threading.Barrier(2)

    def closer():
        try:
            barrier.wait()
            results.append(challenge.close(ChallengeDay.objects.get(pk=day.pk)))
        finally:
            close_old_connections()

    workers = [threading.Thread(target=closer) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(results) == [False, True]
    day.refresh_from_db()
    assert day.closed and len(day.ranking) == 2


def test_e1_the_ticker_closes_yesterday_once(alice):
    yesterday = challenge.get_day(challenge.today() - timedelta(days=1), "hokm4")
    assert challenge.close_due() == 1
    assert challenge.close_due() == 0
    yesterday.refresh_from_db()
    assert yesterday.closed


def test_e1_the_engine_stays_the_games_for_other_practice_matches(alice):
    from rooms import services as rooms_services

    room = rooms_services.practice(alice, "hokm4")
    match = Match.objects.filter(room=room).first()
    assert challenge.given_decks(match) is None
    assert engine.get("hokm4").result(match.state) is None


def test_e1_a_rematch_in_a_challenge_room_is_no_challenge_deal(alice):
    from rooms import services as rooms_services
    from rooms.models import Room

    deal = challenge.play(alice, "hokm4")
    play_out(deal.match_id)
    room = Room.objects.get(pk=deal.room_id)
    # The rematch is a whole match to 7 rounds: its bots at the quick level (the challenge
    # deal's strong bots would think for half a minute of CPU); which level plays is not
    # what this test is about.
    room.seats.filter(is_bot=True).update(bot_level="easy")
    again = rooms_services.rematch(room, alice)
    assert {p.get("level") for p in again.players if p.get("bot")} == {"easy"}
    assert again is not None and again.pk != deal.match_id
    assert challenge.given_decks(again) is None
    day = deal.entry.day
    assert dealt(again.pk).get("deal") != challenge.deck_of(day.seed, day.date, "hokm4", 1)
    play_out(again.pk)
    deal.refresh_from_db()
    assert ChallengeDeal.objects.filter(entry=deal.entry).count() == 1


def test_e1_the_pages_open_and_play_leads_to_the_table(client, alice):
    client.force_login(alice)
    assert client.get(reverse("events:index")).status_code == 200
    assert client.get(reverse("home")).status_code == 200
    day_url = reverse("events:day", args=[challenge.today().isoformat(), "hokm4"])
    assert client.get(day_url).status_code == 200
    response = client.post(reverse("events:play", args=["hokm4"]))
    assert response.status_code == 302 and response.url.startswith("/rooms/")
    assert client.get(response.url).status_code == 200
    assert 'data-testid="play-deal"' in client.get(day_url).content.decode()


def test_e1_a_restart_in_the_middle_of_a_deal_loses_nothing(alice, bob):
    a = challenge.play(alice, "hokm4")
    play_out(a.match_id)
    b = challenge.play(bob, "hokm4")
    with pytest.raises(AssertionError):
        play_out(b.match_id, limit=12)  # part of the deal, then the process "restarts"
    challenge._given_cache.clear()
    from games import plain

    plain.forget()
    play_out(b.match_id)
    log_a = list(Move.objects.filter(match_id=a.match_id).order_by("seq").values_list("seat", "action"))
    log_b = list(Move.objects.filter(match_id=b.match_id).order_by("seq").values_list("seat", "action"))
    assert log_a == log_b
    b.refresh_from_db()
    assert b.done and b.value is not None


def test_e1_a_test_keeps_its_day_when_the_sites_midnight_passes(one_day, monkeypatch):
    """The pin of conftest.one_day: the site's clock moves past midnight, the
    day the events' code sees stays the test's."""
    from datetime import timedelta

    from django.utils import timezone

    real = timezone.localdate
    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: real(*a, **k) + timedelta(days=1))
    assert challenge.today() == one_day
