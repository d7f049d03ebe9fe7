"""Explained calls in Bridge (issue 38): the words for ``games.bots.bridge_meaning``'s codes.

``GET explain/bridge/?dealer=1&calls=1C,P,1H`` (a public auction: nothing
hidden is asked or told) answers ``{"meanings": [text, ...]}``, one sentence
per call in the page's language; a malformed auction gets a 400 and nothing else.
"""

from __future__ import annotations

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.bots.bridge_meaning import meaning
from games.engine.bridge import BIDS

TEXTS = {
    "pass": gettext_lazy("Pass: nothing more to say."),
    "open_pass": gettext_lazy("Pass: fewer than 12 points and no long suit to preempt with."),
    "nt": gettext_lazy("%(points)s, a balanced hand (no short suit)."),
    "strong_2c": gettext_lazy("Strong and artificial: 22 or more points, any shape; partner must answer."),
    "suit": gettext_lazy("%(points)s, at least %(n)s cards in %(suit)s."),
    "weak": gettext_lazy(
        "Weak: %(points)s with %(n)s cards in %(suit)s, to make the opponents' bidding hard."
    ),
    "takeout": gettext_lazy(
        "Takeout double: 12 or more points, short in their suit; partner, name your best suit."
    ),
    "advance": gettext_lazy(
        "Answer to partner's takeout double: %(points)s, at least %(n)s cards in %(suit)s."
    ),
    "stayman": gettext_lazy(
        "Stayman (artificial): 8 or more points and a four-card major; asks for opener's major."
    ),
    "stayman_no": gettext_lazy("Answer to Stayman: no four-card major."),
    "stayman_yes": gettext_lazy("Answer to Stayman: four cards in %(suit)s."),
    "signoff": gettext_lazy("Sign-off: %(points)s, at least %(n)s cards in %(suit)s; to play."),
    "raise": gettext_lazy("Support: %(points)s and at least %(n)s cards in partner's %(suit)s."),
    "waiting": gettext_lazy("Waiting answer to 2♣ (artificial): %(points)s."),
    "blackwood": gettext_lazy("Blackwood (artificial): how many aces do you hold?"),
    "aces": gettext_lazy("Answer to Blackwood: %(aces)s aces."),
    "game": gettext_lazy("Places the contract: to play."),
    "penalty": gettext_lazy("Penalty double: they will not make it."),
    "redouble": gettext_lazy("Redouble: we will make it."),
    "natural": gettext_lazy("Natural: at least %(n)s cards in %(suit)s."),
}

SUITS = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
    "NT": gettext_lazy("notrump"),
}


def _points(args: dict) -> str:
    lo, hi = args.get("lo"), args.get("hi")
    if lo is not None and hi is not None:
        return _("%(lo)s to %(hi)s points") % {"lo": lo, "hi": hi}
    if lo is not None:
        return _("%(lo)s or more points") % {"lo": lo}
    if hi is not None:
        return _("at most %(hi)s points") % {"hi": hi}
    return ""


def text(code: str, args: dict) -> str:
    """One call's meaning in the active language."""
    values = {
        "points": _points(args),
        "n": args.get("n", ""),
        "suit": str(SUITS.get(args.get("suit"), args.get("suit", ""))),
        "aces": args.get("aces", ""),
    }
    return str(TEXTS[code]) % values


def texts(calls: list[dict]) -> list[str]:
    return [text(*meaning(calls, i)) for i in range(len(calls))]


def _parse(request) -> list[dict] | None:
    dealer = request.GET.get("dealer", "")
    raw = request.GET.get("calls", "")
    if dealer not in ("1", "2", "3", "4") or len(raw) > 1200:
        return None
    names = [c for c in raw.split(",") if c] if raw else []
    legal = set(BIDS) | {"P", "X", "XX"}
    if any(c not in legal for c in names):
        return None
    first = int(dealer)
    return [{"seat": (first - 1 + i) % 4 + 1, "call": c} for i, c in enumerate(names)]


@require_GET
def explain_bridge(request):
    calls = _parse(request)
    if calls is None:
        return JsonResponse({"error": "bad_calls"}, status=400)
    return JsonResponse({"meanings": texts(calls)})
