"""Reading one row of a model through a statement built once (issue 13).

Django compiles a queryset again on every call (the select list, the
ordering, the joins it looks for, the lookups): at saturation that was about
a third of the plain path's Python time and most of a fair-deal answer's.
A ``RowReader`` writes its SELECT once, on first use, and turns the row into
the same model instance the queryset would (each field's own conversion from
the database, the backend's converters, ``Model.from_db``), with extra columns of joined tables set as
attributes, like ``annotate`` does, and whole rows of joined tables as the
related instances ``select_related`` would cache (``related``).
"""

from __future__ import annotations

from django.db import connection


class RowReader:
    """``model``'s concrete fields, plus ``extra`` ({attribute: (field, column
    SQL)}: a field whose conversion applies, and the column to read), from
    ``model``'s table with ``joins``, where ``where`` (placeholders ``%s``).

    ``related`` ({name: (model, alias)}): every concrete field of ``model``
    read from the joined table ``alias`` (named in ``joins``), made into an
    instance and cached on the row's instance under ``name`` (a foreign key's
    or a reverse one-to-one's name), None when the join found no row (a LEFT
    JOIN), as ``select_related(name)`` does; the row's instance is cached on
    it in turn when it has a foreign key back (``remote``)."""

    def __init__(
        self, model, where: str, joins: str = "", extra: dict | None = None, related: dict | None = None
    ):
        self.model = model
        self.where = where
        self.joins = joins
        self.extra = extra or {}
        self.related = related or {}
        self._sql: str | None = None
        self._conv: list | None = None

    def sql(self) -> str:
        if self._sql is None:
            quote = connection.ops.quote_name
            table = quote(self.model._meta.db_table)
            columns = [f"{table}.{quote(f.column)}" for f in self.model._meta.concrete_fields]
            columns += [column for _, column in self.extra.values()]
            for model, alias in self.related.values():
                columns += [f"{quote(alias)}.{quote(f.column)}" for f in model._meta.concrete_fields]
            self._sql = f"SELECT {', '.join(columns)} FROM {table} {self.joins} WHERE {self.where}"
        return self._sql

    def _converters(self) -> list[tuple]:
        """Per column: (expression, its converters), as the ORM's compiler
        applies them: the backend's (SQLite's datetimes, booleans) then the field's."""
        if self._conv is None:
            table = self.model._meta.db_table
            fields = [(table, f) for f in self.model._meta.concrete_fields]
            fields += [(table, field) for field, _ in self.extra.values()]
            for model, alias in self.related.values():
                fields += [(alias, f) for f in model._meta.concrete_fields]
            out = []
            for alias, field in fields:
                col = field.get_col(alias)
                out.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
            self._conv = out
        return self._conv

    def _convert(self, row) -> list:
        values = []
        for value, (col, converters) in zip(row, self._converters(), strict=True):
            for convert in converters:
                value = convert(value, col, connection)
            values.append(value)
        return values

    def one(self, params: list):
        """The first row's instance, or None."""
        with connection.cursor() as cursor:
            cursor.execute(self.sql(), params)
            row = cursor.fetchone()
        if row is None:
            return None
        return self._instance(self._convert(row))

    def all(self, params: list) -> list:
        """Every row's instance, in the statement's order."""
        with connection.cursor() as cursor:
            cursor.execute(self.sql(), params)
            rows = cursor.fetchall()
        return [self._instance(self._convert(row)) for row in rows]

    async def aone(self, params: list):
        """``one`` on the event loop's own connections (infra/adb.py), which
        hand JSON and dates back already converted."""
        from . import adb

        row = await adb.fetchone(self.sql(), params)
        return None if row is None else self._instance(list(row))

    def _instance(self, values: list):
        fields = self.model._meta.concrete_fields
        instance = self.model.from_db(connection.alias, [f.attname for f in fields], values[: len(fields)])
        at = len(fields) + len(self.extra)
        for name, value in zip(self.extra, values[len(fields) : at], strict=True):
            setattr(instance, name, value)
        for name, (model, _alias) in self.related.items():
            own = model._meta.concrete_fields
            row = values[at : at + len(own)]
            at += len(own)
            other = None
            if row[[f.primary_key for f in own].index(True)] is not None:
                other = model.from_db(connection.alias, [f.attname for f in own], row)
                for f in own:
                    if f.is_relation and f.related_model is self.model:
                        other._state.fields_cache[f.name] = instance
            instance._state.fields_cache[name] = other
        return instance
