"""Django's model backend, with the visitor's profile read with him (issue 33).

Every signed-in page and every table socket reads the user and then his
profile (the language he prefers, ``UserLanguageMiddleware``; a socket's
greeting, its reactions setting): one query instead of two, through a
statement built once (``infra.rows.RowReader``): a thousand sockets
arriving at once compiled the same queryset a thousand times (issue 39).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.db import connection

from infra.rows import RowReader

_USER_READ: RowReader | None = None


def _user_reader() -> RowReader:
    """``select_related("profile").filter(pk=...).first()`` of the user model."""
    global _USER_READ
    if _USER_READ is None:
        User = get_user_model()
        profile = User._meta.get_field("profile").related_model
        quote = connection.ops.quote_name
        users, profiles = quote(User._meta.db_table), quote(profile._meta.db_table)
        pk = f"{users}.{quote(User._meta.pk.column)}"
        _USER_READ = RowReader(
            User,
            f"{pk} = %s LIMIT 1",
            joins=f"LEFT OUTER JOIN {profiles} ON {profiles}.{quote(profile._meta.get_field('user').column)} = {pk}",
            related={"profile": (profile, profile._meta.db_table)},
        )
    return _USER_READ


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id):
        try:
            user_id = get_user_model()._meta.pk.to_python(user_id)
        except Exception:  # noqa: BLE001 - a session's odd id is no user, as the ORM's lookup would say
            return None
        user = _user_reader().one([user_id])
        return user if user is not None and self.user_can_authenticate(user) else None
