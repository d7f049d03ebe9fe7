"""The school's building blocks: a lesson, its steps, a verdict, and the texts of
cards, suits and seats (shared by the Hokm lessons and the Shelem and Bridge ones)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.engine.cards import SUITS

from .positions import HOKM4, LEARNER

RANK_TEXT = {"T": "10"}
SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


class BadAnswer(ValueError):
    """An answer of the wrong shape (not a mistake of the learner: a 400)."""


@dataclass(frozen=True)
class Verdict:
    ok: bool
    code: str  # "ok" or why not: "must_follow_suit", "does_not_win", ...
    rule: str  # the RULES.md id the step teaches
    message: str
    reveal: dict = field(default_factory=dict)  # what the table shows next (a played trick, legal cards)

    def as_json(self) -> dict:
        return {
            "ok": self.ok,
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
            "reveal": self.reveal,
        }


def card_text(card: str) -> str:
    """ "Q♥", isolated so that it reads left to right inside Persian text."""
    return f"\u2066{RANK_TEXT.get(card[0], card[0])}{SUIT_SYMBOL[card[1]]}\u2069"


def suit_name(suit: str) -> str:
    return {"S": _("spades"), "H": _("hearts"), "D": _("diamonds"), "C": _("clubs")}[suit]


def seat_name(seat: int) -> str:
    return {
        1: _("you"),
        2: _("the opponent on your right"),
        3: _("your partner"),
        4: _("the opponent on your left"),
    }[seat]


def _seat(answer) -> int:
    if type(answer) is not int or answer not in (1, 2, 3, 4):
        raise BadAnswer("a seat is 1..4")
    return answer


def _card(answer, among) -> str:
    if type(answer) is not str or answer not in among:
        raise BadAnswer("not a card of this step")
    return answer


def _suit(answer) -> str:
    if type(answer) is not str or answer not in SUITS:
        raise BadAnswer("a suit is S H D C")
    return answer


def _scene(state=None, **extra) -> dict:
    """What the browser draws: the learner's hand, the trick, trump, hakem, counts."""
    scene = {"hand": [], "counts": [0, 0, 0, 0], "trick": [], "trump": None, "hakem": None}
    if state is not None:
        view = HOKM4.view(state, LEARNER)
        scene.update(
            hand=view["hand"],
            counts=view["hand_counts"],
            trick=view["trick"],
            trump=view["trump"],
            hakem=view["hakem"],
            tricks=view["score"]["tricks"],
        )
    scene.update(extra)
    return scene


@dataclass
class Step:
    rule: str
    kind: str  # "seat" | "hand" (a card of the hand) | "cards" (a card shown) | "suit" | "choice"
    prompt: object  # lazy text
    scene: Callable[[], dict]
    check: Callable[[object], Verdict]

    def scene_json(self) -> dict:
        return {"kind": self.kind, "rule": self.rule, "prompt": str(self.prompt), **self.scene()}


@dataclass
class Lesson:
    number: int
    title: object
    intro: object
    steps: list[Step]
