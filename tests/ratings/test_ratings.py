"""M-2: people-only matches rated once with Weng-Lin; leaves, practice, the rebuild."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from openskill.models import PlackettLuce

from games.models import Match
from ratings import services
from ratings.models import RatedMatch, Rating, RatingHistory
from tests.leaderboard.conftest import abandon, build_match, finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return [make_user(f"p{i}") for i in range(6)]


def current(user, game):
    r = Rating.objects.filter(user=user, game=game).first()
    return None if r is None else (r.mu, r.sigma, r.matches)


def test_m2_known_sequence_equals_the_librarys_own_computation(people):
    a, b, c, d, e, f = people
    model = PlackettLuce()
    lib = {u.pk: model.rating() for u in people}

    def expect(team0, team1, winner):
        teams = [[lib[u.pk] for u in team0], [lib[u.pk] for u in team1]]
        ranks = [1, 2] if winner == 0 else [2, 1]
        new = model.rate(teams, ranks=ranks)
        for side, users in ((0, team0), (1, team1)):
            for u, r in zip(users, new[side], strict=True):
                lib[u.pk] = r

    # Seats 1, 3 against 2, 4 (C-2).
    finished("hokm4", [a, b, c, d], winner=0, score=[7, 3])
    expect([a, c], [b, d], 0)
    finished("hokm4", [a, e, b, f], winner=1, score=[2, 7])
    expect([a, b], [e, f], 1)
    finished("hokm4", [c, d, e, f], winner=0, score=[7, 6])
    expect([c, e], [d, f], 0)
    for u in people:
        mu, sigma, _n = current(u, "hokm4")
        assert mu == pytest.approx(lib[u.pk].mu, abs=1e-9)
        assert sigma == pytest.approx(lib[u.pk].sigma, abs=1e-9)
    assert current(a, "hokm4")[2] == 2
    # A two-player game is a game of its own (teams of one).
    finished("hokm2", [a, b], winner=1, score=[3, 7])
    solo = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    assert current(b, "hokm2")[0] == pytest.approx(solo[1][0].mu)
    assert current(a, "hokm2")[0] == pytest.approx(solo[0][0].mu)
    assert current(a, "hokm4")[2] == 2  # the hokm4 rating did not move


def test_m2_rated_once_even_when_the_signal_comes_again(people):
    a, b, c, d = people[:4]
    match = finished("hokm4", [a, b, c, d], winner=0, score=[7, 0])
    before = current(a, "hokm4")
    assert services.rate_match(match) == []  # a retried signal
    services.on_match_ended(sender=Match, match=match)
    assert current(a, "hokm4") == before
    assert RatedMatch.objects.filter(match=match).count() == 1
    assert RatingHistory.objects.filter(match=match).count() == 4


def test_m2_winners_go_up_losers_go_down_and_provisional_until_ten(people):
    a, b = people[:2]
    finished("hokm2", [a, b], winner=0, score=[7, 1])
    ra, rb = services.rating_of(a.pk, "hokm2"), services.rating_of(b.pk, "hokm2")
    assert ra["mu"] > 25 > rb["mu"]
    assert ra["provisional"] and ra["matches"] == 1
    for _ in range(9):
        finished("hokm2", [a, b], winner=0, score=[7, 1])
    assert services.rating_of(a.pk, "hokm2")["provisional"] is False
    assert services.rating_of(a.pk, "hokm2")["rating"] > services.rating_of(b.pk, "hokm2")["rating"]


def test_m2_a_leave_is_rated_as_a_loss_for_the_leaver_only(people):
    a, b, c, d = people[:4]
    finished("hokm4", [a, b, c, d], winner=0, score=[7, 5])
    before = {u.pk: current(u, "hokm4") for u in (a, b, c, d)}
    match = abandon(build_match("hokm4", [a, b, c, d]), leaver_seat=2)  # b leaves
    assert current(b, "hokm4")[0] < before[b.pk][0]
    assert current(b, "hokm4")[2] == 2
    for u in (a, c, d):  # partner (d) and opponents unchanged, the match not counted
        assert current(u, "hokm4") == before[u.pk]
    rows = list(RatingHistory.objects.filter(match=match))
    assert [(r.user_id, r.result) for r in rows] == [(b.pk, "left")]


def test_m2_practice_matches_are_never_rated(people):
    a, b, c = people[:3]
    finished("hokm4", [a, b, c], winner=0, score=[7, 0], bots=(4,))
    finished("hokm2", [a], winner=0, score=[7, 0], bots=(2,))
    assert Rating.objects.count() == 0
    assert RatedMatch.objects.count() == 0


def test_m2_rebuild_command_equals_the_live_ratings(people):
    a, b, c, d, e, f = people
    finished("hokm4", [a, b, c, d], winner=0, score=[7, 3])
    finished("hokm4", [e, a, f, b], winner=1, score=[1, 7])
    abandon(build_match("hokm4", [a, c, e, d]), leaver_seat=3)
    finished("shelem4", [a, b, c, d], winner=1, score=[-200, 1165])
    finished("hokm2", [f, e], winner=0, score=[7, 6])
    finished("hokm4", [a, b, c, d], winner=None, score=[0, 0])
    finished("hokm4", [a, b, c, d], winner=0, score=[7, 0], bots=())
    live = {(r.user_id, r.game): (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    live_history = list(
        RatingHistory.objects.order_by("match_id", "user_id").values_list(
            "match_id", "user_id", "mu", "sigma"
        )
    )
    assert len(live) == 6 + 4 + 2
    call_command("rebuild_ratings", stdout=io.StringIO())
    rebuilt = {(r.user_id, r.game): (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    assert rebuilt.keys() == live.keys()
    for key, value in live.items():
        assert rebuilt[key] == pytest.approx(value, abs=1e-12)
    assert (
        list(
            RatingHistory.objects.order_by("match_id", "user_id").values_list(
                "match_id", "user_id", "mu", "sigma"
            )
        )
        == live_history
    )


def test_m2_shown_rating_is_conservative_and_scaled():
    assert services.shown(25, 25 / 3) == 1500
    assert services.shown(30, 2) == 1500 + 20 * 24
