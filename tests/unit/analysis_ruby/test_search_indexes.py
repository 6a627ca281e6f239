"""Models kept in an Elasticsearch index besides their table: elasticsearch-model included directly or
through a concern's ``included do … end`` (index named like the table unless ``index_name`` says
otherwise), Searchkick's ``searchkick`` and Chewy index classes (``ShelvesIndex < Chewy::Index``)."""

from __future__ import annotations

from tests.unit.analysis_ruby.helpers import link


def _indexes(files: dict[str, str]) -> list[tuple[str, str | None, str | None]]:
    facts = link(files)
    return sorted((e.name, e.class_name, e.engine_hint) for e in facts.entities if e.kind == "search_index")


def test_elasticsearch_model_searchkick_and_chewy() -> None:
    assert _indexes({
        "app/models/application_record.rb": "class ApplicationRecord < ActiveRecord::Base\n  self.abstract_class = true\nend\n",
        "app/models/concerns/findable.rb": """
        module Findable
          extend ActiveSupport::Concern
          included do
            include Elasticsearch::Model
            include Elasticsearch::Model::Callbacks
          end
        end
        """,
        "app/models/recipe.rb": "class Recipe < ApplicationRecord\n  include Findable\nend\n",
        "app/models/chef.rb": "class Chef < ApplicationRecord\n  include Elasticsearch::Model\n  index_name 'kitchen-chefs'\nend\n",
        "app/models/pantry_item.rb": "class PantryItem < ApplicationRecord\n  searchkick word_start: [:name]\nend\n",
        "app/models/plain.rb": "class Plain < ApplicationRecord\nend\n",
        "app/models/spice.rb": "class Spice < ApplicationRecord\n  searchkick\nend\n",
        "app/chewy/shelves_index.rb": "class ShelvesIndex < Chewy::Index\n  index_scope Shelf\nend\n",
    }) == [  # fmt: skip
        ("kitchen-chefs", "Chef", "elasticsearch"),
        ("pantry_items", "PantryItem", "elasticsearch"),
        ("recipes", "Recipe", "elasticsearch"),
        ("shelves", "ShelvesIndex", "elasticsearch"),
        ("spices", "Spice", "elasticsearch"),
    ]
