"""JSON log lines (issue 39): one JSON object per event, with the request or
socket id, user, room and match where known, and never a secret: passwords,
the site's key, session ids, tokens, the fair deal's values and server
secrets, or hidden cards (a hand)."""

from __future__ import annotations

import io
import json
import logging

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings

from games.models import DealRecord, Match
from ops import context
from ops.logs import JsonFormatter, logging_config
from rooms import services as room_service
from tests.replays.conftest import CARD_TOKEN
from tests.rooms.conftest import make_room, play_until


class Capture:
    """Every record of every logger, at DEBUG, through the production formatter."""

    def __init__(self):
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(JsonFormatter())
        self.root = logging.getLogger()

    def __enter__(self):
        self.level = self.root.level
        self.root.addHandler(self.handler)
        self.root.setLevel(logging.DEBUG)
        return self

    def __exit__(self, *exc):
        self.root.removeHandler(self.handler)
        self.root.setLevel(self.level)

    @property
    def lines(self) -> list[str]:
        return [line for line in self.stream.getvalue().splitlines() if line]


def test_production_logs_are_json_lines_and_the_embedded_site_plain_text():
    assert logging_config(True)["formatters"]["main"] == {"()": "ops.logs.JsonFormatter"}
    assert "format" in logging_config(False)["formatters"]["main"]
    assert django_settings.LOGGING["root"]["handlers"] == ["console"]


def test_a_line_carries_the_sockets_context(django_user_model):
    class User:
        is_authenticated = True
        pk = 42

    scope = {"type": "websocket", "path": "/ws/table/abc123/", "user": User()}
    token = context.open_scope(scope)
    try:
        context.note(match=7)
        with Capture() as cap:
            logging.getLogger("rooms.consumers").warning("a fair deal answer on the loop failed")
    finally:
        context.close(token)
    (line,) = cap.lines
    entry = json.loads(line)
    assert entry["level"] == "warning" and entry["logger"] == "rooms.consumers"
    assert entry["room"] == "abc123" and entry["match"] == 7 and entry["user"] == 42
    assert len(entry["socket_id"]) == 16 and "request_id" not in entry
    with Capture() as cap:
        logging.getLogger("x").warning("outside any request")
    assert set(json.loads(cap.lines[0])) == {"ts", "level", "logger", "msg"}


def test_an_unresolved_user_is_never_looked_up():
    from django.utils.functional import SimpleLazyObject

    def boom():
        raise AssertionError("a log line made a query")

    token = context.open_scope({"type": "http", "path": "/", "user": SimpleLazyObject(boom)})
    try:
        with Capture() as cap:
            logging.getLogger("x").error("no user known yet")
    finally:
        context.close(token)
    entry = json.loads(cap.lines[0])
    assert "user" not in entry and len(entry["request_id"]) == 16


@pytest.mark.django_db(transaction=True)
async def test_a_whole_matchs_logs_hold_no_secret_session_fair_value_or_hand(connect, make_user, settings):
    settings.DEBUG = False  # production: no SQL in the logs
    users = [await sync_to_async(make_user)(f"log{i}") for i in range(1, 5)]
    room = await sync_to_async(make_room)(users[0], users[1:], rules={"target": 3, "middle_card": False})
    log = logging.getLogger("tests.ops.attempts")
    with Capture() as cap:
        conns = [await connect(room, u) for u in users]
        match = await sync_to_async(room_service.start)(room, users[0])
        await conns[0].send({"type": "act", "action": {"type": "nonsense"}, "v": 0, "ref": "bad"})
        await conns[0].send_raw("not json")

        def finished():
            return all(c.state and c.state["status"] == "finished" for c in conns)

        await play_until(conns, finished, max_steps=3000)
        records = await sync_to_async(lambda: list(DealRecord.objects.filter(match_id=match.pk)))()
        keys = [c.session_key for c in conns]
        hand = [c for c in (records[0].deck or [])][:13]
        # What careless code might log: each must come out redacted.
        db = django_settings.DATABASES["default"]
        log.warning("connecting to postgres://%s:%s@db:5432/x", db["USER"], "pw-" + keys[0][:6])
        log.info("cookie sessionid=%s seen", keys[0])
        log.warning("a seat", extra={"session_key": keys[1], "hand": hand, "values": records[0].values})
        log.warning("deal %s", {"server_secret": records[0].server_secret, "values": records[0].values})
        log.info("authorization: Bearer %s", keys[2])
        try:
            raise RuntimeError(f"secret={records[0].server_secret} key {django_settings.SECRET_KEY}")
        except RuntimeError:
            log.exception("failed")
        for c in conns:
            await c.close()
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).status)() == Match.Status.FINISHED

    lines = cap.lines
    assert len(lines) >= 6
    text = "\n".join(lines)
    for line in lines:
        entry = json.loads(line)  # one JSON object per line
        assert {"ts", "level", "logger", "msg"} <= set(entry)
        # a hand is never written: no line names more than a trick's cards
        assert len(set(CARD_TOKEN.findall(line))) < 5, line
    forbidden = [*keys, django_settings.SECRET_KEY, "pw-" + keys[0][:6]]
    for record in records:
        forbidden.append(record.server_secret)
        forbidden += [v for v in record.values if v]
    for secret in forbidden:
        assert secret not in text, secret
    assert text.count("[redacted]") >= 6


@pytest.mark.django_db(transaction=True)
async def test_an_http_requests_lines_carry_its_request_id(settings):
    """Through the ASGI entry: Django's own line for a 503 names the request."""
    from channels.testing import HttpCommunicator

    from config.asgi import application

    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # /readyz answers 503, and django.request says so
    with Capture() as cap:
        comm = HttpCommunicator(application, "GET", "/readyz", headers=[(b"host", b"testserver")])
        response = await comm.get_response(timeout=10)
    assert response["status"] == 503
    lines = [json.loads(line) for line in cap.lines if '"django.request"' in line]
    assert lines and len(lines[0]["request_id"]) == 16 and "socket_id" not in lines[0]
