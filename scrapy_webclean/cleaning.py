"""``clean_html``: one page in, a :class:`CleanResult` out. No Scrapy needed.

Pipeline: decode and parse once (``html.loader``) -> page model in one iterative pass
(``html.pagemodel``) -> lines and their main-content verdicts (``extraction``: the region,
the boilerplate vocabulary, the site's template, the recovery step; the text is the lines
kept) -> title, date, language -> on demand, the Quark blocks (segmentation and
classification) that group the links and images by label (``blocklabels``: a block is
content when the extractor kept most of its text, or when it is a figure of the article).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache, partial

from lxml import etree

from scrapy_webclean.blocklabels import labelled_blocks
from scrapy_webclean.extraction.dates import first_date, metadata_date
from scrapy_webclean.extraction.extract import Extraction, ExtractOptions, extract_main
from scrapy_webclean.extraction.linemodel import LineDecider, default_line_model
from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.extraction.pagekind import looks_like_product
from scrapy_webclean.extraction.template import TemplateModel, line_signatures, site_of
from scrapy_webclean.gcpause import gc_paused
from scrapy_webclean.html.loader import (
    DEFAULT_FALLBACK_ENCODINGS,
    DEFAULT_MAX_DEPTH,
    Limits,
    load_html,
)
from scrapy_webclean.html.pagemodel import (
    DEFAULT_CUSTOM_PATTERNS,
    DEFAULT_CUSTOM_TAGS,
    PageModel,
    UrlResolver,
    build_page_model,
    collapse_ws,
)
from scrapy_webclean.markdown import to_markdown
from scrapy_webclean.result import CleanResult
from scrapy_webclean.segmentation.classify import (
    ClassifierOptions,
    QuarkClassifier,
    text_units,
)
from scrapy_webclean.segmentation.quark import QuarkOptions
from scrapy_webclean.text.language import guess_language
from scrapy_webclean.urls import host_of, is_site_root

# (A match starts only where a whitespace run starts, so a long run is scanned once.)
_TITLE_SEPARATORS_RE = re.compile(r"(?<!\s)\s+[-|–—·:]\s+|(?<!\s)\s*[_｜|—–]\s*")


@dataclass(frozen=True, slots=True)
class CleanOptions:
    """Everything ``clean_html`` can be told; the defaults suit news and article sites."""

    custom_tags: tuple[str, ...] = DEFAULT_CUSTOM_TAGS
    custom_patterns: tuple[str, ...] = DEFAULT_CUSTOM_PATTERNS
    quark: QuarkOptions = field(default_factory=QuarkOptions)
    classifier: ClassifierOptions = field(default_factory=ClassifierOptions)
    fallback_encodings: tuple[str, ...] = DEFAULT_FALLBACK_ENCODINGS
    max_depth: int = DEFAULT_MAX_DEPTH
    #: The largest page taken (bytes, nesting, tags, text run); over one, ``OverLimit``.
    limits: Limits = field(default_factory=Limits)
    extract: ExtractOptions = field(default_factory=ExtractOptions)
    #: Compute every judge's signal for each block, including the Quark text-similarity
    #: judge (``Block.similarity``), which the decision does not need. Slower.
    explain: bool = False
    #: Keep the parsed page in ``CleanResult.page_model`` (for ``scrapy_webclean.report``).
    keep_page: bool = False
    #: A trained keep/drop decision per line (``extraction.linemodel``), with the
    #: page-type model beside it (``extraction.pagetype``), or None for the hand rules'
    #: verdicts alone. The default is the model shipped with the package
    #: (``default_line_model()``, read once per process): it decides on listings, forums
    #: and the pages its page-type model finds to be no article or documentation
    #: (services, products, collections), and its article model on the rest but pages in
    #: a CJK script, which the rules decide.
    line_model: LineDecider | None = field(default_factory=lambda: default_line_model())
    #: With a template model (a ``Cleaner``, a crawl), the line model decides only once
    #: this many pages of the page's site were learned: on a site's first page nothing
    #: tells its template from its content (the rules decide there), from the next on a
    #: line met on an earlier page is never added (``WEBCLEAN_LINE_MODEL_MIN_SITE_PAGES``;
    #: ``CleanPipeline`` sets 1, the default 0 decides from the first page on).
    line_model_min_site_pages: int = 0


@lru_cache(maxsize=16)
def _classifier(options: ClassifierOptions) -> QuarkClassifier:
    return QuarkClassifier(options)


@lru_cache(maxsize=16)
def _compiled(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    # One alternation: a single search per text run instead of one per pattern.
    return (re.compile("|".join(f"(?:{p})" for p in patterns)),) if patterns else ()


def clean_html(
    html: bytes | str,
    url: str | None = None,
    *,
    content_type: str | bytes | None = None,
    options: CleanOptions | None = None,
) -> CleanResult:
    """Clean one page: main text, title, language, and blocks with their labels.

    Stateless: nothing is learned. ``html`` may be bytes (decoded with the project's
    encoding policy, using the HTTP ``content_type`` header when given) or text. ``url``
    makes links and image sources absolute. Raises
    :class:`scrapy_webclean.errors.CleanError` (with a ``reason``) when the input is empty
    or not HTML.
    """
    return _clean(html, url, content_type, options or CleanOptions(), None)


class Cleaner:
    """Stateful cleaner: cleaning a page also teaches its site's template.

    Later pages of the same site lose the lines that recur across the site's pages
    (navigation, footers, sidebars, newsletter boxes) even where the page's own structure
    does not show them as boilerplate. The learned state lives in ``template_model``
    (in memory by default, bounded per site). ``CleanPipeline`` uses one per crawl.
    """

    def __init__(
        self, options: CleanOptions | None = None, template_model: TemplateModel | None = None
    ) -> None:
        self.options = options or CleanOptions()
        self.template_model = template_model if template_model is not None else TemplateModel()

    def clean(
        self, html: bytes | str, url: str | None = None, *, content_type: str | bytes | None = None
    ) -> CleanResult:
        """Clean one page (like :func:`clean_html`) and learn from it."""
        return _clean(html, url, content_type, self.options, self.template_model)


def _clean(
    html: bytes | str,
    url: str | None,
    content_type: str | bytes | None,
    opts: CleanOptions,
    template_model: TemplateModel | None,
) -> CleanResult:
    with gc_paused():  # (the page's short-lived objects are freed by reference counting)
        return _clean_page(html, url, content_type, opts, template_model)


def _clean_page(
    html: bytes | str,
    url: str | None,
    content_type: str | bytes | None,
    opts: CleanOptions,
    template_model: TemplateModel | None,
) -> CleanResult:
    page = load_html(html, content_type, opts.fallback_encodings, opts.max_depth, opts.limits)
    patterns = _compiled(opts.custom_patterns)
    model = build_page_model(page.root, url, opts.custom_tags, patterns)
    opts.limits.check_depth(model.parents, model.depth)
    if len(page.decoded.text) > opts.limits.max_text:  # (only then can a run be longer)
        opts.limits.check_runs(run.length for run in model.runs)
    site = site_of(url) if template_model is not None else None
    classifier = _classifier(opts.classifier)
    title = pick_title(model)
    # (asked only when a container's name makes it matter; the answer is kept)
    product = cache(partial(looks_like_product, page.decoded.text))
    markup = page.decoded.text
    extraction, signatures = _extract(
        model, url, site, title, opts, classifier, template_model, product, markup
    )
    if extraction.page_type == "other" and model.hidden_nodes:
        # Nothing readable on show, but hidden elements: a script-driven page that ships
        # its content hidden. Read it as a browser would after the script ran.
        model = build_page_model(page.root, url, opts.custom_tags, patterns, honor_hidden=False)
        title = pick_title(model)
        extraction, signatures = _extract(
            model, url, site, title, opts, classifier, template_model, product, markup
        )
    if extraction.page_type == "other" and any(extraction.kept):
        _drop_site_slogans(model, extraction)
    if template_model is not None and site is not None:
        template_model.learn(site, signatures)
    text = extraction.text
    kept_lines = [
        line
        for line, keep, meta in zip(
            extraction.lines, extraction.kept, extraction.metadata, strict=False
        )
        if keep or meta
    ]
    date = metadata_date(page.root, page.decoded.text) or first_date(
        line.text
        for line, meta in zip(extraction.lines, extraction.metadata, strict=False)
        if meta or (line.custom and line.units < 40)
    )
    # The page's own <html lang> is the prior; the HTTP Content-Language does not reach the
    # cleaner (it takes content_type only), so none is passed.
    lang = guess_language(text or _visible_sample(model), declared=model.lang_attr)
    return CleanResult(
        url=url,
        title=title,
        text=text,
        lang=lang,
        encoding=page.decoded.encoding,
        block_builder=partial(
            labelled_blocks, model, kept_lines, classifier, opts.quark, opts.explain
        ),
        markdown_builder=partial(
            to_markdown,
            model,
            [line for line, keep in zip(extraction.lines, extraction.kept, strict=False) if keep],
            title,
        ),
        page_type=extraction.page_type,
        date=date,
        page_model=model if opts.keep_page else None,
        kept_nodes=tuple(line.node for line in kept_lines) if opts.keep_page else (),
    )


def _visible_sample(model: PageModel, limit: int = 4000) -> str:
    """Up to ``limit`` characters of the page's visible text (for the language guess)."""
    parts: list[str] = []
    size = 0
    for run in model.runs:
        parts.append(run.text)
        size += len(run.text)
        if size >= limit:
            break
    return "".join(parts)[:limit]


