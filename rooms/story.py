"""The narrator's story (H4-X4) at the table: its text and lengths are the
play service's (games/story.py); the room remembers where it stands.

``Room.story_next`` is the chapter the room's next tea tells. A new match
starts from it (``services._begin`` hands the room to
``games.services.create_match``), and after a version that poured a tea the
room moves on to the chapter after the one told (``poured``, a receiver of
``games.signals.version_committed``: after the commit, never inside the
play service's transaction).
"""

from __future__ import annotations

from games.story import CHAPTERS, after, chapter, chapters, reading_seconds

from .models import Room

__all__ = ["CHAPTERS", "chapter", "chapters", "poured", "reading_seconds"]


def poured(sender, frames, **kwargs) -> None:
    """games.signals.version_committed: a tea was poured in this version; the
    room's next tea tells the chapter after the one told."""
    told = [e.get("chapter") for e in frames.events if e.get("type") == "tea_poured"]
    if told and told[-1] is not None:
        Room.objects.filter(pk=frames.room_id).update(story_next=after(told[-1]))
