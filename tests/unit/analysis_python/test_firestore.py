"""Firestore collections of the Cloud client library and of the Firebase Admin SDK."""

from __future__ import annotations

from textwrap import dedent

from .pyana_support import link_sources


def _collections(sources: dict[str, str]) -> list[tuple[str, str, int, str | None]]:
    facts = link_sources({p: dedent(t) for p, t in sources.items()})
    return sorted((e.name, e.file, e.start_line, e.engine_hint) for e in facts.entities)


def test_cloud_client_collections_by_literal_constant_and_subcollection() -> None:
    got = _collections(
        {
            "svc/names.py": 'SHELVES = "shelves"\n',
            "svc/store.py": """\
                from google.cloud import firestore
                from svc.names import SHELVES

                db = firestore.Client()

                def put_book(book):
                    db.collection("books").document(book["id"]).set(book)

                def shelf_items(shelf_id):
                    shelf = db.collection(SHELVES).document(shelf_id)
                    return list(shelf.collection("items").stream())
                """,
        }
    )
    assert got == [
        ("books", "svc/store.py", 7, "firestore"),
        ("items", "svc/store.py", 11, "firestore"),
        ("shelves", "svc/store.py", 10, "firestore"),
    ]


def test_firebase_admin_client_and_a_runtime_named_collection() -> None:
    got = _collections(
        {
            "svc/repo.py": """\
                import firebase_admin
                from firebase_admin import firestore

                firebase_admin.initialize_app()
                client = firestore.client()
                prefix = ""

                def list_kind(kind):
                    return [d.to_dict() for d in client.collection(prefix + kind).stream()]
                """,
        }
    )
    assert got == [("*", "svc/repo.py", 9, "firestore")]


def test_collection_calls_on_other_objects_are_not_firestore() -> None:
    got = _collections(
        {
            "svc/other.py": """\
                from stamps import Album

                album = Album()

                def add(x):
                    album.collection("stamps").append(x)
                """,
        }
    )
    assert got == []
