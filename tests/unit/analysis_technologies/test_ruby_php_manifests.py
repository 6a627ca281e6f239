"""Gemfile and composer.json: declared libraries with versions and lines, dev groups noted, the
language version, and the frameworks they imply."""

from __future__ import annotations

from orbitkb.analysis.technologies import composer, gems
from orbitkb.analysis.technologies.signals import frameworks

GEMFILE = """source 'https://rubygems.org'
ruby "3.2.2"

gem 'rails', '~> 7.1.0'
gem "sidekiq"
gem 'pg', '>= 1.1' # the database

group :development, :test do
  gem 'rspec-rails'
end

platforms :jruby do
  gem 'activerecord-jdbc-adapter'
end
gem 'faraday', group: :test
"""

COMPOSER = """{
    "name": "acme/ledger",
    "require": {
        "php": "^8.1",
        "ext-json": "*",
        "symfony/framework-bundle": "6.4.*",
        "guzzlehttp/guzzle": "^7.8"
    },
    "require-dev": {"phpunit/phpunit": "^10"}
}
"""


def test_gemfile_gems_ruby_version_and_dev_groups() -> None:
    found = [(f.kind, f.name, f.version, f.line, f.note) for f in gems.read("Gemfile", GEMFILE, {})]
    assert found == [
        ("language", "ruby", "3.2.2", 2, None),
        ("library", "rails", "~> 7.1.0", 4, None),
        ("library", "sidekiq", None, 5, None),
        ("library", "pg", ">= 1.1", 6, None),
        ("library", "rspec-rails", None, 9, "dev"),
        ("library", "activerecord-jdbc-adapter", None, 13, None),
        ("library", "faraday", None, 15, "dev"),
    ]


def test_composer_requirements_php_version_and_require_dev() -> None:
    found = [(f.kind, f.name, f.version, f.line, f.note) for f in composer.read("composer.json", COMPOSER, {})]
    assert found == [
        ("language", "php", "8.1", 4, None),
        ("library", "symfony/framework-bundle", "6.4.*", 6, None),
        ("library", "guzzlehttp/guzzle", "7.8", 7, None),
        ("library", "phpunit/phpunit", "10", 9, "dev"),
    ]


def test_frameworks_from_gems_and_composer_packages() -> None:
    libs = gems.read("Gemfile", GEMFILE, {}) + composer.read("composer.json", COMPOSER, {})
    assert {f.name for f in frameworks([f for f in libs if f.kind == "library"])} >= {"rails", "sidekiq", "symfony"}


def test_a_composer_file_that_is_not_json_gives_nothing() -> None:
    assert composer.read("composer.json", "{ not json", {}) == []
