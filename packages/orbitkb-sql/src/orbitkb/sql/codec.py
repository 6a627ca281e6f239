"""Rows <-> domain objects: cattrs unstructures an object, nested values become JSON text.

Column names equal attribute names, so one pair of functions serves every aggregate; each
aggregate module only says which of its attributes are nested (stored as JSON).
"""

from __future__ import annotations

import itertools
import json
import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import attrs
import sqlalchemy as sa
from cattrs.preconf.json import make_converter
from sqlalchemy.engine import Connection

T = TypeVar("T")
CHUNK = 500
#: Rows built and sent in one executemany when a snapshot is written (bounded memory, same rows).
WRITE_BATCH = 1000

converter = make_converter()
# ArchitectureFinding.detail is dict[str, object]: free-form JSON, kept as decoded.
converter.register_structure_hook_func(lambda type_: type_ is object, lambda value, _type: value)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)


def to_row(obj: Any, json_fields: Iterable[str], drop: Iterable[str] = ()) -> dict[str, Any]:
    """The row of ``obj``: its attributes, nested ones as JSON text, enums as their values."""
    row: dict[str, Any] = converter.unstructure(obj)
    for name in json_fields:
        row[name] = _dumps(row[name])
    for name in drop:
        row.pop(name, None)
    return row


def from_row(row: Mapping[Any, Any], cls: type[T], json_fields: Iterable[str], drop: Iterable[str] = ()) -> T:
    data = dict(row)
    for name in json_fields:
        data[name] = json.loads(data[name]) if data[name] is not None else []
    for name in drop:
        data.pop(name, None)
    return converter.structure(data, cls)


def pack_vector(vector: Sequence[float]) -> bytes:
    """float32, little-endian: 4 bytes a dimension, the same on every platform we ship to."""
    packed = array("f", vector)
    return _little_endian(packed).tobytes()


def unpack_vector(blob: bytes) -> tuple[float, ...]:
    values = array("f")
    values.frombytes(blob)
    return tuple(_little_endian(values))


def _little_endian(values: array[float]) -> array[float]:
    if sys.byteorder == "big":
        values = array("f", values)
        values.byteswap()
    return values


def new_id(result: sa.CursorResult[Any]) -> int:
    """The id the database gave the row just inserted."""
    key = result.inserted_primary_key
    if key is None:  # pragma: no cover - only for a table without a primary key
        raise RuntimeError("the insert produced no primary key")
    return int(key[0])


def field_names(cls: type) -> list[str]:
    return [a.name for a in attrs.fields(cls)]


def select_for(table: sa.Table, cls: type) -> sa.Select[Any]:
    """SELECT of the columns that map to ``cls`` attributes (surrogate keys left out)."""
    return sa.select(*(table.c[name] for name in field_names(cls)))


def fetch(conn: Connection, statement: sa.Select[Any], cls: type[T], json_fields: Iterable[str]) -> list[T]:
    nested = tuple(json_fields)
    return [from_row(row, cls, nested) for row in conn.execute(statement).mappings()]


def insert_many(
    conn: Connection,
    table: sa.Table,
    objects: Iterable[Any],
    json_fields: Iterable[str],
    drop: Iterable[str] = (),
) -> None:
    """Executemany INSERTs of at most ``WRITE_BATCH`` rows each, in the order given: the rows of a
    whole snapshot (evidence as JSON text) are never all built at once."""
    nested, dropped = tuple(json_fields), tuple(drop)
    statement = sa.insert(table)
    for batch in batches(objects, WRITE_BATCH):
        conn.execute(statement, [to_row(obj, nested, dropped) for obj in batch])


def batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Lists of at most ``size`` items, in order, taken from ``items`` as they come (a generator
    is read only as far as the current batch)."""
    if size < 1:
        raise ValueError(f"a batch holds at least one item, not {size}")
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def chunks(items: Sequence[T], size: int = CHUNK) -> Iterator[Sequence[T]]:
    """Slices of at most ``size``: IN lists stay under every database's bound-parameter limit."""
    for start in range(0, len(items), size):
        yield items[start : start + size]


def unique_by_id(objects: Iterable[T]) -> list[T]:
    """First occurrence of each ``id``: a duplicate fact must not abort a whole snapshot."""
    seen: dict[Any, T] = {}
    for obj in objects:
        seen.setdefault(obj.id, obj)  # type: ignore[attr-defined]
    return list(seen.values())


def update_fields(
    conn: Connection,
    table: sa.Table,
    objects: Iterable[Any],
    fields: Sequence[str],
    json_fields: Iterable[str] = (),
) -> None:
    """Rewrite ``fields`` of the rows with the objects' ids (one executemany); unknown ids are skipped."""
    nested = [name for name in json_fields if name in fields]
    rows = []
    for obj in objects:
        row = to_row(obj, nested)
        rows.append({"_id": obj.id, **{name: row[name] for name in fields}})
    if rows:
        conn.execute(sa.update(table).where(table.c.id == sa.bindparam("_id")), rows)
