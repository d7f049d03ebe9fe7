"""The read-only REST API and its OpenAPI schema (L-6)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from leaderboard.services import void_match

from .conftest import abandon, build_match, finish, finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(alice, bob, charlie, dave):
    four = [alice, bob, charlie, dave]
    finished("hokm4", four, winner=0, score=[7, 5])
    finished("shelem4", four, winner=1, score=[-120, 735])
    abandon(build_match("hokm4", four), 2)  # bob left
    return four


def test_l_6_the_openapi_schema_validates_and_lists_the_endpoints():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)  # drf-spectacular's bundled OpenAPI 3 JSON schema
    assert schema["openapi"].startswith("3.")
    assert {"/api/leaderboard/{family}/", "/api/players/{username}/"} <= set(schema["paths"])
    for path in ("/api/leaderboard/{family}/", "/api/players/{username}/"):
        assert set(schema["paths"][path]) == {"get"}, "read-only"
    family = next(
        p for p in schema["paths"]["/api/leaderboard/{family}/"]["get"]["parameters"] if p["name"] == "family"
    )
    assert set(family["schema"]["enum"]) == {"hokm", "shelem", "bridge"}


def test_l_6_the_schema_and_the_docs_are_served_self_hosted(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert b"/api/leaderboard/{family}/" in response.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    # "cdn." (with its dot) cannot occur in a CSRF token the page may carry
    assert "cdn." not in html.lower() and "jsdelivr" not in html.lower() and "https://" not in html
    asset = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert asset.status_code == 200


def test_l_6_the_leaderboard_endpoint_ranks_with_medals(client, played):
    data = client.get("/api/leaderboard/hokm/").json()
    assert data["count"] == 4
    rows = [(r["rank"], r["username"], r["points"], r["medal"]) for r in data["results"]]
    # alice and charlie are tied on 7 points: they share the rank and the gold (L-6, issue 34).
    assert rows == [
        (1, "alice", 7, "gold"),
        (1, "charlie", 7, "gold"),
        (3, "dave", 5, "bronze"),
        (4, "bob", 3, None),
    ]
    bob = data["results"][3]
    assert (bob["matches"], bob["wins"], bob["losses"], bob["unfinished"]) == (2, 0, 2, 0)
    assert bob["player_url"].endswith(reverse("api:player", args=["bob"]))
    shelem = client.get("/api/leaderboard/shelem/").json()
    assert [r["username"] for r in shelem["results"]][:2] == ["bob", "dave"]
    assert client.get("/api/leaderboard/bridge/").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }
    assert client.get("/api/leaderboard/poker/").status_code == 404


def test_l_6_the_leaderboard_endpoint_is_paginated(client, make_user):
    users = [make_user(f"u{i:02d}") for i in range(30)]
    for i in range(0, 30, 2):
        finished("hokm2", [users[i], users[i + 1]], winner=0, score=[7, 1])
    first = client.get("/api/leaderboard/hokm/").json()
    assert first["count"] == 30 and len(first["results"]) == 25 and first["next"]
    second = client.get(first["next"]).json()
    # Fifteen winners tied on top (rank 1, gold), fifteen losers tied behind them: the
    # second page begins inside that tie and keeps its shared rank, 16, not 26.
    assert {r["points"] for r in first["results"][:15]} == {first["results"][0]["points"]}
    assert [r["rank"] for r in first["results"]] == [1] * 15 + [16] * 10
    assert [r["medal"] for r in first["results"]] == ["gold"] * 15 + [None] * 10
    assert [r["rank"] for r in second["results"]] == [16] * 5
    assert all(r["medal"] is None for r in second["results"])


def test_l_6_the_player_endpoint_gives_stats_per_family_and_latest_matches(client, played):
    data = client.get("/api/players/bob/").json()
    assert data["username"] == "bob"
    assert data["stats"]["hokm"] == {
        "matches": 2,
        "wins": 0,
        "losses": 2,
        "left": 1,
        "unfinished": 0,
        "points": 3,
    }
    assert data["stats"]["shelem"] == {
        "matches": 1,
        "wins": 1,
        "losses": 0,
        "left": 0,
        "unfinished": 0,
        "points": 735,
    }
    assert data["stats"]["bridge"]["matches"] == 0
    latest = data["latest"]
    assert [m["result"] for m in latest] == ["left", "win", "loss"]
    assert latest[0]["score"] is None and latest[0]["points"] == -2
    assert latest[1]["score"] == [735, -120] and latest[1]["family"] == "shelem"
    assert client.get("/api/players/BOB/").json()["username"] == "bob"
    assert client.get("/api/players/nobody/").status_code == 404


def test_l_6_the_api_leaves_out_voided_matches(client, played, alice):
    match = build_match("hokm4", played)
    finished_match = finish(match, 1, [0, 7])
    assert client.get("/api/players/bob/").json()["stats"]["hokm"]["points"] == 10
    void_match(finished_match, alice, "test")
    assert client.get("/api/players/bob/").json()["stats"]["hokm"]["points"] == 3


def test_l_6_the_api_is_read_only(client, played):
    assert client.post("/api/leaderboard/hokm/", {}).status_code == 405
    assert client.delete("/api/players/bob/").status_code == 405
