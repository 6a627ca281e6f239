"""A GORM model's association fields name more tables: GORM migrates and joins the structs they
hold (``Authors []Author``, ``Shelf *Shelf``), never embedded, serialized or self-storing ones."""

from __future__ import annotations

from .helpers import link

MODELS = """
package library

import "database/sql/driver"

type Book struct {
	ID      uint
	Title   string
	Authors []Author `gorm:"many2many:book_authors;"`
	Shelf   *Shelf
	ShelfID uint
	Notes   []*Note
	Meta    Meta    `gorm:"embedded"`
	Cover   Picture `gorm:"serializer:json"`
	Price   Money
	Labels  []string
	Draft   Draft `gorm:"-"`
}

type Author struct {
	ID    uint
	Name  string
	Agent Agent
}

type Agent struct{ ID uint }
type Shelf struct{ ID uint }
type Note struct {
	ID     uint
	BookID uint
}
type Meta struct{ Pages int }
type Picture struct{ URL string }
type Draft struct{ Text string }
type Money struct{ Cents int64 }

func (m Money) Value() (driver.Value, error) { return m.Cents, nil }
func (m *Money) Scan(v any) error            { return nil }
"""

SETUP = """
package library

import (
	"gorm.io/driver/mysql"
	"gorm.io/gorm"
)

func Open(dsn string) *gorm.DB {
	db, _ := gorm.Open(mysql.Open(dsn), &gorm.Config{})
	db.AutoMigrate(&Book{})
	return db
}
"""


def test_structs_held_by_association_fields_are_tables_too() -> None:
    facts = link({"library/models.go": MODELS, "library/setup.go": SETUP})
    got = {e.name: e for e in facts.entities}
    assert sorted(got) == ["agents", "authors", "books", "notes", "shelves"]
    assert got["authors"].class_name == "Author"
    assert {e.engine_hint for e in facts.entities} == {"mysql"}


def test_a_struct_nothing_migrates_is_not_a_table_even_with_struct_fields() -> None:
    facts = link({"library/models.go": MODELS, "library/setup.go": SETUP.replace("db.AutoMigrate(&Book{})", "")})
    assert [e.name for e in facts.entities] == []
