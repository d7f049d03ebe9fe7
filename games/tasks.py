"""Celery tasks for deadlines. Both are safe to run twice (idempotent by version)."""

from celery import shared_task

from . import services


@shared_task(name="games.tasks.expire_turn", acks_late=True, ignore_result=True)
def expire_turn(match_id: int, version: int) -> bool:
    return services.expire(match_id, version) is not None


@shared_task(name="games.tasks.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    return services.sweep()
