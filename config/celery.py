"""The Celery app (production deadlines, games/clock.py). Broker: Redis.

A worker runs the deadline ticker (games/ticker.py) as soon as it is ready.
Broker loss (a Redis restart) must not end the worker: it keeps retrying the
connection (``broker_connection_retry``, ``broker_connection_max_retries``
None), and the ticker, which needs only the database, goes on playing the
due turns meanwhile; ``manage.py serve`` restarts a worker that exits anyway.
"""

import os

from celery import Celery
from celery.signals import setup_logging, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("takhteh")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@setup_logging.connect
def _site_logging(loglevel=None, **kwargs):
    """The worker and the beat log as the site does: JSON lines in production (ops/logs.py)."""
    from ops.logs import keep_django_logging

    keep_django_logging(loglevel)


@worker_ready.connect
def _start_deadline_ticker(**kwargs):
    from django.conf import settings

    if settings.DEADLINES == "celery":
        from games import ticker

        ticker.start_in_process(float(settings.TABLE.get("TICK_SECONDS", 0.1)))
    from ops import metrics

    metrics.serve_worker()  # WORKER_METRICS_PORT, when set
