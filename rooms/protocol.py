"""The shapes of every frame a client may send on the table's socket.

One declared shape per frame type (a pydantic discriminated union on
``type``); ``docs/protocol.md`` is tested against these. Types are strict:
``"false"`` is not a boolean, ``1`` is not a seat's ``true``, a card is a
short string. A frame that does not fit is refused with ``bad_frame``
naming the field, before anything else looks at it.

The ``action`` of an ``act`` frame is checked here for its shape only (a
known action type with fields of the right types); whether it is legal is
the engine's business.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

Card = Annotated[StrictStr, Field(min_length=2, max_length=3)]
Cards = Annotated[list[Card], Field(max_length=16)]
Ref = StrictStr | StrictInt | None
Seat = Annotated[StrictInt, Field(ge=1, le=4)]
Hex64 = Annotated[StrictStr, Field(pattern=r"^[0-9a-f]{64}$")]
RoundNumber = Annotated[StrictInt, Field(ge=1, le=10000)]


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- actions (docs/engine.md, "Actions") ------------------------------------------------


class PlayAction(_Shape):
    type: Literal["play"]
    card: Card


class EarlyAction(_Shape):
    type: Literal["early"]
    card: Card


class TakeBackAction(_Shape):
    type: Literal["take_back"]


class PickUpAction(_Shape):
    type: Literal["pick_up"]


class RunAction(_Shape):
    type: Literal["run"]
    cards: Cards


class TrumpAction(_Shape):
    type: Literal["trump"]
    suit: Annotated[StrictStr, Field(max_length=6)]


class DraftAction(_Shape):
    type: Literal["draft"]
    take: StrictBool


class BidAction(_Shape):
    type: Literal["bid"]
    amount: Annotated[StrictInt, Field(ge=0, le=1000)]


class PassAction(_Shape):
    type: Literal["pass"]


class DiscardAction(_Shape):
    type: Literal["discard"]
    cards: Cards


class SarsAction(_Shape):
    type: Literal["sars"]
    sars: StrictBool


class CallAction(_Shape):
    type: Literal["call"]
    call: Annotated[StrictStr, Field(max_length=3)]


Action = Annotated[
    PlayAction
    | EarlyAction
    | TakeBackAction
    | PickUpAction
    | RunAction
    | TrumpAction
    | DraftAction
    | BidAction
    | PassAction
    | DiscardAction
    | SarsAction
    | CallAction,
    Field(discriminator="type"),
]


# --- frames (docs/protocol.md, "Client -> server") -------------------------------------------


class Ping(_Shape):
    type: Literal["ping"]
    ref: Ref = None


class Sync(_Shape):
    type: Literal["sync"]
    ref: Ref = None


class Act(_Shape):
    type: Literal["act"]
    action: Action
    v: Annotated[StrictInt, Field(ge=0)]
    seat: Seat | None = None
    ref: Ref = None


class React(_Shape):
    type: Literal["react"]
    reaction: Annotated[StrictStr, Field(max_length=20)]
    ref: Ref = None


class Sit(_Shape):
    type: Literal["sit"]
    seat: Seat
    move: StrictBool = False
    ref: Ref = None


class Stand(_Shape):
    type: Literal["stand"]
    ref: Ref = None


class Ready(_Shape):
    type: Literal["ready"]
    ready: StrictBool = True
    ref: Ref = None


class Bot(_Shape):
    type: Literal["bot"]
    seat: Seat
    bot: StrictBool = True
    level: Literal["easy", "normal", "strong"] = "normal"
    ref: Ref = None


class Start(_Shape):
    type: Literal["start"]
    ref: Ref = None


class Rematch(_Shape):
    type: Literal["rematch"]
    agree: StrictBool = True
    ref: Ref = None


class Leave(_Shape):
    type: Literal["leave"]
    confirm: StrictBool = False
    ref: Ref = None


class FairCommit(_Shape):
    """F-1: the SHA-256 (64 lowercase hex digits) of this seat's secret value for ``round``."""

    type: Literal["fair_commit"]
    round: RoundNumber
    commitment: Hex64
    ref: Ref = None


class FairReveal(_Shape):
    """F-2: this seat's value (64 lowercase hex digits), once every fingerprint is in."""

    type: Literal["fair_reveal"]
    round: RoundNumber
    value: Hex64
    ref: Ref = None


# --- tea with the narrator (H4-X4) and throwing things (H4-X5) -------------------------


class Tea(_Shape):
    """H4-X4: ask for tea once per match, say yes or no to another's, or press continue."""

    type: Literal["tea"]
    say: Literal["ask", "yes", "no", "continue"]
    ref: Ref = None


class Throw(_Shape):
    """H4-X5: throw ``item`` at the face of the player in seat ``target``."""

    type: Literal["throw"]
    item: Annotated[StrictStr, Field(max_length=16)]
    target: Seat
    ref: Ref = None


class HideReactions(_Shape):
    """R-5: this connection hides (or shows again) reactions; hidden, it gets no throws."""

    type: Literal["hide_reactions"]
    hide: StrictBool
    ref: Ref = None


class Hint(_Shape):
    """Issue 38: the strong bot's choice for the asker's seat, in a practice match only (rooms/hints.py)."""

    type: Literal["hint"]
    ref: Ref = None


FRAMES = (
    Ping,
    Sync,
    Act,
    React,
    Sit,
    Stand,
    Ready,
    Bot,
    Start,
    Rematch,
    Leave,
    FairCommit,
    FairReveal,
    Tea,
    Throw,
    HideReactions,
    Hint,
)
"""Every client frame type, in the order docs/protocol.md lists them."""

TYPES = {model.model_fields["type"].annotation.__args__[0]: model for model in FRAMES}

ClientFrame = Annotated[
    Ping
    | Sync
    | Act
    | React
    | Sit
    | Stand
    | Ready
    | Bot
    | Start
    | Rematch
    | Leave
    | FairCommit
    | FairReveal
    | Tea
    | Throw
    | HideReactions
    | Hint,
    Field(discriminator="type"),
]
_adapter = TypeAdapter(ClientFrame)


class FrameError(ValueError):
    """A frame that does not fit its shape: ``code`` and a short English ``detail``."""

    def __init__(self, code: str, detail: str, ref=None):
        super().__init__(detail)
        self.code, self.detail, self.ref = code, detail, ref


def _ref_of(raw) -> str | int | None:
    ref = raw.get("ref") if isinstance(raw, dict) else None
    if isinstance(ref, bool) or not isinstance(ref, str | int):
        return None
    return ref if not isinstance(ref, str) or len(ref) <= 64 else None


def parse(raw) -> BaseModel:
    """``raw`` (decoded JSON) as one of the declared frames, or FrameError."""
    ref = _ref_of(raw)
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise FrameError("bad_frame", "a frame is an object with a string type", ref)
    if raw["type"] not in TYPES:
        raise FrameError("unknown_type", raw["type"][:40], ref)
    try:
        return _adapter.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "frame"
        raise FrameError("bad_frame", f"{where}: {first['msg']}", ref) from None
