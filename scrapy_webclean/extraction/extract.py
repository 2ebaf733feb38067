"""Main-content extraction: one decision from several signals, explained step by step.

1. Every line gets a score in text units (``line_score``): non-anchor text counts for it,
   anchor text twice against it, every line pays a fixed cost (so runs of short menu
   entries add up negative), prose lines (ending in sentence punctuation) get a bonus, and
   the class/id hints of its containers scale it (``hints``). Short lines with a noise
   word, a picture credit or a control's label (``vocabulary``), and lines the site's
   template model has seen on many pages (``template``), count as boilerplate.
2. The *main region* (``region``; steps 2 and 3 are ``reading.read_page``): the node
   whose subtree has the largest sum of line scores, unless the container that directly
   holds the most prose (the "paragraph holder", as in readability) lies elsewhere --
   then the holder, widened level by level with sibling sections that score. Long prose
   split over sibling containers stays one region; a strip of teasers beside the article
   does not take it over. On a discussion thread, a region inside one post becomes the
   container of all posts (``thread_region``).
3. Page type: when the page's prose is thin and one list of title-like linked items
   (same tag and class, ``region.best_list``) holds more text, the page is a *listing*
   and that list is the region; its item titles are kept (a list that keeps nothing, a
   comment thread or a box of other posts, gives the page back to the article region).
   A page the page-type model calls a collection keeps both its list and its best
   prose region (a shop category's product grid and its introduction).
   A site's front page is a *landing* page: its main element (or body) is the region
   (unless one paragraph holder has 40% of its score or more: a blog's latest post).
4. Inside the region a line is kept unless it sits in a strong-negative container
   (comments, share bar, related links), is mostly anchor text, or is noise/template; the
   headline and short customised lines (date/byline) are *metadata*, reported apart
   (``verdicts``). Section headings that link into the page and the linked items of a
   list that a kept line introduces are kept after all; sections under a "related"
   heading and a product page's repeated buy box are dropped.
   Two readings of a page the steps above leave empty: a page whose best subtree scores under
   ``min_region_score`` (a two-line post) keeps that subtree (``short_page_min_score``);
   and a page that still keeps nothing is read again as a discussion thread, whose posts
   are the content, though its address does not say "thread" -- unless the address is a
   dated permalink (``pagekind.looks_like_dated_post``): a blog's video or photo post
   keeps no text rather than its comments.
5. The papers' judges recover prose outside the region (``recovery``): a line whose tag
   path is above the path-similarity threshold of the longest kept line (section 5) and
   whose link-density scope (section 1) has an in-page TF-IDF cosine to the main scope of
   at least ``cosine_lambda`` (section 1) is added. Measured on the dev sets, using them
   to *drop* lines inside the region cost recall and bought no precision; as a recovery
   step they are neutral to slightly positive.
6. A trained line model (``linemodel``), when one is given, makes the final keep/drop
   call per line from the rules' verdicts and the lines' features (``linefeatures``).
   Then the label of a link box whose links were all dropped, left alone in the text's
   tail, is dropped too, and what follows a Chinese article's editor line ("责任编辑：…") is dropped (``lastpasses``).
7. A kept line that repeats an earlier kept line from another place of the page (a
   reply quoting the first post, a second copy of the article) is dropped (``repeats``).

The Quark classifier (section 4) labels the blocks reported beside the text; a block is
finally "content" when most of its text was kept here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scrapy_webclean.extraction.declared import (
    declared_text,
    keep_declared_lines,
)
from scrapy_webclean.extraction.favor import favor_rules
from scrapy_webclean.extraction.hints import node_hints
from scrapy_webclean.extraction.hintwords import POSITIVE, STRONG_NEGATIVE, WEAK_NEGATIVE
from scrapy_webclean.extraction.lastpasses import (
    drop_after_editor_line,
    drop_stranded_labels,
    keep_table_cells,
)
from scrapy_webclean.extraction.linefeatures import RuleState
from scrapy_webclean.extraction.linemodel import LineDecider
from scrapy_webclean.extraction.lines import Line, shows_text
from scrapy_webclean.extraction.options import BALANCED, ExtractOptions
from scrapy_webclean.extraction.pagekind import (
    declares_discussion,
    looks_like_dated_post,
    looks_like_forum,
)
from scrapy_webclean.extraction.pagetype import page_type_features
from scrapy_webclean.extraction.reading import read_page
from scrapy_webclean.extraction.recovery import second_opinion
from scrapy_webclean.extraction.region import sum_up
from scrapy_webclean.extraction.repeats import drop_repeated_copies, drop_repeated_lines
from scrapy_webclean.extraction.verdicts import (
    drop_after_related_headings,
    drop_only_flags,
    keep_introduced_lists,
    keep_linked_headings,
    noise_flags,
    region_verdicts,
    spare_prose_and_code,
)
from scrapy_webclean.extraction.vocabulary import (
    RELATED_HEADING_RE,
    is_picture_credit,
    is_related_heading,
    is_ui_line,
)
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.segmentation.classify import NoiseWords
from scrapy_webclean.urls import document_url

__all__ = [
    "RELATED_HEADING_RE",
    "ExtractOptions",
    "Extraction",
    "extract_main",
    "is_picture_credit",
    "is_related_heading",
    "is_ui_line",
    "line_score",
]


@dataclass(slots=True)
class Extraction:
    """The lines of a page, which are kept as text, which are the region's metadata
    (headline, date/byline lines: content, but reported apart), the region's node, the
    lines' scores, and the page type ("article", "listing", "forum" or "other")."""

    lines: list[Line]
    kept: list[bool]
    region: int
    scores: list[float]
    metadata: list[bool]
    page_type: str = "article"

    @property
    def text_lines(self) -> list[Line]:
        """The kept lines that show something (``shows_text``): the text, one a line."""
        return [
            line
            for line, keep in zip(self.lines, self.kept, strict=False)
            if keep and shows_text(line.text)
        ]

    @property
    def text(self) -> str:
        """The :attr:`text_lines`, one a line."""
        return "\n".join(line.text for line in self.text_lines)