#: Lines shorter than this (text units) count as template after one earlier page.
SHORT_LINE_UNITS = 15.0


def _extract(
    model: PageModel,
    url: str | None,
    site: str | None,
    title: str,
    opts: CleanOptions,
    classifier: QuarkClassifier,
    template_model: TemplateModel | None,
    product: Callable[[], bool] | None = None,
    markup: str | None = None,
) -> tuple[Extraction, list[int]]:
    """The extraction of one page model, with template flags when learning; returns the
    line signatures the template model learns from."""
    lines = build_lines(model)
    template_flags = seen_on_site = None
    signatures: list[int] = []
    line_model = opts.line_model
    if template_model is not None and site is not None:
        signatures = line_signatures(model, lines)
        short = [line.units < SHORT_LINE_UNITS for line in lines]
        evidence = template_model.template_evidence(site, signatures, short)
        template_flags, seen_on_site = evidence.flags, evidence.seen
        if evidence.pages < opts.line_model_min_site_pages:
            line_model = None
    extraction = extract_main(
        model,
        lines,
        classifier.noise_re,
        title,
        opts.extract,
        template_flags,
        url,
        product,
        line_model,
        markup,
        seen_on_site,
    )
    return extraction, signatures


#: Text a title is not read from: ruby annotations, scripts and styles.
_TITLE_TEXT_XPATH = etree.XPath(
    ".//text()[not(ancestor::rt or ancestor::rp or ancestor::script or ancestor::style)]"
)


