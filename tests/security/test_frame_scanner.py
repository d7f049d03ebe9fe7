"""Issue 14: a frame recorder plays whole matches of every game and finds no hidden card anywhere.

For each game of the catalogue a room's seats are taken by players whose
browsers are table sockets (the real consumer, the real channel layer on
Redis); they act from the views they receive (tests/security/policy.py)
until the match is over. Connected all the while: a spectator (signed in),
an anonymous visitor, a later sitter (watching, then asking for a seat once
the match ended) and a player seated at another room. Each of them also
loads the table page at the start, during play and at the end.

Afterwards the match is replayed from its move log (tests/security/
visibility.py): every string of every frame each connection received, and
of every page it was served, is scanned for card codes, and each card must
be one the viewer could see at a version the frame reports (his own seat's
cards, if he played, and what lay face up). Zero tolerated. A second run
plants a leak in the frame builder and shows that the scanner names it.
"""

from __future__ import annotations

import asyncio
import copy
import json
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games import engine, frames
from games.models import Match, Move
from rooms import services as room_service
from tests.rooms.conftest import make_room, session_key_for

from .policy import RULES, choose
from .visibility import History, cards_in_text, frame_leaks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]


class Viewer:
    """One browser at the table: its socket's every frame (text as sent), its pages."""

    def __init__(self, kind: str, user, key: str):
        self.kind, self.user, self.key = kind, user, key
        self.comm = None
        self.texts: list[str] = []
        self.frames: list[dict] = []
        self.pages: list[tuple[int, int, str]] = []  # (version before, version after, html)
        self.state: dict | None = None
        self.acted: set = set()
        self.act = False
        self.stop = None  # play()'s condition to stop acting at
        self.task = None

    def count(self, **match) -> int:
        return sum(all(f.get(k) == x for k, x in match.items()) for f in self.frames)

    @property
    def name(self) -> str:
        return f"{self.kind} ({self.user.username if self.user else 'anonymous'})"

    async def open(self, room):
        self.comm = WebsocketCommunicator(
            application,
            f"/ws/table/{room.code}/",
            headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={self.key}".encode())],
        )
        connected, _ = await self.comm.connect(timeout=10)
        assert connected, self.name
        self.task = asyncio.ensure_future(self.read())

    async def read(self):
        while True:
            text = await self.comm.receive_from(timeout=600)
            frame = json.loads(text)
            self.texts.append(text)
            self.frames.append(frame)
            if frame.get("type") == "state" and (self.state is None or frame["v"] >= self.state["v"]):
                self.state = frame
                await self.maybe_act()
            elif frame.get("type") == "error" and frame.get("code") == "stale_version":
                self.acted.clear()  # a full state follows; act again from it

    async def maybe_act(self):
        st = self.state
        view = st["view"]
        if not self.act or st["status"] != "active" or view.get("viewer") not in view.get("to_act", []):
            return
        if self.stop is not None and self.stop(st):
            return  # play() stops here: the seats act no further, however fast the table plays
        if st["v"] in self.acted:
            return
        action = choose(view)
        if action is None:
            return
        self.acted.add(st["v"])
        await self.comm.send_to(text_data=json.dumps({"type": "act", "action": action, "v": st["v"]}))

    async def send(self, frame):
        await self.comm.send_to(text_data=json.dumps(frame))

    async def close(self):
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - the socket is going anyway
                pass
        try:
            await self.comm.disconnect()
        except Exception:  # noqa: BLE001 - already closed
            pass


def version_of(match_id: int) -> int:
    return Match.objects.filter(pk=match_id).values_list("version", flat=True).first() or 0


def load_page(room, viewer: Viewer, match_id: int | None):
    before = version_of(match_id) if match_id else 0
    client = Client()
    client.cookies["sessionid"] = viewer.key
    response = client.get(f"/rooms/{room.code}/")
    assert response.status_code == 200, (viewer.name, response.status_code)
    after = version_of(match_id) if match_id else 0
    viewer.pages.append((before, after, response.content.decode()))


