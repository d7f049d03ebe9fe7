"""Each lesson's check accepts the right move and refuses the wrong one for the
reason the lesson explains, decided by the real hokm4 engine (C-1..C-4,
H4-1, H4-2, H4-5, H4-6, H4-7, H4-X1..H4-X3)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from school.lessons import LESSONS, BadAnswer, check
from school.models import LessonProgress
from school.views import _strings

# (lesson, step, right answer, wrong answer, the wrong answer's code, rule id)
CASES = [
    (1, 0, 3, 2, "opponent", "C-2"),
    (1, 0, 3, 1, "that_is_you", "C-2"),
    (2, 0, "AH", "KH", "lower_card", "C-1"),
    (2, 1, "JS", "TS", "lower_card", "C-1"),
    (3, 0, 2, 4, "wrong_direction", "C-2"),
    (3, 1, 3, 1, "already_played", "C-2"),
    (4, 0, 2, 1, "no_ace", "H4-1"),
    (4, 1, "S", "H", "weak_trump", "H4-2"),
    (5, 0, "7D", "KH", "must_follow_suit", "C-3"),
    (6, 0, "4H", "QS", "does_not_win", "C-4"),
    (7, 0, "KS", "AD", "not_the_winner", "C-4"),
    (7, 1, "2H", "AS", "not_the_winner", "C-4"),
    (8, 0, 1, 2, "wrong_count", "H4-5"),
    (8, 1, 2, 1, "wrong_count", "H4-5"),
    (8, 2, 3, 2, "wrong_count", "H4-5"),
    (8, 3, True, False, "match_is_over", "H4-6"),
    (8, 4, 2, 4, "hakem_moves", "H4-7"),
    (9, 0, "D", "C", "middle_suit", "H4-X1"),
    (9, 1, "8C", "AD", "must_follow_suit", "H4-X2"),
    (9, 2, "C", "S", "bad_run", "H4-X3"),
    # issue 38: Shelem (shelem4's engine) and Bridge (the bridge engine)
    (10, 0, 30, 25, "wrong_points", "SH-9"),
    (10, 1, 125, 120, "bid_not_higher", "SH-3"),
    (10, 2, -120, -240, "wrong_score", "SH-10"),
    (10, 3, "RJ", "BJ", "not_the_winner", "SH-7"),
    (11, 0, "2C", "1NT", "lower_bid", "B-2"),
    (11, 1, 1, 3, "not_declarer", "B-3"),
    (11, 2, 2, 4, "wrong_leader", "B-4"),
    (11, 3, 60, 90, "wrong_score", "B-5"),
]


@pytest.mark.parametrize(("lesson", "step", "right", "wrong", "code", "rule"), CASES)
def test_each_step_accepts_the_right_move_and_refuses_the_wrong_one(lesson, step, right, wrong, code, rule):
    good = check(lesson, step, right)
    assert (good.ok, good.code, good.rule) == (True, "ok", rule)
    bad = check(lesson, step, wrong)
    assert (bad.ok, bad.code, bad.rule) == (False, code, rule)
    assert bad.message and bad.message != good.message


def test_every_step_of_the_eleven_lessons_is_covered():
    covered = {(lesson, step) for lesson, step, *_ in CASES}
    assert sorted(LESSONS) == list(range(1, 12))
    assert covered == {(n, i) for n, lesson in LESSONS.items() for i in range(len(lesson.steps))}


def test_c_3_every_diamond_follows_suit_and_the_refusal_names_the_legal_cards():
    scene = LESSONS[5].steps[0].scene_json()
    diamonds = [c for c in scene["hand"] if c[1] == "D"]
    assert diamonds and all(check(5, 0, c).ok for c in diamonds)
    refused = check(5, 0, "AS")
    assert refused.code == "must_follow_suit" and sorted(refused.reveal["legal"]) == sorted(diamonds)


def test_c_4_any_trump_cuts_and_wins_the_club_trick():
    hand = LESSONS[6].steps[0].scene_json()["hand"]
    for card in hand:
        verdict = check(6, 0, card)
        assert verdict.ok == (card[1] == "H"), card
        assert verdict.reveal["winner"] == (1 if card[1] == "H" else 2)


def test_h4_5_kot_counts_only_with_the_table_rule():
    # Step 0 is 7-3 without kot; steps 1 and 2 are 7-0 with kot (own hakem 2, against the hakem 3).
    assert [check(8, i, n).reveal["points"] for i, n in ((0, 1), (1, 2), (2, 3))] == [1, 2, 3]


@pytest.mark.parametrize("suit", ["S", "H", "D"])
def test_h4_x3_only_the_plain_suit_with_a_k_q_is_a_run(suit):
    """A K J of spades is no run, nor two small trumps; the engine puts down A K Q of clubs."""
    assert check(9, 2, "C").reveal == {"run": ["AC", "KC", "QC"]}
    refused = check(9, 2, suit)
    assert (refused.ok, refused.code) == (False, "bad_run")


def test_h4_x2_an_early_card_is_laid_face_down_and_not_shown():
    verdict = check(9, 1, "QC")
    assert verdict.ok and verdict.reveal == {"played": "QC"}


@pytest.mark.parametrize(
    ("lesson", "step", "answer"), [(1, 0, 5), (1, 0, "3"), (2, 0, "AS"), (4, 1, "X"), (8, 0, True)]
)
def test_a_malformed_answer_is_no_verdict(lesson, step, answer):
    with pytest.raises(BadAnswer):
        check(lesson, step, answer)


def post(client, number, step, answer):
    return client.post(
        f"/school/{number}/check/",
        json.dumps({"step": step, "answer": answer}),
        content_type="application/json",
    )


@pytest.mark.django_db
def test_it_checks_through_the_endpoint_and_saves_progress_for_an_account(client, alice):
    client.force_login(alice)
    wrong = post(client, 1, 0, 4).json()
    assert wrong["ok"] is False and wrong["rule"] == "C-2" and wrong["saved"] is False
    assert not LessonProgress.objects.filter(user=alice).exists()
    right = post(client, 1, 0, 3).json()
    assert right["ok"] and right["last"] and right["saved"]
    assert list(LessonProgress.objects.filter(user=alice).values_list("lesson", flat=True)) == [1]
    # A first step answered right does not finish a lesson of several steps.
    assert post(client, 8, 0, 1).json()["saved"] is False
    assert LessonProgress.objects.filter(user=alice).count() == 1
    page = client.get("/school/").content.decode()
    assert 'class="lesson-item done" data-lesson="1"' in page
    assert 'class="lesson-item" data-lesson="2"' in page


@pytest.mark.django_db
def test_it_keeps_no_progress_for_a_visitor(client):
    assert post(client, 1, 0, 3).json() == {**post(client, 1, 0, 3).json(), "saved": False}
    assert LessonProgress.objects.count() == 0
    assert client.post("/school/progress/", "{}", content_type="application/json").status_code == 403


@pytest.mark.django_db
def test_it_brings_a_browsers_lessons_to_the_account(client, bob):
    client.force_login(bob)
    response = client.post(
        "/school/progress/", json.dumps({"done": [2, 5, 5, 42, "x"]}), content_type="application/json"
    )
    assert response.json() == {"done": [2, 5]}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body", [{"step": 9, "answer": 1}, {"step": "0", "answer": 1}, {"answer": 1}, {"step": 0, "answer": 7}]
)
def test_it_refuses_a_bad_request(client, body):
    response = client.post("/school/1/check/", json.dumps(body), content_type="application/json")
    assert response.status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("number", range(1, 10))
def test_each_lesson_page_shows_its_scenes(client, number):
    response = client.get(f"/school/{number}/")
    assert response.status_code == 200
    assert 'id="lesson-scenes"' in response.content.decode()


@pytest.mark.django_db
def test_there_is_no_twelfth_lesson(client):
    assert client.get("/school/12/").status_code == 404
    assert client.post("/school/12/check/", "{}", content_type="application/json").status_code == 404


def test_the_lesson_script_finds_every_word_it_writes():
    """lesson.js writes T.<key> beside the seats, the bar and the middle card (H4-X1): every key is served."""
    script = (Path(settings.BASE_DIR) / "static/js/school/lesson.js").read_text(encoding="utf-8")
    used = set(re.findall(r"\bT\.([a-z_]+)", script)) | {f"suit_{s}" for s in "SHDC"}
    assert used - set(_strings()) == set()


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_the_lesson_words_are_translated(lang):
    """The seats, hakem and middle card (H4-X1) are named in the page's language, not left in English."""
    with translation.override(lang):
        words = _strings()
    if lang == "fa":
        assert words["middle"] == "کارت وسط" and words["hakem"] == "حاکم"
    else:
        assert words["middle"] == "The middle card"


