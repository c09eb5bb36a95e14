"""Model objects from the rows of a statement written by hand, as the ORM would make them.

For the few reads that every page or socket makes, where building and compiling a
queryset costs more CPU than the database spends answering it (``games.rows``,
``accounts.backends``): the statement is written once, and each row's values go through
the converters Django itself applies to those columns, on both databases.
"""

from __future__ import annotations

from django.db import connection


class Columns:
    """One model's columns in a statement: their SQL and how each value is converted."""

    def __init__(self, model, alias: str):
        self.model = model
        self.fields = model._meta.concrete_fields
        quote = connection.ops.quote_name
        self.sql = [f"{alias}.{quote(field.column)}" for field in self.fields]
        self.converters = []
        for field in self.fields:
            column = field.get_col(alias)
            steps = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            self.converters.append((column, steps))

    def instance(self, values):
        """The model object of ``values`` (this model's columns of one row), as loaded."""
        converted = []
        for value, (column, steps) in zip(values, self.converters, strict=True):
            for step in steps:
                value = step(value, column, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, None, converted)