async def wait_for(predicate, timeout: float, what: str):
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")
        await asyncio.sleep(0.02)


async def table(make_user, name: str, tag: str):
    """A room of ``name`` with every kind of viewer connected; returns (room, viewers)."""
    players = engine.get(name).players

    def setup():
        users = [make_user(f"{tag}{i}") for i in range(1, players + 1)]
        room = make_room(users[0], users[1:], game=name, rules=RULES[name])
        others = {kind: make_user(f"{tag}{kind[:5]}") for kind in ("spectator", "later", "other")}
        room_service.create_room(others["other"], "hokm4", {})  # he is seated at another room
        viewers = [Viewer(f"seat {i}", u, session_key_for(u)) for i, u in enumerate(users, start=1)]
        viewers += [
            Viewer("spectator", others["spectator"], session_key_for(others["spectator"])),
            Viewer("anonymous", None, session_key_for(None)),
            Viewer("later sitter", others["later"], session_key_for(others["later"])),
            Viewer("other room", others["other"], session_key_for(others["other"])),
        ]
        return room, viewers

    room, viewers = await sync_to_async(setup)()
    for viewer in viewers:
        await viewer.open(room)
        viewer.act = viewer.kind.startswith("seat")
    return room, viewers


async def pages(room, viewers, match_id):
    for viewer in viewers:
        await sync_to_async(load_page)(room, viewer, match_id)


async def play(room, viewers, stop=None, timeout=120.0) -> int:
    """Start the match and let the seats play it; pages at the start, midway and at the end."""
    creator = viewers[0]
    seats = [v for v in viewers if v.act]
    for v in seats:
        # Before the start: the seats play on while the first pages load, and
        # a stop set after them could come when the match is already over.
        v.stop = stop
    await creator.send({"type": "start"})
    await wait_for(lambda: all(v.state is not None for v in viewers), 15, "every viewer's first state")
    match_id = creator.state["match"]
    await pages(room, viewers, match_id)
    midway = False

    def over():
        return all(v.state["status"] != "active" for v in seats) or (stop is not None and stop(creator.state))

    end = time.monotonic() + timeout
    while not over():
        if time.monotonic() > end:
            raise AssertionError(f"the match did not end: {[v.state['view'].get('phase') for v in seats]}")
        if not midway and creator.state["v"] >= 30:
            midway = True
            await pages(room, viewers, match_id)
        await asyncio.sleep(0.05)
    for v in seats:
        v.act = False
    return match_id


def history_of(match_id: int) -> History:
    match = Match.objects.get(pk=match_id)
    moves = list(Move.objects.filter(match=match).order_by("seq").values_list("seq", "seat", "action"))
    history = History.replay(match.game, match.rules, moves)
    assert history.states[-1] == match.state
    history.pad_to(match.version)  # a confirmed leave is a version without a move (L-3)
    return history


REVEALED = ("deck", "cards", "draw", "draw_cards")
"""F-3: once a round has ended its deal is revealed to the players of the
match (every value, so that each browser deals again and checks it; the
record names the deck itself, which those values give anyway)."""


def verifiable(history: History, frame: dict) -> dict:
    """A player's ``fair_record`` frame without the deck F-3 reveals to him,
    after checking that its round had ended at the frame's version; what is
    left (the cards played, the layout) is scanned like any frame."""
    v = frame["v"]
    state = history.states[v]
    assert state["phase"] in ("round_over", "match_over") or v == history.last, (
        f"a round's deal revealed before it ended (v{v}, {state['phase']})"
    )
    record = {k: x for k, x in frame["record"].items() if k not in REVEALED}
    return {**frame, "record": record}


