"""R-10 review hands: a recorded match, replayed from its move log through the
engine, shows every trick and the final score exactly as played, and never a
card that was not played face up (R-6, H2-6: widow, put-aside, undrafted,
columns' hidden cards, unplayed hands)."""

from __future__ import annotations

import pytest

from games.models import Match, Move, Round
from replays import services as replay_services
from replays import timeline
from tests.replays.conftest import leaks, play_out, rounds_of_log, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def tricks_as_logged(match: Match) -> list[list[tuple]]:
    """Per round, each trick's cards (seat, card) and its winner, from the events recorded during play."""
    rounds: list[list[tuple]] = []
    current: list = []
    for events in Move.objects.filter(match=match).order_by("seq").values_list("events", flat=True):
        for e in events:
            if e["type"] == "dealt":
                rounds.append([])
            elif e["type"] == "card_played":
                current.append((e["seat"], e["card"]))
            elif e["type"] == "trick_won":
                rounds[-1].append((tuple(current), e["seat"]))
                current = []
    return rounds


def logged_rounds(match: Match) -> list[dict]:
    """Per round, what the recorded events (written during play) say of its auction, trump and contract."""
    rounds: list[dict] = []
    for events in Move.objects.filter(match=match).order_by("seq").values_list("events", flat=True):
        for e in events:
            kind = e["type"]
            if kind == "dealt":
                rounds.append({"auction": [], "trump": None, "contract": None, "bidder": None})
            elif kind == "bid":
                rounds[-1]["auction"].append((e["seat"], e["amount"]))
            elif kind == "passed":
                rounds[-1]["auction"].append((e["seat"], "pass"))
            elif kind == "call":
                rounds[-1]["auction"].append((e["seat"], e["call"]))
            elif kind == "auction_won":
                rounds[-1]["bidder"] = (e["seat"], e["amount"])
            elif kind == "trump_named":
                rounds[-1]["trump"] = e["suit"]
            elif kind == "auction_over":
                c = e["contract"]
                rounds[-1]["contract"] = (c["level"], c["strain"], c.get("doubled", 0), c["declarer"])
                rounds[-1]["trump"] = None if c["strain"] == "NT" else c["strain"]
    return rounds


def auction_shown(rnd: dict) -> list[tuple]:
    out = []
    for a in rnd["auction"]:
        if "call" not in a:
            out.append((a["seat"], a["bid"]))
        elif a["call"] == "bid":
            out.append((a["seat"], f"{a['level']}{a['strain']}"))
        else:
            out.append((a["seat"], a["call"]))
    return out


def scores_as_recorded(match: Match) -> list[list[int]]:
    """The match score after each round, from the Round rows written at each round's end."""
    out: list[list[int]] = []
    total = [0, 0]
    for r in Round.objects.filter(match=match).order_by("number"):
        if r.result is None:
            continue  # a round cut short by a leave: no result, no point on the chart
        events = {e["type"]: e for e in (r.result or {}).get("events", [])}
        if "round_won" in events:  # hokm: the event carries the match score
            total = list(events["round_won"]["score"])
        elif "round_scored" in events:  # shelem: each round's score is added (SH-9)
            total = [total[t] + events["round_scored"]["score"][t] for t in (0, 1)]
        elif "deal_scored" in events:  # bridge: the sheet's entries, then the rubber's total
            for entry in events["deal_scored"]["entries"]:
                total[entry["team"]] += entry["points"]
            if "rubber_won" in events:
                total = list(events["rubber_won"]["score"])
        # (a passed-out bridge deal scores nothing: the total stays)
        out.append(list(total))
    return out


def without_logged_events(match: Match) -> dict:
    """The timeline rebuilt from the logged actions alone (every recorded event dropped):
    only the engine can have made it."""
    moves = [
        timeline.LoggedMove(m.seq, m.seat, m.action, None, m.auto)
        for m in replay_services.logged_moves(match)
    ]
    return timeline.build(replay_services.public_fields(match), moves, dd=False)


