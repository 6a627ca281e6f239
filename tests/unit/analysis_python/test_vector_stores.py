"""LangChain vector stores keep embeddings in a named table, collection or index of a database:
each is an entity of that store, with a name read from the environment kept as ``${NAME}``."""

from pyana_support import link_sources


def entities(sources: dict[str, str]) -> list[tuple]:
    facts = link_sources(sources)
    return sorted((e.name, e.kind, e.engine_hint, e.start_line) for e in facts.entities)


def test_vector_stores_by_constructor_and_factory_with_literal_and_environment_names():
    code = """
import os
from langchain_google_alloydb_pg import AlloyDBEngine, AlloyDBVectorStore
from langchain_postgres import PGVector
from langchain_community.vectorstores import ElasticsearchStore

DOCS = os.environ["MANUALS_TABLE"]
engine = AlloyDBEngine.from_instance(project_id="harbor", region="r", cluster="c", instance="i", database="d")
manuals = AlloyDBVectorStore.create_sync(engine=engine, table_name=DOCS, embedding_service=None)
charts = PGVector(embeddings=None, collection_name="sea_charts", connection=os.environ["PG_URL"])
logs = ElasticsearchStore.from_documents([], None, index_name=os.getenv("LOG_INDEX", "voyage-logs"))
"""
    assert entities({"svc/rag.py": code}) == [
        ("${LOG_INDEX:voyage-logs}", "search_index", "elasticsearch", 11),
        ("${MANUALS_TABLE}", "sql_table", "postgres", 9),
        ("sea_charts", "sql_table", "postgres", 10),
    ]


def test_chroma_collections_and_stores_without_a_known_name_or_from_elsewhere():
    code = """
from langchain_chroma import Chroma
from mylib.stores import Chroma as OwnChroma

notes = Chroma(collection_name="deck_notes")
unnamed = Chroma()
mine = OwnChroma(collection_name="not_a_vector_store")
"""
    assert entities({"svc/notes.py": code}) == [("deck_notes", "document_collection", "chroma", 5)]
