"""How a page is read: its region (the node ranges its content is taken from) and its
type, step 2 and 3 of ``extract`` (:func:`read_page`).

The best prose region (``region.choose_region``) is the article reading. A page whose
best list of title-like items (``region.best_list``) outweighs that region is a
*listing*, its list the region. A page the page-type model calls a collection keeps both
its list and its prose region (a shop category's product grid and its introduction). On
a discussion thread a region inside one post becomes the container of the posts
(``region.thread_region``). A site's front page whose text is spread over many short
sections is a *landing* page: its main element is the region. A page whose best subtree
scores under ``min_region_score`` (a two-line post) keeps that subtree, typed "other".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.pagetype import PAGE_TYPES
from scrapy_webclean.extraction.region import (
    best_list,
    choose_region,
    join_same_sections,
    landing_range,
    landing_region,
    thread_region,
    widen_to_article_body,
)
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.urls import is_site_root

__all__ = ["Reading", "read_page"]

#: The page-type model's outputs that are an article's and a collection's probability.
_ARTICLE = PAGE_TYPES.index("article")
_COLLECTION = PAGE_TYPES.index("collection")
_DOCUMENTATION = PAGE_TYPES.index("documentation")


@dataclass(slots=True)
class Reading:
    """A page's region (its node and the node ranges its content is taken from; no ranges:
    no region), its type ("article", "listing" or "other"), whether a collection's grid
    joined an article's region (its linked item names are then read as a listing's
    titles), whether it is a landing page, and the article reading (region and ranges),
    which a listing that keeps nothing falls back to."""

    region: int
    ranges: list[tuple[int, int]]
    page_type: str
    grid: bool
    landing: bool
    article_region: int
    article_ranges: list[tuple[int, int]]


def read_page(
    model: PageModel,
    lines: list[Line],
    scores: list[float],
    subtree: list[float],
    hints: list[int],
    opts: ExtractOptions,
    type_probs: Sequence[float],
    forum: bool,
    url: str | None,
) -> Reading:
    """The region and type of a page from its lines' ``scores``, their sums per subtree
    (``subtree``), the containers' ``hints``, the page-type model's ``type_probs`` (empty
    without a model) and whether the page is read as a discussion thread (``forum``)."""
    region, ranges, holder_score = choose_region(model, lines, scores, subtree, opts)
    article_region, article_ranges = region, ranges
    page_type = "article"
    list_node, list_units = best_list(model, lines, hints, opts)
    surely_article = bool(type_probs) and type_probs[_ARTICLE] >= opts.listing_article_probability
    if list_node >= 0 and (
        (
            holder_score < opts.article_min_prose_units
            and list_units >= opts.listing_factor * holder_score
            and not surely_article
        )
        or list_units >= opts.listing_strong_factor * holder_score
    ):
        # More text sits in one list of title-like items than in the best prose region
        # (which is thin, or a small fraction of the list): a listing, hub or collection
        # page. Its items are the content.
        region, ranges, page_type = (
            list_node,
            [(list_node, list_node + model.node_count[list_node])],
            "listing",
        )
    # A shop's category page (the page-type model calls it a collection) is its
    # introduction and its grid of items, whichever of the two reads as the region.
    collection = bool(type_probs) and type_probs[_COLLECTION] >= opts.collection_grid_probability
    if collection and page_type == "listing":
        list_end = list_node + model.node_count[list_node]
        ranges = ranges + [
            (start, end)
            for start, end in article_ranges
            if not start <= list_node < end and not list_node <= start < list_end
        ]
    if forum and page_type == "article" and ranges:
        thread = thread_region(model, region, opts.thread_min_posts)
        if thread > 0:
            region, ranges = thread, [(thread, thread + model.node_count[thread])]
    if page_type == "article":
        ranges = widen_to_article_body(model, ranges, subtree)
        if type_probs and type_probs[_DOCUMENTATION] >= opts.documentation_sections_probability:
            ranges = join_same_sections(model, ranges, subtree)
    # A collection read as an article (its introduction outweighs its grid): the best
    # list joins the region, and its linked item names are read as a listing's titles.
    grid = (
        collection
        and page_type == "article"
        and list_node >= 0
        and not any(start <= list_node < end for start, end in ranges)
    )
    if grid:
        ranges = [*ranges, (list_node, list_node + model.node_count[list_node])]
    landing = (
        page_type == "article"
        and opts.landing_pages
        and is_site_root(url)
        and holder_score < opts.landing_max_holder_share * sum(s for s in scores if s > 0)
    )
    if landing:
        # A site's front page is a landing page, never one article: its content is
        # spread over many short sections (tagline, features, calls to action), so the
        # whole main element (or body) is the region; the verdicts still drop the
        # navigation, link lists, noise and negative containers. (A front page with a
        # list of teasers is a hub: the listing reading above already has it.)
        whole = landing_region(model)
        if whole > 0:
            region, ranges = whole, [landing_range(model, lines, whole)]
    short = opts.short_page_min_score
    if (
        not ranges
        and short is not None
        and not model.hidden_nodes
        and region > 0
        and subtree[region] > short
    ):
        # No region reached ``min_region_score`` and no main element took its place: a
        # short page (a photo's caption, a two-line post) whose best subtree still scores.
        # (A page with hidden elements is first read again with them shown: ``cleaning``.)
        # Its type is "other": a few lines are no article (two sections that both say
        # "No stories yet" are not one story told twice).
        ranges = widen_to_article_body(
            model, [(region, region + model.node_count[region])], subtree
        )
        page_type = "other"
    return Reading(region, ranges, page_type, grid, landing, article_region, article_ranges)
