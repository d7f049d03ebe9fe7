"""The table socket's room actions: sit, stand, ready, bots, start, rematch, leave (rooms/services.py)."""

from __future__ import annotations

from games.errors import PlayError

from .. import services as room_service
from ..models import Room


class RoomActions:
    """Methods of ``rooms.consumers.TableConsumer`` (its transport is there)."""

    async def on_sit(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.sit, frame.seat, frame.move)
        await self._resync()

    async def on_stand(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.stand)
        await self._resync()

    async def on_ready(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.set_ready, frame.ready)

    async def on_bot(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.set_bot, frame.seat, frame.bot, frame.level)

    async def on_start(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.start, lane="start")  # infra/lanes.py (issue 39)

    async def on_rematch(self, frame):
        self._need_user()
        await self._run(self._room_action, room_service.rematch, frame.agree)

    async def on_leave(self, frame):
        self._need_user()
        try:
            result = await self._run(self._room_action, room_service.leave, frame.confirm)
        except PlayError as exc:
            if exc.code == "confirm_required":
                await self.send_json(
                    {
                        "type": "confirm_leave",
                        "cost": exc.detail,
                        "points": room_service.leave_points(self._game),
                        "ref": frame.ref,
                    }
                )
                return
            raise
        await self.send_json({"type": "left", **result})
        await self._resync()

    def _room_action(self, action, *args):
        room = Room.objects.select_related("creator").get(pk=self.room_id)
        self._game = room.game
        return action(room, self.user, *args)
