"""Every path that reads page data is linear in its size (issue 54, section 2).

One test per input class that was found super-linear, each through ``tests.linear``'s
``assert_linear``: the CPU time at 8n over the time at n, in this process (linear is about
8, quadratic 64). No test asserts a time. The inputs are made here; the deep ones are
built with lxml's API, which has no nesting limit, so that depth and count grow together.

The last test runs every compiled pattern of the package over strings that make
backtracking patterns explode (runs of one character class, alternations of two).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from lxml import etree

import scrapy_webclean
from scrapy_webclean import CleanOptions, clean_html
from scrapy_webclean.ads.features import is_ad_host
from scrapy_webclean.ads.links import image_links
from scrapy_webclean.blocklabels import common_ancestor, node_path
from scrapy_webclean.errors import CleanError
from scrapy_webclean.extraction.dates import time_date
from scrapy_webclean.extraction.declared import declared_text, replace_tags
from scrapy_webclean.extraction.hints import node_hints
from scrapy_webclean.extraction.lines import Line, build_lines
from scrapy_webclean.extraction.pagekind import FORUM_URL_RE, looks_like_forum
from scrapy_webclean.extraction.paths import path_similarities, path_similarity, tag_path
from scrapy_webclean.extraction.repeats import drop_repeated_copies
from scrapy_webclean.extraction.title import (
    HEADING_TEXT_MAX_CHARS,
    pick_title,
    strip_permalink_marks,
)
from scrapy_webclean.extraction.verdicts import (
    drop_after_related_headings,
    in_h1,
    keep_introduced_lists,
    keep_linked_headings,
)
from scrapy_webclean.extraction.vocabulary import CONSENT_RE
from scrapy_webclean.html.encoding import decode_html, without_markup
from scrapy_webclean.html.loader import Limits, flatten_deep_tags, load_html, parse_html
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.pagewalk import build_page_model
from scrapy_webclean.segmentation.classify import QuarkClassifier, token_overlap
from scrapy_webclean.text.sentences import split_sentences
from tests.linear import MAX_GROWTH, MIN_SECONDS, assert_linear, growth_ratio

EN = "The council voted on Tuesday to turn the old harbour exchange into a library annex."
URL = "http://example.com/news/a-story"
PRIVATE_USE = "\ue000"
#: :func:`assert_linear_repeated` repeats a function at most this many times.
MAX_REPEATS = 1_000


def page(body: str, head: str = "", title: str = "A story") -> str:
    return f"<html><head><title>{title}</title>{head}</head><body>{body}</body></html>"


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    """The shipped models load on the first page: not part of any measurement."""
    clean_html(page(f"<article><h1>Warm</h1><p>{EN}</p><p>{EN}</p></article>"), URL)


def _cleaned(html: str, options: CleanOptions | None = None) -> object:
    try:
        result = clean_html(html, URL, options=options)
    except CleanError as exc:
        return exc.reason
    return result.text, result.blocks


# -- Trees built with lxml's API (no parser, no nesting limit) ---------------------------


def _tree(body: Callable[[etree._Element], None]) -> etree._Element:
    root = etree.Element("html")
    head = etree.SubElement(root, "head")
    etree.SubElement(head, "title").text = "A story"
    body(etree.SubElement(root, "body"))
    return root


def _nest(parent: etree._Element, tag: str, depth: int, **attributes: str) -> etree._Element:
    """``depth`` elements ``tag``, each inside the one before, under ``parent``; the
    innermost is returned."""
    for _ in range(depth):
        parent = etree.SubElement(parent, tag, **attributes)
    return parent


def assert_linear_repeated(
    func: Callable[[Any], object], make_input: Callable[[int], Any], n: int, what: str
) -> None:
    """``assert_linear`` with ``func`` repeated enough times that ``n`` takes
    ``linear.MIN_SECONDS`` at once, so that ``n`` is not doubled: for inputs built with
    lxml's API (whose cost grows with the square of the depth: each new element climbs to
    the root), and for inputs with a bound of their own (a page read up to a limit)."""
    sample = make_input(n)
    once = 1.0
    for _ in range(3):  # (the least of three: a first run may pay for a cache)
        started = time.process_time()
        func(sample)
        once = min(once, time.process_time() - started)
    once = max(once, 1e-6)
    times = min(max(1, math.ceil(2 * MIN_SECONDS / once)), MAX_REPEATS)

    def repeated(value: Any) -> None:
        for _ in range(times):
            func(value)

    assert_linear(repeated, make_input, n, what)


def _model_and_lines(root: etree._Element) -> tuple[PageModel, list[Line]]:
    model = build_page_model(root, URL)
    return model, build_lines(model)


# -- The classes the issue names ---------------------------------------------------------


def test_a_heading_ending_in_a_run_of_private_use_glyphs() -> None:
    def make(n: int) -> str:
        return page(f"<h1>Title{PRIVATE_USE * n}x</h1><p>{EN}</p>", title="Title")

    assert_linear(_cleaned, make, 2_000, "<h1>Title + private-use run + x (clean_html)")
    assert_linear(strip_permalink_marks, lambda n: "Title" + PRIVATE_USE * n + "x", 10_000, "marks")
    assert strip_permalink_marks("Models \u00b6" + PRIVATE_USE + " \n") == "Models"
    assert strip_permalink_marks("C#") == "C#"


def test_tag_scanning_after_libxml2s_nesting_limit() -> None:
    # Over 2,048 levels libxml2 gives up and the page is flattened, tag by tag.
    def deep(n: int) -> str:
        return page("<div>" * (3_000 + n) + f"<p>{EN}</p>" + "</div>" * (3_000 + n))

    assert_linear(lambda text: parse_html(text), deep, 2_000, "<div> nested over 2,048")
    assert_linear(flatten_deep_tags, lambda n: "<a" + "b" * n, 10_000, "unclosed tag name")
    assert_linear(flatten_deep_tags, lambda n: "<a " + "b" * n, 10_000, "unclosed attributes")


def test_stray_end_tags_after_deep_nesting() -> None:
    def make(n: int) -> str:
        return "<div>" * n + "</span>" * n

    assert_linear(flatten_deep_tags, make, 4_000, "<div>×n + </span>×n (flattening)")

    def refused(n: int) -> str:
        return page("<div>" * (3_000 + n) + "</span>" * (3_000 + n))

    def load(html: str) -> str:
        with pytest.raises(CleanError) as caught:
            load_html(html, limits=Limits())
        return caught.value.reason

    assert load(refused(10)) == "too_deep"
    assert_linear_repeated(load, refused, 4_000, "<div>×n + </span>×n (refused)")


def test_runs_of_less_than_signs_in_declared_text_and_undeclared_pages() -> None:
    assert_linear(lambda text: replace_tags(text, " "), lambda n: "<" * n, 10_000, "declared <")

    def product(n: int) -> etree._Element:
        script = (
            '<script type="application/ld+json">{"@type": "Product", "description": "'
            + "<" * n
            + '"}</script>'
        )
        return load_html(page(f"<p>{EN}</p>", head=script)).root

    assert_linear_repeated(declared_text, product, 10_000, "JSON-LD description of <")
    assert_linear(without_markup, lambda n: "<" * n, 10_000, "encoding: <×n")
    assert_linear(without_markup, lambda n: "<script>" * n, 2_000, "encoding: <script>×n")
    latin = "café crème brûlée, à la carte".encode("cp1252")
    # (the page's first 65,536 characters are read for its words: 8n stays under that)
    assert_linear_repeated(decode_html, lambda n: b"<" * n + latin, 2_000, "undeclared <")


def test_many_images_in_one_link_and_links_in_links() -> None:
    def gallery(n: int) -> etree._Element:
        images = "".join(f'<img src="/i/{i}.jpg"> picture {i} ' for i in range(n))
        return load_html(page(f'<div><a href="/gallery">{images}</a></div>')).root

    assert_linear_repeated(lambda root: image_links(root, URL), gallery, 500, "images in one <a>")

    def nested(n: int) -> etree._Element:
        def body(parent: etree._Element) -> None:
            for i in range(n):
                parent = etree.SubElement(parent, "a", href=f"/a{i}")
                etree.SubElement(parent, "img", src=f"/i/{i}.jpg").tail = " "
            parent.text = "x" * 300

        return _tree(body)

    assert_linear_repeated(
        lambda root: image_links(root, URL), nested, 100, "<a> in <a>, an image each"
    )

    def deep_hidden(n: int) -> tuple[etree._Element, set[etree._Element]]:
        hidden: set[etree._Element] = set()

        def body(parent: etree._Element) -> None:
            inner = _nest(parent, "div", n)
            for i in range(n):
                etree.SubElement(inner, "img", src=f"/i/{i}.jpg")
            hidden.add(parent)

        return _tree(body), hidden

    assert_linear_repeated(
        lambda made: image_links(made[0], URL, made[1]), deep_hidden, 100, "hidden images deep"
    )


def test_the_forum_url_pattern_on_a_long_url() -> None:
    def url(n: int) -> str:
        return "https://example.com" + "/forum" * (n // 6)

    assert_linear(FORUM_URL_RE.search, url, 4_000, "/forum repeated")
    assert_linear(looks_like_forum, lambda n: "https://example.com/t/" + "a" * n, 4_000, "/t/a…")
    assert looks_like_forum("https://example.com/forum/forum/forum/12")
    assert not looks_like_forum("https://example.com/forum/forum/forum?page=2")


@pytest.mark.parametrize("unit", [".", "!!", "?.", ".;"])
def test_sentence_splitting_on_runs_of_full_stops(unit: str) -> None:
    assert_linear(split_sentences, lambda n: unit * (n // len(unit)) + "x", 4_000, unit * 3)


def _repeated(unit: str, n: int) -> str:
    return unit * (n // len(unit))


def test_the_consent_pattern() -> None:
    for word in ("cookie ", "consent ", "accept "):
        assert_linear(CONSENT_RE.search, partial(_repeated, word), 20_000, word)
    assert CONSENT_RE.search("We and our partners use cookies. Accept all cookies")


# -- Classes found auditing the package ----------------------------------------------------


def test_sections_under_related_headings() -> None:
    def make(n: int) -> tuple[PageModel, list[Line]]:
        sections = "".join(
            f"<div><h3>Related</h3><ul><li><a href='/r{i}'>Story {i}</a></li></ul></div>"
            for i in range(n)
        )
        root = load_html(page(f"<article><p>{EN}</p></article>{sections}")).root
        return _model_and_lines(root)

    def drop(made: tuple[PageModel, list[Line]]) -> None:
        model, lines = made
        drop_after_related_headings(model, lines, [True] * len(lines))

    assert_linear_repeated(drop, make, 200, "related sections")

    def nested(n: int) -> tuple[PageModel, list[Line]]:
        def body(parent: etree._Element) -> None:
            for _ in range(n):
                parent = etree.SubElement(parent, "div")
                etree.SubElement(parent, "h3").text = "Related"
            for i in range(n):
                etree.SubElement(parent, "p").text = f"{EN} {i}"

        return _model_and_lines(_tree(body))

    assert_linear_repeated(drop, nested, 100, "related sections nested")


def test_lines_deep_in_inline_elements() -> None:
    def make(n: int) -> tuple[PageModel, list[Line]]:
        def body(parent: etree._Element) -> None:
            inner = _nest(etree.SubElement(parent, "p"), "b", n)
            for i in range(n):
                etree.SubElement(inner, "br").tail = f"line {i} of the text"

        return _model_and_lines(_tree(body))

    assert_linear_repeated(lambda made: build_lines(made[0]), make, 200, "lines in nested <b>")

    def headline(made: tuple[PageModel, list[Line]]) -> int:
        model, lines = made
        return sum(in_h1(model, line) for line in lines)

    assert_linear_repeated(headline, make, 200, "in_h1 of lines in nested <b>")


def test_repeated_lines_deep_down() -> None:
    def make(n: int) -> tuple[PageModel, list[Line]]:
        def body(parent: etree._Element) -> None:
            inner = _nest(parent, "div", n, **{"class": "box"})
            for _ in range(n):
                etree.SubElement(etree.SubElement(inner, "section"), "p").text = EN
                etree.SubElement(inner, "p").text = EN

        return _model_and_lines(_tree(body))

    def drop(made: tuple[PageModel, list[Line]]) -> None:
        model, lines = made
        drop_repeated_copies(model, lines, [True] * len(lines), 1.0)

    assert_linear_repeated(drop, make, 100, "repeated lines deep down")


def test_block_paths_and_the_common_ancestor_deep_down() -> None:
    def make(n: int) -> PageModel:
        def body(parent: etree._Element) -> None:
            inner = _nest(parent, "div", n, **{"class": "c"})
            for i in range(n):
                etree.SubElement(inner, "p").text = f"{EN} {i}"

        return build_page_model(_tree(body), URL)

    def paths(model: PageModel) -> int:
        nodes = [i for i, tag in enumerate(model.tags) if tag == "p"]
        return sum(len(node_path(model, node)) for node in nodes) + common_ancestor(model, nodes)

    assert_linear_repeated(paths, make, 100, "block paths deep down")


def test_titles_of_icons_and_headings_deep_down() -> None:
    def icons(n: int) -> etree._Element:
        root = etree.Element("html")
        body = etree.SubElement(root, "body")
        inner = _nest(etree.SubElement(body, "svg"), "g", n)
        for _ in range(n):
            etree.SubElement(inner, "title").text = "icon"
        etree.SubElement(body, "p").text = EN
        return root

    assert_linear_repeated(
        lambda root: build_page_model(root, URL), icons, 100, "icon titles deep down"
    )

    def headings(n: int) -> PageModel:
        # (each heading is read up to HEADING_TEXT_MAX_CHARS, not through all below it)
        def body(parent: etree._Element) -> None:
            for i in range(n):
                parent = etree.SubElement(parent, "h1")
                parent.text = f"Heading {i} " + "x" * HEADING_TEXT_MAX_CHARS

        return build_page_model(_tree(body), URL)

    assert_linear_repeated(pick_title, headings, 20, "<h1> in <h1>")

    def spans(n: int) -> PageModel:
        def body(parent: etree._Element) -> None:
            inner = _nest(etree.SubElement(parent, "h1"), "span", n)
            for i in range(n):
                etree.SubElement(inner, "i").tail = f"w{i} "

        return build_page_model(_tree(body), URL)

    assert_linear_repeated(pick_title, spans, 100, "heading text in nested spans")


def test_product_descriptions_deep_down_and_nested() -> None:
    def siblings(n: int) -> etree._Element:
        def body(parent: etree._Element) -> None:
            item = etree.SubElement(
                parent, "div", itemscope="", itemtype="https://schema.org/Product"
            )
            inner = _nest(item, "div", n)
            for i in range(n):
                etree.SubElement(inner, "p", itemprop="description").text = f"{EN} {i}"

        return _tree(body)

    assert_linear_repeated(declared_text, siblings, 100, "descriptions deep down")

    def nested(n: int) -> etree._Element:
        def body(parent: etree._Element) -> None:
            item = etree.SubElement(
                parent, "div", itemscope="", itemtype="https://schema.org/Product"
            )
            inner = _nest(item, "div", n, itemprop="description")
            inner.text = EN * n

        return _tree(body)

    assert_linear_repeated(declared_text, nested, 100, "descriptions in descriptions")
    assert EN.lower() in declared_text(nested(3))


def test_block_similarity_against_the_longest_block() -> None:
    def make(n: int) -> str:
        teasers = "".join(f"<div><p>{EN} Teaser number {i}, in full.</p></div>" for i in range(n))
        return page(f"<article><p>{(EN + ' ') * n}</p></article>{teasers}")

    options = CleanOptions(explain=True)
    assert_linear(lambda html: _cleaned(html, options), make, 100, "blocks against the longest")
    assert token_overlap(Counter("aab"), Counter("abbc")) == 2 / 3
    assert token_overlap(Counter(), Counter("a")) == 0.0


def test_linked_lines_of_one_heading_and_headings_in_headings() -> None:
    def one_heading(n: int) -> tuple[PageModel, list[Line]]:
        links = "<br>".join(f"<a href='#s{i}'>Section {i}</a>" for i in range(n))
        root = load_html(page(f"<article><p>{EN}</p><h2>{links}</h2></article>")).root
        return _model_and_lines(root)

    def keep(made: tuple[PageModel, list[Line]]) -> list[bool]:
        model, lines = made
        kept = [False] * len(lines)
        keep_linked_headings(model, lines, kept, [True] * len(lines), URL)
        return kept

    assert all(keep(one_heading(3))[1:])
    assert_linear_repeated(keep, one_heading, 200, "linked lines of one heading")

    def nested(n: int) -> tuple[PageModel, list[Line]]:
        def body(parent: etree._Element) -> None:
            for i in range(n):
                parent = etree.SubElement(parent, "h2")
                etree.SubElement(parent, "a", href=f"#s{i}").text = f"Section {i}"
                etree.SubElement(parent, "br")

        return _model_and_lines(_tree(body))

    assert_linear_repeated(keep, nested, 100, "headings in headings")


def test_lists_with_no_kept_line_before_them() -> None:
    def make(n: int) -> tuple[PageModel, list[Line]]:
        lists = "".join(f"<ul><li><a href='/r{i}'>Story {i}</a></li></ul>" for i in range(n))
        return _model_and_lines(load_html(page(lists)).root)

    def keep(made: tuple[PageModel, list[Line]]) -> None:
        model, lines = made
        keep_introduced_lists(model, lines, [False] * len(lines), [True] * len(lines))

    assert_linear_repeated(keep, make, 500, "lists, none introduced")


def test_tag_paths_of_lines_deep_down() -> None:
    def make(n: int) -> tuple[PageModel, list[int]]:
        def body(parent: etree._Element) -> None:
            inner = _nest(parent, "div", n)
            for i in range(n):
                etree.SubElement(inner, "p").text = f"{EN} {i}"

        model = build_page_model(_tree(body), URL)
        return model, [i for i, tag in enumerate(model.tags) if tag == "p"]

    def similarities(made: tuple[PageModel, list[int]]) -> list[float]:
        model, nodes = made
        return path_similarities(model, tag_path(model, nodes[0]), nodes)

    model, nodes = make(5)
    reference = tag_path(model, nodes[0])
    assert path_similarities(model, reference, nodes) == [
        path_similarity(reference, tag_path(model, node)) for node in nodes
    ]
    assert_linear_repeated(similarities, make, 100, "tag paths deep down")


def test_headers_in_headers() -> None:
    def make(n: int) -> PageModel:
        def body(parent: etree._Element) -> None:
            for i in range(n):
                parent = etree.SubElement(parent, "header")
                parent.text = f"Site header {i} "

        return build_page_model(_tree(body), URL)

    def hints(model: PageModel) -> list[int]:
        model.memo.clear()
        return node_hints(model, [0.0] * len(model))

    assert_linear_repeated(hints, make, 100, "<header> in <header>")


def test_dated_times_outside_articles_deep_down() -> None:
    def make(n: int) -> etree._Element:
        def body(parent: etree._Element) -> None:
            inner = _nest(parent, "div", n)
            for _ in range(n):
                etree.SubElement(inner, "time", datetime="2026-01-02").text = "2 Jan"

        return _tree(body)

    assert time_date(make(3)) == "2026-01-02"
    assert_linear_repeated(time_date, make, 100, "<time> deep down, no article")


def test_a_long_image_host() -> None:
    assert_linear_repeated(
        is_ad_host, lambda n: "a." * (n // 2) + "example.com", 20_000, "a.a.a..."
    )
    assert is_ad_host("x." * 1_000 + "doubleclick.net")


# -- Every pattern of the package ------------------------------------------------------


def _patterns_in(value: Any, where: str, depth: int = 0) -> Iterator[tuple[str, re.Pattern[Any]]]:
    if isinstance(value, re.Pattern):
        yield where, value
    elif depth < 2 and isinstance(value, (tuple, list, frozenset, set)):
        for i, item in enumerate(value):
            yield from _patterns_in(item, f"{where}[{i}]", depth + 1)
    elif depth < 2 and isinstance(value, dict):
        for key, item in value.items():
            yield from _patterns_in(item, f"{where}[{key!r}]", depth + 1)
    elif depth < 1 and type(value).__module__.startswith("scrapy_webclean."):
        # (an object of the package: a NoiseWords' patterns, a classifier's)
        slots = getattr(type(value), "__slots__", ())
        names = list(getattr(value, "__dict__", {})) + [s for s in slots if hasattr(value, s)]
        for name in names:
            yield from _patterns_in(getattr(value, name), f"{where}.{name}", depth + 1)


def package_patterns() -> list[tuple[str, re.Pattern[Any]]]:
    """Every compiled pattern a module of the package holds: at module level, in a class,
    in a tuple, list or dict of them, or in an object of the package's."""
    found: dict[int, tuple[str, re.Pattern[Any]]] = {}
    for info in pkgutil.walk_packages(scrapy_webclean.__path__, "scrapy_webclean."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            where = f"{info.name}.{name}"
            if isinstance(value, type) and value.__module__ == info.name:
                for attribute, item in vars(value).items():
                    for place, pattern in _patterns_in(item, f"{where}.{attribute}", 1):
                        found.setdefault(id(pattern), (place, pattern))
                continue
            for place, pattern in _patterns_in(value, where):
                found.setdefault(id(pattern), (place, pattern))
    for place, pattern in _patterns_in(QuarkClassifier().noise_re, "QuarkClassifier.noise_re"):
        found.setdefault(id(pattern), (place, pattern))
    return list(found.values())


#: What the strings are made of: one character of each class, and pairs and words whose
#: runs make backtracking patterns try again from every place (a run of "." not followed
#: by a space, "<" never closed, "1," as a number that never ends, "](" as a link that never
#: closes, private-use glyphs at a heading's end, ...).
ADVERSARIAL_UNITS = (
    *("a", " ", "\t", "\n", "1", ".", "<", ">", "-", "/", "=", "&", "'", '"', ":", "_"),
    *("中", "。", PRIVATE_USE, "\u00b6", "\u00a0", "é"),
    *("](", "a.", "a ", "1,", "1.", "1-", "!!", "<a ", "<!--", "<script>", "</span>", "&#"),
    *("www.", "http://", "/forum", "/t/", "cookie ", "consent ", "Photo: ", "2026-", "@a"),
    *(PRIVATE_USE + " ", "a-", "a_", "\u00b6 ", "中。", "( ", "[a", "1 ", "a:"),
)
#: Each run is tried bare and followed by a character that no pattern expects there.
ADVERSARIAL_ENDS = ("", "x")
#: The sizes of the first look (characters).
SMALL, LARGE = 500, 4_000
#: A pattern whose first look at LARGE takes at least this long (CPU seconds) and grows by
#: more than :data:`LOOK_RATIO` from SMALL is measured properly (``growth_ratio``), on at
#: most :data:`MAX_MEASURED` of its worst strings.
LOOK_SECONDS = 0.0005
LOOK_RATIO = 16
MAX_MEASURED = 2
#: Patterns that are linear only through the one function that uses them, and why (that
#: function has a test of its own above).
LINEAR_THROUGH = {
    "scrapy_webclean.extraction.declared._TAG_RE": (
        "declared.replace_tags searches only up to the text's last '>'"
    ),
    # (matched at the start of a string only, never searched: one try, in its length)
    "scrapy_webclean.markdown._SCHEME_RE": "markdown: _SCHEME_RE.match only",
    "scrapy_webclean.redact._SCHEME_RE": "redact: _SCHEME_RE.match only",
    "scrapy_webclean.redact._HOST_PORT_RE": "redact: _HOST_PORT_RE.fullmatch only",
    "scrapy_webclean.report_sanitize._SCHEME_RE": "report_sanitize: _SCHEME_RE.match only",
}


def _search_all(pattern: re.Pattern[Any], subject: Any) -> None:
    pattern.search(subject)
    for _ in pattern.finditer(subject):
        pass


def _look(pattern: re.Pattern[Any], subject: Any) -> float:
    started = time.process_time()
    _search_all(pattern, subject)
    return time.process_time() - started


def _adversarial(unit: str, end: str, as_bytes: bool) -> Callable[[int], Any]:
    def make(n: int) -> Any:
        text = unit * max(1, n // len(unit)) + end
        return text.encode("utf-8") if as_bytes else text

    return make


def test_no_pattern_of_the_package_backtracks_over_its_input() -> None:
    """Every compiled pattern of the package, searched (``search`` and ``finditer``) in
    each adversarial string: a first look at two sizes, then the growth ratio measured
    for the strings that look super-linear."""
    patterns = package_patterns()
    assert len(patterns) > 60
    failures = []
    for where, pattern in patterns:
        if where in LINEAR_THROUGH:
            continue
        suspects = []
        for unit in ADVERSARIAL_UNITS:
            for end in ADVERSARIAL_ENDS:
                make = _adversarial(unit, end, isinstance(pattern.pattern, bytes))
                large = _look(pattern, make(LARGE))
                if large < LOOK_SECONDS:
                    continue
                ratio = large / max(_look(pattern, make(SMALL)), 1e-6)
                if ratio > LOOK_RATIO:
                    suspects.append((ratio, unit, end, make))
        suspects.sort(key=lambda suspect: -suspect[0])
        for _, unit, end, make in suspects[:MAX_MEASURED]:
            ratio, n = growth_ratio(partial(_search_all, pattern), make, SMALL)
            if ratio >= MAX_GROWTH:
                failures.append(f"{where} on {unit!r}×n + {end!r}: {ratio:.0f}x at n={n}")
                break
    assert not failures, "super-linear patterns (8x the input):\n" + "\n".join(failures)