def line_score(line: Line, hint: int, noisy: bool, opts: ExtractOptions) -> float:
    """Score of one line in text units: positive for content-like, negative for boilerplate.

    ``noisy`` says the line is boilerplate: short with a noise word (copyright, 版权, ...),
    a picture credit or a control's label, a consent notice, or a line of the site's
    template.
    """
    if noisy:
        return -line.units - opts.line_cost
    anchor_units = line.units * line.link_density
    score = line.units - anchor_units - opts.anchor_weight * anchor_units - opts.line_cost
    if line.prose:
        score += opts.prose_bonus
    if hint == STRONG_NEGATIVE:
        # Prose in a comment section or sidebar neither draws the region nor, when the
        # section sits inside the article container, pushes the region off the article.
        return min(score, 0.0)
    if score > 0:
        if hint == POSITIVE:
            score *= opts.positive_factor
        elif hint == WEAK_NEGATIVE:
            score *= opts.weak_negative_factor
    return score


def extract_main(
    model: PageModel,
    lines: list[Line],
    noise_re: NoiseWords,
    title: str = "",
    options: ExtractOptions | None = None,
    template_flags: Sequence[bool] | None = None,
    url: str | None = None,
    product: Callable[[], bool] | None = None,
    line_model: LineDecider | None = None,
    markup: str | None = None,
    seen_on_site: Sequence[bool] | None = None,
) -> Extraction:
    """Choose the main region of a page and the content lines in it.

    ``lines`` are the page's lines (``build_lines``); ``template_flags[i]`` says line ``i``
    recurs across the site's pages (``TemplateModel``): it then counts as boilerplate.
    ``product()`` says whether the page sells one product (``looks_like_product``): its
    customer reviews are then read as comments; it is called only when that matters.
    ``line_model`` (``linemodel.LineModel``) makes the final keep/drop call per line from
    the rules' verdicts and the lines' features (``linefeatures``), among them the page's
    type probabilities (``pagetype``; ``markup``, the page's decoded source, gives the
    types its structured data declares). ``seen_on_site[i]`` says line ``i`` was met on
    an earlier page of the site (``TemplateModel.template_evidence``): the line model
    never adds such a line to the rules' (a sidebar box of the site's first pages, before
    the template model flags it). A page that keeps nothing but whose region has metadata
    lines (a headline and a byline over a video) keeps those lines as its text.
    """
    opts = options or ExtractOptions()
    # An AMP or print rendition of a document is read as the document.
    url = document_url(url)
    if not lines or len(model) == 0:
        return Extraction(lines, [False] * len(lines), 0, [], [False] * len(lines), "other")
    type_probs: list[float] = []
    if line_model is not None:
        type_probs = line_model.page_type_probabilities(
            page_type_features(model, lines, url, markup)
        )
    forum = looks_like_forum(url) or declares_discussion(markup)
    args = (
        model,
        lines,
        noise_re,
        title,
        opts,
        template_flags,
        url,
        product,
        line_model,
        type_probs,
        seen_on_site,
    )
    extraction = _extract_once(*args, forum=forum)
    keep_gallery_captions(model, extraction, opts)
    if not forum and not any(extraction.kept) and not looks_like_dated_post(url):
        # Nothing kept, and the page's address does not say "thread": when its text is a
        # discussion (comments and replies), the posts are the content. Not on a dated
        # permalink: there the replies are a post's comments (a video post, a photo post
        # whose text is its title), and no text is better than the comments as its text.
        thread = _extract_once(*args, forum=True)
        if any(thread.kept):
            thread.page_type = "forum"
            extraction = thread
    # (the page has lines, so its model has a root)
    keep_declared_lines(
        lines, extraction.kept, extraction.metadata, declared_text(model.elements[0], markup)
    )
    drop_repeated_copies(model, lines, extraction.kept, opts.repeat_min_units)
    if not any(extraction.kept) and any(extraction.metadata):
        # The region holds a headline and a byline and nothing else (a post whose body is a
        # video or a photo): they are all the page says, its text rather than nothing.
        extraction.kept = extraction.metadata[:]
    return extraction


