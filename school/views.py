"""The school's pages and its one JSON endpoint: views parse, the lessons decide."""

from __future__ import annotations

import json

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.cache import anonymous_page

from .lessons import LESSONS, BadAnswer
from .models import LessonProgress


def _done(request) -> set[int]:
    if not request.user.is_authenticated:
        return set()
    return set(LessonProgress.objects.filter(user=request.user).values_list("lesson", flat=True))


def _lesson_or_404(number: int):
    try:
        return LESSONS[number]
    except KeyError:
        raise Http404 from None


@anonymous_page
def index(request):
    return render(request, "school/index.html", {"lessons": LESSONS.values(), "done": _done(request)})


@anonymous_page
def lesson(request, number: int):
    lesson = _lesson_or_404(number)
    scenes = [step.scene_json() for step in lesson.steps]
    return render(
        request,
        "school/lesson.html",
        {
            "lesson": lesson,
            "scenes": scenes,
            "count": len(LESSONS),
            "next_number": number + 1 if number + 1 in LESSONS else None,
            "done": _done(request),
            "strings": _strings(),
        },
    )


def _strings() -> dict:
    """The few words the lesson page's script writes itself."""
    return {
        "you": _("You"),
        "partner": _("Partner"),
        "right": _("Opponent (right)"),
        "left": _("Opponent (left)"),
        "hakem": _("Hakem"),
        "trump": _("Trump"),
        "tricks": _("Tricks (us : them)"),
        "rounds": _("Rounds (us : them)"),
        "target": _("Match to"),
        "kot": _("Kot rule on"),
        "rules_on": _("Table rule on"),
        "middle": _("The middle card"),
        "step": _("Step %(n)s of %(total)s"),
        "right_answer": _("Right!"),
        "wrong_answer": _("Not quite."),
        "error": _("Something went wrong; try again."),
        "suit_S": _("Spades"),
        "suit_H": _("Hearts"),
        "suit_D": _("Diamonds"),
        "suit_C": _("Clubs"),
    }


def _body(request) -> dict:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


@require_POST
def check(request, number: int):
    """POST {"step": i, "answer": ...} -> the engine's verdict; the last step's success is saved."""
    lesson = _lesson_or_404(number)
    body = _body(request)
    step = body.get("step")
    if type(step) is not int or not 0 <= step < len(lesson.steps):
        return JsonResponse({"error": "bad_step"}, status=400)
    try:
        verdict = lesson.steps[step].check(body.get("answer"))
    except BadAnswer as exc:
        return JsonResponse({"error": "bad_answer", "detail": str(exc)}, status=400)
    data = verdict.as_json()
    data["last"] = step == len(lesson.steps) - 1
    if verdict.ok and data["last"] and request.user.is_authenticated:
        LessonProgress.objects.get_or_create(user=request.user, lesson=number)
    data["saved"] = verdict.ok and data["last"] and request.user.is_authenticated
    return JsonResponse(data)


@require_POST
def progress(request):
    """POST {"done": [n, ...]}: a visitor who signed in brings the lessons done in this browser."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "sign_in"}, status=403)
    done = _body(request).get("done")
    if isinstance(done, list):
        for number in {n for n in done if type(n) is int and n in LESSONS}:
            LessonProgress.objects.get_or_create(user=request.user, lesson=number)
    return JsonResponse({"done": sorted(_done(request))})
