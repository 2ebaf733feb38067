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
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache, partial

from scrapy_webclean.blocklabels import labelled_blocks
from scrapy_webclean.extraction.comments import page_comments
from scrapy_webclean.extraction.dates import page_date
from scrapy_webclean.extraction.extract import Extraction, ExtractOptions, extract_main
from scrapy_webclean.extraction.linemodel import LineDecider, default_line_model
from scrapy_webclean.extraction.lines import build_lines
from scrapy_webclean.extraction.metadata import METADATA_FIELDS, page_metadata
from scrapy_webclean.extraction.options import BALANCED, check_favor
from scrapy_webclean.extraction.options import FAVOR_CHOICES as FAVOR_CHOICES  # (re-exported)
from scrapy_webclean.extraction.overlays import without_overlays
from scrapy_webclean.extraction.pagekind import looks_like_product
from scrapy_webclean.extraction.scripttext import script_text, text_html, text_markdown
from scrapy_webclean.extraction.template import TemplateModel, line_signatures, site_of
from scrapy_webclean.extraction.title import drop_site_slogans, pick_title
from scrapy_webclean.gcpause import gc_paused
from scrapy_webclean.html.formulas import inline_formulas
from scrapy_webclean.html.loader import (
    DEFAULT_FALLBACK_ENCODINGS,
    DEFAULT_MAX_DEPTH,
    Limits,
    load_html,
)
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.pagewalk import (
    DEFAULT_CUSTOM_PATTERNS,
    DEFAULT_CUSTOM_TAGS,
    build_page_model,
)
from scrapy_webclean.htmloutput import to_html
from scrapy_webclean.markdown import to_markdown
from scrapy_webclean.result import CleanResult
from scrapy_webclean.segmentation.classify import (
    ClassifierOptions,
    QuarkClassifier,
)
from scrapy_webclean.segmentation.quark import QuarkOptions
from scrapy_webclean.text.language import guess_language


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
    #: Find the reader comments the text leaves out (``CleanResult.comments``).
    include_comments: bool = False
    #: The Markdown and HTML of the main content keep its links (absolute URLs).
    markdown_links: bool = True
    #: The Markdown and HTML of the main content keep its images (``![alt](src)``).
    markdown_images: bool = False
    #: Precision or recall first (``WEBCLEAN_FAVOR``; one of ``FAVOR_CHOICES``):
    #: "balanced" (the default), "precision" (less that may not be content: the line
    #: model keeps a line from a higher probability, the rules drop mostly-linked lines
    #: and short labels at the text's ends) or "recall" (more that may be: a lower
    #: probability, the rules recover more prose and keep captions and byline lines).
    #: What each moves: ``extraction.favor``. It sets ``extract.favor``.
    favor: str = BALANCED

    def __post_init__(self) -> None:
        check_favor(self.favor)
        if self.extract.favor != self.favor:
            object.__setattr__(self, "extract", replace(self.extract, favor=self.favor))


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
    # (the walk skips <math>: its text is put in its place)
    inline_formulas(page.root, page.decoded.text)
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
        drop_site_slogans(model, extraction)
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
    meta_texts = [
        line.text
        for line, meta in zip(extraction.lines, extraction.metadata, strict=False)
        if meta or (line.custom and line.units < 40)
    ]
    date = page_date(page.root, page.decoded.text, meta_texts, model.base_url or url)
    metadata = page_metadata(page.root, model, url, title, meta_texts, markup)
    markdown_builder = partial(
        to_markdown,
        model,
        extraction.text_lines,
        title,
        links=opts.markdown_links,
        images=opts.markdown_images,
    )
    html_builder = partial(
        to_html,
        model,
        extraction.text_lines,
        title,
        links=opts.markdown_links,
        images=opts.markdown_images,
    )
    text_source = "html"
    declared = script_text(page.root, markup, extraction)
    if declared is not None:
        # The markup holds little of the text; the page's structured data declares it.
        text, text_source = declared.text, declared.source
        if extraction.page_type == "other":  # (the markup told nothing; the data does)
            extraction.page_type = declared.page_type
        markdown_builder = partial(text_markdown, title, text)
        html_builder = partial(text_html, title, text)
    comments = page_comments(model, extraction) if opts.include_comments else None
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
        markdown_builder=markdown_builder,
        html_builder=html_builder,
        page_type=extraction.page_type,
        date=date,
        page_model=model if opts.keep_page else None,
        kept_nodes=tuple(line.node for line in kept_lines) if opts.keep_page else (),
        **{name: getattr(metadata, name) for name in METADATA_FIELDS},
        comments=comments,
        text_source=text_source,
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
    # (a consent banner or an ad slot is no part of the page's text, nor of its layout)
    lines = without_overlays(model, build_lines(model))
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
