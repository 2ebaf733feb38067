"""benchmarks/stability.py: a variant's text compared with its original's, the text edits
aligned so that an extractor that kept the same text scores 1."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import stability

ORIGINAL = (
    "The big storm reached the coast on Monday and the big waves broke the old pier.\n"
    "Fishermen said the damage was the worst they had seen in a big while, and that the "
    "harbour would stay closed for 12 days."
)


def test_a_synonym_swap_at_any_occurrence_scores_the_same_text_as_1() -> None:
    # The edit changed the second "big" and the number; its note does not say which "big".
    variant = ORIGINAL.replace("big waves", "large waves").replace("12 days", "15 days")
    note = "big->large, 12->15"
    assert stability.jaccard(variant, ORIGINAL) < 0.9
    assert stability.jaccard(*stability.aligned(variant, ORIGINAL, "synonyms", note)) == 1.0
    assert stability.jaccard(*stability.aligned(variant, ORIGINAL, "minor_edit", note)) == 1.0
    # A text that lost a sentence still scores under 1.
    lost = variant.split("\n")[0]
    assert stability.jaccard(*stability.aligned(lost, ORIGINAL, "synonyms", note)) < 0.6


def test_a_moved_date_is_moved_in_the_original_too() -> None:
    original = "Published March 3, 2024.\n" + ORIGINAL
    variant = "Published March 5, 2024.\n" + ORIGINAL
    note = "2024-03-03 -> 2024-03-05"
    assert stability.jaccard(*stability.aligned(variant, original, "timestamp", note)) == 1.0
    # The raw ceiling: what the edit alone costs unaligned texts.
    assert stability.jaccard(original, stability.changed(original, "timestamp", note)) < 1.0


def test_other_kinds_compare_the_texts_as_they_are() -> None:
    assert stability.aligned("a b", "c d", "ad_block", "300x250: Sponsored") == ("a b", "c d")
    assert stability.jaccard("", "") == 1.0