PERSIAN_LETTERS = re.compile(r"[\u0600-\u06FF]")
ENGLISH_WORD = re.compile(r"\b(the|you|your|is|of|and)\b")  # lower case: card ranks (A, K) are no words


@pytest.mark.parametrize(("lesson", "step", "right", "wrong", "code", "rule"), CASES)
def test_each_verdict_is_explained_in_persian_on_a_persian_page(lesson, step, right, wrong, code, rule):
    """The reason for a mistake (and the praise) reaches a Persian learner in Persian, not in English."""
    with translation.override("fa"):
        texts = [check(lesson, step, right).message, check(lesson, step, wrong).message]
        texts.append(str(LESSONS[lesson].steps[step].prompt))
    for text in texts:
        assert PERSIAN_LETTERS.search(text) and not ENGLISH_WORD.search(text), (lesson, step, text)


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_a_verdict_does_not_repeat_the_word_the_page_puts_before_it(lang):
    """The page writes «Right!» / «Not quite.» before the engine's message: the message must not say it again."""
    with translation.override(lang):
        words = _strings()
        heads = {words["right_answer"].rstrip("!."), words["wrong_answer"].rstrip("!.")}
        for lesson, step, right, wrong, *_ in CASES:
            for answer in (right, wrong):
                message = check(lesson, step, answer).message
                assert not any(message.startswith(head) for head in heads), (lang, lesson, step, message)


def test_sh_3_the_auction_step_asks_the_real_engine():
    """SH-3: the step's auction is a real shelem4 auction at 120: 125 is legal there, 115 and 120 are not."""
    from school.lessons_more import _auction_state

    game, state, seat = _auction_state()
    legal = {a["amount"] for a in game.view(state, seat)["legal"] if a["type"] == "bid"}
    assert 125 in legal and 120 not in legal and 115 not in legal
    with pytest.raises(BadAnswer):
        check(10, 1, 130)  # not a choice of the step


@pytest.mark.parametrize("number", [10, 11])
def test_the_shelem_and_bridge_lessons_speak_persian_and_english(number):
    for lang in ("fa", "en"):
        with translation.override(lang):
            lesson = LESSONS[number]
            texts = [str(lesson.title), str(lesson.intro)] + [s.scene_json()["prompt"] for s in lesson.steps]
        if lang == "fa":
            assert all(re.search("[\u0600-\u06ff]", t) for t in texts), texts
        else:
            assert not any(re.search("[\u0600-\u06ff]", t) for t in texts), texts
