"""The precision/recall knob, ``CleanOptions.favor`` and ``WEBCLEAN_FAVOR``: "recall" keeps
more of a page than "balanced" (its photo caption and date line, on a page the rules
decide), "precision" less (a mostly-linked line, a short credit at the text's end);
"balanced" is the default; a wrong value stops the crawl at start-up."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from scrapy_webclean import Addon, CleanOptions, CleanPipeline, clean_html
from scrapy_webclean.cleaning import FAVOR_CHOICES
from scrapy_webclean.extraction.favor import THRESHOLD_SHIFT, shifted_thresholds
from scrapy_webclean.extraction.linemodel import keep_flags
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.integration.pipelines import clean_options_from_settings
from scrapy_webclean.integration.settings import SettingError, check_settings
from tests.conftest import drive
from tests.crawlers import crawler_with_engine

ROOT = Path(__file__).resolve().parent.parent
URL = "https://news.example.com/2026/03/02/harbour-library/"
PARAGRAPHS = [
    "The city council voted on Tuesday to turn the empty Harbour Exchange into an annex "
    "of the central library, ending a decade of debate over the building's future.",
    "Work on the roof and the reading rooms starts in May and should take eighteen months, "
    "the council's planning office said in a statement after the vote.",
    "Residents who spoke at the meeting asked for longer opening hours on weekends and for "
    "a room set aside for the harbour's archive of shipping records.",
    "The library's director said the annex would hold the local history collection, which "
    "has been kept in a basement store since the old reading room closed in 2009.",
    "Councillors from both sides welcomed the plan, though two asked how the running costs "
    "would be met once the grant from the national heritage fund runs out.",
]
CAPTION = "The Harbour Exchange seen from the old pier at dawn, before the works begin."
DATE_LINE = "March 2, 2026"
LINKED = "Read the full plan and the harbour map on the council site."
CREDIT = "Reporting: J. Doe"
PAGE = f"""<!doctype html>
<html lang="en"><head><title>Council turns Harbour Exchange into library annex</title></head>
<body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<article>
<h1>Council turns Harbour Exchange into library annex</h1>
<p>{DATE_LINE}</p>
<p>{PARAGRAPHS[0]}</p>
<p>{PARAGRAPHS[1]}</p>
<figure><img src="/img/exchange.jpg" alt=""><figcaption>{CAPTION}</figcaption></figure>
<p>{PARAGRAPHS[2]}</p>
<p>{PARAGRAPHS[3]}</p>
<p>Read the <a href="/plan">full plan</a> and the <a href="/map">harbour map</a> on the
council site.</p>
<p>{PARAGRAPHS[4]}</p>
<p>{CREDIT}</p>
</article>
<aside class="related"><h3>More from the harbour</h3><ul>
<li><a href="/a">Ferry timetable changes for the summer season announced</a></li>
<li><a href="/b">New fish market opens beside the harbour wall this spring</a></li>
<li><a href="/c">Harbour festival returns with tall ships and a night parade</a></li>
</ul></aside>
<footer><p>Copyright 2026 Harbour Gazette. All rights reserved.</p></footer>
</body></html>"""
RELATED = "Ferry timetable changes for the summer season announced"


def lines_of(favor: str, **options: Any) -> list[str]:
    result = clean_html(PAGE, URL, options=CleanOptions(favor=favor, **options))
    return result.text.splitlines()


@pytest.mark.parametrize("options", [{"line_model": None}, {}], ids=["rules", "line-model"])
def test_recall_keeps_more_and_precision_less(options: dict[str, Any]) -> None:
    balanced = lines_of("balanced", **options)
    recall = lines_of("recall", **options)
    precision = lines_of("precision", **options)
    assert set(PARAGRAPHS) <= set(precision)  # the article stays whole in every mode
    assert set(balanced) <= set(recall)
    assert set(precision) <= set(balanced)
    for lines in (balanced, recall, precision):  # what no mode takes: the related box
        assert RELATED not in lines and not any("Copyright" in line for line in lines)


def test_on_a_page_the_rules_decide_recall_keeps_the_caption_and_the_date_line() -> None:
    balanced = lines_of("balanced", line_model=None)
    recall = lines_of("recall", line_model=None)
    assert CAPTION not in balanced and DATE_LINE not in balanced
    assert CAPTION in recall and DATE_LINE in recall
    # (in the text's order, the headline left to the title field)
    assert recall.index(DATE_LINE) < recall.index(PARAGRAPHS[0])
    assert recall.index(PARAGRAPHS[1]) < recall.index(CAPTION) < recall.index(PARAGRAPHS[2])
    assert "Council turns Harbour Exchange into library annex" not in recall


def test_on_a_page_the_rules_decide_precision_drops_the_linked_line_and_the_credit() -> None:
    balanced = lines_of("balanced", line_model=None)
    precision = lines_of("precision", line_model=None)
    assert LINKED in balanced and CREDIT in balanced
    assert LINKED not in precision and CREDIT not in precision
    assert precision == PARAGRAPHS


def test_precision_never_empties_a_page() -> None:
    page = "<html><body><div><p>Short label</p><p>Another label</p></div></body></html>"
    for model in (None, CleanOptions().line_model):
        kept = clean_html(page, options=CleanOptions(line_model=model)).text
        assert clean_html(page, options=CleanOptions(line_model=model, favor="precision")).text
        assert kept


def test_balanced_is_the_default() -> None:
    assert CleanOptions().favor == "balanced" and FAVOR_CHOICES[0] == "balanced"
    assert CleanOptions(favor="balanced") == CleanOptions()
    for options in ({}, {"line_model": None}):
        default = clean_html(PAGE, URL, options=CleanOptions(**options)).to_dict()
        balanced = clean_html(PAGE, URL, options=CleanOptions(favor="balanced", **options))
        assert balanced.to_dict() == default


def test_the_line_model_thresholds_move_by_a_fixed_offset() -> None:
    assert shifted_thresholds(0.6, 0.4, "balanced") == (0.6, 0.4)
    keep, drop = shifted_thresholds(0.6, 0.4, "recall")
    assert keep == pytest.approx(0.6 + THRESHOLD_SHIFT["recall"]) and keep < 0.6 and drop < 0.4
    keep, drop = shifted_thresholds(0.6, 0.4, "precision")
    assert keep > 0.6 and drop > 0.4
    assert shifted_thresholds(0.95, 0.0, "precision")[0] == 1.0
    assert shifted_thresholds(0.95, 0.0, "recall")[1] == 0.0
    probs, rule_keep = [0.5, 0.3, 0.5, 0.2, 0.8], [False, True, True, False, False]
    seen = vetoes = [False] * len(probs)
    flags = {
        favor: keep_flags(probs, rule_keep, seen, vetoes, *shifted_thresholds(0.6, 0.4, favor))
        for favor in FAVOR_CHOICES
    }
    assert flags == {
        "balanced": [False, False, True, False, True],
        "recall": [True, True, True, False, True],
        "precision": [False, False, False, False, True],
    }


def test_a_wrong_favor_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="favor must be one of 'balanced', 'precision'"):
        CleanOptions(favor="max")
    with pytest.raises(ValueError, match="favor"):
        ExtractOptions(favor="Recall")
    options = CleanOptions(favor="recall")
    assert options.extract.favor == "recall"  # what the extraction reads
    assert pickle.loads(pickle.dumps(options)).favor == "recall"  # as a worker gets it


def test_the_setting_reaches_the_cleaner() -> None:
    options = clean_options_from_settings(Settings({"WEBCLEAN_FAVOR": "Recall"}))
    assert options.favor == "recall" and options.extract.favor == "recall"
    assert clean_options_from_settings(Settings()).favor == "balanced"
    assert check_settings({"WEBCLEAN_FAVOR": "precision"})["WEBCLEAN_FAVOR"] == "precision"


def clean_item(**settings: Any) -> list[str]:
    crawler = get_crawler(settings_dict={"WEBCLEAN_WORKERS": 0, **settings})
    pipeline = CleanPipeline.from_crawler(crawler)
    item: dict[str, Any] = drive(pipeline.process_item({"url": URL, "html": PAGE}))
    return str(item["text"]).splitlines()


def test_the_pipeline_cleans_with_the_setting() -> None:
    # (a site's first page: the rules decide it, WEBCLEAN_LINE_MODEL_MIN_SITE_PAGES)
    assert CAPTION in clean_item(WEBCLEAN_FAVOR="recall")
    assert CAPTION not in clean_item()
    assert clean_item(WEBCLEAN_FAVOR="precision") == PARAGRAPHS


@pytest.mark.parametrize("value", ["max", "", 1, "favor_recall"])
def test_a_wrong_setting_stops_the_crawl_at_start_up(value: object) -> None:
    with pytest.raises(SettingError, match=f"WEBCLEAN_FAVOR = {value!r} is not allowed"):
        crawler_with_engine({"ADDONS": {Addon: 0}, "WEBCLEAN_FAVOR": value})
    with pytest.raises(SettingError, match="WEBCLEAN_FAVOR"):
        CleanPipeline.from_crawler(get_crawler(settings_dict={"WEBCLEAN_FAVOR": value}))


def test_the_command_takes_favor(tmp_path: Path) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "scrapy", "webclean", str(page), "--url", URL, *args],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
        )  # fmt: skip

    recall = run("--favor", "recall", "-s", "WEBCLEAN_LINE_MODEL=none")
    assert recall.returncode == 0, recall.stderr[-2000:]
    assert CAPTION in recall.stdout
    wrong = run("--favor", "max")
    assert wrong.returncode != 0 and "--favor" in wrong.stderr
