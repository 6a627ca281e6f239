"""A slice passed on with ``xs...`` is the callee's variadic parameter itself, so models a
migration helper forwards to GORM's ``AutoMigrate(models...)`` are tables; and a file whose last
declaration closes without a final newline parses cleanly."""

from __future__ import annotations

from orbitkb.analysis.golang.ir import parse_go

from .helpers import link

MODELS = """
package store

type Parcel struct {
	ID     uint
	Weight int
}

type Courier struct {
	ID   uint
	Name string
}
"""

HELPER_PKG = """
package dbutil

import (
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

func Connect(dsn string) (*gorm.DB, error) {
	return gorm.Open(postgres.Open(dsn), &gorm.Config{})
}

func Migrate(db *gorm.DB, models ...interface{}) error {
	return db.AutoMigrate(models...)
}
"""

MAIN_WITH_HELPER = """
package main

import (
	"example.com/depot/dbutil"
	"example.com/depot/store"
)

func main() {
	conn, _ := dbutil.Connect("host=db")
	_ = dbutil.Migrate(conn, store.Parcel{}, &store.Courier{})
}
"""


def _tables(files: dict[str, str]) -> dict[str, str | None]:
    return {e.name: e.engine_hint for e in link(files).entities}


def test_models_forwarded_by_a_helper_in_another_package_are_tables() -> None:
    files = {"store/models.go": MODELS, "dbutil/db.go": HELPER_PKG, "cmd/depot/main.go": MAIN_WITH_HELPER}
    assert _tables(files) == {"parcels": "postgres", "couriers": "postgres"}


def test_a_slice_built_by_the_caller_and_spread_twice_reaches_automigrate() -> None:
    setup = """
package store

import (
	"gorm.io/driver/mysql"
	"gorm.io/gorm"
)

func migrateAll(db *gorm.DB, what ...any) error { return db.AutoMigrate(what...) }

func prepare(db *gorm.DB, what ...any) error { return migrateAll(db, what...) }

func Open() {
	db, _ := gorm.Open(mysql.Open("dsn"), &gorm.Config{})
	everything := []any{&Parcel{}, &Courier{}}
	_ = prepare(db, everything...)
}
"""
    assert _tables({"store/models.go": MODELS, "store/setup.go": setup}) == {"parcels": "mysql", "couriers": "mysql"}


def test_one_model_passed_without_spread_still_counts() -> None:
    setup = """
package store

import (
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

func migrate(db *gorm.DB, models ...interface{}) { db.AutoMigrate(models...) }

func Open() {
	db, _ := gorm.Open(sqlite.Open("x.db"), &gorm.Config{})
	migrate(db, &Courier{})
}
"""
    assert _tables({"store/models.go": MODELS, "store/setup.go": setup}) == {"couriers": "sqlite"}


def test_a_helper_that_only_logs_what_it_is_given_makes_no_table() -> None:
    setup = """
package store

import (
	"log"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

func describe(db *gorm.DB, models ...interface{}) { log.Println(models...) }

func Open() {
	db, _ := gorm.Open(postgres.Open("dsn"), &gorm.Config{})
	describe(db, &Parcel{}, &Courier{})
}
"""
    assert _tables({"store/models.go": MODELS, "store/setup.go": setup}) == {}


def test_a_struct_closing_the_file_without_a_newline_parses_without_warnings() -> None:
    text = "package store\n\ntype Parcel struct {\n\tID uint\n}"
    parsed = parse_go(text)
    assert "warnings" not in parsed
    assert [(t["n"], t["l"], t["e"]) for t in parsed["types"]] == [("Parcel", 3, 5)]


def test_a_really_broken_file_still_warns() -> None:
    assert parse_go("package store\n\ntype Parcel struct {\n\tID uint\n")["warnings"]


def test_a_slice_appended_with_spread_adds_its_elements_not_itself() -> None:
    setup = """
package store

import (
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

func Open() {
	db, _ := gorm.Open(postgres.Open("dsn"), &gorm.Config{})
	extra := []interface{}{&Courier{}}
	all := append([]interface{}{&Parcel{}}, extra...)
	db.AutoMigrate(all...)
}
"""
    assert _tables({"store/models.go": MODELS, "store/setup.go": setup}) == {"parcels": "postgres", "couriers": "postgres"}
