"""The Celery app (production deadlines, games/clock.py). Broker: Redis."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("takhteh")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
