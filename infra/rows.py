"""Reading one row of a model through a statement built once (issue 13).

Django compiles a queryset again on every call (the select list, the
ordering, the joins it looks for, the lookups): at saturation that was about
a third of the plain path's Python time and most of a fair-deal answer's.
A ``RowReader`` writes its SELECT once, on first use, and turns the row into
the same model instance the queryset would (each field's own conversion from
the database, the backend's converters, ``Model.from_db``), with extra columns of joined tables set as
attributes, like ``annotate`` does.
"""

from __future__ import annotations

from django.db import connection


class RowReader:
    """``model``'s concrete fields, plus ``extra`` ({attribute: (field, column
    SQL)}: a field whose conversion applies, and the column to read), from
    ``model``'s table with ``joins``, where ``where`` (placeholders ``%s``)."""

    def __init__(self, model, where: str, joins: str = "", extra: dict | None = None):
        self.model = model
        self.where = where
        self.joins = joins
        self.extra = extra or {}
        self._sql: str | None = None
        self._conv: list | None = None

    def sql(self) -> str:
        if self._sql is None:
            quote = connection.ops.quote_name
            table = quote(self.model._meta.db_table)
            columns = [f"{table}.{quote(f.column)}" for f in self.model._meta.concrete_fields]
            columns += [column for _, column in self.extra.values()]
            self._sql = f"SELECT {', '.join(columns)} FROM {table} {self.joins} WHERE {self.where}"
        return self._sql

    def _converters(self) -> list[tuple]:
        """Per column: (expression, its converters), as the ORM's compiler
        applies them: the backend's (SQLite's datetimes, booleans) then the field's."""
        if self._conv is None:
            table = self.model._meta.db_table
            fields = [*self.model._meta.concrete_fields, *(field for field, _ in self.extra.values())]
            out = []
            for field in fields:
                col = field.get_col(table)
                out.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
            self._conv = out
        return self._conv

    def one(self, params: list):
        """The first row's instance, or None."""
        with connection.cursor() as cursor:
            cursor.execute(self.sql(), params)
            row = cursor.fetchone()
        if row is None:
            return None
        values = []
        for value, (col, converters) in zip(row, self._converters(), strict=True):
            for convert in converters:
                value = convert(value, col, connection)
            values.append(value)
        return self._instance(values)

    async def aone(self, params: list):
        """``one`` on the event loop's own connections (infra/adb.py), which
        hand JSON and dates back already converted."""
        from . import adb

        row = await adb.fetchone(self.sql(), params)
        return None if row is None else self._instance(list(row))

    def _instance(self, values: list):
        fields = self.model._meta.concrete_fields
        instance = self.model.from_db(connection.alias, [f.attname for f in fields], values[: len(fields)])
        for name, value in zip(self.extra, values[len(fields) :], strict=True):
            setattr(instance, name, value)
        return instance
