"""The per-user socket at ``ws/me/`` (R-9): one per open page of a signed-in player.

It carries invites and friends' online changes to any page (the top bar's
badge, the friends page) and keeps the player's site-wide presence alive
with his pings. It joins ``accounts.sockets.user_group`` (sign-out and
deactivation close it: ``user.close``) and ``notify.friends_group`` for the
friends app's own message types.
"""

from __future__ import annotations

import json
import uuid

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from accounts.sockets import CLOSE_SIGNED_OUT, user_group
from games.models import GAME_CHOICES
from infra.websocket import scope_language

from . import notify, presence, services
from .errors import MESSAGES

CLOSE_ANONYMOUS = 4403


class MeConsumer(AsyncWebsocketConsumer):
    user_id: int | None = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        self.user_id = user.pk
        self.language = await database_sync_to_async(self._language)(user)
        self.conn_id = uuid.uuid4().hex
        await self.channel_layer.group_add(user_group(self.user_id), self.channel_name)
        await self.channel_layer.group_add(notify.friends_group(self.user_id), self.channel_name)
        await self.accept()
        came_online = await database_sync_to_async(self._arrive)()
        await self.send_json(await database_sync_to_async(self._hello)())
        if came_online:
            await database_sync_to_async(self._tell_friends)(True)

    async def disconnect(self, code):
        if self.user_id is None:
            return
        await self.channel_layer.group_discard(user_group(self.user_id), self.channel_name)
        await self.channel_layer.group_discard(notify.friends_group(self.user_id), self.channel_name)
        went_offline = await database_sync_to_async(self._leave)()
        if went_offline:
            await database_sync_to_async(self._tell_friends)(False)

    def _language(self, user) -> str:
        """The page's language (infra.websocket.scope_language)."""
        return scope_language(self.scope, user)

    # --- presence ------------------------------------------------------------------

    def _arrive(self) -> bool:
        was = presence.is_online(self.user_id)
        presence.touch(self.user_id, self.conn_id)
        return not was

    def _leave(self) -> bool:
        presence.drop(self.user_id, self.conn_id)
        return not presence.is_online(self.user_id)

    def _tell_friends(self, online: bool) -> None:
        """Friends' pages hear of it, unless he hides his online status (R-9)."""
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.select_related("profile").filter(pk=self.user_id).first()
        if user is None or not presence.shows_online(user):
            return
        friend_ids = list(services.friend_ids(user))
        for friend_id in friend_ids:
            notify.send_now(
                friend_id, {"type": "friends.presence", "user": user.username, "user_id": user.pk}
            )
        if online:  # issue 40: friends whose pages are all closed get a push
            from notify.receivers import friend_came_online

            friend_came_online(user, friend_ids)

    def _hello(self) -> dict:
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.get(pk=self.user_id)
        with translation.override(self.language):
            invites = services.invites_for_page(user)
        return {"type": "hello", "invites": invites, "requests": services.request_count(user)}

    # --- incoming ------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        try:
            frame = json.loads(text_data or "")
        except ValueError:
            return
        if isinstance(frame, dict) and frame.get("type") == "ping":
            await database_sync_to_async(presence.touch)(self.user_id, self.conn_id)
            await self.send_json({"type": "pong"})

    # --- group messages ------------------------------------------------------------

    async def user_close(self, message):
        """Signed out or deactivated: close at once."""
        await self.close(code=CLOSE_SIGNED_OUT)

    async def friends_invite(self, message):
        invite = dict(message["invite"])
        with translation.override(self.language):  # the sender's language is not the reader's
            invite["game_name"] = str(dict(GAME_CHOICES).get(invite["game"], invite["game"]))
            if invite.get("closed"):
                invite["closed_message"] = str(MESSAGES[invite["closed"]])
        await self.send_json({"type": "invite", "invite": invite})

    async def friends_presence(self, message):
        """Connects and disconnects of his tabs may be told out of order, and
        he may hide his status or show it again meanwhile: say what the store
        and his preference hold now (``online`` is null while he hides it),
        so the last word is always right."""
        online = await database_sync_to_async(self._visible)(message["user_id"])
        await self.send_json({"type": "presence", "user": message["user"], "online": online})

    @staticmethod
    def _visible(user_id: int) -> bool | None:
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
        return None if user is None else presence.visible_online(user)

    async def friends_changed(self, message):
        """Requests or invites changed: the page gets both again, whole (``requests``
        counts friend requests only; ``invites`` lists every pending invite)."""
        requests, invites = await database_sync_to_async(self._incoming)()
        await self.send_json(
            {"type": "changed", "what": message.get("what"), "requests": requests, "invites": invites}
        )

    async def friends_notice(self, message):
        await self.send_json({"type": "notice", "kind": message.get("kind"), "reason": message.get("reason")})

    async def friends_arena_seated(self, message):
        """E-3: an arena seated him at a table (his pages lead him there)."""
        await self.send_json(
            {"type": "arena_seated", "arena": message.get("arena"), "url": message.get("url")}
        )

    def _incoming(self) -> tuple[int, list[dict]]:
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.get(pk=self.user_id)
        with translation.override(self.language):
            return services.request_count(user), services.invites_for_page(user)

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content, ensure_ascii=False))
