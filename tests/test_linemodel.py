"""The trained line decision: the model file's format, its inference, its gating by page
type, and the shipped model inside the cleaner."""

from __future__ import annotations

import json
import math
import pickle
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scrapy_webclean import Cleaner, CleanOptions, clean_html
from scrapy_webclean.extraction.linefeatures import (
    FEATURE_NAMES,
    PAGE_TYPE_CODES,
    RuleState,
    line_features,
)
from scrapy_webclean.extraction.linemodel import (
    DEFAULT_MODEL_PATH,
    MODEL_FORMAT,
    LineModel,
    ModelFileError,
    default_line_model,
    line_model_named,
    settled_lines,
    vetoed,
)

N = len(FEATURE_NAMES)
UNITS = FEATURE_NAMES.index("log_units")
DENSITY = FEATURE_NAMES.index("link_density")
RULE_KEEP = FEATURE_NAMES.index("rule_keep")
PAGE_TYPE = FEATURE_NAMES.index("page_type")
SEEN = FEATURE_NAMES.index("seen_on_site")


def stump(feature: int, threshold: float, low: float, high: float) -> dict[str, list[Any]]:
    """A tree of one split: ``low`` up to ``threshold`` of ``feature``, ``high`` above."""
    return {
        "feature": [feature, 0, 0],
        "threshold": [threshold, 0.0, 0.0],
        "left": [1, -1, -1],
        "right": [2, -1, -1],
        "value": [0.0, low, high],
    }


def spec(**overrides: Any) -> dict[str, Any]:
    """Two stumps: +2 for a long line, -3 for a linked one; base -0.5."""
    out: dict[str, Any] = {
        "format": MODEL_FORMAT,
        "features": list(FEATURE_NAMES),
        "keep_above": 0.6,
        "drop_below": 0.4,
        "page_types": [PAGE_TYPE_CODES["listing"]],
        "model_types": [],
        "base": -0.5,
        "depth": 1,
        "trees": [stump(UNITS, 2.0, 0.0, 2.0), stump(DENSITY, 0.5, 0.0, -3.0)],
    }
    out.update(overrides)
    return out


def row(units: float, density: float, rule_keep: bool, page_type: str = "listing") -> list[float]:
    values = [0.0] * N
    values[UNITS] = units
    values[DENSITY] = density
    values[RULE_KEEP] = 1.0 if rule_keep else 0.0
    values[PAGE_TYPE] = float(PAGE_TYPE_CODES[page_type])
    return values


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def test_probabilities_walk_every_tree() -> None:
    model = LineModel(spec())
    rows = [row(3.0, 0.0, True), row(3.0, 0.9, True), row(1.0, 0.0, False), row(1.0, 0.9, True)]
    got = list(model.probabilities(rows))
    expected = [sigmoid(-0.5 + 2.0), sigmoid(-0.5 + 2.0 - 3.0), sigmoid(-0.5), sigmoid(-3.5)]
    assert got == pytest.approx(expected, abs=1e-12)


def test_between_the_thresholds_the_rules_verdict_stands() -> None:
    model = LineModel(spec())
    # p = sigmoid(-0.5) = 0.38 for a short unlinked line: under drop_below (0.4), dropped
    # whatever the rules said; a long line (p = 0.82) is kept whatever the rules said.
    assert model.decide_rows([row(1.0, 0.0, True), row(3.0, 0.0, False)]) == [False, True]
    # p = 0.5 lies between 0.4 and 0.6: the rules decide
    between = LineModel(spec(base=0.0))
    assert between.decide_rows([row(1.0, 0.0, True), row(1.0, 0.0, False)]) == [True, False]


def test_a_line_seen_on_another_page_of_the_site_is_never_added() -> None:
    """The model keeps a long line the rules dropped, unless the site's earlier pages had
    it too (template the template model has not flagged yet); a line the rules kept
    stays."""
    model = LineModel(spec())
    seen = FEATURE_NAMES.index("seen_on_site")
    new, met, kept = row(3.0, 0.0, False), row(3.0, 0.0, False), row(3.0, 0.0, True)
    met[seen] = kept[seen] = 1.0
    assert model.decide_rows([new, met, kept]) == [True, False, True]


