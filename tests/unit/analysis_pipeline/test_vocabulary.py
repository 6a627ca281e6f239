"""The words of source code kept for retrieval: identifiers split, keywords dropped, bounded."""

from __future__ import annotations

from orbitkb.analysis import vocabulary


def test_identifiers_literals_and_comments_become_words_without_language_keywords() -> None:
    text = '''
    // Reserve a berth for the incoming vessel
    public class BerthReservationService {
        private static final String QUEUE = "harbour.berth-requests";
        public Reservation reserveBerth(VesselId vesselId) { return null; }
    }
    '''
    words = vocabulary.file_words(text)
    assert words[0] == "berth"  # the most frequent first
    assert {"reservation", "vessel", "harbour", "requests", "incoming", "reserve"} <= set(words)
    assert not {"public", "class", "private", "static", "final", "return", "null", "string"} & set(words)


def test_a_file_keeps_at_most_its_most_frequent_words() -> None:
    text = " ".join(f"word{chr(97 + i % 26)}{chr(97 + i // 26)}x" for i in range(600))
    assert len(vocabulary.file_words(text)) == vocabulary.PER_FILE


def test_a_service_ranks_words_by_how_many_files_use_them_and_adds_file_names() -> None:
    words = vocabulary.service_words([["tariff", "invoice"], ["tariff"], ["tariff", "pilot"]],
                                     ["tolls/TariffCalculator.kt", "tolls/docs/harbour_dues.md"])
    assert words[0] == "tariff"
    assert {"invoice", "pilot", "calculator", "harbour", "dues", "docs", "tolls"} <= set(words)


def test_an_already_ranked_vocabulary_merges_by_rank() -> None:
    words = vocabulary.service_words([["anchor"]], [], ranked_before=("mooring", "rope"), files_before=10)
    assert words[:2] == ("mooring", "rope") and "anchor" in words