#: A container named for a photo's caption ("caption", "wp-caption-text", "slide-caption").
_CAPTION_CLASS_RE = re.compile(r"(?<![a-z0-9])caption")
#: How far up from a line its caption container may be (the line's element, two parents).
_CAPTION_LEVELS = 3


def keep_gallery_captions(model: PageModel, extraction: Extraction, opts: ExtractOptions) -> None:
    """On a page that kept next to nothing (``opts.gallery_max_units``: a gallery's slide, a
    photo post), also keep the photos' captions: there they are the text (the hints drop
    captions everywhere else, as the extraction sets' truths do)."""
    kept, lines = extraction.kept, extraction.lines
    if not any(kept):
        return
    if sum(line.units for line, keep in zip(lines, kept, strict=False) if keep) >= (
        opts.gallery_max_units
    ):
        return
    tags, elements, parents = model.tags, model.elements, model.parents
    for i, line in enumerate(lines):
        if kept[i] or not (line.prose or line.units >= opts.gallery_caption_min_units):
            continue
        node = line.node
        for _ in range(_CAPTION_LEVELS):
            if node <= 0:
                break
            if tags[node] == "figcaption" or _CAPTION_CLASS_RE.search(
                (elements[node].get("class") or "").lower()
            ):
                kept[i] = True
                break
            node = parents[node]


def _subtree_sums(model: PageModel, lines: list[Line], scores: Sequence[float]) -> list[float]:
    """Per node, the sum of its subtree's line scores."""
    sums = [0.0] * len(model)
    for line, score in zip(lines, scores, strict=False):
        sums[line.node] += score
    sum_up(sums, model.parents)
    return sums


