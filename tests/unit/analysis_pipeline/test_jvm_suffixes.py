"""One list of JVM source suffixes: the stacks registry's JVM row (Scala included) is what the vendor
scan reads JVM parse results for, so a suffix added to the row is read there too."""

from __future__ import annotations

from orbitkb.analysis.vendors.code import JVM_SUFFIXES, LANGUAGES
from orbitkb.domain.stacks import STACKS, code_stacks


def test_scala_sources_are_jvm_code() -> None:
    assert code_stacks()[".scala"] == "jvm-spring"


def test_the_vendor_scan_reads_the_jvm_row_of_the_registry() -> None:
    row = next(r for r in STACKS if r.name == "jvm-spring")
    assert set(JVM_SUFFIXES) == set(row.code_suffixes)
    assert {".java", ".kt", ".scala"} <= set(JVM_SUFFIXES)


def test_every_jvm_source_suffix_has_the_jvm_import_syntax() -> None:
    assert all(LANGUAGES[s] == "jvm" for s in JVM_SUFFIXES)

