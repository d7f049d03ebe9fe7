"""Moderation: read-only ledger entries; voiding a match is recorded (who, when, why)."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.models import Permission
from django.urls import reverse

from leaderboard.models import LedgerEntry, MatchVoid
from leaderboard.stats import ranking

from .conftest import finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(make_user):
    return make_user("moderator", is_staff=True, is_superuser=True)


@pytest.fixture
def match(alice, bob, charlie, dave):
    return finished("hokm4", [alice, bob, charlie, dave], winner=0, score=[7, 5])


def test_ledger_entries_are_read_only_in_the_admin(client, moderator, match):
    client.force_login(moderator)
    entry = LedgerEntry.objects.filter(match=match).first()
    assert client.get(reverse("admin:leaderboard_ledgerentry_changelist")).status_code == 200
    assert client.get(reverse("admin:leaderboard_ledgerentry_add")).status_code == 403
    change = client.get(reverse("admin:leaderboard_ledgerentry_change", args=[entry.pk]))
    assert change.status_code == 200 and 'name="_save"' not in change.content.decode()
    posted = client.post(reverse("admin:leaderboard_ledgerentry_change", args=[entry.pk]), {"points": 99})
    assert posted.status_code == 403
    assert (
        client.post(
            reverse("admin:leaderboard_ledgerentry_delete", args=[entry.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert LedgerEntry.objects.get(pk=entry.pk).points == entry.points


def test_l_6_a_moderator_voids_a_match_from_the_entries(client, moderator, match):
    client.cookies["lang"] = "en"
    client.force_login(moderator)
    url = reverse("admin:leaderboard_ledgerentry_changelist")
    pks = list(LedgerEntry.objects.filter(match=match).values_list("pk", flat=True))[:2]
    confirm = client.post(url, {"action": "void_matches", "_selected_action": pks})
    assert confirm.status_code == 200 and f"Match #{match.pk}" in confirm.content.decode()
    assert not MatchVoid.objects.exists()

    done = client.post(
        url,
        {
            "action": "void_matches",
            "_selected_action": pks,
            "apply": "yes",
            "reason": "Two accounts of one person.",
        },
    )
    assert done.status_code == 302
    void = MatchVoid.objects.get(match=match)
    assert (void.voided_by, void.reason) == (moderator, "Two accounts of one person.")
    assert void.voided_at is not None
    assert set(LedgerEntry.objects.filter(match=match).values_list("voided", flat=True)) == {True}
    assert list(ranking("hokm")) == []
    log = LogEntry.objects.get(object_id=str(void.pk))
    assert (log.user, log.action_flag) == (moderator, ADDITION)


def test_l_6_a_moderator_voids_a_match_from_the_void_form(client, moderator, match):
    client.force_login(moderator)
    response = client.post(
        reverse("admin:leaderboard_matchvoid_add"), {"match": match.pk, "reason": "Collusion."}
    )
    assert response.status_code == 302
    void = MatchVoid.objects.get(match=match)
    assert void.voided_by == moderator
    assert LedgerEntry.objects.filter(match=match, voided=False).count() == 0
    assert LogEntry.objects.filter(object_id=str(void.pk), action_flag=ADDITION).exists()
    # A void is final: no editing, no deleting.
    assert (
        client.post(
            reverse("admin:leaderboard_matchvoid_change", args=[void.pk]), {"match": match.pk, "reason": "x"}
        ).status_code
        == 403
    )
    assert (
        client.post(
            reverse("admin:leaderboard_matchvoid_delete", args=[void.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_a_staff_member_without_the_void_permission_cannot_void(client, make_user, match):
    viewer = make_user("viewer", is_staff=True)
    # A transactional test's flush on the same worker (make test TEST_WORKERS=2) may have taken the
    # permission rows with it: make them again as migrate does.
    from django.apps import apps
    from django.contrib.auth.management import create_permissions

    create_permissions(apps.get_app_config("leaderboard"), verbosity=0)
    viewer.user_permissions.add(Permission.objects.get(codename="view_ledgerentry"))
    client.force_login(viewer)
    url = reverse("admin:leaderboard_ledgerentry_changelist")
    assert client.get(url).status_code == 200
    pks = list(LedgerEntry.objects.filter(match=match).values_list("pk", flat=True))
    client.post(url, {"action": "void_matches", "_selected_action": pks, "apply": "yes", "reason": "no"})
    assert not MatchVoid.objects.exists()


def test_entries_written_after_a_void_are_voided_too(alice, bob, charlie, dave, moderator):
    from leaderboard.services import void_match

    from .conftest import build_match, finish

    match = build_match("hokm4", [alice, bob, charlie, dave])
    void_match(match, moderator, "known cheat")
    finish(match, 0, [7, 1])
    assert set(LedgerEntry.objects.filter(match=match).values_list("voided", flat=True)) == {True}
    assert list(ranking("hokm")) == []
