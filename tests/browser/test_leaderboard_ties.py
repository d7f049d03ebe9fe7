"""L-6 in the browser (issue 34): two players tied on points share the rank
and the medal on the leaderboard page, in Persian and English."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, PHONE, digits
from .onsite import on_site

pytestmark = pytest.mark.browser

# Two players with the same hokm points (as many 7-0 wins each as puts them above
# anyone else of the run) and a third one win below them: ranks 1, 1, 3 (gold, gold, bronze).
SETUP = r"""
import json, sys
from django.contrib.auth import get_user_model
from django.db import transaction
from games import accept, engine
from games.models import Match
from rooms.models import Room

first, second, third = sys.argv[1:]
User = get_user_model()


def player(name):
    return User.objects.filter(username=name).first() or User.objects.create_user(name, password="x-" + name)


def win(winner, loser, score):
    room = Room.objects.create(game="hokm2", creator=winner, status=Room.Status.PLAYING)
    players = [{"seat": s, "user_id": u.pk, "username": u.username, "bot": False} for s, u in ((1, winner), (2, loser))]
    match = Match.objects.create(room=room, game="hokm2", rules={}, state=engine.get("hokm2").new_match({}), players=players)
    with transaction.atomic():
        accept.finish(Match.objects.select_for_update().get(pk=match.pk), {"winner": 0, "score": score})


from leaderboard.stats import ranking

top = ranking("hokm").first()
wins = max(0, top["points"] if top else 0) // 7 + 2  # a 7-0 win is 7 points: above everyone so far
loser = player(first[:12] + "_x")
for name, wins in ((first, wins), (second, wins), (third, wins - 1)):
    for _ in range(wins):
        win(player(name), loser, [7, 0])
print(json.dumps({"ok": True}))
"""


def ranks(page) -> dict[str, tuple[str, str | None]]:
    rows = page.locator("tr.lb-row")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.get_attribute("data-username")] = (
            digits(row.locator(".lb-rank-num").inner_text().strip()),
            row.get_attribute("data-medal"),
        )
    return out


@pytest.mark.parametrize("lang,viewport", [("fa", PHONE), ("en", DESKTOP)])
def test_l_6_players_tied_on_points_share_the_medal_and_the_rank(people, lang, viewport):
    me = people("tie", lang=lang, viewport=viewport)
    names = [f"{me.name[:14]}_{k}" for k in "abc"]
    on_site(SETUP, *names)
    page = me.goto("/leaderboard/?game=hokm")
    seen = ranks(page)
    assert seen[names[0]] == seen[names[1]] == ("1", "gold"), seen
    assert seen[names[2]] == ("3", "bronze"), seen
    for name in names[:2]:
        row = page.locator(f'tr.lb-row[data-username="{name}"]')
        assert row.locator(".lb-medal-gold").is_visible()
    assert page.locator(".lb-medal-silver").count() == 0
    me.shot(f"leaderboard-ties-{lang}-{'phone' if viewport is PHONE else 'desktop'}")
