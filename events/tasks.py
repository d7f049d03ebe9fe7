"""The events' periodic step (Celery beat, ``events.tasks.tick``): make the
coming days' challenges (their fingerprints public before the day), close
the days that ended, and move the arenas on. Idempotent: each step moves a
row by compare and swap or under its lock, so two workers running it at
once do each thing once."""

from celery import shared_task

from . import ticker


@shared_task(name="events.tasks.tick", ignore_result=True)
def tick() -> None:
    ticker.tick()