def test_the_headline_and_date_lines_stay_out_of_the_text() -> None:
    """A line the rules report apart (the headline, a date line: the title and date
    fields) is never kept as text, however likely the model finds it."""
    model = LineModel(spec())
    metadata = FEATURE_NAMES.index("rule_metadata")
    headline, body = row(3.0, 0.0, False), row(3.0, 0.0, False)
    headline[metadata] = 1.0
    assert model.decide_rows([headline, body]) == [False, True]


def test_pages_of_other_types_keep_the_rules_verdicts() -> None:
    model = LineModel(spec())
    assert model.decide_rows([row(3.0, 0.0, False, "article")]) is None
    assert model.decide_rows([]) is None


def test_the_article_model_decides_on_the_pages_the_general_one_leaves() -> None:
    """A file's ``article_model`` (trees of the same format) decides on the pages the
    general trees leave to the rules (an article), never on a page in a CJK script; the
    general trees keep their own pages."""
    from scrapy_webclean.extraction.lines import Line

    article = spec(
        page_types=[PAGE_TYPE_CODES["article"]], base=5.0, trees=[stump(UNITS, 9.0, 0.0, 0.0)]
    )
    model = LineModel(spec(article_model=article))
    assert model.article_model is not None
    assert model.decides_on("article") and model.decides_on("listing")
    assert not LineModel(spec()).decides_on("article")
    # The article model keeps every line (base 5.0); the general trees drop a linked one.
    rows = [row(1.0, 0.9, True, "article"), row(3.0, 0.0, False, "article")]
    assert model.decide_rows(rows) == [True, True]
    assert model.decide_rows([row(3.0, 0.0, False), row(1.0, 0.9, True)]) == [True, False]
    english_text = "The committee met on Monday to review the plan."
    chinese_text = "委员会周一开会审议了这项计划，成员们一致认为需要修改。"
    english = [Line(0, 1, 0, english_text, len(english_text), 0, 10.0)]
    chinese = [Line(0, 1, 0, chinese_text, len(chinese_text), 0, 26.0)]
    assert model.decide_rows(rows[:1], english) == [True]
    assert model.decide_rows(rows[:1], chinese) is None
    # (so no features are computed for it)
    assert model.decides_on("article", (), english) and not model.decides_on("article", (), chinese)
    # The shipped model carries one.
    shipped = default_line_model()
    assert shipped is not None and shipped.article_model is not None


def test_a_model_of_other_features_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(spec(features=["rule_keep"])), encoding="utf-8")
    with pytest.raises(ModelFileError, match="other features"):
        LineModel.load(path)
    with pytest.raises(ModelFileError, match="not a webclean line model"):
        LineModel(spec(format="pickle"))


def test_the_shipped_model_loads_once_and_is_on_by_default() -> None:
    assert DEFAULT_MODEL_PATH.exists()
    model = default_line_model()
    assert isinstance(model, LineModel)
    assert model is default_line_model()
    assert model.features == FEATURE_NAMES
    assert len(model.ensemble.trees) > 10
    assert model.page_type_model is not None
    assert CleanOptions().line_model is model
    assert line_model_named("default") is model
    assert line_model_named("none") is None


def test_a_model_pickles_as_its_file_or_its_spec(tmp_path: Path) -> None:
    """Worker processes get the options pickled: the shipped model travels as its path
    and comes back as the model the process has read; another file is read anew."""
    shipped = default_line_model()
    assert pickle.loads(pickle.dumps(shipped)) is shipped
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(spec()), encoding="utf-8")
    mine = line_model_named(str(path))
    assert isinstance(mine, LineModel)
    copy = pickle.loads(pickle.dumps(mine))
    assert copy.path == path and copy.decide_rows([row(3.0, 0.0, False)]) == [True]
    unsaved = pickle.loads(pickle.dumps(LineModel(spec(base=50.0))))
    assert unsaved.path is None and unsaved.decide_rows([row(1.0, 0.9, False)]) == [True]


LISTING = (
    "<html><head><title>Recipes</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/about'>About</a> <a href='/contact'>Contact</a></nav>"
    "<main><h1>All our recipes</h1><ul class='cards'>"
    + "".join(
        f"<li class='card'><a href='/recipe/{i}'>Slow-cooked bean stew number {i} "
        f"with smoked paprika</a><p>Ready in {i + 20} minutes.</p></li>"
        for i in range(12)
    )
    + "</ul></main><footer>Copyright 2026 Recipes Inc. All rights reserved.</footer>"
    "</body></html>"
)


