"""Errors of the play service: a code the client can read and a translatable message."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

MESSAGES = {
    "no_match": _("There is no match being played here."),
    "match_over": _("This match is over."),
    "not_seated": _("You do not hold a seat at this table."),
    "not_your_seat": _("That seat is not yours."),
    "stale_version": _("The table has moved on; here is the current state."),
    "not_your_turn": _("It is not your turn."),
    "illegal": _("That move is not allowed now."),
    "bad_action": _("That message is not a valid move."),
    "bad_frame": _("That message could not be read."),
    "frame_too_large": _("That message is too large."),
    "unknown_type": _("Unknown message type."),
    "too_soon": _("Please wait before reacting again."),
    "rate_limited": _("Too many messages; slow down."),
    "bad_reaction": _("Unknown reaction."),
    "not_creator": _("Only the room's creator can do that."),
    "not_ready": _("Every guest must be ready first."),
    "seats_not_full": _("Every seat must be taken first."),
    "seat_taken": _("That seat is taken."),
    "bad_seat": _("There is no such seat."),
    "already_seated": _("You already have a seat here."),
    "room_busy": _("The match has already started."),
    "not_finished": _("The match is not over yet."),
    "arena_table": _("This is an arena's table: the arena seats you at your next one."),
    "confirm_required": _("Please confirm that you want to leave."),
    "sign_in": _("Sign in to take a seat."),
    "spectator": _("Spectators cannot do that."),
    "muted": _("A moderator has muted your reactions for now."),
    "bad_level": _("A bot plays easy, normal or strong."),
    "seated_elsewhere": _("You have a seat at another table. Leave it and sit here?"),
    "playing_elsewhere": _("You are playing a match at another table: finish it or leave it first."),
    "bad_rules": _("Those table rules are not valid."),
    # The fair deal's own codes (games.fairness, F-1..F-4).
    "value_mismatch": _("This value does not match the fingerprint your seat sent."),
    "reveal_too_early": _("Wait until every seat has sent its fingerprint."),
    "commitments_closed": _("The fingerprints of this deal are closed."),
    "already_committed": _("Your seat has already sent a different fingerprint."),
    "substituted": _("Too late: your seat's value was replaced by the one fixed from the server's secret."),
    "bad_value": _("A value must be exactly 64 lowercase hexadecimal digits."),
    "bot_seat": _("A bot's value is made by the server."),
    "no_deal_record": _("This round has no deal waiting."),
    "busy": _("The deal was changing under your answer; it was not taken. Send it again."),
    # The engine's own codes (games/engine): what a player may run into at the table.
    "wrong_phase": _("That is not possible at this point of the game."),
    "must_follow_suit": _("You must follow the suit led."),
    "not_in_hand": _("That card is not in your hand."),
    # Shelem for two (S2-2, S2-4): a card of the wrong kind for this point of the trick.
    "column_card_due": _("A column card is due now: play the face-up top card of one of your columns."),
    "hand_card_due": _("A hand card is due now: the trick's first two cards come from the hands."),
    "not_allowed": _("The table rules do not allow that."),
    "already_played": _("You have already played to this trick."),
    "bad_discard": _("Choose exactly the number of cards to put aside."),
    "must_play_joker": _("The other joker must be played to this trick."),
    "first_bidder_must_bid": _("The first bidder must bid; passing is not allowed."),
    "bid_not_higher": _("A bid must be higher than the highest bid so far."),
    "bid_below_minimum": _("The lowest bid is 100."),
    "bid_above_maximum": _("That bid is above the highest possible bid."),
    "bid_not_multiple_of_5": _("Bids go in steps of 5."),
    "insufficient_bid": _("A bid must outrank the last bid."),
    "double_own_side": _("You cannot double your own side's bid."),
    "nothing_to_double": _("There is no bid to double."),
    "double_already_doubled": _("That bid is already doubled."),
    "redouble_undoubled": _("Only a doubled bid can be redoubled."),
    "redouble_opponents": _("You can only redouble your own side's bid."),
    "redouble_already_redoubled": _("That bid is already redoubled."),
    "auction_over": _("The auction is over."),
    "bad_call": _("That is not a valid call."),
    "early_wait": _("You must wait three tricks before playing early again."),
    "early_already_laid": _("You already have a card laid early."),
    "no_early_card": _("You have no card laid early."),
    "trick_not_begun": _("You can play early only once the trick has begun."),
    "your_turn": _("It is your turn: play the card itself."),
    "bad_run": _("That is not a run you can lead."),
    "no_middle_card": _("There is no middle card on the table to pick up."),
    "not_your_card": _("Only the hakem's partner can pick up the middle card."),
    "rubber_over": _("The rubber is over."),
    # Tea with the narrator (H4-X4, games/tea.py) and throwing things (H4-X5).
    "tea_time": _("Tea is being served: play resumes when the chapter ends."),
    "tea_off": _("This table does not play with tea."),
    "tea_used": _("You have already asked for tea in this match."),
    "tea_busy": _("A tea is already on its way."),
    "no_tea": _("Nobody is asking for tea now."),
    "own_tea": _("It is your own tea: the others answer."),
    "throw_off": _("This table does not allow throwing things."),
    "throw_limit": _("At most three throws per trick."),
    "bad_item": _("That cannot be thrown."),
    "bad_target": _("Throw at another player of this table."),
}


class PlayError(Exception):
    def __init__(self, code: str, detail: str = ""):
        super().__init__(code)
        self.code = code
        self.detail = detail

    @property
    def message(self) -> str:
        text = MESSAGES.get(self.code)
        return str(text) if text is not None else (self.detail or self.code)

    def as_frame(self, ref=None) -> dict:
        frame = {"type": "error", "code": self.code, "message": self.message}
        if self.detail:
            frame["detail"] = self.detail
        if ref is not None:
            frame["ref"] = ref
        return frame