def _extract_once(
    model: PageModel,
    lines: list[Line],
    noise_re: NoiseWords,
    title: str,
    opts: ExtractOptions,
    template_flags: Sequence[bool] | None,
    url: str | None,
    product: Callable[[], bool] | None,
    line_model: LineDecider | None,
    type_probs: Sequence[float],
    seen_on_site: Sequence[bool] | None,
    forum: bool,
) -> Extraction:
    """``extract_main`` with the page read as a discussion thread or not (``forum``)."""
    n = len(model)
    parents = model.parents
    prose = [0.0] * n
    for line in lines:
        if line.prose and line.link_density < opts.max_link_density:
            prose[line.node] += line.units
    sum_up(prose, parents)
    hints = node_hints(model, prose, forum, product)
    noisy = noise_flags(lines, noise_re, opts)
    # What the verdicts drop: the noisy lines, less prose and code that merely name a
    # noise word, and the calls to action, tag lines and related-link lines. (The
    # region's scores count the noisy lines: a sentence about cookies must not pull the
    # region onto a teaser list.)
    drop_noisy = spare_prose_and_code(model, lines, noisy)
    drop_noisy = [
        dropped or drop_only
        for dropped, drop_only in zip(drop_noisy, drop_only_flags(lines), strict=True)
    ]
    if template_flags is not None:
        noisy = [a or b for a, b in zip(noisy, template_flags, strict=False)]
        drop_noisy = [a or b for a, b in zip(drop_noisy, template_flags, strict=False)]
    scores = [
        line_score(line, hints[line.node], is_noisy, opts)
        for line, is_noisy in zip(lines, noisy, strict=False)
    ]

    subtree = _subtree_sums(model, lines, scores)
    reading = read_page(model, lines, scores, subtree, hints, opts, type_probs, forum, url)
    region, ranges, page_type = reading.region, reading.ranges, reading.page_type
    landing, article_region, article_ranges = (
        reading.landing,
        reading.article_region,
        reading.article_ranges,
    )
    if not ranges:
        return Extraction(
            lines, [False] * len(lines), region, scores, [False] * len(lines), "other"
        )
    in_region, kept, metadata = region_verdicts(
        lines,
        hints,
        drop_noisy,
        ranges,
        title,
        opts,
        page_type == "listing" or reading.grid,
        landing,
        forum,
    )
    if page_type == "listing" and not any(kept) and article_ranges:
        # The list kept nothing (a comment thread or a box of other posts read as the
        # page's list, whose lines the verdicts drop): the page is an article after all.
        region, page_type = article_region, "article"
        in_region, kept, metadata = region_verdicts(
            lines, hints, drop_noisy, article_ranges, title, opts, False, False, forum
        )
    # Lines no later pass may keep: noise, and lines in a strong-negative container.
    blocked = [
        is_noisy or hints[line.node] == STRONG_NEGATIVE
        for line, is_noisy in zip(lines, noisy, strict=False)
    ]
    if opts.recover_outside_region:
        second_opinion(model, lines, kept, blocked, opts)
    # Lines of the region that only their links dropped: a linked section heading, or
    # the items of a list that a kept line introduces, are text.
    linked = [
        in_region[line.node] == 1
        and not keep
        and not meta
        and not is_noisy
        and hints[line.node] != STRONG_NEGATIVE
        and line.link_density > opts.max_link_density
        for line, keep, meta, is_noisy in zip(lines, kept, metadata, drop_noisy, strict=False)
    ]
    if any(linked):
        keep_linked_headings(model, lines, kept, linked, url)
        keep_introduced_lists(model, lines, kept, linked)
    before_structural = kept[:]
    drop_after_related_headings(model, lines, kept)
    if product is not None:
        drop_repeated_lines(lines, kept, product)
    # Lines those structural rules dropped (a "related" section, a
    # repeated buy box): the line model never keeps them again.
    structural = [was and not now for was, now in zip(before_structural, kept, strict=True)]
    # (per line: whether it lies in the region, as the later passes read it)
    region_lines = [in_region[line.node] == 1 for line in lines]
    if forum and page_type == "article":
        page_type = "forum"
    rules_type = "landing" if landing else page_type
    decided: list[bool] | None = None
    if line_model is not None and line_model.decides_on(rules_type, type_probs, lines):
        rules = RuleState(
            kept=kept,
            metadata=metadata,
            in_region=region_lines,
            noisy=noisy,
            drop_noisy=drop_noisy,
            template=template_flags,
            hints=hints,
            scores=scores,
            page_type=rules_type,
            type_probs=type_probs,
            structural=structural,
            seen_on_site=seen_on_site or (),
            favor=opts.favor,
        )
        decided = line_model.decide(model, lines, rules)
        if decided is not None:
            kept = decided
    if decided is None and opts.favor != BALANCED:
        # The rules decide this page: move their verdicts toward precision or recall.
        favor_rules(
            model,
            lines,
            kept,
            metadata,
            region_lines,
            drop_noisy,
            [a or b for a, b in zip(blocked, structural, strict=True)],
            title,
            rules_type,
            opts,
        )
    if "table" in model.tags:
        keep_table_cells(
            model,
            lines,
            kept,
            [a or b or c for a, b, c in zip(blocked, structural, metadata, strict=True)],
            region_lines,
            opts.max_link_density,
        )
    drop_stranded_labels(model, lines, kept, opts.max_link_density)
    drop_after_editor_line(lines, kept)
    return Extraction(lines, kept, region, scores, metadata, page_type)
