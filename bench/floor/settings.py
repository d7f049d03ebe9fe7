"""The bare Channels app the load benchmark measures ours against (issue 13):
no database, no sessions, the same Redis channel layer as the site."""

import os

SECRET_KEY = "bench-floor-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
INSTALLED_APPS = ["daphne", "channels"]
ASGI_APPLICATION = "bench.floor.asgi.application"
DATABASES = {}
USE_TZ = True
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            "hosts": [
                {"address": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"), "max_connections": 500}
            ],
            "prefix": "bench-floor",
        },
    }
}