def _element_text(element: etree._Element) -> str:
    return collapse_ws("".join(_TITLE_TEXT_XPATH(element))).strip()


#: ``<meta>`` tags that name the site (not the page).
_SITE_NAME_META = (
    "meta[@property='og:site_name']",
    "meta[@name='application-name']",
    "meta[@name='apple-mobile-web-app-title']",
)
#: Class or id words of a site's logo or name (``class="logo"``, ``id="site-title"``).
_LOGO_RE = re.compile(r"(?<![a-z0-9])(?:logo|site-?(?:title|name))", re.I)
_NAME_KEY_RE = re.compile(r"\W+|_")
#: Host labels that are not a site's name.
_HOST_WORDS = frozenset(("www", "com", "org", "net", "co", "edu", "gov", "ac", "m", "en", "blog"))


def _name_key(text: str) -> str:
    """``text`` reduced for comparing names: lower case, letters and digits only."""
    return _NAME_KEY_RE.sub("", text.casefold())


def _site_names(model: PageModel) -> set[str]:
    """The keys (:func:`_name_key`) of the names the page gives its site: ``og:site_name``
    and the like, and its host's labels and their tails (``en.wikipedia.org``:
    ``wikipedia``, ``wikipediaorg``)."""
    names: set[str] = set()
    root = model.elements[0] if model.elements else None
    if root is not None:
        head = root.find("head")
        scope = head if head is not None else root
        for path in _SITE_NAME_META:
            for meta in scope.iterfind(path):
                key = _name_key(meta.get("content") or "")
                if key:
                    names.add(key)
    labels = host_of(model.base_url).split(".") if model.base_url else []
    for start, label in enumerate(labels):
        if len(label) > 2 and label not in _HOST_WORDS:
            names.add(_name_key(label))
            if start < len(labels) - 1:
                names.add(_name_key("".join(labels[start:])))
    return names


