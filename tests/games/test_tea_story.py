"""H4-X4: the chapter a tea tells and its length come from games itself
(games/story.py and the match's own tea state), not from a receiver's answer
(issue 35: down, never up). No database: the match is built in memory."""

from __future__ import annotations

import pytest

from games import story, tea
from games.models import Match


def _agreed(first_chapter):
    match = Match(
        rules={"tea": True},
        status=Match.Status.ACTIVE,
        state={"trick": []},
        players=[{"seat": n, "user_id": n, "bot": False} for n in range(1, 5)],
        tea=tea.start(first_chapter),
    )
    match.tea = {**match.tea, "asked": [1], "phase": "agreed", "seat": 1}
    return match


@pytest.fixture
def no_scale(settings):
    settings.TABLE = {**settings.TABLE, "TEA_SCALE": 1}


def test_h4_x4_the_first_tea_tells_the_chapter_the_caller_passed(no_scale):
    match = _agreed(3)
    events = tea.after_action(match, None, [])
    assert events == [{"type": "tea_poured", "seat": 1, "chapter": 3}]
    assert match.tea["phase"] == "pouring" and match.tea["chapter"] == 3
    assert match.tea["seconds"] == story.reading_seconds(3)
    assert match.tea["next_chapter"] == 4


def test_h4_x4_after_the_last_chapter_the_story_begins_again(no_scale):
    match = _agreed(len(story.CHAPTERS))
    tea.after_action(match, None, [])
    assert match.tea["chapter"] == len(story.CHAPTERS) and match.tea["next_chapter"] == 1


def test_h4_x4_the_story_goes_on_through_the_match(no_scale):
    """The place in the story outlives the pause (resume) and a refused tea."""
    match = _agreed(2)
    tea.after_action(match, None, [])
    tea._resume(match, None, [], lambda *a, **k: None)
    assert match.tea == {"asked": [1], "phase": None, "next_chapter": 3}


def test_h4_x4_without_a_chapter_given_the_story_starts_at_one(no_scale):
    assert tea.start(None) == {}
    match = _agreed(None)
    tea.after_action(match, None, [])
    assert match.tea["chapter"] == 1 and match.tea["next_chapter"] == 2


@pytest.mark.parametrize("given, expected", [(1, 1), (9, 1), (0, 8), ("x", 1), (None, 1)])
def test_h4_x4_chapter_numbers_wrap(given, expected):
    assert len(story.CHAPTERS) == 8
    assert story.number(given) == expected
