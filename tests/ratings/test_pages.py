"""M-4: ratings on the profile (chart and matches), the leaderboard by rating, the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from playnow import services as playnow
from ratings import queries
from ratings.models import Rating
from tests.leaderboard.conftest import abandon, build_match, finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def four(make_user):
    return [make_user(n) for n in ("ana", "ben", "cy", "dee")]


def test_m4_profile_shows_rating_chart_matches_and_points(client, four, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for _ in range(3):
        finished("hokm4", four, winner=0, score=[7, 2])
    html = client.get(reverse("leaderboard:player", args=["ana"])).content.decode()
    assert 'data-testid="rating-chart"' in html and "<polyline" in html
    assert (
        "style=" not in html.split('data-testid="ratings-profile"')[1].split("</section>")[0]
    )  # CSP: no inline style
    rating = queries.profile(four[0])[0]
    assert rating["matches"] == 3 and rating["provisional"] and rating["points"] == 21
    assert f'data-testid="rating-hokm4">{rating["rating"]}<' in html
    assert html.count("/replays/") >= 3  # the matches behind it
    assert "provisional" in html


def test_m4_leaderboard_by_rating_needs_ten_matches_and_shares_ties(client, four, make_user):
    for _ in range(10):
        finished("hokm4", four, winner=0, score=[7, 2])
    finished(
        "hokm4", [make_user("e1"), make_user("e2"), make_user("e3"), make_user("e4")], winner=0, score=[7, 0]
    )
    rows = queries.ranking("hokm4")
    assert [r["username"] for r in rows] == ["ana", "cy", "ben", "dee"]
    assert [r["rank"] for r in rows] == [1, 1, 3, 3]  # partners share every rating
    html = client.get(reverse("ratings:ranking") + "?game=hokm4").content.decode()
    # e1..e4 played one match only; matched on the row, not the bare name, which a CSRF token may contain
    assert 'data-testid="rating-leaderboard"' in html and 'data-username="ana"' in html
    assert not any(f'data-username="e{i}"' in html or f"/players/e{i}/" in html for i in range(1, 5))
    assert 'data-testid="by-rating"' in client.get(reverse("leaderboard:index")).content.decode()


def test_m4_api_player_ratings_and_match_summary(client, four):
    match = finished("hokm4", four, winner=1, score=[3, 7])
    left = abandon(build_match("hokm4", four), leaver_seat=1)
    data = client.get("/api/players/ana/ratings/").json()
    (hokm,) = data["ratings"]
    assert hokm["game"] == "hokm4" and hokm["matches"] == 2 and hokm["provisional"] is True
    assert [h["result"] for h in hokm["history"]] == ["loss", "left"]
    summary = client.get(f"/api/matches/{match.pk}/").json()
    assert summary["rated"] is True and summary["winner"] == 1 and summary["score"] == [3, 7]
    assert [p["username"] for p in summary["players"]] == ["ana", "ben", "cy", "dee"]
    assert all(p["rating_after"] is not None for p in summary["players"])
    assert "state" not in summary
    summary = client.get(f"/api/matches/{left.pk}/").json()
    assert [p["rating_after"] is not None for p in summary["players"]] == [True, False, False, False]
    assert client.get("/api/matches/999999/").status_code == 404
    assert client.get("/api/players/nobody/ratings/").status_code == 404


def test_m5_api_lobby_tables_and_room_ratings(client, four):
    Rating.objects.create(user=four[0], game="hokm4", mu=30, sigma=2, matches=12)
    table = playnow.press(four[0], "hokm4")
    data = client.get("/api/lobby/tables/").json()
    assert [t["code"] for t in data["waiting"]] == [table.room.code]
    assert data["waiting"][0]["seats"][0]["rating"] == 1500 + 20 * 24
    seats = client.get(f"/api/rooms/{table.room.code}/ratings/").json()["seats"]
    assert seats == [{"seat": 1, "username": "ana", "rating": 1980, "provisional": False, "matches": 12}]
    assert client.get("/api/rooms/nope1234/ratings/").status_code == 404


def test_m4_the_new_endpoints_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/").content.decode()
    for path in (
        "/api/players/{username}/ratings/",
        "/api/matches/{match_id}/",
        "/api/lobby/tables/",
        "/api/rooms/{code}/ratings/",
    ):
        assert path in schema


def test_m4_the_room_page_loads_the_seat_ratings(client, four):
    table = playnow.press(four[0], "hokm4")
    html = client.get(table.room.get_absolute_url()).content.decode()
    assert "js/ratings/seat_ratings.js" in html and f"/api/rooms/{table.room.code}/ratings/" in html


@pytest.mark.parametrize("language", ["fa", "en"])
def test_m4_the_chart_speaks_the_pages_digits_and_direction(client, four, settings, language):
    import re

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    finished("hokm4", four, winner=0, score=[7, 2])
    finished("hokm4", four, winner=1, score=[3, 7])
    finished("hokm4", four, winner=0, score=[7, 5])
    html = client.get(reverse("leaderboard:player", args=["ana"])).content.decode()
    chart = html.split('data-testid="rating-chart"')[1].split("</svg>")[0]
    texts = re.findall(r"<(?:text|title)[^>]*>([^<]*)<", chart)
    assert len(texts) == 2 + 3  # the scale's two ends, a title per match
    ratings = [h["rating"] for h in reversed(queries.profile(four[0])[0]["history"])]
    if language == "fa":  # Persian digits only, as the site's |num writes them
        assert all(re.fullmatch("[۰-۹]+", t) for t in texts), texts
        assert not re.search("[0-9]", "".join(texts))
        assert texts[2:] == [str(r).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")) for r in ratings]
    else:
        assert texts[2:] == [str(r) for r in ratings]
    # Time reads the page's way: the oldest match on the right in Persian (RTL), on the left in English.
    xs = [float(x) for x in re.findall(r'<circle cx="([0-9.]+)"', chart)]
    assert xs == (sorted(xs, reverse=True) if language == "fa" else sorted(xs))
    assert f'data-direction="{"rtl" if language == "fa" else "ltr"}"' in html