def _logo_names(model: PageModel) -> set[str]:
    """The keys of the alt texts of the images that link to the site's front page (its
    logo: ``<a href="/"><img alt="Site name"></a>``)."""
    names: set[str] = set()
    for image in model.images:
        link = image.link_url
        if link and is_site_root(link):
            key = _name_key(image.alt)
            if key:
                names.add(key)
    return names


def _drop_site_slogans(model: PageModel, extraction: Extraction) -> None:
    """A page read as a few short lines (type "other") whose every kept line opens with
    the site's name ("Example News · Tomorrow's news today", a header's slogan) has no
    main content: its lines are dropped. (A sitemap or an empty section of a site whose
    template the crawl has not learned yet showed the slogan as its text.)"""
    names = {name for name in _site_names(model) | _logo_names(model) if len(name) >= 2}
    if not names:
        return
    kept = [line for line, keep in zip(extraction.lines, extraction.kept, strict=False) if keep]
    if all(any(_name_key(line.text).startswith(name) for name in names) for line in kept):
        extraction.kept = [False] * len(extraction.lines)


def _is_site_name(text: str, site_names: set[str]) -> bool:
    key = _name_key(text)
    return bool(key) and key in site_names


def _is_logo_heading(model: PageModel, node: int) -> bool:
    """True for an ``<h1>`` that is the site's logo: it sits in (or holds) a link to the
    site's front page, or it or its parent is named as a logo or the site's name."""
    element = model.elements[node]
    resolve = UrlResolver(model.base_url)
    anchors = list(element.iter("a"))
    parent = element.getparent()
    for ancestor in element.iterancestors("a"):
        anchors.append(ancestor)
        break
    for anchor in anchors:
        href = (anchor.get("href") or "").strip()
        if href in ("/", "./") or (href and is_site_root(resolve(href))):
            return True
    for candidate in (element, parent):
        if candidate is None:
            continue
        words = (candidate.get("class") or "") + " " + (candidate.get("id") or "")
        if _LOGO_RE.search(words):
            return True
    return False


def pick_title(model: PageModel) -> str:
    """The page's headline.

    The ``<title>`` (or ``og:title``) is split on its separators; the parts that name the
    site (``og:site_name``, a label of the host) are set aside and the longest other part
    is the reference. An ``<h1>`` that matches it is preferred (it has the exact wording);
    an ``<h1>`` that is the site's name or logo (it names the site, or links to the front
    page) is not taken. With no usable title, the first other ``<h1>``. On a site's front
    page the site's name is the page's title: nothing is set aside.
    """
    title_tag = model.meta_title or model.title
    front_page = is_site_root(model.base_url)
    site_names = set() if front_page else _site_names(model)
    headings: list[str] = []
    site_headings: list[str] = []
    for i, tag in enumerate(model.tags):
        if tag != "h1" or not model.visible[i]:
            continue
        heading = _element_text(model.elements[i])
        if not heading:
            continue
        if not front_page and (_is_site_name(heading, site_names) or _is_logo_heading(model, i)):
            site_headings.append(heading)
        else:
            headings.append(heading)
    parts = [p.strip() for p in _TITLE_SEPARATORS_RE.split(title_tag) if p.strip()]
    own_parts = [p for p in parts if not _is_site_name(p, site_names)]
    # (a part that a logo <h1> repeats names the site too, when the title has another)
    logo_keys = {_name_key(h) for h in site_headings}
    if len(own_parts) > 1:
        own_parts = [p for p in own_parts if _name_key(p) not in logo_keys] or own_parts
    if not own_parts:
        # The title names the site only (a front page): it is the title.
        own_parts = parts
        headings = headings or site_headings
    main_part = max(own_parts, key=text_units) if own_parts else ""
    if main_part:
        for heading in headings:
            if heading == main_part or (
                len(heading) >= 0.5 * len(main_part)
                and (heading in main_part or main_part in heading)
            ):
                return heading
    if len(main_part) >= 5 or not headings:
        return main_part or (site_headings[0] if site_headings else "")
    return headings[0]