def check_replay(match: Match) -> dict:
    data = replay_services.match_timeline(match)
    assert data["replayable"] is True
    # rebuilt through the engine from the actions: the same with no recorded event to copy
    again = without_logged_events(match)
    assert again["steps"] == data["steps"]
    strip = [{k: v for k, v in r.items() if k != "double_dummy"} for r in data["rounds"]]
    assert again["rounds"] == strip and again["chart"] == data["chart"]
    # the auction, the trump and the contract of each round as they were during play
    logged = logged_rounds(match)
    assert len(logged) == len(data["rounds"])
    for rnd, was in zip(data["rounds"], logged, strict=True):
        assert auction_shown(rnd) == was["auction"]
        assert rnd["trump"] == was["trump"]
        if was["bidder"]:
            assert (rnd["bidder"], rnd["bid"]) == was["bidder"]
        if was["contract"]:
            c = rnd["contract"]
            assert (c["level"], c["strain"], c["doubled"], c["declarer"]) == was["contract"]
    # the score as it grew, round by round, as recorded at each round's end
    assert data["chart"][1:] == scores_as_recorded(match)
    # every trick as played, in order, with its winner
    replayed = [
        [(tuple((c["seat"], c["card"]) for c in t["cards"]), t["winner"]) for t in r["tricks"] if t["winner"]]
        for r in data["rounds"]
    ]
    assert replayed == tricks_as_logged(match)
    assert len(data["rounds"]) == Round.objects.filter(match=match).count()
    # the final score exactly as played
    score = match.result["score"]
    assert data["match"]["result"]["score"] == score
    assert data["steps"][-1]["match"] == score
    assert data["chart"][-1] == score
    # no round and no step names a card not played face up in that round (by that step)
    assert leaks(data, match) == set()
    return data


def hidden_in_some_round(match: Match) -> set[str]:
    """Cards dealt in a round and never played face up in it: what must stay hidden."""
    return {c for r in rounds_of_log(match) for c in r["dealt"] - r["played"]}


def test_r_10_hokm4_replay_reproduces_every_trick_and_the_score(alice, bob, charlie, dave):
    match = play_out(start_match("hokm4", alice, [bob, charlie, dave]))
    assert match.status == Match.Status.FINISHED
    data = check_replay(match)
    # H4-4: a round stops at 7 tricks, so unplayed cards exist and stay hidden
    assert hidden_in_some_round(match)
    assert [r["result"]["team"] for r in data["rounds"]] == [
        next(e["team"] for e in r.result["events"] if e["type"] == "round_won")
        for r in Round.objects.filter(match=match).order_by("number")
    ]
    # H4-X1: only the fact that trump came from the middle card, never the card
    assert all("middle" in s for s in data["steps"] if s["kind"] == "trump")


def test_r_10_h2_6_hokm2_replay_never_shows_the_draft(alice, bob):
    match = play_out(start_match("hokm2", alice, [bob]))
    data = check_replay(match)
    put_aside = rounds_of_log(match)[0]["dealt"] - rounds_of_log(match)[0]["played"]
    assert len(put_aside) >= 8  # the eight cards put aside at least, plus the refused ones (H2-4, H2-5)
    assert not any(s["kind"] not in {"deal", "trump", "card", "round_end"} for s in data["steps"])


def test_r_10_sh_4_shelem4_replay_never_shows_the_widow_or_the_put_aside(alice, bob, charlie, dave):
    match = play_out(start_match("shelem4", alice, [bob, charlie, dave]))
    data = check_replay(match)
    assert all(len(r["dealt"] - r["played"]) >= 4 for r in rounds_of_log(match))  # SH-4 put aside
    first = data["rounds"][0]
    assert first["auction"] and first["bidder"] and first["result"]["score"]
    assert any(s["kind"] == "discard" and s["count"] == 4 for s in data["steps"])
    assert [r["result"]["score"] for r in data["rounds"]] == [
        next(e["score"] for e in r.result["events"] if e["type"] == "round_scored")
        for r in Round.objects.filter(match=match).order_by("number")
    ]


def test_r_10_s2_8_shelem2_replay_with_jokers_hides_the_columns_and_widow(alice, bob):
    match = play_out(start_match("shelem2", alice, [bob], rules={"jokers": True}))
    check_replay(match)
    assert hidden_in_some_round(match)


def test_r_10_b_4_bridge_replay_shows_the_hands_only_after_the_deal(alice, bob, charlie, dave):
    match = play_out(start_match("bridge", alice, [bob, charlie, dave]))
    data = check_replay(match)
    played_deals = [r for r in data["rounds"] if not r["result"].get("passed_out")]
    assert played_deals
    for r in played_deals:
        # every card of the four hands was played in that deal, by that seat
        by_seat = {
            s: sorted(c["card"] for t in r["tricks"] for c in t["cards"] if c["seat"] == s)
            for s in range(1, 5)
        }
        assert [sorted(h) for h in r["hands"]] == [by_seat[s] for s in range(1, 5)]
        dd = r.get("double_dummy")
        assert dd is not None and set(dd) == {"C", "D", "H", "S", "NT"}
        assert all(0 <= n <= 13 for row in dd.values() for n in row)
    # the hands appear only with the deal's end, never in a step during play
    assert not any("hands" in s for s in data["steps"])


