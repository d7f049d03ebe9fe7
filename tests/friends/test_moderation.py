"""R-9 moderation: a member of the Moderators group (staff, not superuser)
handles a report end to end in the admin; every action records who, when
and why; a player deactivated that way is thrown out of his live table."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group

from config.asgi import application
from friends import clock, moderation, services
from friends.models import ModeratorAction, Report
from games.models import Match
from leaderboard.models import MatchVoid
from rooms import services as room_service

from .conftest import T0, make_room, open_me


def moderators_group() -> Group:
    """The group the data migration made (made again after a transactional test flushed it)."""
    if not Group.objects.filter(name="Moderators").exists():
        from django.apps import apps

        # The migration marks each app config as holding no models when it is done (right for
        # the migration's own historical apps); handed this process's apps, that would leave
        # leaderboard, games and friends out of every later post_migrate, so that a later
        # flush's permissions never come back for them (leaderboard/test_admin.py under two
        # workers): keep this process's configs as they were.
        configs = [apps.get_app_config(label) for label in ("friends", "leaderboard", "games")]
        kept = [config.models_module for config in configs]
        try:
            importlib.import_module("friends.migrations.0002_moderators_group").create_group(apps, None)
        finally:
            for config, module in zip(configs, kept, strict=True):
                config.models_module = module
    return Group.objects.get(name="Moderators")


@pytest.fixture
def moderator(make_user):
    user = make_user("mona", is_staff=True)
    user.groups.add(moderators_group())
    return user


def test_r9_the_moderators_group_holds_only_what_it_needs(db):
    group = moderators_group()
    perms = {f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()}
    assert perms == {
        "friends.view_report",
        "friends.view_moderatoraction",
        "friends.add_moderatoraction",
        "leaderboard.view_ledgerentry",
        "leaderboard.view_matchvoid",
        "leaderboard.add_matchvoid",
        "games.view_match",
    }
    assert not any(p.startswith("accounts.") or p.startswith("auth.") for p in perms)


@pytest.mark.django_db
def test_r9_a_moderator_handles_a_report_end_to_end_in_the_admin(
    client, moderator, alice, bob, charlie, dave
):
    assert not moderator.is_superuser
    clock.set_now(T0)
    room = make_room(alice, [bob], game="hokm2")
    match = room_service.start(room, alice)
    report = services.report(alice, "bob", "abuse", "insults in every trick", match.pk)
    other = services.report(charlie, "bob", "stalling")
    client.force_login(moderator)

    queue = client.get("/admin/friends/report/")
    assert queue.status_code == 200 and "bob" in queue.content.decode()
    page = client.get(f"/admin/friends/report/{report.pk}/change/")
    html = page.content.decode()
    assert page.status_code == 200
    assert f"/admin/games/match/{match.pk}/change/" in html  # his recent matches
    assert f"/admin/friends/report/{other.pk}/change/" in html  # his other reports
    assert f"/admin/friends/report/{report.pk}/moderate/" in html

    moderate = f"/admin/friends/report/{report.pk}/moderate/"
    assert client.get(moderate).status_code == 200
    response = client.post(moderate, {"action": "warn", "reason": "first warning"})
    assert response.status_code == 302
    response = client.post(moderate, {"action": "mute", "duration": "60", "reason": "reaction spam"})
    assert response.status_code == 302
    assert moderation.reactions_muted(bob)
    response = client.post(moderate, {"action": "void", "match": match.pk, "reason": "abuse ruined it"})
    assert response.status_code == 302
    assert MatchVoid.objects.get(match=match).voided_by == moderator
    response = client.post(moderate, {"action": "deactivate", "duration": "1440", "reason": "a day off"})
    assert response.status_code == 302
    bob.refresh_from_db()
    assert not bob.is_active

    actions = list(ModeratorAction.objects.filter(target=bob).order_by("pk"))
    assert [a.kind for a in actions] == ["warn", "mute", "void", "deactivate"]
    assert all(a.moderator == moderator and a.created_at == T0 and a.reason for a in actions)
    assert actions[1].until == T0 + dt.timedelta(hours=1)
    assert actions[2].match == match
    assert actions[3].until == T0 + dt.timedelta(days=1)
    assert Report.objects.get(pk=report.pk).status == Report.Status.HANDLED

    # Time passes (the settable clock): the mute ends, then the deactivation.
    clock.set_now(T0 + dt.timedelta(minutes=61))
    assert not moderation.reactions_muted(bob)
    assert moderation.lift_expired() == 0
    clock.set_now(T0 + dt.timedelta(days=1, seconds=1))
    assert moderation.lift_expired() == 1
    bob.refresh_from_db()
    assert bob.is_active


@pytest.mark.django_db
def test_r9_staff_outside_the_moderators_group_cannot_moderate(client, make_user, alice, bob):
    staff = make_user("sam", is_staff=True)
    report = services.report(alice, "bob", "cheating")
    client.force_login(staff)
    assert client.get(f"/admin/friends/report/{report.pk}/moderate/").status_code == 403
    assert (
        client.post(
            f"/admin/friends/report/{report.pk}/moderate/", {"action": "deactivate", "reason": "x"}
        ).status_code
        == 403
    )
    bob.refresh_from_db()
    assert bob.is_active


@pytest.mark.django_db
def test_r9_deactivation_for_good_has_no_end(moderator, alice):
    clock.set_now(T0)
    action = moderation.deactivate(alice, moderator, "for good")
    assert action.until is None
    clock.set_now(T0 + dt.timedelta(days=3650))
    assert moderation.lift_expired() == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(60)
async def test_r9_a_player_deactivated_in_the_admin_is_thrown_out_of_his_live_table_at_once(
    connect, async_client, moderator, alice, bob
):
    room = await sync_to_async(make_room)(alice, [bob], game="hokm2")
    await sync_to_async(room_service.start)(room, alice)
    report = await sync_to_async(services.report)(alice, "bob", "abuse")
    bob_table = await connect(room, bob)
    alice_table = await connect(room, alice)
    bob_me, _ = await open_me(bob)

    await sync_to_async(async_client.force_login)(moderator)
    response = await async_client.post(
        f"/admin/friends/report/{report.pk}/moderate/",
        {"action": "deactivate", "duration": "", "reason": "for good"},
    )
    assert response.status_code == 302

    closed = await bob_table.comm.receive_output(timeout=5)
    while closed["type"] != "websocket.close":
        closed = await bob_table.comm.receive_output(timeout=5)
    assert closed["code"] == 4401
    out = await bob_me.receive_output(timeout=5)
    while out["type"] != "websocket.close":
        out = await bob_me.receive_output(timeout=5)
    assert out["code"] == 4401
    # alice's socket stays open.
    await alice_table.send({"type": "sync"})
    assert await alice_table.wait_for(lambda f: f["type"] == "room")
    assert (await sync_to_async(Match.objects.get)(room=room)).status == Match.Status.ACTIVE

    # His old session opens nothing any more: no personal socket, no signed-in page.
    key = bob_table.session_key
    again = WebsocketCommunicator(
        application,
        "/ws/me/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={key}".encode())],
    )
    connected, code = await again.connect(timeout=5)
    assert not connected and code == 4403
    async_client.cookies["sessionid"] = key
    page = await async_client.get("/friends/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]


@pytest.mark.django_db
def test_r9_the_moderators_see_every_action_with_who_when_and_why_in_the_admin(client, moderator, alice, bob):
    clock.set_now(T0)
    report = services.report(alice, "bob", "name")
    client.force_login(moderator)
    moderate = f"/admin/friends/report/{report.pk}/moderate/"
    assert (
        client.post(moderate, {"action": "deactivate", "duration": "", "reason": "vile name"}).status_code
        == 302
    )
    action = ModeratorAction.objects.get(target=bob)
    assert (action.kind, action.until, action.moderator, action.created_at) == (
        "deactivate",
        None,
        moderator,
        T0,
    )
    html = client.get("/admin/friends/moderatoraction/").content.decode()
    assert "vile name" in html and "mona" in html
    # Django's own admin log has it too.
    from django.contrib.admin.models import LogEntry

    assert LogEntry.objects.filter(user=moderator, object_id=str(report.pk)).exists()
    # No why, no action: the form refuses and nothing is recorded.
    response = client.post(moderate, {"action": "warn", "reason": ""})
    assert response.status_code == 200 and ModeratorAction.objects.count() == 1
    # A moderator cannot edit or delete the record, nor make himself a superuser.
    assert client.get(f"/admin/friends/moderatoraction/{action.pk}/delete/").status_code == 403
    assert client.get(f"/admin/accounts/user/{moderator.pk}/change/").status_code == 403


@pytest.mark.django_db
def test_r9_a_moderator_handles_a_report_through_the_rest_api(moderator, make_user, alice, bob, charlie):
    from rest_framework.test import APIClient

    clock.set_now(T0)
    room = make_room(alice, [bob], game="hokm2")
    match = room_service.start(room, alice)
    report = services.report(alice, "bob", "abuse", "rude", match.pk)
    other = services.report(charlie, "bob", "stalling")
    api = APIClient()
    api.force_authenticate(moderator)

    queue = api.get("/api/friends/moderation/reports/")
    assert queue.status_code == 200
    first = queue.json()[0]
    assert (first["id"], first["reported"], first["match"]) == (report.pk, "bob", match.pk)
    assert [m["id"] for m in first["recent_matches"]] == [match.pk]
    assert [r["id"] for r in first["other_reports"]] == [other.pk]

    url = f"/api/friends/moderation/reports/{report.pk}/actions/"
    steps = [
        ({"action": "warn", "reason": "first warning"}, None),
        ({"action": "mute", "reason": "reaction spam", "minutes": 60}, T0 + dt.timedelta(hours=1)),
        ({"action": "void", "reason": "ruined"}, None),  # the report's match by default
        ({"action": "deactivate", "reason": "a week off", "minutes": 7 * 24 * 60}, T0 + dt.timedelta(days=7)),
    ]
    for body, until in steps:
        response = api.post(url, body, format="json")
        assert response.status_code == 201, response.json()
        data = response.json()
        assert (
            data["kind"] == body["action"]
            and data["moderator"] == "mona"
            and data["reason"] == body["reason"]
        )
        assert data["target"] == "bob" and data["report"] == report.pk
        if until is None:
            assert data["until"] is None
        else:
            assert dt.datetime.fromisoformat(data["until"]) == until
    assert MatchVoid.objects.get(match=match).voided_by == moderator
    assert moderation.reactions_muted(bob)
    bob.refresh_from_db()
    assert not bob.is_active
    # Handled: out of the open queue (the other report about him waits there).
    assert [r["id"] for r in api.get("/api/friends/moderation/reports/").json()] == [other.pk]
    handled = api.get("/api/friends/moderation/reports/?status=handled").json()
    assert [r["id"] for r in handled] == [report.pk] and len(handled[0]["actions_taken"]) == 4

    # Bad input: a clear error, nothing recorded.
    count = ModeratorAction.objects.count()
    for body in (
        {"action": "ban", "reason": "x"},
        {"action": "warn"},
        {"action": "mute", "reason": "x", "minutes": 0},
        {"action": "void", "reason": "x", "match": 999999},
    ):
        response = api.post(f"/api/friends/moderation/reports/{other.pk}/actions/", body, format="json")
        assert response.status_code == 400, body
    assert ModeratorAction.objects.count() == count
    assert (
        api.post("/api/friends/moderation/reports/999999/actions/", steps[0][0], format="json").status_code
        == 404
    )


@pytest.mark.django_db
def test_r9_only_moderators_reach_the_moderation_api(make_user, alice, bob):
    from rest_framework.test import APIClient

    report = services.report(alice, "bob", "cheating")
    url = f"/api/friends/moderation/reports/{report.pk}/actions/"
    for who in (None, alice, make_user("sam", is_staff=True)):
        api = APIClient()
        if who is not None:
            api.force_authenticate(who)
        assert api.get("/api/friends/moderation/reports/").status_code in (401, 403)
        assert api.post(url, {"action": "deactivate", "reason": "x"}, format="json").status_code in (401, 403)
    bob.refresh_from_db()
    assert bob.is_active and not ModeratorAction.objects.exists()


@pytest.mark.django_db
def test_r9_the_warned_player_reads_the_warning_and_his_mute_on_his_friends_page(client, moderator, bob):
    """Not only on a page that was open then: the friends page keeps telling him."""
    clock.set_now(T0)
    client.cookies["lang"] = "en"
    client.force_login(bob)
    assert 'data-testid="moderator-notices"' not in client.get("/friends/").content.decode()
    moderation.warn(bob, moderator, "mind your language")
    moderation.mute_reactions(bob, moderator, "reaction spam", minutes=60)
    html = client.get("/friends/").content.decode()
    assert "A moderator warned you on" in html and "mind your language" in html
    assert 'data-testid="muted-notice"' in html and "muted until" in html
    clock.set_now(T0 + dt.timedelta(minutes=61))
    html = client.get("/friends/").content.decode()
    assert 'data-testid="muted-notice"' not in html and "mind your language" in html
    clock.set_now(T0 + dt.timedelta(days=moderation.NOTICE_DAYS, minutes=1))
    assert 'data-testid="moderator-notices"' not in client.get("/friends/").content.decode()
