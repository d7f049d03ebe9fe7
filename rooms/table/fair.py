"""The table socket's fair deal answers (F-1, F-2): a fingerprint or a value,
on the loop's own connections first (games/fairness/loop.py), else on a thread;
the answer that makes the deal ready deals through the play service."""

from __future__ import annotations

import logging

from games import fairness, plain
from games import services as play_service
from games.errors import PlayError
from games.fairdeal import FairnessError
from games.models import DealRecord, Match

from .. import broadcast

log = logging.getLogger(__name__)


async def _announce_fair(record) -> None:
    """A fair deal's record just written on the loop, to its table (fairness.answer_on_loop)."""
    with broadcast.collecting() as box:
        fairness.announce_now(record)
    await broadcast.send_all(box)


class FairDeal:
    """Methods of ``rooms.consumers.TableConsumer`` (its transport is there)."""

    async def on_fair_commit(self, frame):
        """F-1: this player's fingerprint for the round's deal (on the loop; else one hop)."""
        self._need_user()
        if not await self._fair_on_loop("commit", frame.round, frame.commitment):
            await self._run(self._fair, fairness.commit, frame.round, frame.commitment)

    async def on_fair_reveal(self, frame):
        """F-2: this player's value; the last one deals at once (on the loop; else one hop)."""
        self._need_user()
        if not await self._fair_on_loop("reveal", frame.round, frame.value):
            await self._run(self._fair, fairness.reveal, frame.round, frame.value)

    async def _fair_on_loop(self, kind: str, number: int, text: str) -> bool:
        """The answer for the match this connection last saw, on the loop's own
        connections (infra/adb.py); the deal it made ready goes to a thread.
        False: the thread's path decides (no match known here, the record not
        found: a new match may have begun, or the database out of the loop's reach)."""
        if self.match_id is None or not plain.available():
            return False
        try:
            record, _, leads = await fairness.answer_on_loop(
                kind,
                self.match_id,
                number,
                text,
                user_id=self.uid,
                room_id=self.room_id,
                announce=_announce_fair,
            )
        except FairnessError as exc:
            if exc.code in {"no_match", "no_deal_record"}:
                return False
            raise PlayError(exc.code, exc.message) from None
        except Exception:  # noqa: BLE001 - the thread's path decides, on the ORM's connections
            log.exception("a fair deal answer on the loop failed")
            return False
        if not leads:  # written with others' answers of this table: the batch's last one deals
            return True
        if record.phase == DealRecord.Phase.READY and not play_service.deal_waits_for_pause(record):
            await self._run(play_service.deal_if_ready, self.match_id)
        return True

    def _fair(self, step, number: int, text: str) -> None:
        """``step`` (fairness.commit or reveal) for the seat this user holds in
        the room's active match (never a seat from the frame), read with the
        round's record; when that made the deal ready, deal now through the
        play service. The match is the one this connection last saw; if that
        one is over (a new one may have started), the room's active match."""
        tried = self.match_id
        if tried is not None:
            try:
                return self._fair_on(tried, step, number, text)
            except PlayError as exc:
                if exc.code not in {"no_match", "no_deal_record"}:
                    raise
        active = (
            Match.objects.filter(room_id=self.room_id, status=Match.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        if active is None:
            raise PlayError("no_match")
        if active == tried:
            raise PlayError("no_deal_record", "This round has no deal waiting.")
        return self._fair_on(active, step, number, text)

    def _fair_on(self, match_id: int, step, number: int, text: str) -> None:
        try:
            record = step(match_id, number, None, text, user_id=self.uid, room_id=self.room_id)
        except FairnessError as exc:
            raise PlayError(exc.code, exc.message) from None
        if record.phase == DealRecord.Phase.READY and not play_service.deal_waits_for_pause(record):
            play_service.deal_if_ready(match_id)
