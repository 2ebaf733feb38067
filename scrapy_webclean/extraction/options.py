"""The extraction's options: the weights of the line score and the cut-offs of its rules."""

from __future__ import annotations

from dataclasses import dataclass

#: The values of ``favor`` (``CleanOptions.favor``, ``WEBCLEAN_FAVOR``; what each moves:
#: ``extraction.favor``).
BALANCED, PRECISION, RECALL = "balanced", "precision", "recall"
FAVOR_CHOICES: tuple[str, ...] = (BALANCED, PRECISION, RECALL)


def check_favor(value: object) -> str:
    """``value`` when it is one of :data:`FAVOR_CHOICES`; else ``ValueError`` naming it."""
    if not isinstance(value, str) or value not in FAVOR_CHOICES:
        allowed = ", ".join(repr(choice) for choice in FAVOR_CHOICES)
        raise ValueError(f"favor must be one of {allowed}, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    """Weights of the line score (text units) and the keep rules."""

    #: The line score (``line_score``, text units): every line pays ``line_cost``; anchor
    #: text does not count for it and counts ``anchor_weight`` times against it; prose lines
    #: get ``prose_bonus``; a positive score is scaled in positive and weak-negative
    #: containers.
    line_cost: float = 3.0
    anchor_weight: float = 2.0
    prose_bonus: float = 3.0
    positive_factor: float = 1.5
    weak_negative_factor: float = 0.5
    #: Above this link density (0-1) a line is mostly links: not prose, not kept.
    max_link_density: float = 0.5
    #: A line shorter than this (text units) with a noise word is boilerplate.
    short_noise_units: float = 50.0
    #: A region scores at least this (text units).
    min_region_score: float = 20.0
    #: A page whose best subtree scores under ``min_region_score`` but at least this (a
    #: short post, a photo page with a caption) takes that subtree as its region; None
    #: leaves such a page without a region (empty text).
    short_page_min_score: float | None = 0.0
    #: A customised line (headline, date/byline) shorter than this (text units) is metadata.
    metadata_max_units: float = 40.0
    #: Sections beside the best paragraph holder join the region from these shares of its
    #: score (0-1): ``sibling_share`` for its siblings when the best subtree lies elsewhere,
    #: ``outer_share`` for the siblings at each level up to the best subtree around it.
    sibling_share: float = 0.2
    outer_share: float = 0.1
    #: A listing page: its best list holds ``listing_strong_factor`` times the text of the
    #: best paragraph holder, or ``listing_factor`` times when the holder's prose is under
    #: ``article_min_prose_units``; the list has ``min_list_items`` items whose anchors
    #: average ``min_item_title_units`` (text units) per link.
    listing_strong_factor: float = 8.0
    listing_factor: float = 3.0
    article_min_prose_units: float = 100.0
    #: A page the page-type model (``pagetype``, with a line model) calls an article with
    #: at least this probability (0-1) is read as a listing on ``listing_strong_factor``
    #: only: a short story under a long box of other stories stays a story (held out:
    #: dragnet-gold +0.0029, the same from 0.6 to 0.8, less at 0.9; WCXB -0.0002, one
    #: forum page the model calls an article).
    listing_article_probability: float = 0.8
    #: A page whose kept text is under ``gallery_max_units`` (a gallery's slide, a photo
    #: post: a headline's worth) keeps its photo captions (``<figcaption>`` or a container
    #: named "caption", the line or one of its two parents) of ``gallery_caption_min_units``
    #: or more, or that read as prose: there the caption is the text. (Held out:
    #: dragnet-gold +0.0018, WCXB +0.0006, no page down; 60 also took a page down, 15 found
    #: half.)
    gallery_max_units: float = 30.0
    gallery_caption_min_units: float = 20.0
    #: A kept line of this many text units or more that repeats an earlier kept line from
    #: an element of another tag-and-class path (a reply quoting the first post, a second
    #: copy of the article) is dropped (``repeats.drop_repeated_copies``; held out: WCXB
    #: +0.0046, 158 pages up, 71 down; dragnet-gold +0.0026, 11 up, none down; scrapinghub
    #: and zh the same; +0.0047 at 6 units, +0.0044 at 10).
    repeat_min_units: float = 8.0
    #: On a discussion thread, a region inside one of ``thread_min_posts`` or more alike
    #: sibling elements (the posts) becomes their parent, the thread
    #: (``region.thread_region``; held out: WCXB forum pages 0.789 -> 0.801, 3 pages up,
    #: 2 down, the other sets unchanged; 2 posts found parts of one post: +0.0004 only).
    thread_min_posts: int = 3
    #: A page the page-type model (with a line model) calls a collection with at least
    #: this probability (0-1) keeps its best list of items and its best prose region
    #: together, whichever of the two the rules read as the region (a shop category's
    #: product grid and its introduction). Held out: WCXB +0.0014 for the grid beside an
    #: article's region (listing 0.720 -> 0.735, collection 0.683 -> 0.690; 11 pages up,
    #: 6 down; +0.0018 at 0.3, +0.0015 at 0.7), +0.0004 more for the introduction beside
    #: a listing's (collection 0.690 -> 0.697; 10 up, 6 down); the other sets unchanged.
    collection_grid_probability: float = 0.5
    #: A page the page-type model calls documentation from this probability (0-1) reads
    #: the other sections of its region's kind (same tag and class) as its text too.
    documentation_sections_probability: float = 0.5
    min_list_items: int = 5
    min_item_title_units: float = 4.0
    #: The recovery step (``recovery``): prose of at least ``recover_min_units`` outside the
    #: region whose scope has an in-page TF-IDF cosine of at least ``cosine_lambda`` (0-1).
    recover_outside_region: bool = True
    cosine_lambda: float = 0.1
    recover_min_units: float = 40.0
    #: Read a site's front page as a landing page (its whole main element is content),
    #: unless one paragraph holder has at least ``landing_max_holder_share`` (0-1) of the
    #: page's positive line score: then it shows one article (a blog's latest post).
    landing_pages: bool = True
    landing_max_holder_share: float = 0.4
    #: Precision or recall first (``extraction.favor``): "balanced", "precision" or
    #: "recall". Set from ``CleanOptions.favor``.
    favor: str = BALANCED

    def __post_init__(self) -> None:
        check_favor(self.favor)
