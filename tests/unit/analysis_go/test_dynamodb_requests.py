"""AWS DynamoDB request literals name the table a Go service stores in (SDK v1 and v2)."""

from __future__ import annotations

from .helpers import link

V2 = """
package moorings

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

const mooringsTable = "harbor-moorings"

type Store struct{ db *dynamodb.Client }

func (s *Store) Save(ctx context.Context) error {
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(mooringsTable)})
	return err
}

func (s *Store) Events(ctx context.Context) {
	s.db.Query(ctx, &dynamodb.QueryInput{TableName: aws.String("mooring-events")})
}

func (s *Store) Any(ctx context.Context, table string) {
	s.db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table)})
}
"""

V1 = """
package pilots

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/dynamodb"
)

func Find(svc *dynamodb.DynamoDB, id string) {
	svc.GetItem(&dynamodb.GetItemInput{TableName: aws.String("pilots")})
}
"""


def test_tables_named_by_request_literals_of_both_sdk_versions() -> None:
    facts = link({"moorings/store.go": V2, "pilots/find.go": V1})
    assert sorted((e.name, e.kind, e.engine_hint) for e in facts.entities) == [
        ("harbor-moorings", "document_collection", "dynamodb"),
        ("mooring-events", "document_collection", "dynamodb"),
        ("pilots", "document_collection", "dynamodb"),
    ]


def test_a_struct_of_another_library_with_a_table_name_field_is_nothing() -> None:
    code = """
package report

type ExportInput struct{ TableName *string }

func Export(name string) *ExportInput { return &ExportInput{TableName: &name} }
"""
    assert link({"report/export.go": code}).entities == ()