def scan(history: History, match: Match, viewers) -> tuple[list[str], dict]:
    """Every card each viewer may not see, in every frame and page it got; and the counts."""
    leaks: list[str] = []
    counts = {"frames": 0, "cards": 0, "pages": 0}
    for viewer in viewers:
        seat = match.seat_of_user(viewer.user.pk) if viewer.user is not None else None
        last_v = None
        for text, frame in zip(viewer.texts, viewer.frames, strict=True):
            if frame.get("match") not in (None, match.pk):
                continue
            counts["frames"] += 1
            counts["cards"] += len(cards_in_text(text))
            if frame.get("type") == "fair_record" and seat is not None:
                frame, text = verifiable(history, frame), None
            bad = frame_leaks(history, seat, frame, last_v, text)
            if bad:
                leaks.append(f"{viewer.name}: {frame['type']} v{frame.get('v')}: {sorted(bad)}")
            if frame.get("type") == "state":
                last_v = max(last_v or 0, frame["v"])
        for before, after, html in viewer.pages:
            counts["pages"] += 1
            bad = cards_in_text(html) - history.allowed(seat, before, after)
            if bad:
                leaks.append(f"{viewer.name}: page at v{before}..{after}: {sorted(bad)}")
    return leaks, counts


@pytest.fixture(autouse=True)
def robots_rate(settings):
    """The seats here are robots that answer every frame as fast as the server
    sends it: over a long match each seat sends more than the table's per-socket
    rate (the flood guard, tested in tests/rooms/test_table_guards.py): a
    dropped act waited for its turn's deadline, and a dropped sync failed the
    test on a quiet machine."""
    settings.TABLE = {**settings.TABLE, "FRAME_BURST": 10_000, "FRAME_RATE": 10_000.0}


@pytest.fixture(autouse=True)
def own_layer(settings):
    """A channel-layer prefix of this test's own: Redis pub/sub ignores the
    database number, so another run on the same Redis must not reach these sockets."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    config = layers["default"].setdefault("CONFIG", {})
    if "prefix" in config or "redis" in layers["default"]["BACKEND"]:
        config["prefix"] = f"scan{uuid.uuid4().hex[:10]}"
    settings.CHANNEL_LAYERS = layers


async def close_all(viewers):
    for viewer in viewers:
        await viewer.close()


@pytest.mark.parametrize("name", [g.name for g in engine.catalogue()])
async def test_whole_match_frames_and_pages_hold_no_card_the_viewer_may_not_see(
    name, make_user, settings, capsys
):
    started = time.monotonic()
    room, viewers = await table(make_user, name, "r")
    try:
        match_id = await play(room, viewers)
        played = time.monotonic() - started
        later = next(v for v in viewers if v.kind == "later sitter")
        # the match is over: the later sitter asks for a seat (the room takes nobody
        # before "play again", R-3), and everyone asks for the table again
        await later.send({"type": "sit", "seat": 1})
        fulls = {id(v): v.count(type="state", full=True) for v in viewers}
        for viewer in viewers:
            await viewer.send({"type": "sync"})
        await wait_for(
            lambda: all(v.count(type="state", full=True) > fulls[id(v)] for v in viewers),
            15,
            lambda: (
                "the syncs of "
                + "; ".join(
                    f"{v.name} (reader {'done' if v.task.done() else 'running'}, last frames "
                    f"{[f.get('type') + ':' + str(f.get('code', f.get('v'))) for f in v.frames[-4:]]})"
                    for v in viewers
                    if v.count(type="state", full=True) <= fulls[id(v)]
                )
            ),
        )

        await pages(room, viewers, match_id)
    finally:
        await close_all(viewers)
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    assert match.status == Match.Status.FINISHED
    history = await sync_to_async(history_of)(match_id)
    leaks, counts = scan(history, match, viewers)
    assert not leaks, "\n".join(leaks[:20])
    # the scan is not vacuous: every viewer saw the match, the seats their own hands
    for viewer in viewers:
        assert viewer.count(type="state") >= 5, viewer.name
    seat_cards = [sum(len(cards_in_text(t)) for t in v.texts) for v in viewers if v.kind.startswith("seat")]
    assert min(seat_cards) > 50
    with capsys.disabled():
        print(
            f"\n[frame scan {name}] {history.last} versions, {counts['frames']} frames "
            f"({counts['cards']} card codes) and {counts['pages']} pages to {len(viewers)} viewers, "
            f"0 leaks; {time.monotonic() - started:.1f} s ({played:.1f} s to the end of the match)"
        )


async def test_an_abandoned_match_shows_the_later_sitter_nothing_hidden(make_user, settings):
    """L-3 and issue 14 (1): after a confirmed leave the later sitter takes the leaver's seat."""
    room, viewers = await table(make_user, "shelem2", "a")
    try:
        match_id = await play(room, viewers, stop=lambda st: st["view"]["phase"] == "play" and st["v"] >= 12)
        await viewers[1].send({"type": "leave", "confirm": True})
        later = next(v for v in viewers if v.kind == "later sitter")
        await wait_for(
            lambda: any(
                f["type"] == "room"
                and f["room"]["status"] == "waiting"
                and f["room"]["match_status"] == "abandoned"
                for f in later.frames
            ),
            10,
            lambda: (
                f"the room waiting: the leaver got {[f for f in viewers[1].frames if f['type'] != 'state'][-3:]}"
            ),
        )
        await later.send({"type": "sit", "seat": 2})
        await wait_for(
            lambda: any(f["type"] == "room" and f["you"]["seat"] == 2 for f in later.frames),
            10,
            lambda: f"the sit: {[f for f in later.frames if f['type'] not in ('state', 'room')]}",
        )
        fulls = later.count(type="state", full=True)
        await later.send({"type": "sync"})
        await wait_for(lambda: later.count(type="state", full=True) > fulls, 10, "the sync")
        await pages(room, viewers, match_id)
    finally:
        await close_all(viewers)
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    assert match.status == Match.Status.ABANDONED
    history = await sync_to_async(history_of)(match_id)
    leaks, counts = scan(history, match, viewers)
    assert not leaks, "\n".join(leaks[:20])
    assert counts["frames"] > 20


