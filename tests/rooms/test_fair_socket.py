"""The fair deal on the table's socket (RULES.md F-1..F-6, docs/fairness.md, docs/protocol.md).

Every test runs the real consumer: seats send ``fair_commit`` and
``fair_reveal`` as a browser does (``Honest``), the server deals from the
round's record, and every frame every connection received is kept and
scanned.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from asgiref.sync import sync_to_async

from games import fairdeal
from games.engine.cards import CARD_INDEX
from games.models import DealRecord, Match

from .conftest import ROUND_END, events_of, make_room, pump_all

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(240)]


def value_for(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


class Honest:
    """What static/js/table/fair.js does for one seat: a value per round, its
    fingerprint while they are collected, the value once all are in."""

    def __init__(self, conn, seat: int, label: str):
        self.conn, self.seat, self.label = conn, seat, label
        self.values: dict[int, str] = {}
        self.sent: set[tuple[int, str]] = set()
        self.handled = 0

    def value(self, number: int) -> str:
        return self.values.setdefault(number, value_for(f"{self.label}:{number}"))

    async def step(self) -> None:
        frames = self.conn.frames
        for frame in frames[self.handled :]:
            if frame["type"] != "fair_state" or self.seat in frame["bots"] + frame["substituted"]:
                continue
            number = frame["round"]
            if frame["phase"] == "commit" and (number, "commit") not in self.sent:
                self.sent.add((number, "commit"))
                commitment = fairdeal.commitment(self.value(number))
                await self.conn.send({"type": "fair_commit", "round": number, "commitment": commitment})
            elif frame["phase"] == "reveal" and (number, "reveal") not in self.sent:
                if frame["commitments"][self.seat - 1] == fairdeal.commitment(self.value(number)):
                    self.sent.add((number, "reveal"))
                    await self.conn.send(
                        {"type": "fair_reveal", "round": number, "value": self.value(number)}
                    )
        self.handled = len(frames)


async def play_fairly(conns, honest, done, max_steps=4000):
    """play_until (tests/rooms/conftest.py), the honest seats answering every fair_state as it comes."""
    sent_at: dict[str, tuple] = {}
    for _ in range(max_steps):
        await pump_all(conns)
        for h in honest:
            await h.step()
        if done():
            return
        for conn in conns:
            st = conn.state
            if not st or st["status"] != "active":
                continue
            view = st["view"]
            if not view.get("legal") or view.get("viewer") not in view.get("to_act", []):
                continue
            if sent_at.get(conn.name) == (st["match"], st["v"]):
                continue
            await conn.send({"type": "act", "action": view["legal"][0], "v": st["v"]})
            sent_at[conn.name] = (st["match"], st["v"])
    raise AssertionError("the match did not get there")


def record_of(match_id: int, number: int) -> DealRecord:
    return DealRecord.objects.get(match_id=match_id, number=number)


def texts(conn, kinds=None) -> list[tuple[int, str, dict]]:
    return [(i, json.dumps(f), f) for i, f in enumerate(conn.frames) if kinds is None or f["type"] in kinds]


async def start_with_bots(connect, creator, bots=(2, 3, 4), guests=(), game="hokm4", rules=None):
    room = await sync_to_async(make_room)(
        creator, list(guests), game=game, rules=rules or {"middle_card": False}, bots=bots
    )
    conns = [await connect(room, u) for u in (creator, *guests)]
    await conns[0].send({"type": "start"})
    await conns[0].wait_for(lambda f: f["type"] == "fair_state" and f["round"] == 1)
    match = await sync_to_async(Match.objects.get)(room=room)
    return room, match, conns


async def test_f2_a_value_that_does_not_match_its_commitment_is_refused(connect, alice, settings):
    settings.FAIR_WAIT_SECONDS = 60  # nobody is replaced during this test
    room, match, (me,) = await start_with_bots(connect, alice)
    first = me.frames[me.seen - 1]
    assert first["phase"] == "commit" and first["bots"] == [2, 3, 4] and first["commitments"][0] is None
    mine, other = value_for("alice"), value_for("someone else")

    # The shape is checked first: a fingerprint is exactly 64 lowercase hex digits.
    await me.send({"type": "fair_commit", "round": 1, "commitment": mine.upper(), "ref": "bad"})
    error = await me.wait_for(lambda f: f["type"] == "error")
    assert error["code"] == "bad_frame" and error["ref"] == "bad"

    await me.send({"type": "fair_commit", "round": 1, "commitment": fairdeal.commitment(mine)})
    await me.wait_for(lambda f: f["type"] == "fair_state" and f["phase"] == "reveal")

    # F-2: a value whose SHA-256 is not the seat's fingerprint is refused; nothing is dealt.
    await me.send({"type": "fair_reveal", "round": 1, "value": other, "ref": 7})
    error = await me.wait_for(lambda f: f["type"] == "error")
    assert error["code"] == "value_mismatch" and error["ref"] == 7
    record = await sync_to_async(record_of)(match.pk, 1)
    assert record.phase == DealRecord.Phase.REVEAL and record.values[0] is None
    assert not events_of(me, {"dealt"})

    # The right value deals at once (no waiting for the deadline).
    await me.send({"type": "fair_reveal", "round": 1, "value": mine})
    await me.wait_for(lambda f: f["type"] == "state" and any(e["type"] == "dealt" for e in f["events"]))
    record = await sync_to_async(record_of)(match.pk, 1)
    assert record.phase == DealRecord.Phase.DEALT and record.values[0] == mine and record.substituted == []


async def test_f1_a_spectator_cannot_commit_and_a_seat_comes_from_the_session(
    connect, alice, bob, make_user, settings
):
    """The seat is the one the user holds in the match: a frame cannot name another."""
    settings.FAIR_WAIT_SECONDS = 60
    room, match, (me,) = await start_with_bots(connect, alice)
    eve = await connect(room, await sync_to_async(make_user)("eve"), "eve")
    await eve.send({"type": "fair_commit", "round": 1, "commitment": value_for("eve")})
    assert (await eve.wait_for(lambda f: f["type"] == "error"))["code"] == "not_seated"
    await me.send({"type": "fair_commit", "round": 1, "commitment": value_for("x"), "seat": 2})
    assert (await me.wait_for(lambda f: f["type"] == "error"))["code"] == "bad_frame"  # no seat field
    record = await sync_to_async(record_of)(match.pk, 1)
    assert record.commitments[0] is None and record.phase == DealRecord.Phase.COMMIT


async def test_f4_a_missing_value_is_substituted_after_the_wait_and_flagged(connect, alice, bob, settings):
    settings.FAIR_WAIT_SECONDS = 0.4  # "a few seconds", shortened
    room, match, (a, b) = await start_with_bots(connect, alice, bots=(3, 4), guests=(bob,))
    # alice answers; bob's browser stays silent (disconnected, slow, withholding).
    honest = Honest(a, 1, "alice")
    await play_fairly([a], [honest], lambda: events_of(a, {"dealt"}), max_steps=500)
    record = await sync_to_async(record_of)(match.pk, 1)
    assert record.substituted == [2] and record.values[0] == honest.value(1)
    assert record.values[1] == fairdeal.substitute(record.server_secret, record.table, 1, 2)
    flagged = [f for f in a.frames if f["type"] == "fair_state" and f["substituted"] == [2]]
    assert flagged, "the table was told that seat 2 was replaced"

    # bob wakes up too late: refused, the deal stands.
    await b.send({"type": "fair_commit", "round": 1, "commitment": value_for("bob")})
    assert (await b.wait_for(lambda f: f["type"] == "error"))["code"] == "substituted"

    # After the round both players get the record, with the substitution flagged (F-3, F-4).
    await play_fairly([a, b], [honest], lambda: events_of(a, ROUND_END) and events_of(b, ROUND_END))
    for conn in (a, b):
        published = await conn.wait_for(lambda f: f["type"] == "fair_record")
        entries = {v["seat"]: v for v in published["record"]["values"]}
        assert entries[2]["substituted"] and not entries[1]["substituted"] and entries[3]["bot"]


class Withholder(Honest):
    """A browser that sends its fingerprint and then keeps its value back
    (it saw something it did not like, or it went away between the two)."""

    async def step(self) -> None:
        frames = self.conn.frames
        for frame in frames[self.handled :]:
            if frame["type"] == "fair_state" and frame["phase"] == "commit":
                number = frame["round"]
                if (number, "commit") not in self.sent and self.seat not in frame["substituted"]:
                    self.sent.add((number, "commit"))
                    commitment = fairdeal.commitment(self.value(number))
                    await self.conn.send({"type": "fair_commit", "round": number, "commitment": commitment})
        self.handled = len(frames)


async def test_f4_a_value_withheld_after_its_fingerprint_is_substituted_after_the_wait_and_flagged(
    connect, alice, bob, settings
):
    """F-4: bob sends his fingerprint, then never his value. After the wait his
    seat gets the substitute fixed by the server's committed secret; the deal
    does not stall; his fingerprint stays on the record; his late value is refused."""
    settings.FAIR_WAIT_SECONDS = 0.4
    room, match, (a, b) = await start_with_bots(connect, alice, bots=(3, 4), guests=(bob,))
    honest, withholder = Honest(a, 1, "alice"), Withholder(b, 2, "bob")
    await play_fairly([a, b], [honest, withholder], lambda: events_of(a, {"dealt"}), max_steps=800)
    record = await sync_to_async(record_of)(match.pk, 1)
    assert record.phase == DealRecord.Phase.DEALT and record.substituted == [2]
    assert record.commitments[1] == fairdeal.commitment(withholder.value(1))  # his fingerprint was in
    assert record.values[1] == fairdeal.substitute(record.server_secret, record.table, 1, 2)
    assert record.values[1] != withholder.value(1) and record.values[0] == honest.value(1)
    states = [f for f in a.frames if f["type"] == "fair_state" and f["round"] == 1]
    assert any(f["phase"] == "reveal" and f["commitments"][1] for f in states)  # he did commit
    assert any(f["substituted"] == [2] for f in states), "the table was told that seat 2 was replaced"
    for conn in (a, b):  # neither his value nor its substitute reached anyone before the round ended
        for _, text, _frame in texts(conn, {"fair_state", "state", "room"}):
            assert record.values[1] not in text and withholder.value(1) not in text

    # bob's value comes too late: refused, the deal stands.
    await b.send({"type": "fair_reveal", "round": 1, "value": withholder.value(1), "ref": "late"})
    error = await b.wait_for(lambda f: f["type"] == "error")
    assert error["code"] == "substituted" and error["ref"] == "late"
    assert (await sync_to_async(record_of)(match.pk, 1)).values[1] == record.values[1]

    # The published record flags the substitution; bob's browser finds its own value not used.
    await play_fairly([a, b], [honest], lambda: events_of(a, ROUND_END) and events_of(b, ROUND_END))
    for conn in (a, b):
        published = await conn.wait_for(lambda f: f["type"] == "fair_record")
        entry = published["record"]["values"][1]
        assert entry["substituted"] and entry["commitment"] == fairdeal.commitment(withholder.value(1))
        assert entry["value"] == record.values[1]


async def test_f3_no_other_seats_value_and_no_server_secret_reaches_anyone_before_the_round_ends(
    connect, alice, bob, charlie, make_user, settings
):
    settings.FAIR_WAIT_SECONDS = 30
    room, match, players = await start_with_bots(connect, alice, bots=(4,), guests=(bob, charlie))
    eve = await connect(room, await sync_to_async(make_user)("eve"), "eve-spectator")
    visitor = await connect(room, None, "anonymous")
    honest = [Honest(c, seat, c.name) for seat, c in enumerate(players, start=1)]
    everyone = players + [eve, visitor]
    await play_fairly(everyone, honest, lambda: all(events_of(p, ROUND_END) for p in players))
    await pump_all(everyone, 0.3)
    for h in honest:
        await h.step()
    await pump_all(everyone, 0.3)

    first = await sync_to_async(record_of)(match.pk, 1)
    second = await sync_to_async(record_of)(match.pk, 2)  # opened at the round's end (C-7 pause)
    assert first.phase == DealRecord.Phase.DEALT and first.substituted == []
    secrets_1 = {"server": first.server_secret, **{f"seat{i + 1}": v for i, v in enumerate(first.values)}}
    # Round 2 has not ended: its secret (and any value sent for it) must never be out.
    never = {
        "server2": second.server_secret,
        **{f"seat{i + 1}@2": v for i, v in enumerate(second.values) if v},
    }
    never.update(
        {f"bot{b}-subst@2": fairdeal.substitute(second.server_secret, second.table, 2, b) for b in (1, 2, 3)}
    )

    scanned = 0
    for conn in everyone:
        end = next(
            i for i, f in enumerate(conn.frames) if f["type"] == "state" and events_of_frame(f, ROUND_END)
        )
        for i, text, frame in texts(conn):
            scanned += 1
            for name, secret in never.items():
                assert secret not in text, f"{conn.name} got {name} in a {frame['type']} frame"
            if frame["type"] == "fair_record":
                # F-3: after the round, to the match's players only, after the round's last state frame.
                assert conn in players, f"{conn.name} (not a player) got the round's record"
                assert i > end and frame["record"]["round"] == 1
                continue
            for name, secret in secrets_1.items():
                assert secret not in text, f"{conn.name} got {name} in a {frame['type']} frame"
    assert scanned > 100
    for conn in players:
        published = [f for f in conn.frames if f["type"] == "fair_record"]
        assert len(published) == 1
        record = published[0]["record"]
        assert record["server_secret"] == first.server_secret
        assert [v["value"] for v in record["values"]] == first.values
    # The public state was seen by everyone, spectators included: fingerprints only.
    assert any(f["type"] == "fair_state" for f in eve.frames + visitor.frames)


def events_of_frame(frame, kinds) -> list:
    return [e for e in frame["events"] if e["type"] in kinds]


async def test_f1_f6_a_whole_match_with_bots_plays_to_its_end_and_every_round_checks(
    connect, alice, settings
):
    """Every round is dealt from its record (the ace draw from its own stream,
    F-6); alice's own cards and every card played come from the deck her
    record makes again (F-3)."""
    settings.FAIR_WAIT_SECONDS = 30
    room, match, (me,) = await start_with_bots(connect, alice, rules={"middle_card": False, "target": 3})
    honest = Honest(me, 1, "alice")

    def over():
        return me.state is not None and me.state["match"] == match.pk and me.state["status"] == "finished"

    await play_fairly([me], [honest], over)
    await pump_all([me], 0.3)
    records = await sync_to_async(lambda: list(DealRecord.objects.filter(match=match).order_by("number")))()
    rounds = await sync_to_async(lambda: match.rounds.count())()
    assert rounds >= 3 and [r.number for r in records] == list(range(1, rounds + 1))
    assert all(r.phase == DealRecord.Phase.DEALT and r.substituted == [] for r in records)
    assert records[0].draw is not None and records[0].draw != records[0].deck  # F-6
    published = {f["record"]["round"]: f["record"] for f in me.frames if f["type"] == "fair_record"}
    assert sorted(published) == list(range(1, rounds + 1))
    for number, record in published.items():
        assert record["values"][0]["value"] == honest.value(number)
        values = [v["value"] for v in record["values"]]
        assert all(fairdeal.commitment(v["value"]) == v["commitment"] for v in record["values"])
        deck = fairdeal.order(
            sorted(record["cards"], key=CARD_INDEX.__getitem__),
            record["server_secret"],
            values,
            purpose="deal",
            table=record["table"],
            round_number=number,
        )
        assert deck == record["deck"]
        assert fairdeal.commitment(record["server_secret"]) == record["server_commitment"]
    decks = {tuple(r.deck) for r in records}
    assert len(decks) == len(records)  # no two rounds share a deck


async def test_c7_f2_values_in_during_the_result_pause_are_dealt_by_the_deadline_not_by_the_socket(
    connect, alice, settings, monkeypatch
):
    """Issue 13: the last value of round 2 comes inside round 1's result pause
    (C-7). The socket does not lock the match to find the pause
    (``deal_waits_for_pause``); the dealer's deadline deals at the pause's
    end, with every value (F-2), none substituted."""
    from games import services

    settings.FAIR_WAIT_SECONDS = 30
    settings.TABLE = {**settings.TABLE, "ROUND_PAUSE": 1.5}
    calls = []
    real = services.deal_if_ready

    def spy(match_id):
        calls.append(match_id)
        return real(match_id)

    monkeypatch.setattr(services, "deal_if_ready", spy)
    room, match, (me,) = await start_with_bots(connect, alice)
    honest = [Honest(me, 1, "alice")]
    await play_fairly([me], honest, lambda: bool(events_of(me, ROUND_END)))
    assert calls == [match.pk]  # round 1: no pause, the socket deals at once
    ended, end_v = len(me.frames), me.state["v"]
    second = None
    for _ in range(40):  # alice's fingerprint, then her value, well inside the pause
        await pump_all([me], 0.02)
        await honest[0].step()
        second = await sync_to_async(record_of)(match.pk, 2)
        if second.phase != DealRecord.Phase.COMMIT and all(second.values):
            break
    assert second.phase == DealRecord.Phase.READY, "every value came in during the pause"
    assert calls == [match.pk], "no locked transaction only to find the pause"
    assert not [f for f in me.frames[ended:] if f["type"] == "state" and events_of_frame(f, {"dealt"})]

    await me.wait_for(
        lambda f: f["type"] == "state" and f["v"] > end_v and bool(events_of_frame(f, {"dealt"})), timeout=10
    )
    second = await sync_to_async(record_of)(match.pk, 2)
    assert second.phase == DealRecord.Phase.DEALT and second.substituted == []


def test_c7_deal_waits_for_pause_only_inside_a_later_rounds_pause(settings):
    from datetime import UTC, datetime

    from games.services import PAUSE_MARGIN, deal_waits_for_pause

    settings.TABLE = {**settings.TABLE, "ROUND_PAUSE": 4.0}
    opened = datetime(2026, 12, 2, 12, 0, 0, tzinfo=UTC)
    t = opened.timestamp()
    later, first = DealRecord(number=2, created_at=opened), DealRecord(number=1, created_at=opened)
    assert deal_waits_for_pause(later, now=t + 0.1)
    assert deal_waits_for_pause(later, now=t + 4.0 - PAUSE_MARGIN - 0.01)
    assert not deal_waits_for_pause(later, now=t + 4.0 - PAUSE_MARGIN)  # near the end: deal at once
    assert not deal_waits_for_pause(later, now=t + 10)
    assert not deal_waits_for_pause(first, now=t + 0.1)  # the first round has no pause
