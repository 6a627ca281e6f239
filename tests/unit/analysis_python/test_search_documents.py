"""Elasticsearch / OpenSearch DSL documents are search-index entities named by their index."""

from pyana_support import link_sources


def _entities(sources):
    return sorted((e.name, e.kind, e.class_name, e.engine_hint, e.framework) for e in link_sources(sources).entities)


def test_document_index_name_and_legacy_doctype_meta():
    src = {
        "catalog/search.py": (
            "from elasticsearch_dsl import Document, DocType, Text\n"
            "class Recipe(Document):\n"
            "    title = Text()\n"
            "    class Index:\n"
            "        name = 'kitchen-recipes'\n"
            "class Pantry(DocType):\n"
            "    class Meta:\n"
            "        index = 'pantry-items'\n"
            "class Unnamed(Document):\n"
            "    title = Text()\n"
        ),
        "catalog/os_search.py": (
            "import opensearchpy\n"
            "class Menu(opensearchpy.Document):\n"
            "    class Index:\n"
            "        name = 'menus'\n"
        ),
    }
    assert _entities(src) == [
        ("kitchen-recipes", "search_index", "Recipe", "elasticsearch", "elasticsearch-dsl"),
        ("menus", "search_index", "Menu", "opensearch", "opensearch-py"),
        ("pantry-items", "search_index", "Pantry", "elasticsearch", "elasticsearch-dsl"),
        ("unnamed", "search_index", "Unnamed", "elasticsearch", "elasticsearch-dsl"),
    ]


def test_negative_an_inner_index_class_alone_is_not_a_document():
    src = {
        "catalog/plain.py": (
            "class Settings:\n"
            "    class Index:\n"
            "        name = 'not-an-index'\n"
        ),
    }
    assert _entities(src) == []
