"""Matches whose decks come from a given list, not from the fair deal (issue 37).

A narrow hook for apps that run a match on decks fixed in advance (events:
the daily challenge, where every entrant plays the same deals, made by the
fair deal's shuffle from a day seed committed before the day, E-1). games
imports no such app: the app registers a *source* at start-up
(``register``), and the play service asks it, for a match, whether its
decks are given (``given``). Three places of the play service read it:

- ``accept.shuffled``: the pending ace draw or deal takes the given deck
  (``Given.chance_action``) instead of the round's fair deal record;
- ``services._record``: when the given rounds are all played, the match
  ends at that round's end (``Given.result``), with a result shaped like
  the game's own (``winner`` a team or None, ``score`` per team);
- ``services._think``: the bots' seed (and their time budget) come from the
  source, so that the same play meets the same answer (E-1).

Only practice matches (a bot took part) are asked: a match of people only
never pays for the question. The event loop's round end (games/plain.py)
cannot ask a source (no database there), so a practice match's round end
takes the locked path while a source is registered (``possible``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Given:
    """What a source says about one match."""

    decks: dict = field(default_factory=dict)
    """(kind, round number) -> the deck: kind ``deal`` or ``draw`` (the ace draw)."""
    rounds: int = 1
    """How many rounds the match plays; it ends at the end of the last one."""
    bot_seed: int = 0
    """The bots' seed: the same for every match of the same deal."""
    bot_budget_ms: float | None = None
    """The bots' time budget; None: their level's own. A budget that never cuts
    the search keeps the bots' answers the same for the same play."""
    bot_worlds: int | None = None
    """The bots' sampled worlds per decision; None: their level's own."""

    def chance_action(self, kind: str, number: int) -> dict:
        deck = self.decks.get((kind, number))
        if deck is None:
            raise LookupError(f"no given {kind} deck for round {number}")
        return {"type": kind, "deck": list(deck)}

    def result(self, state: dict, rounds_played: int) -> dict | None:
        """The match's result once ``rounds_played`` reaches ``rounds``: each
        team's score as the state keeps it, the higher one the winner (None
        on a tie)."""
        if rounds_played < self.rounds:
            return None
        score = list(state.get("score") or state.get("totals") or [0, 0])
        winner = None if score[0] == score[1] else (0 if score[0] > score[1] else 1)
        return {"winner": winner, "score": score, "given": True}


Source = Callable[[object], "Given | None"]

_sources: list[Source] = []


def register(source: Source) -> None:
    """Add ``source(match) -> Given | None`` (idempotent)."""
    if source not in _sources:
        _sources.append(source)


def unregister(source: Source) -> None:
    if source in _sources:
        _sources.remove(source)


def possible(match) -> bool:
    """Whether ``match`` might have given decks, without asking (no I/O)."""
    return bool(_sources) and bool(getattr(match, "practice", False))


def given(match) -> Given | None:
    """The given decks of ``match``, or None: the fair deal deals, as usual."""
    if not possible(match):
        return None
    for source in _sources:
        found = source(match)
        if found is not None:
            return found
    return None


__all__ = ["Given", "given", "possible", "register", "unregister"]
