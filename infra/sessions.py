"""The session engine: Django's ``cached_db``, its database read through a
statement built once (issue 39).

A socket's arrival reads its session (the cookie's key) before anything
else; when the cache does not hold it (a restart of Redis, a session older
than the cache's copy, a thousand pages reconnecting at once) Django's
``Session.objects.get`` compiled the same queryset for every one of them.
Here ``infra.rows.RowReader`` reads the same row, with the same condition
(the key, not yet expired), into the same model instance.
"""

from __future__ import annotations

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore
from django.db import connection
from django.utils import timezone

from .rows import RowReader

_READS: dict[type, RowReader] = {}


def _reader(model) -> RowReader:
    reader = _READS.get(model)
    if reader is None:
        quote = connection.ops.quote_name
        table = quote(model._meta.db_table)
        key = f"{table}.{quote(model._meta.get_field('session_key').column)}"
        expires = f"{table}.{quote(model._meta.get_field('expire_date').column)}"
        reader = _READS[model] = RowReader(model, f"{key} = %s AND {expires} > %s")
    return reader


class SessionStore(CachedDbStore):
    def _get_session_from_db(self):
        found = _reader(self.model).one([self.session_key, timezone.now()])
        if found is None:
            self._session_key = None
        return found