def test_the_cleaner_runs_the_model_on_a_listing() -> None:
    options = CleanOptions(line_model=default_line_model())
    with_model = clean_html(LISTING, "https://recipes.example.org/all", options=options)
    rules_only = clean_html(
        LISTING, "https://recipes.example.org/all", options=CleanOptions(line_model=None)
    )
    assert with_model.page_type == rules_only.page_type == "listing"
    assert "bean stew number 3" in with_model.text
    assert "Copyright" not in with_model.text


def test_the_models_verdicts_are_what_the_cleaner_keeps() -> None:
    """A model that keeps only long lines keeps the listing's titles and drops the rest
    (the rules keep both); one that would drop every line leaves the rules' verdicts (it
    never empties a page the rules read); one that leaves listings to the rules changes
    nothing."""
    url = "https://recipes.example.org/all"
    rules_only = clean_html(LISTING, url, options=CleanOptions(line_model=None)).text
    assert "bean stew number 3" in rules_only and "Ready in 23 minutes." in rules_only
    long_only = LineModel(
        spec(
            base=-50.0,
            trees=[stump(UNITS, 2.0, 0.0, 100.0)],
        )
    )
    titles = clean_html(LISTING, url, options=CleanOptions(line_model=long_only)).text
    assert "bean stew number 3" in titles and "Ready in" not in titles
    drop_all = LineModel(spec(base=-50.0))
    assert clean_html(LISTING, url, options=CleanOptions(line_model=drop_all)).text == (rules_only)
    articles_only = LineModel(spec(base=50.0, page_types=[PAGE_TYPE_CODES["article"]]))
    assert clean_html(LISTING, url, options=CleanOptions(line_model=articles_only)).text == (
        rules_only
    )


class Asking:
    """A decider that asks the shipped model and keeps what each page asked it with."""

    def __init__(self) -> None:
        model = default_line_model()
        assert model is not None
        self.model = model
        self.pages: list[tuple[Any, Any, RuleState, list[bool] | None]] = []

    def page_type_probabilities(self, features: Any) -> list[float]:
        return self.model.page_type_probabilities(features)

    def decides_on(self, page_type: str, type_probs: Any = (), lines: Any = ()) -> bool:
        return self.model.decides_on(page_type, type_probs, lines)

    def decide(self, model: Any, lines: Any, rules: RuleState) -> list[bool] | None:
        decided = self.model.decide(model, lines, rules)
        self.pages.append((model, lines, rules, decided))
        return decided


def test_settled_lines_skip_nothing_the_full_rows_would_decide() -> None:
    """On a site's later pages most lines are settled (met before and dropped, or
    vetoed): the model builds no feature rows for them, and decides as it would from
    every row."""
    asking = Asking()
    cleaner = Cleaner(CleanOptions(line_model=asking, line_model_min_site_pages=1))
    article = (
        "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav><article>"
        "<h1>Harbour works begin {n}</h1><p>{body}</p><p>Share this story</p></article><div>"
        "<p>The Harbour Times is an independent weekly paper that has covered the town, "
        "its port and its people since the first edition in 1921.</p></div>"
        "<div><p>Tides today: high water at 06:12 and 18:40.</p></div>"
        "<footer>Copyright 2026 Harbour Times. All rights reserved.</footer></body></html>"
    )
    body = "The council approved the dredging of the old harbour basin on Monday. " * 4
    for n in range(3):
        cleaner.clean(LISTING.replace("number", f"batch {n} number"), f"https://r.example.org/{n}")
        cleaner.clean(
            article.format(n=n, body=body.replace("Monday", f"day {n}")),
            f"https://news.example.org/story/{n}",
        )
    assert asking.pages
    settled_somewhere = False
    asked = [(model, lines, rules) for model, lines, rules, _ in asking.pages]
    # (and every line met before, the rules keeping the even ones and vetoing none: the
    # odd ones are settled)
    asked += [
        (
            model,
            lines,
            replace(
                rules,
                kept=[i % 2 == 0 for i in range(len(lines))],
                metadata=[False] * len(lines),
                drop_noisy=[False] * len(lines),
                template=None,
                structural=(),
                seen_on_site=[True] * len(lines),
            ),
        )
        for model, lines, rules in asked
    ]
    for model, lines, rules in asked:
        rows = line_features(model, lines, rules)
        settled = settled_lines(lines, rules)
        assert settled == [vetoed(row) or bool(row[SEEN] and not row[RULE_KEEP]) for row in rows]
        settled_somewhere = settled_somewhere or any(settled)
        assert asking.model.decide(model, lines, rules) == asking.model.decide_rows(rows, lines)
    assert settled_somewhere


