"""The words of source code kept for retrieval: identifiers split, keywords dropped, counted, bounded."""

from __future__ import annotations

from orbitkb.analysis.reading import vocabulary


def test_identifiers_literals_and_comments_become_counted_words_without_language_keywords() -> None:
    text = '''
    // Reserve a berth for the incoming vessel
    public class BerthReservationService {
        private static final String QUEUE = "harbour.berth-requests";
        public Reservation reserveBerth(VesselId vesselId) { return null; }
    }
    '''
    words = vocabulary.file_words(text)
    assert next(iter(words)) == "berth" and words["berth"] == 4  # the most frequent first
    assert {"reservation", "vessel", "harbour", "requests", "incoming", "reserve"} <= set(words)
    assert not {"public", "class", "private", "static", "final", "return", "null", "string"} & set(words)


def test_a_file_keeps_at_most_its_most_frequent_words() -> None:
    text = " ".join(f"word{chr(97 + i % 26)}{chr(97 + i // 26)}x" for i in range(800))
    assert len(vocabulary.file_words(text)) == vocabulary.PER_FILE


def test_a_service_sums_its_files_and_file_names_then_bounds_them() -> None:
    counts = dict(vocabulary.merge([{"tariff": 4, "invoice": 1}, {"tariff": 2}, {"pilot": 1}],
                                   ["tolls/TariffCalculator.kt", "tolls/docs/harbour_dues.md"],
                                   before=[("mooring", 9)]))
    assert counts["mooring"] == 9 and counts["tariff"] == 7 and counts["pilot"] == 1
    assert {"invoice", "calculator", "harbour", "dues", "docs", "tolls"} <= set(counts)


def test_the_bag_repeats_a_word_with_the_log_of_its_count() -> None:
    bag = vocabulary.bag([("tariff", 1000), ("pilot", 4), ("dues", 1)])
    assert bag.count("tariff") == vocabulary.MAX_REPEAT and bag.count("pilot") == 3 and bag.count("dues") == 1


def test_the_fast_identifier_split_gives_the_words_of_split_identifier() -> None:
    from orbitkb.domain.text import split_identifier

    tokens = ["HTTPServerError", "getHTTPResponseCode2XX", "snake_case__ID", "order_itemsV2", "JSONtoXML",
              "a3f5bc2d9e0fabcdef0123", "URLsAndIDs", "x_y_zed", "ABCDef", "iOSDevice", "Base64Encoder"]
    for token in tokens:
        assert vocabulary._token_words(token) == tuple(
            w for w in split_identifier(token) if vocabulary._useful(w)
        ), token


def test_lock_files_have_no_vocabulary() -> None:
    assert not vocabulary.has_words("web/package-lock.json") and not vocabulary.has_words("svc/go.sum")
    assert not vocabulary.has_words("Gemfile.lock") and vocabulary.has_words("web/package.json")
