"""The learner's hint (issue 38): the handler around the pure ``games.bots.hints``.

Only in a practice match (a bot at the table, L-2), only for the seat of the
person asking, only on his turn, and only from his own view: the bot is handed
``game.view(state, seat)``, as every bot is. A match between people refuses
(``hint_refused``): the hint would be help from a machine in a rated game.
The frame carries the suggested action (one of the seat's legal actions) and
one short reason in the asker's language, nothing else.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import engine
from games.bots import hints as bot_hints
from games.errors import PlayError
from games.models import Match

REASONS = {
    "partner_winning": _("Your partner is winning this trick: play low."),
    "win_cheaply": _("Take the trick with the cheapest card that wins it."),
    "cover": _("Beat the card on the table, so the opponents do not get this trick cheaply."),
    "ruff": _("You have none of the suit led: take the trick with a trump."),
    "cannot_win": _("You cannot win this trick: keep your good cards and play the cheapest."),
    "second_low": _("Second hand low: keep your high cards for later."),
    "draw_trumps": _("Draw trumps: the others still hold %(n)s."),
    "cash": _("This is the highest card left in its suit: take the trick now."),
    "lead_long": _("Lead from your longest suit."),
    "trump_suit": _("Name the suit in which you are longest and strongest."),
    "searched": _("The strong bot weighed many possible deals and found this the best."),
}

REFUSALS = {
    "hint_refused": _("Hints are only for practice matches with bots and for the school."),
    "hint_not_your_turn": _("A hint is given on your turn."),
}


class HintError(PlayError):
    """A refused hint: the play service's error frame, with the hint's own words."""

    @property
    def message(self) -> str:
        text = REFUSALS.get(self.code)
        return str(text) if text is not None else super().message


def hint_frame(match_id: int | None, user, language: str) -> dict:
    """The ``hint`` frame for ``user``'s seat in match ``match_id`` (runs off the event loop)."""
    match = Match.objects.filter(pk=match_id).first() if match_id is not None else None
    if match is None:
        raise PlayError("no_match")
    if not match.practice or not any(p.get("bot") for p in match.players):
        raise HintError("hint_refused")  # L-2: people among themselves get no machine's help
    if match.status != Match.Status.ACTIVE:
        raise PlayError("match_over")
    seat = match.seat_of_user(user.pk)
    if seat is None:
        raise PlayError("not_seated")
    game = engine.get(match.game)
    if seat not in game.to_act(match.state):
        raise HintError("hint_not_your_turn")
    view = game.view(match.state, seat)
    if not view.get("legal"):
        raise HintError("hint_not_your_turn")
    found = bot_hints.hint(match.game, view, seat, seed=match.version)
    with translation.override(language):
        reason = (
            str(REASONS[found["reason"]]) % found["args"] if found["args"] else str(REASONS[found["reason"]])
        )
    return {
        "type": "hint",
        "match": match.pk,
        "v": match.version,
        "seat": seat,
        "action": found["action"],
        "reason": reason,
    }
