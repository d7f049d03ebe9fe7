"""A learner's progress through the school's lessons (one row per lesson done)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LessonProgress(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lessons_done")
    lesson = models.PositiveSmallIntegerField(_("lesson"))
    completed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "lesson"], name="one_row_per_lesson")]
        ordering = ["lesson"]

    def __str__(self):
        return f"{self.user} · lesson {self.lesson}"
