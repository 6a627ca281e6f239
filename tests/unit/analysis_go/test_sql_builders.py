"""Tables named through a SQL query builder rather than SQL text: squirrel's package functions
(``sq.Insert("t")``, ``sq.Select(...).From("t")``), its ``StatementBuilder`` chain, goqu's
``goqu.From("t")`` / ``goqu.Dialect(...).Insert("t")``; the engine is the SQL driver the service
imports. A project's own ``Insert(name)`` method and a ``From`` handed a sub-query name nothing."""

from __future__ import annotations

from tests.unit.analysis_go.helpers import link

SQUIRREL = """
package store

import (
	"context"

	sq "github.com/Masterminds/squirrel"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Ledger struct{ pool *pgxpool.Pool }

func (l *Ledger) Add(ctx context.Context, amount int) error {
	q, args, _ := sq.Insert("entries").Columns("amount").Values(amount).PlaceholderFormat(sq.Dollar).ToSql()
	_, err := l.pool.Exec(ctx, q, args...)
	return err
}

func (l *Ledger) Sum(ctx context.Context) error {
	q, args, _ := sq.Select("sum(amount)").PlaceholderFormat(sq.Dollar).From("entries").ToSql()
	_, err := l.pool.Query(ctx, q, args...)
	return err
}

func (l *Ledger) Close(ctx context.Context, id int) error {
	q, args, _ := sq.Update("periods").Set("closed", true).Where(sq.Eq{"id": id}).ToSql()
	_, err := l.pool.Exec(ctx, q, args...)
	return err
}
"""

STATEMENT_BUILDER = """
package store

import (
	"database/sql"

	"github.com/Masterminds/squirrel"
	_ "github.com/go-sql-driver/mysql"
)

var psql = squirrel.StatementBuilder.PlaceholderFormat(squirrel.Question)

func Forget(db *sql.DB, id int) error {
	q, args, _ := psql.Delete("sessions").Where(squirrel.Eq{"id": id}).ToSql()
	_, err := db.Exec(q, args...)
	return err
}
"""

GOQU = """
package store

import (
	"github.com/doug-martin/goqu/v9"
	_ "github.com/lib/pq"
)

func Queries() []string {
	a, _, _ := goqu.From("shelves").Where(goqu.C("id").Eq(1)).ToSQL()
	b, _, _ := goqu.Dialect("postgres").Insert("books").Rows(goqu.Record{"title": "x"}).ToSQL()
	return []string{a, b}
}
"""

OWN_INSERT = """
package store

import sq "github.com/Masterminds/squirrel"

type Cache struct{}

func (c Cache) Insert(name string) {}

func Use(inner sq.SelectBuilder) {
	Cache{}.Insert("warm")
	_ = sq.Select("*").FromSelect(inner, "sub")
	_ = sq.Select("*").From("(select 1) as one")
}
"""


def tables(files):
    return sorted({(e.name, e.engine_hint) for e in link(files).entities})


def test_squirrel_package_functions_name_the_tables_with_the_drivers_engine():
    assert tables({"svc/store/ledger.go": SQUIRREL}) == [("entries", "postgres"), ("periods", "postgres")]


def test_a_statement_builder_kept_in_a_variable_names_its_table():
    assert tables({"svc/store/sessions.go": STATEMENT_BUILDER}) == [("sessions", "mysql")]


def test_goqu_from_and_a_dialects_insert_name_their_tables():
    assert tables({"svc/store/books.go": GOQU}) == [("books", "postgres"), ("shelves", "postgres")]


def test_negative_an_own_insert_method_and_sub_queries_name_no_table():
    assert tables({"svc/store/cache.go": OWN_INSERT}) == []
