"""The table socket's social side: reactions (R-5), tea with the narrator
(H4-X4, games/tea.py), throwing things (H4-X5) and a learner's hints (issue 38)."""

from __future__ import annotations

from games import services as play_service
from games.errors import PlayError
from games.models import Match

from .. import hints
from .. import services as room_service


class Social:
    """Methods of ``rooms.consumers.TableConsumer`` (its transport is there)."""

    async def on_react(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.react, frame.reaction)

    async def table_reaction(self, message):
        await self.send_json({"type": "reaction", "seat": message["seat"], "reaction": message["reaction"]})

    async def on_tea(self, frame):
        """Ask for tea, say yes or no to another's, or press continue (games/tea.py)."""
        self._need_user()
        outcome = await self._run(self._tea, frame.say)
        await self.send_json(
            {"type": "ack", "ref": frame.ref, "match": outcome.match_id, "v": outcome.version}
        )

    def _tea(self, what: str):
        match_id = (
            Match.objects.filter(room_id=self.room_id, status=Match.Status.ACTIVE)
            .values_list("pk", flat=True)
            .first()
        )
        if match_id is None:
            raise PlayError("no_match")
        return play_service.tea_say(match_id, self.user, what)

    async def on_throw(self, frame):
        """H4-X5: no answer of its own when accepted (the thrower gets the same
        ``throw`` frame as everyone else); a refusal is an error to him alone."""
        self._need_user()
        await self._run(self._room_action, room_service.throw, frame.item, frame.target)

    async def on_hide_reactions(self, frame):
        """R-5: the viewer's eye; while hidden, throws are not sent to this connection at all."""
        self.hide_reactions = frame.hide

    async def on_hint(self, frame):
        """Issue 38: a learner's hint, practice matches only (rooms/hints.py)."""
        self._need_user()
        hint = await self._run(hints.hint_frame, self.match_id, self.user, self.language)
        await self.send_json({**hint, "ref": frame.ref})

    async def table_throw(self, message):
        if self.hide_reactions:
            return
        await self.send_json({"type": "throw", "item": message["item"], "target": message["target"]})
