"""The page of one round's fair deal (F-3): the inputs, and the check re-run in the browser.

Here rather than in ``games`` (which must not import ``rooms``) or in
``replays``: one small view, participants only. Anyone else, a signed-out
visitor included, gets a 404, as if the round did not exist: the same answer
as the review's link to the same match (replays.services.reviewable_match),
so neither link tells a visitor whether the match exists.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from games import fairness
from games.models import Match, Round


def fair_round(request, match_id: int, number: int):
    if not request.user.is_authenticated:
        # Not a sign-in redirect: a bot's seat has no user id, and the review answers a visitor 404.
        raise Http404
    match = get_object_or_404(Match, pk=match_id)
    seat = match.seat_of_user(request.user.pk)
    if seat is None:
        raise Http404
    round_ = get_object_or_404(Round, match=match, number=number)
    record = fairness.public_record(round_)
    return render(
        request,
        "fairness/round.html",
        {
            "match": match,
            "round": round_,
            "seat": seat,
            # H4-X6: the seat this player's value was sent for may not be his seat now.
            "value_seat": fairness.value_seat(round_, seat),
            "record": record,
        },
    )
