"""The extraction benchmark's runs (``benchmarks/extraction_runs.py``): ``--passes``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import extraction_runs
from datasets import Dataset, Page
from extractors import Outcome


def test_passes_keep_each_pages_least_time_and_the_first_passes_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pages = [
        Page("s", str(i), f"http://a.example/{i}", b"", "one two three four five", "a.example",
             "a.example", 0)
        for i in range(2)
    ]  # fmt: skip
    dataset = Dataset("s", "en", pages)
    # Each pass's extractor: its times per page, and a text (the first pass's is the truth).
    passes: Iterator[tuple[list[float], str]] = iter(
        [([5.0, 1.0], "one two three four five"), ([2.0, 3.0], "other"), ([4.0, 0.5], "x")]
    )

    def fresh(
        name: str, dataset: Dataset, htmls: Any, setup: Any = None
    ) -> Callable[[Page, str], Outcome]:
        times, text = next(passes)
        return lambda page, html: Outcome(text, times[int(page.id)])

    monkeypatch.setattr(extraction_runs, "warmed_extractor", fresh)
    results = extraction_runs.run_extractors(["x"], dataset, ["", ""], lambda _: None, passes=3)
    assert [r.ms for r in results["x"]] == [2.0, 0.5]
    token = results["x"][0].token
    assert token is not None and token.f1 == 1.0


def test_each_row_starts_with_the_memo_caches_of_the_pages_emptied() -> None:
    """A row must not reuse what a row before it memoized on the same pages; a cache of
    what is loaded once per process (a model file, compiled options) is kept."""
    import functools

    from extractors import warmed_extractor
    from memo_caches import clear_memo_caches

    from scrapy_webclean.extraction.hintwords import _TOKEN_FLAGS
    from scrapy_webclean.extraction.verdicts import is_noise_text

    @functools.lru_cache(maxsize=4096)
    def per_text(text: str) -> int:
        return len(text)

    @functools.lru_cache(maxsize=8)
    def loader(path: str) -> str:
        return path.upper()

    per_text("a line of a page")
    loader("model.json")
    assert clear_memo_caches() >= 1
    assert per_text.cache_info().currsize == 0
    assert loader.cache_info().currsize == 1

    page = Page("s", "1", "http://a.example/1", b"<p>Share this</p>", "x", "a.example",
                "a.example", 0)  # fmt: skip
    warmed_extractor("ours-rules", Dataset("s", "en", [page]), ["<p>Share this</p>"])
    assert is_noise_text.cache_info().currsize == 0  # (the warm-up's verdicts are gone)
    # ... and so are the class tokens' hint words, which the package memoizes in a dict
    # (a side box beside a longer text: a wrapper of most of the page is not read by name)
    html = "<p>" + "A sentence of the page's own text. " * 20 + "</p><div class='sidebox'>Hi</div>"
    page = Page("s", "1", "http://a.example/1", html.encode(), "x", "a.example", "a.example", 0)
    warmed_extractor("ours-rules", Dataset("s", "en", [page]), [html])
    assert "sidebox" not in _TOKEN_FLAGS


def test_the_fields_benchmark_counts_a_title_and_a_date_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import fields

    def page(i: int, title_tag: str, h1: str, truth: str, date: str | None) -> Page:
        meta = f'<meta property="article:published_time" content="{date}T08:00:00Z">'
        body = f"<p>{'The committee met on Monday to review the plan in detail. ' * 4}</p>"
        html = (
            f"<html><head><title>{title_tag}</title>{meta if date else ''}</head>"
            f"<body><h1>{h1}</h1>{body}</body>"
        )
        return Page("wcxb-dev", str(i), None, html.encode(), "", "a.example", "a.example", i,
                    page_type="article", title=truth, date=date)  # fmt: skip

    pages = [
        page(
            0,
            "Storm hits the coast | Chronicle",
            "Storm hits the coast!",
            "Storm hits the coast",
            "2025-09-04",
        ),
        page(1, "Models | Django documentation", "Models\u00b6", "Models", None),
    ]
    fake = {"title": "storm hits", "date": "2025-09-05 10:00"}

    def broken() -> Any:
        def fields_of(p: Page, h: str) -> dict[str, str]:
            if p.id == "0":
                raise ValueError("a peer failing on a page is data")
            return {"title": "Models"}

        return fields_of

    monkeypatch.setattr(
        fields,
        "EXTRACTORS",
        {"ours": fields._ours, "fake": lambda: lambda p, h: fake, "broken": broken},
    )
    results = fields.run(pages)
    assert [v and v[0] for v in fields.title_verdicts(pages, results["ours"])] == [True, True]
    assert fields.date_verdicts(pages, results["ours"]) == ["right", ""]
    assert fields.date_verdicts(pages, results["fake"]) == ["wrong", "given"]
    # A peer's date in another form counts as its ISO form does.
    assert fields.day("Sep 4, 2025") == fields.day("2025/09/04") == "2025-09-04"
    table = fields.report(pages, results)
    assert "| ours | 2 | 1.000 | 1.000 | – |" in table
    assert "| fake | 2 | 0.000 | 0.333 | +1.000 |" in table
    assert "| ours | 1 | 1.000 | 0.000 | 0.000 | – | 0.000 |" in table
    assert "| fake | 1 | 0.000 | 1.000 | 0.000 | +1.000 | 1.000 |" in table
    # The page it failed on counts as a wrong title; it gives no date at all.
    assert "| broken | 2 | 0.500 | 0.500 | +0.500 |" in table
    assert "| broken | 1 |" not in table


def test_the_set_without_truth_reports_the_lines_its_texts_repeat() -> None:
    import extraction_report

    texts = ["Story one.\nCompany news", "Story two.\nCompany news", "Story three.\nCompany news"]
    pages = [
        Page("t", str(i), f"http://a.example/{i}", b"", None, "a.example", "a.example", 0)
        for i in range(3)
    ]
    dataset = Dataset("t", "zh", pages)
    results = {
        "ours": [
            extraction_runs.score_outcome("ours", page, Outcome(text, 1.0))
            for page, text in zip(pages, texts, strict=True)
        ]
    }
    assert extraction_report.recurring_lines(results["ours"]) == [("Company news", 3)]
    markdown, data = extraction_report.template_report(dataset, results)
    assert "| ours | 1 | 3 | Company news (3) |" in markdown
    assert data["recurring_lines"] == {"ours": [["Company news", 3]]}
    # a line on fewer pages than RECURRING_MIN_PAGES does not count
    assert extraction_report.recurring_lines(results["ours"][:2]) == []
