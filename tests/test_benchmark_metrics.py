"""The extraction benchmark's snippet scoring (``benchmarks/metrics.py``), on made-up texts."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from metrics import PRF, SnippetCounts, snippet_counts


def test_a_snippet_is_found_by_its_words_whatever_its_quotes_dashes_and_spaces() -> None:
    text = "It’s a long—winding road.\nThe menu: Home | About"
    counts = snippet_counts(text, ["it's a long winding", "road the menu"], ["Home  |  About"])
    assert counts == SnippetCounts(2, 0, 1, 0)


def test_a_snippet_must_match_words_in_a_row_from_a_words_start() -> None:
    counts = snippet_counts("cats and dogs", ["ats and", "and dogs", "dogs and"], ["at an"])
    assert counts == SnippetCounts(1, 2, 0, 1)


def test_a_snippets_last_word_may_be_cut_short_and_no_other() -> None:
    # (WCXB cuts some snippets in the middle of a word)
    text = "We simplify payroll operations for small teams."
    counts = snippet_counts(text, ["simplify payrol", "simplif payroll", "small tea"], ["for sm"])
    assert counts == SnippetCounts(2, 1, 1, 0)


def test_a_snippet_without_a_word_is_not_counted_and_an_empty_text_finds_nothing() -> None:
    assert snippet_counts("text", ["—", "text"], ["…"]) == SnippetCounts(1, 0, 0, 0)
    assert snippet_counts("", ["a b"], ["c"]) == SnippetCounts(0, 1, 0, 1)


def test_counts_add_up_over_pages_before_precision_and_recall_are_taken() -> None:
    total = sum([SnippetCounts(3, 1, 1, 5), SnippetCounts(1, 3, 0, 2)], SnippetCounts())
    assert total == SnippetCounts(4, 4, 1, 7)
    assert total.prf == PRF(0.8, 0.5, 2 * 0.8 * 0.5 / 1.3)
    assert total.accuracy == 11 / 16
    assert SnippetCounts().prf == PRF(0.0, 0.0, 0.0)


def test_the_snippet_report_gives_what_the_truths_themselves_hold() -> None:
    from datasets import Dataset, Page
    from extraction_snippets import truth_snippets

    def page(n: int, truth: str, snippets: tuple[tuple[str, ...], tuple[str, ...]] | None) -> Page:
        return Page("w", str(n), None, b"", truth, "w", "w", 0, snippets=snippets)

    dataset = Dataset(
        "w",
        "en",
        [
            page(
                0,
                "Simplify payroll for small teams.",
                (("simplify payrol", "big teams"), ("menu",)),
            ),
            page(1, "", (("anything",), ())),
            page(2, "No snippets here.", None),
        ],
    )
    assert truth_snippets(dataset) == SnippetCounts(1, 2, 0, 1)
    assert truth_snippets(Dataset("w", "en", [page(3, "text", None)])) is None
