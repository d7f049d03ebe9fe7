"""Leaderboard pages (L-6): ranking per family, medals, pagination, player statistics, both languages."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from games.models import Match
from leaderboard.services import void_match
from leaderboard.stats import ranking

from .conftest import PERSIAN_DIGITS, abandon, build_match, finished

pytestmark = pytest.mark.django_db

NOWRUZ_1403 = datetime(2024, 3, 20, 12, 0, tzinfo=UTC)  # 1403/01/01 in the Jalali calendar


def page(client, url, lang="fa"):
    client.cookies["lang"] = lang
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def ranked_names(html) -> list[str]:
    return re.findall(r'<tr class="lb-row[^"]*" data-username="([^"]+)"', html)


@pytest.fixture
def five(make_user):
    """Five players with hokm totals 14, 12, 10, 9, 4 (ranked a, b, c, d, e)."""
    a, b, c, d, e = (make_user(n) for n in ("amir", "bahar", "cyrus", "dara", "elham"))
    finished("hokm2", [a, b], winner=0, score=[7, 5])  # a 7, b 5
    finished("hokm2", [a, c], winner=0, score=[7, 3])  # a 14, c 3
    finished("hokm2", [b, d], winner=0, score=[7, 2])  # b 12, d 2
    finished("hokm2", [c, e], winner=0, score=[7, 5])  # c 10, e 5
    finished("hokm2", [d, e], winner=0, score=[7, 0])  # d 9, e 4 (-1 for no round won)
    return a, b, c, d, e


def test_l_6_medals_go_to_the_top_three(client, five):
    html = page(client, reverse("leaderboard:index"), lang="en")
    assert ranked_names(html) == ["amir", "bahar", "cyrus", "dara", "elham"]
    rows = dict(re.findall(r'data-username="([^"]+)" data-rank="\d+"(?: data-medal="(\w+)")?', html))
    assert rows == {"amir": "gold", "bahar": "silver", "cyrus": "bronze", "dara": "", "elham": ""}
    for medal, text in (("🥇", "Gold medal"), ("🥈", "Silver medal"), ("🥉", "Bronze medal")):
        assert html.count(medal) == 1
        assert f'<span class="lb-sr-only">{text}</span>' in html  # accessible text beside the emoji
    assert f'href="{reverse("leaderboard:player", args=["amir"])}"' in html


def test_l_6_the_leaderboard_is_per_family(client, alice, bob, charlie, dave):
    finished("hokm4", [alice, bob, charlie, dave], winner=0, score=[7, 5])
    finished("shelem4", [alice, bob, charlie, dave], winner=1, score=[-200, 800])
    finished("bridge", [alice, bob, charlie, dave], winner=0, score=[900, 120])
    assert ranked_names(page(client, "/leaderboard/", "en")) == ["alice", "charlie", "bob", "dave"]
    assert ranked_names(page(client, "/leaderboard/?game=hokm", "en")) == ["alice", "charlie", "bob", "dave"]
    assert ranked_names(page(client, "/leaderboard/?game=shelem", "en")) == [
        "bob",
        "dave",
        "alice",
        "charlie",
    ]
    assert ranked_names(page(client, "/leaderboard/?game=bridge", "en")) == [
        "alice",
        "charlie",
        "bob",
        "dave",
    ]
    assert ranked_names(page(client, "/leaderboard/?game=nonsense", "en")) == [
        "alice",
        "charlie",
        "bob",
        "dave",
    ]


def test_l_6_hokm_groups_both_hokm_games(client, alice, bob, charlie, dave):
    finished("hokm4", [alice, bob, charlie, dave], winner=0, score=[7, 5])
    finished("hokm2", [bob, alice], winner=0, score=[7, 1])
    html = page(client, "/leaderboard/?game=hokm", "en")
    assert ranked_names(html) == ["bob", "alice", "charlie", "dave"]  # 12, 8, 7, 5


def test_l_6_the_leaderboard_is_paginated_by_25(client, make_user):
    users = [make_user(f"p{i:02d}") for i in range(28)]
    for i in range(0, 28, 2):
        finished("hokm2", [users[i], users[i + 1]], winner=0, score=[7, i // 2 + 1 if i < 12 else 0])
    first = page(client, "/leaderboard/?game=hokm", "en")
    assert len(ranked_names(first)) == 25
    assert "Page 1 of 2" in first and "page=2" in first
    second = page(client, "/leaderboard/?game=hokm&page=2", "en")
    assert len(ranked_names(second)) == 3
    assert "🥇" not in second
    # Every rank is 1 + the number of players with more points (ties share it, L-6).
    points = {r["username"]: r["points"] for r in ranking("hokm")}
    for html in (first, second):
        for name, rank in re.findall(r'data-username="([^"]+)" data-rank="(\d+)"', html):
            assert int(rank) == 1 + sum(p > points[name] for p in points.values()), name
    assert set(ranked_names(first)) | set(ranked_names(second)) == {u.username for u in users}
    assert ranked_names(page(client, "/leaderboard/?game=hokm&page=99", "en")) == ranked_names(second)


def test_l_6_a_voided_match_counts_nowhere(client, alice, bob, charlie, dave):
    finished("hokm4", [alice, bob, charlie, dave], winner=0, score=[7, 5])
    cheat = finished("hokm4", [bob, alice, dave, charlie], winner=0, score=[7, 0])
    assert ranked_names(page(client, "/leaderboard/", "en"))[:2] == ["bob", "dave"]  # 12 each
    void_match(cheat, alice, "collusion")
    assert ranked_names(page(client, "/leaderboard/", "en")) == ["alice", "charlie", "bob", "dave"]
    html = page(client, reverse("leaderboard:player", args=["bob"]), "en")
    assert f'data-match="{cheat.pk}"' not in html
    assert re.search(r'data-stat="matches">1<', html)


def test_l_2_practice_matches_are_not_on_the_pages(client, alice, bob):
    finished("hokm4", [alice, bob], winner=0, score=[7, 2], bots=(2, 4))
    html = page(client, "/leaderboard/", "en")
    assert ranked_names(html) == [] and 'data-testid="leaderboard-empty"' in html
    assert 'data-testid="no-matches"' in page(client, reverse("leaderboard:player", args=["alice"]), "en")


def test_l_6_the_pages_are_persian_with_persian_digits_and_jalali_dates(client, alice, bob, charlie, dave):
    match = finished("hokm4", [alice, bob, charlie, dave], winner=0, score=[7, 5])
    Match.objects.filter(pk=match.pk).update(finished_at=NOWRUZ_1403)
    html = page(client, "/leaderboard/")
    assert '<html lang="fa" dir="rtl">' in html
    assert "جدول امتیازات" in html and "حکم" in html
    assert re.search(r'data-username="alice".*?lb-points"><span dir="ltr">۷<', html, re.S)
    assert 'lb-rank-num">۱<' in html

    html = page(client, reverse("leaderboard:player", args=["bob"]))
    assert '<html lang="fa" dir="rtl">' in html
    assert "۱۴۰۳/۰۱/۰۱" in html  # Jalali, Persian digits
    assert re.search(r'data-stat="points"[^>]*><span dir="ltr">۵<', html)
    assert re.search(r'data-stat="losses">۱<', html)
    assert '<span dir="ltr">۵</span> : <span dir="ltr">۷</span>' in html  # our side first


def test_l_6_the_pages_in_english_use_latin_digits_and_gregorian_dates(client, alice, bob, charlie, dave):
    match = finished("hokm4", [alice, bob, charlie, dave], winner=0, score=[7, 5])
    Match.objects.filter(pk=match.pk).update(finished_at=NOWRUZ_1403)
    html = page(client, "/leaderboard/", "en")
    assert '<html lang="en" dir="ltr">' in html
    assert "Leaderboard" in html and "Points" in html
    assert not any(d in html for d in PERSIAN_DIGITS)

    html = page(client, reverse("leaderboard:player", args=["alice"]), "en")
    assert "alice&#x27;s statistics" in html or "alice's statistics" in html
    assert "2024/03/20" in html
    assert not any(d in html for d in PERSIAN_DIGITS)
    for family in ("hokm", "shelem", "bridge"):
        assert f'data-family="{family}"' in html
    assert re.search(r'data-stat="wins">1<', html)


def test_l_6_player_page_counts_wins_losses_left_and_unfinished(client, alice, bob, charlie, dave):
    four = [alice, bob, charlie, dave]
    finished("hokm4", four, winner=0, score=[7, 5])  # charlie: win 7
    finished("hokm4", four, winner=1, score=[0, 7])  # charlie: loss -1
    abandon(build_match("hokm4", four), 3)  # charlie: left -2
    abandon(build_match("hokm4", four), 2)  # charlie: unfinished 0
    html = page(client, reverse("leaderboard:player", args=["charlie"]), "en")
    card = re.search(r'data-family="hokm">(.*?)</article>', html, re.S).group(1)
    stats = dict(re.findall(r'data-stat="(\w+)"[^>]*>(?:<span dir="ltr">)?(-?\d+)', card))
    assert stats == {"matches": "4", "wins": "1", "losses": "2", "unfinished": "1", "points": "4"}
    assert "1 left" in card
    assert html.count("<tr data-match=") == 4


def test_l_6_unknown_player_is_404(client):
    assert client.get(reverse("leaderboard:player", args=["nobody"])).status_code == 404


def test_l_6_the_page_has_its_own_stylesheet(client):
    html = page(client, "/leaderboard/", "en")
    assert "/static/css/leaderboard.css" in html


def test_l_6_negative_points_keep_their_sign_before_the_number_in_persian(client, alice, bob):
    finished("shelem2", [alice, bob], winner=1, score=[-150, 620])
    html = page(client, "/leaderboard/?game=shelem")
    assert '<span dir="ltr">-۱۵۰</span>' in html  # isolated left-to-right: the minus stays in front


def test_l_6_players_tied_on_points_share_the_medal_and_the_rank(client, make_user):
    """Issue 34: 7, 7, 5, 5, 3 points rank 1, 1, 3, 3, 5: two golds, two bronzes, no silver."""
    a, b, c, d, e, f = (make_user(n) for n in ("anahita", "babak", "cyra", "darya", "ehsan", "farid"))
    finished("hokm2", [a, e], winner=0, score=[7, 3])  # anahita 7, ehsan 3
    finished("hokm2", [b, f], winner=0, score=[7, 0])  # babak 7, farid -1
    finished("hokm2", [c, d], winner=0, score=[5, 0])  # cyra 5, darya -1
    points = {r["username"]: r["points"] for r in ranking("hokm")}
    assert points["anahita"] == points["babak"] and points["anahita"] > points["cyra"] > points["ehsan"]
    html = page(client, reverse("leaderboard:index"), lang="en")
    rows = re.findall(r'data-username="([^"]+)" data-rank="(\d+)"(?: data-medal="(\w+)")?', html)
    by_name = {name: (int(rank), medal) for name, rank, medal in rows}
    assert by_name["anahita"] == by_name["babak"] == (1, "gold")
    assert by_name["cyra"] == (3, "bronze")
    assert html.count("🥇") == 2 and "🥈" not in html and html.count("🥉") == 1
    assert all(medal == "" for name, (rank, medal) in by_name.items() if rank > 3)
