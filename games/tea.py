"""Tea with the narrator (H4-X4): the table's pause, kept in the match row.

Once per match each player may ask for tea. The others have ten seconds
(``TABLE["TEA_ASK_SECONDS"]``) to say no; bots never do. If nobody does, play
stops after the trick in progress (at once between tricks), the narrator
tells the room's next chapter, and play resumes when the chapter's reading
time is over or every human player pressed continue (bots continue at once).

``Match.tea`` (JSON, empty when nothing ever happened):

- ``asked``: the seats that have asked in this match (once each, used up by
  asking, whatever the answer);
- ``phase``: ``None``, ``"asking"`` (the ten seconds run), ``"agreed"``
  (nobody said no: tea after the trick in progress) or ``"pouring"`` (the
  pause: the chapter is told);
- ``seat``: who asked; ``until``: epoch seconds, the end of the ten seconds
  or of the chapter; ``yes``: who said yes already (all yes: no need to wait);
- ``chapter`` and ``seconds``: the chapter told and its reading time
  (games/story.py); ``continued``: the human seats that pressed continue;
- ``next_chapter``: the chapter the next tea tells, kept through the whole
  match; the first comes from the caller of ``services.create_match`` (the
  room's place in its story, ``start``).

Server-enforced: while the tea is poured every action is refused
(``tea_time``) and no seat has a deadline; the match's ``next_deadline`` is
the end of the chapter. The ten seconds and the chapter's end are deadlines
like any other: ``services.expire(match, version)`` hands them here, and a
stale version does nothing. The steps below change the copy of the match a
decision works on (``decisions.tea_say``, ``decisions.tea_due``: a
``transition.Change``); ``accept.write`` then saves it in one transaction
with the match row locked and bumps the version (one state frame, which
carries ``public(match)``); no move is recorded, so replays and the fair
deal's record never see a tea.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.conf import settings

from . import clock, story
from .errors import PlayError
from .models import Match

TEA_FIELDS = ["tea", "version", "deadlines", "next_deadline"]
"""What a tea change may write in the match row (``services.tea_say``, ``services.expire``)."""


def ask_seconds() -> float:
    return float(settings.TABLE.get("TEA_ASK_SECONDS", 10))


def enabled(match: Match) -> bool:
    return bool((match.rules or {}).get("tea"))


def phase(match: Match) -> str | None:
    return (match.tea or {}).get("phase")


def paused(match: Match) -> bool:
    """The pause: the narrator speaks, nothing is played, no clock runs."""
    return phase(match) == "pouring"


def public(match: Match) -> dict | None:
    """What every viewer's state frame says about the tea (``None``: the rule is off)."""
    if not enabled(match):
        return None
    t = match.tea or {}
    until = t.get("until")
    return {
        "phase": t.get("phase"),
        "seat": t.get("seat"),
        "until": int(until * 1000) if until else None,
        "yes": sorted(t.get("yes") or []),
        "chapter": t.get("chapter"),
        "seconds": t.get("seconds"),
        "continued": sorted(t.get("continued") or []),
        "asked": sorted(t.get("asked") or []),
    }


# --- who is who ------------------------------------------------------------------------


def _humans(match: Match) -> set[int]:
    return {p["seat"] for p in match.players if p.get("user_id") is not None and not p.get("bot")}


def _in_trick(match: Match) -> bool:
    return bool((match.state or {}).get("trick"))