PLANTS = {
    # where the card is slipped in -> (whose frames carry it, who must be reported)
    "public": (
        None,
        {"spectator (pspect)", "anonymous (anonymous)", "later sitter (plater)", "other room (pother)"},
    ),
    "seat 1": (1, {"seat 1 (p1)"}),
}


@pytest.mark.parametrize("where", PLANTS)
async def test_a_planted_leak_is_caught_by_the_scanner(where, make_user, monkeypatch):
    """The same recorder with one hidden card of seat 2's hand slipped into
    the public frames, or into seat 1's own frames, inside a longer string
    (an event's text, where a reader of the view's keys would not look): the
    scanner names that card for exactly the viewers of those frames."""
    real = frames.state_frame
    target, expected = PLANTS[where]
    planted: set[str] = set()

    def leaky(match, game, seat, *args, **kwargs):
        frame = real(match, game, seat, *args, **kwargs)
        hand = match.state["hands"][1]
        if seat == target and match.state["phase"] == "play" and hand:
            planted.add(hand[-1])
            frame["events"] = [*frame["events"], {"type": "note", "text": f"seat 2 keeps {hand[-1]}"}]
        return frame

    monkeypatch.setattr(frames, "state_frame", leaky)
    room, viewers = await table(make_user, "hokm4", "p")
    try:
        match_id = await play(room, viewers, stop=lambda st: st["view"]["phase"] == "play" and st["v"] >= 10)
    finally:
        await close_all(viewers)
    match = await sync_to_async(Match.objects.get)(pk=match_id)
    history = await sync_to_async(history_of)(match_id)
    leaks, _ = scan(history, match, viewers)
    assert planted
    assert {line.split(":")[0] for line in leaks} == expected, leaks
    assert any(card in line for line in leaks for card in planted)
