"""The table socket's card or call (docs/protocol.md ``act``): the loop's path
first (games/plain.py: one transition, one statement), else the play
service on a thread (games/services.py), which decides and names a refusal."""

from __future__ import annotations

from games import accept, plain
from games import services as play_service
from games.errors import PlayError
from games.models import Match
from ops import metrics

from .. import broadcast


class Play:
    """Methods of ``rooms.consumers.TableConsumer`` (its transport is there)."""

    async def on_act(self, frame):
        """A card or a call: on this loop's own connections first (``plain.move``:
        one transition, one statement), its frames announced and sent from
        here; else the play service decides on a thread (``_play``)."""
        began = metrics.now()
        self._need_user()
        action = frame.action.model_dump()
        outcome = None
        if self.match_id is not None and plain.available():
            outcome = await plain.move(
                self.match_id, action, user_id=self.uid, seat=frame.seat, version=frame.v
            )
            if outcome is not None:
                with broadcast.collecting() as box:
                    accept.announce(outcome.frames, opened=outcome.opened)
                await broadcast.send_all(box)
        if outcome is None:
            outcome = await self._run(self._play, action, frame.seat, frame.v)
        await self.send_json(
            {"type": "ack", "ref": frame.ref, "match": outcome.match_id, "v": outcome.version}
        )
        metrics.acted(self, began)

    def _play(self, action: dict, seat: int | None, version: int):
        """The play service on the match this connection last saw; if that
        one is over, on the room's active match (a new one may have started).
        The plain path was tried on the loop already when it is available."""
        match_id = self.match_id
        tried = plain.available()
        if match_id is not None:
            try:
                return play_service.play(
                    match_id, action, user=self.user, seat=seat, version=version, plain=not tried
                )
            except PlayError as exc:
                if exc.code not in {"match_over", "no_match"}:
                    raise
        active = (
            Match.objects.filter(room_id=self.room_id, status=Match.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        if active is None or active == match_id:
            raise PlayError("no_match")
        self.match_id = active
        return play_service.play(active, action, user=self.user, seat=seat, version=version)