def _dt(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


def start(first_chapter: int | None) -> dict:
    """A new match's tea: nothing happened yet; its first tea tells ``first_chapter``."""
    return {"next_chapter": story.number(first_chapter)} if first_chapter is not None else {}


def _at_rest(t: dict) -> dict:
    """No tea under way: what the match keeps (who asked, where the story stands)."""
    rest = {"asked": list(t.get("asked") or []), "phase": None}
    if t.get("next_chapter") is not None:
        rest["next_chapter"] = t["next_chapter"]
    return rest


def fit_deadline(match: Match) -> None:
    """The tea's own deadline in the match row: while it is poured the only
    one (the seats' clocks stop); while the others may say no, the earlier
    of it and the seats' deadlines."""
    t = match.tea or {}
    if match.status != Match.Status.ACTIVE:
        return
    if t.get("phase") == "pouring":
        match.deadlines = {}
        match.next_deadline = _dt(t["until"])
    elif t.get("phase") == "asking":
        times = [*(match.deadlines or {}).values(), t["until"]]
        match.next_deadline = _dt(min(times))


# --- the steps (on a decision's copy of the match) -----------------------------------


def _agree(match: Match, events: list) -> list:
    """Nobody said no: tea after the trick in progress, or at once between tricks."""
    match.tea = {**match.tea, "phase": "agreed", "until": None, "yes": []}
    events = events + [{"type": "tea_agreed", "seat": match.tea["seat"]}]
    if not _in_trick(match):
        events = _pour(match, events)
    return events


def _pour(match: Match, events: list) -> list:
    """The pause begins: the narrator tells the match's next chapter (games/story.py)."""
    chapter = story.number(match.tea.get("next_chapter", 1))
    seconds = max(1.0, story.reading_seconds(chapter) * float(settings.TABLE.get("TEA_SCALE", 1)))
    match.tea = {
        **match.tea,
        "phase": "pouring",
        "until": clock.now() + seconds,
        "chapter": chapter,
        "seconds": round(seconds, 1),
        "continued": [],
        "next_chapter": story.after(chapter),
    }
    return events + [{"type": "tea_poured", "seat": match.tea["seat"], "chapter": chapter}]


def _resume(match: Match, game, events: list, set_deadlines) -> list:
    """The chapter ended (or everyone pressed continue): every seat to act gets
    a fresh full turn (C-8), the next deal its pause (C-7)."""
    match.tea = _at_rest(match.tea)
    set_deadlines(match, game, previous={})
    return events + [{"type": "tea_over"}]


def after_action(match: Match, game, events: list) -> list:
    """The hook after every accepted move (``decisions.moved``, on its copy):
    an agreed tea is poured once the trick is gathered; a match that ended
    takes its tea with it; the tea's deadline stays in the row."""
    t = match.tea or {}
    if not t.get("phase"):
        return events
    if match.status != Match.Status.ACTIVE:
        match.tea = _at_rest(t)
        return events
    if t.get("phase") == "agreed" and not _in_trick(match):
        events = _pour(match, events)
    fit_deadline(match)
    return events


def due(match: Match, now: float | None = None) -> bool:
    t = match.tea or {}
    now = clock.now() if now is None else now
    return t.get("phase") in ("asking", "pouring") and t.get("until") is not None and t["until"] <= now + 0.05


def on_due(match: Match, game, set_deadlines) -> list:
    """The tea's deadline came (``decisions.tea_due``: ``services.expire``, version checked)."""
    if phase(match) == "asking":
        return _agree(match, [])  # ten seconds and nobody said no
    return _resume(match, game, [], set_deadlines)  # the chapter's reading time is over


# --- what a player says (``decisions.tea_say``; ``services.tea_say``: one transaction each) --


def decide(match: Match, seat: int, what: str, game, set_deadlines) -> list:
    """``what`` (``ask``, ``yes``, ``no`` or ``continue``, docs/protocol.md) from
    ``seat``: the tea's new state in ``match`` and its events. Raises PlayError
    (nothing changed) when it is refused."""
    if not enabled(match):
        raise PlayError("tea_off")
    t = match.tea or {}
    current = t.get("phase")
    others = set(range(1, game.players + 1)) - {seat}
    if what == "ask":
        if current is not None:
            raise PlayError("tea_busy")
        if seat in (t.get("asked") or []):
            raise PlayError("tea_used")
        match.tea = {
            **_at_rest(t),
            "asked": sorted({*(t.get("asked") or []), seat}),
            "phase": "asking",
            "seat": seat,
            "until": clock.now() + ask_seconds(),
            "yes": [],
        }
        events = [{"type": "tea_asked", "seat": seat}]
        if not (others & _humans(match)):
            events = _agree(match, events)  # bots never say no: nobody to wait for
        return events
    if what in ("yes", "no"):
        if current != "asking":
            raise PlayError("no_tea")
        if seat == t["seat"]:
            raise PlayError("own_tea")
        if what == "no":
            match.tea = _at_rest(t)
            return [{"type": "tea_refused", "seat": seat, "asker": t["seat"]}]
        yes = sorted({*(t.get("yes") or []), seat})
        match.tea = {**t, "yes": yes}
        events = [{"type": "tea_yes", "seat": seat}]
        if not (_humans(match) - {t["seat"]} - set(yes)):
            events = _agree(match, events)  # every other human said yes: no need to wait the ten seconds
        return events
    if what == "continue":
        if current != "pouring":
            raise PlayError("no_tea")
        continued = sorted({*(t.get("continued") or []), seat})
        match.tea = {**t, "continued": continued}
        events = [{"type": "tea_continue", "seat": seat}]
        if not (_humans(match) - set(continued)):
            events = _resume(match, game, events, set_deadlines)  # every human pressed continue
        return events
    raise PlayError("bad_frame")