def test_numpy_thread_pools_are_pinned_to_one() -> None:
    code = (
        "import os, sys\n"
        "for k in ('OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS'):\n"
        "    os.environ.pop(k, None)\n"
        "from scrapy_webclean import clean_html\n"
        "assert 'numpy' in sys.modules  # (the language identifier's arrays)\n"
        "clean_html('<p>Some words of a page, enough to read.</p>')\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.split() == ["1", "1"]


class Counting:
    """A decider that decides on nothing and counts what it is asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.rows = 0

    def page_type_probabilities(self, features: Any) -> list[float]:
        return [1.0] + [0.0] * 6

    def decides_on(self, page_type: str, type_probs: Any = (), lines: Any = ()) -> bool:
        self.asked.append(page_type)
        return False

    def decide(self, model: Any, lines: Any, rules: Any) -> None:
        self.rows += len(lines)


def test_no_features_are_computed_for_a_page_the_model_leaves() -> None:
    decider = Counting()
    clean_html(LISTING, "https://recipes.example.org/all", options=CleanOptions(line_model=decider))
    assert decider.asked == ["listing"]
    assert decider.rows == 0
    assert not LineModel(spec()).decides_on("article")
    assert LineModel(spec()).decides_on("listing")


def test_in_a_crawl_the_model_waits_for_the_sites_first_page() -> None:
    """With ``line_model_min_site_pages`` (1 in a crawl), a site's first page is read by
    the rules alone; from the site's second page on the model decides (here one that
    drops every long line: the item titles go, the new short lines stay)."""
    url = "https://recipes.example.org/all"
    second_page = LISTING.replace("Slow-cooked", "Quick").replace("Ready in", "Cooks in")
    drop_long = LineModel(
        spec(
            base=50.0,
            trees=[stump(UNITS, 2.0, 0.0, -100.0)],
        )
    )
    rules = Cleaner(CleanOptions(line_model=None))
    model = Cleaner(CleanOptions(line_model=drop_long, line_model_min_site_pages=1))
    assert model.clean(LISTING, url).text == rules.clean(LISTING, url).text
    rules_second = rules.clean(second_page, url + "?page=2").text
    model_second = model.clean(second_page, url + "?page=2").text
    assert "Quick bean stew number 3" in rules_second and "Cooks in 23 minutes." in rules_second
    assert "Quick bean stew" not in model_second and "Cooks in 23 minutes." in model_second


def test_product_pages_are_decided_by_the_probability_alone() -> None:
    """The shipped model's thresholds per most probable type: on a product page a line is
    kept from a probability of 0.35 up, whatever the rules said (held out, WCXB product
    pages 0.625 -> 0.648); on a collection the model only adds lines; elsewhere a line
    between the two common thresholds keeps the rules' verdict."""
    from scrapy_webclean.extraction.linemodel import default_line_model, keep_flags
    from scrapy_webclean.extraction.pagetype import PAGE_TYPES

    model = default_line_model()
    assert model is not None

    def probs(name: str) -> list[float]:
        return [0.9 if t == name else 0.1 / (len(PAGE_TYPES) - 1) for t in PAGE_TYPES]

    assert model.thresholds(probs("product")) == (0.35, 0.35)
    assert model.thresholds(probs("collection")) == (0.6, 0.0)
    assert model.thresholds(probs("listing")) == (model.keep_above, model.drop_below)
    lines = [0.5, 0.3, 0.5, 0.3]  # a probability each; the rules kept the first two
    rules = [True, True, False, False]
    none = [False] * 4
    assert keep_flags(lines, rules, none, none, *model.thresholds(probs("product"))) == [
        True,
        False,
        True,
        False,
    ]
    assert keep_flags(lines, rules, none, none, *model.thresholds(probs("listing"))) == [
        True,
        False,
        False,
        False,
    ]
