"""/healthz: 200 with the database and the channel layer checked; 503 naming what is down."""

import pytest


@pytest.mark.django_db
def test_it_is_healthy_when_everything_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["checks"] == {"database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db
def test_it_says_503_when_redis_is_unreachable(client, settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0"}]},
        }
    }
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    try:
        response = client.get("/healthz")
    finally:
        channel_layers.backends.clear()
    assert response.status_code == 503
    assert response.json()["down"] == ["channel_layer"]
