"""R-9 through the REST API: the same operations and refusals, documented in the schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from friends import clock, services
from rooms import services as room_service
from rooms.models import Seat

from .conftest import T0, befriend

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    def as_(user=None):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return as_


def test_r9_api_request_accept_and_overview(api, alice, bob):
    assert api(alice).post("/api/friends/requests/", {"username": "bob"}, format="json").status_code == 201
    overview = api(bob).get("/api/friends/").json()
    assert overview["incoming"] == ["alice"] and overview["friends"] == []
    assert (
        api(bob).post("/api/friends/requests/accept/", {"username": "alice"}, format="json").status_code
        == 200
    )
    overview = api(alice).get("/api/friends/").json()
    assert overview["friends"] == [{"username": "bob", "online": False}]
    assert overview["outgoing"] == [] and overview["invites"] == []


def test_r9_api_refusals_carry_a_code_and_a_status(api, alice, bob, make_user):
    make_user("gone", is_active=False)
    client = api(alice)
    cases = [
        ({"username": "alice"}, 400, "self"),
        ({"username": "nobody"}, 404, "unknown_user"),
        ({"username": "gone"}, 400, "deactivated"),
    ]
    for body, status, code in cases:
        response = client.post("/api/friends/requests/", body, format="json")
        assert (response.status_code, response.json()["code"]) == (status, code)
        assert response.json()["message"]
    client.post("/api/friends/requests/", {"username": "bob"}, format="json")
    response = api(bob).post("/api/friends/requests/", {"username": "alice"}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "they_requested")
    api(bob).post("/api/friends/blocks/", {"username": "alice"}, format="json")
    response = client.post("/api/friends/requests/", {"username": "bob"}, format="json")
    assert response.json()["code"] == "blocked"
    assert api().get("/api/friends/").status_code == 403  # signed in only


def test_r9_api_invite_asks_a_seated_player_then_seats_him(api, alice, bob, charlie):
    clock.set_now(T0)
    befriend(alice, bob)
    room = room_service.create_room(alice, "hokm4", {})
    other = room_service.create_room(charlie, "hokm2", {})
    room_service.sit(other, bob, 2)
    assert api(alice).post("/api/friends/invites/", {"username": "bob"}, format="json").status_code == 201
    invite_id = api(bob).get("/api/friends/").json()["invites"][0]["id"]
    url = f"/api/friends/invites/{invite_id}/accept/"
    response = api(bob).post(url, {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "seated_elsewhere"
    assert response.json()["detail"] == {"room": other.code, "playing": False}
    assert Seat.objects.filter(user=bob, room=other).exists()
    response = api(bob).post(url, {"choice": "leave"}, format="json")
    assert response.json() == {"status": "seated", "room": room.code}


def test_r9_api_expired_invite_is_refused(api, alice, bob):
    clock.set_now(T0)
    befriend(alice, bob)
    room_service.create_room(alice, "hokm4", {})
    invite = services.invite(alice, "bob")
    clock.set_now(T0.replace(minute=10, second=1))
    response = api(bob).post(f"/api/friends/invites/{invite.pk}/accept/", {}, format="json")
    assert (response.status_code, response.json()["code"]) == (400, "invite_expired")


def test_r9_api_report(api, alice, bob):
    response = api(alice).post("/api/friends/reports/", {"username": "bob", "reason": "abuse"}, format="json")
    assert response.status_code == 201
    response = api(alice).post(
        "/api/friends/reports/", {"username": "bob", "reason": "abuse", "match": 999999}, format="json"
    )
    assert response.json()["code"] == "bad_match"


def test_r9_the_schema_documents_the_friends_api(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path in (
        "/api/friends/",
        "/api/friends/requests/",
        "/api/friends/requests/accept/",
        "/api/friends/invites/",
        "/api/friends/invites/{invite_id}/accept/",
        "/api/friends/reports/",
        "/api/friends/blocks/",
        "/api/friends/blocks/remove/",
        "/api/friends/requests/decline/",
        "/api/friends/requests/cancel/",
        "/api/friends/remove/",
        "/api/friends/invites/{invite_id}/decline/",
        "/api/friends/moderation/reports/",
        "/api/friends/moderation/reports/{report_id}/",
        "/api/friends/moderation/reports/{report_id}/actions/",
    ):
        assert path in paths, path
    accept = paths["/api/friends/invites/{invite_id}/accept/"]["post"]
    assert "409" in accept["responses"] and "seated_elsewhere" in accept["description"]
    moderate = paths["/api/friends/moderation/reports/{report_id}/actions/"]["post"]
    body = moderate["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    fields = schema["components"]["schemas"][body]["properties"]
    assert set(fields) == {"action", "reason", "minutes", "match"}
    assert "201" in moderate["responses"] and "403" in moderate["responses"]
