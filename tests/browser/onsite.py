"""Play a match on the live site's database from a separate Django process,
to a chosen point, so a browser can open the table there (a late joiner, a
returning player, a spectator). Moves go through the play service, as the
clock's and the bots' do; nothing is written behind the service's back.

Stops (``until``):

- ``rounds:N``  N rounds over and the next round's trick play begun;
- ``auction``   bridge: the auction is on and seat 1 is to call;
- ``dummy``     bridge: seat 4 declares 1NT, seat 1 leads: dummy (seat 2, East) is down;
- ``end``       the match is over (bridge: the strongest hand of each deal bids 3NT).

Returns the room's code, the match id, the public view at the stop and each
finished round as the engine's state had it right after it (the view's last
round's result, with the match score or the rubber's totals then).
"""

from __future__ import annotations

import json
import os
from urllib.parse import urlsplit, urlunsplit

from . import forked
from .conftest import CACHE_PREFIX, CHANNEL_PREFIX, DB_NAME, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL

SCRIPT = r"""
import json, sys, time
from django.contrib.auth import get_user_model
from games import engine, services
from games.engine import CHANCE
from games.errors import PlayError
from games.models import Match
from rooms import services as rooms

name, rules, until, first, *others = sys.argv[1:]
User = get_user_model()
a = User.objects.get(username=first)
room = rooms.create_room(a, name, json.loads(rules))
for number, other in enumerate(others, start=2):
    guest = User.objects.filter(username=other).first() or User.objects.create_user(other, password="x-" + other)
    rooms.sit(room, guest, number, move=True); rooms.set_ready(room, guest, True)
match = rooms.start(room, a)
game = engine.get(name)
HCP = {"A": 4, "K": 3, "Q": 2, "J": 1}


def row_of(state):
    view = game.view(state, None)
    if name.startswith("shelem"):
        return dict(view["score"]["last_result"])
    row = dict(view["last_result"])
    if name.startswith("hokm"):
        row["score"] = list(state["score"])
    elif not row.get("passed_out"):
        row["totals"] = list(view["score"]["totals"])
    return row


def bridge_call(state, seat):
    calls = state["auction"]["calls"] if isinstance(state.get("auction"), dict) else []
    bid = any(c not in ("P", "X", "XX") for c in calls)
    if until == "dummy":
        return "P" if bid or seat != 4 else "1NT"
    points = [sum(HCP.get(c[0], 0) for c in hand) for hand in state["hands"]]
    return "P" if bid or points[seat - 1] != max(points) else "3NT"


def stop(state, to_act, finished):
    if match.status != Match.Status.ACTIVE:
        return True
    if until.startswith("rounds:"):
        return finished >= int(until[7:]) and state.get("phase") == "play" and bool(state.get("trick"))
    if until == "auction":
        return state.get("phase") == "auction" and to_act == {1}
    if until == "dummy":
        return bool(state.get("dummy_shown"))
    return False


rows, seen = [], set()
for _ in range(30000):
    match.refresh_from_db()
    state = match.state
    res = state.get("last_result")
    if res and res["round"] not in seen:
        seen.add(res["round"])
        rows.append(row_of(state))
    to_act = game.to_act(state)
    if stop(state, to_act, len(rows)):
        break
    try:
        if CHANCE in to_act:
            if services.expire(match.pk, match.version) is None:
                time.sleep(0.02)
            continue
        seat = min(to_act)
        action = game.auto_action(state, seat)
        if name == "bridge" and state.get("phase") == "auction":
            action = {"type": "call", "call": bridge_call(state, seat)}
        services.play(match.pk, action, seat=seat, version=match.version)
    except PlayError:
        continue
match.refresh_from_db()
out = {"code": room.code, "match": match.pk, "status": match.status, "view": game.view(match.state, None), "rounds": rows}
print(json.dumps(out))
"""


def site_env(extra_env: dict | None = None) -> dict:
    """The environment of a script on the live site's database: its database, Redis,
    prefixes and in-process deadlines, with ``extra_env`` on top."""
    admin = os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)
    return {
        **os.environ,
        "DATABASE_URL": urlunsplit(urlsplit(admin)._replace(path=f"/{DB_NAME}")),
        "REDIS_URL": os.environ.get("REDIS_URL", DEFAULT_REDIS_URL),
        "CACHE_PREFIX": CACHE_PREFIX,
        "CHANNEL_PREFIX": CHANNEL_PREFIX,
        "DEADLINES": "inprocess",
        **(extra_env or {}),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def on_site(script: str, *argv: str, extra_env: dict | None = None, timeout: float = 120) -> dict:
    """Run ``script`` in a Django shell against the live site's database, with
    ``argv`` as its ``sys.argv[1:]``; its last line of output is JSON."""
    code = f"import sys; sys.argv = {['x', *argv]!r}\n" + script
    out = forked.run(["manage.py", "shell", "-c", code], env=site_env(extra_env), timeout=timeout)
    if out.returncode:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def play_on_site(game: str, rules: dict, until: str, *usernames: str) -> dict:
    """A match of ``game`` between ``usernames`` (the first, who must exist, creates
    the room and sits at seat 1; the others are made if need be), played to ``until``."""
    return on_site(
        SCRIPT,
        game,
        json.dumps(rules),
        until,
        *usernames,
        # nobody's browser sends values here: substitutes at once (F-4)
        extra_env={"ROUND_PAUSE": "0", "FAIR_WAIT_SECONDS": "0"},
        timeout=400,
    )