def test_r_10_a_practice_match_with_bots_can_be_reviewed(alice):
    match = play_out(start_match("hokm2", alice, [], bots=(2,)))
    assert match.practice
    check_replay(match)


def test_r_10_an_abandoned_match_replays_up_to_the_leave(alice, bob):
    from rooms import services as room_service

    match = start_match("shelem2", alice, [bob])
    match = play_out(match, stop_after=40)
    room_service.leave(match.room, bob, confirm=True)
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    data = replay_services.match_timeline(match)
    assert data["replayable"] and data["steps"]
    # mid-round: the hand cards still unplayed and the columns stay hidden
    assert leaks(data, match) == set()
    last = rounds_of_log(match)[-1]
    assert last["dealt"] - last["played"]


def test_r_10_the_scanner_catches_a_planted_leak(alice, bob):
    """The scan above must be able to fail: plant a put-aside card (H2-5) in a frame."""
    match = play_out(start_match("hokm2", alice, [bob]))
    data = replay_services.match_timeline(match)
    first = rounds_of_log(match)[0]
    hidden = sorted(first["dealt"] - first["played"])
    assert leaks(data, match) == set()
    planted = {**data, "steps": [dict(s) for s in data["steps"]]}
    planted["steps"][7] = {**planted["steps"][7], "note": f"under the table: {hidden[0]}"}
    assert leaks(planted, match) == {hidden[0]}
    planted = {**data, "rounds": [{**data["rounds"][0], "widow": [hidden[1]]}, *data["rounds"][1:]]}
    assert leaks(planted, match) == {hidden[1]}
    # a card played later in the round, shown too early, is caught as well
    later = data["rounds"][0]["tricks"][-1]["cards"][0]["card"]
    planted = {**data, "steps": [dict(s) for s in data["steps"]]}
    planted["steps"][3] = {**planted["steps"][3], "trick": [{"seat": 1, "card": later}]}
    assert leaks(planted, match) == {later}


# --- an incomplete record cannot be replayed (R-10) ------------------------------------


@pytest.fixture
def recorded(alice, bob):
    """A match of a few tricks that ended by a player leaving (L-3): reviewable, short."""
    from rooms import services as room_service

    match = play_out(start_match("hokm2", alice, [bob]), stop_after=60)
    room_service.leave(match.room, bob, confirm=True)
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED  # (not replayed here: that would cache it)
    return match


def reason(match) -> str | None:
    match.refresh_from_db()
    data = replay_services.match_timeline(match)
    return None if data["replayable"] else data["reason"]


def test_r_10_no_moves_cannot_be_replayed(recorded):
    Move.objects.filter(match=recorded).delete()
    assert reason(recorded) == "no_moves"


def test_r_10_a_log_that_does_not_start_at_one_cannot_be_replayed(recorded):
    Move.objects.filter(match=recorded, seq=1).delete()
    assert reason(recorded) == "missing_start"


def test_r_10_a_gap_in_the_log_cannot_be_replayed(recorded):
    Move.objects.filter(match=recorded, seq=30).delete()
    assert reason(recorded) == "gap"


def test_r_10_an_action_the_engine_refuses_cannot_be_replayed(recorded):
    card = next(
        m for m in Move.objects.filter(match=recorded).order_by("seq") if m.action.get("type") == "play"
    )
    Move.objects.filter(pk=card.pk).update(action={"type": "play", "card": "XX"})
    assert reason(recorded) == "refused"


def test_r_10_a_log_that_disagrees_with_its_events_cannot_be_replayed(recorded):
    plays = [m for m in Move.objects.filter(match=recorded).order_by("seq") if m.action.get("type") == "play"]
    # swap the recorded events of two moves: the replay no longer matches what was played
    Move.objects.filter(pk=plays[0].pk).update(events=plays[1].events)
    assert reason(recorded) == "diverged"


def test_check_log_is_pure():
    mv = timeline.LoggedMove
    with pytest.raises(timeline.Unreplayable):
        timeline.check_log([mv(1, 0, {}, []), mv(3, 1, {}, [])])
    timeline.check_log([mv(1, 0, {}, []), mv(2, 1, {}, [])])
