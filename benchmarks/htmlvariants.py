"""A dev set of English HTML near-duplicate variants, made from real article pages with a
fixed seed, for ``benchmarks/dedup_html.py`` (issue 22).

Articles: pages of the WCXB dev set (``page_type == "article"`` only, unless
``page_types`` names others: the stability benchmark takes every type), scrapinghub and
dragnet-gold (``benchmarks/datasets.py``) whose cleaned text has at least
:data:`MIN_TEXT_CHARS` characters, at most :data:`MAX_PER_SITE` of a site. A page whose
ground-truth text shares more than :data:`SOURCE_OVERLAP_MAX` of its word 5-grams with an
earlier page of the pool (one story in two sets, a wire story on two sites) is left out, so
that two originals are never copies of each other. :data:`TOPIC_PAIRS` pairs of articles on
one topic (the highest TF-IDF cosine of their cleaned texts, different sites) are taken
first, the rest at random.

Each article is one cluster: its original page and, edited in the HTML with lxml (never in
the text), one variant of each kind of :data:`KINDS` that the page allows:

* ``timestamp``: one date of the page (the first in a short text line, else a ``<time>``,
  else a date ``<meta>``) moved by 1-400 days, in its own format, wherever that date
  stands on the page (lines, ``<time>``, metas);
* ``ad_block``: a ``<div class="ad-slot">`` with a banner ``<img>``, "Advertisement" and a
  "Sponsored: ..." line, after the article's second paragraph;
* ``url_only``: the original bytes under another URL of the site (a tracking query, an
  ``amp`` or ``print`` path);
* ``minor_edit``: one word changed (a synonym, or a number) in each of 3-5 article
  paragraphs;
* ``synonyms``: 5-10 words of the article's paragraphs swapped for synonyms (one a
  paragraph in turn, more in a paragraph when the article has fewer);
* ``boilerplate``: the page's navigation, header and footer elements (``<nav>``,
  ``<header>``, ``<footer>``, ids and classes naming nav, menu, header, footer or masthead;
  none holding article text or the headline) replaced by those of an article of another
  site;
* ``sidebar``: the page's sidebar or related-stories box (an ``<aside>``, or an id or
  class naming sidebar, related, widget, recommended, more stories, popular, trending or a
  rail; holding no article block nor the headline and next to none of the truth; the one
  with most words) replaced by the sidebar box of an article of another site (its box of
  15-400 words with most words), or, when the page has none, that box inserted after the
  article's region;
* ``cookie_banner``: a fixed-position cookie-consent banner (``<div id="cookie-consent"
  class="cookie-banner">``: 1-3 sentences of consent text, a "privacy policy" link,
  Accept and Reject buttons) at the start or at the end of the body;
* ``content_swap``: the article's blocks (paragraphs, subheads, list items, quotes matching
  its ground truth) and headline replaced by those of another article (of the same site half
  the time when the site has one): the variant carries that article's body in this page's
  template, and its cluster is *that* article's.

Article blocks are the ``p``, ``h2``-``h6``, ``li``, ``blockquote``, ``pre`` elements of at
least :data:`MIN_BLOCK_WORDS` words of which :data:`BLOCK_TRUTH_SHARE` of the word 4-grams
are in the page's ground truth. A variant is checked against the truths (never against our
cleaner): a swap must leave at most :data:`SWAP_LEFTOVER_MAX` of the template article's truth
and carry :data:`SWAP_DONOR_MIN` of the donor's, a boilerplate or sidebar swap must keep
:data:`KEEP_TRUTH_MIN` of the article's; a page that allows no variant of a kind (no date,
no navigation, too few paragraphs) is skipped for that kind, and counted.

Variants other than ``url_only`` are the edited tree serialised by lxml, UTF-8 with a byte
order mark (the page was decoded with the project's encoding policy first, so the bytes
read as the same text). Nothing is written to disk.

The kinds of :data:`OWN_STREAM_KINDS` (added after the others) draw from a random stream of
their own per page (the seed, the kind and the page), so that adding them left the
variants of the other kinds as they were.

The code, one job a module: ``variantpage.py`` parses an article's page and finds its
anatomy, ``variantedits.py`` makes the edits (with their word lists and sizes), this file
picks the articles and builds the set.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy import sparse

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import Dataset, Page
from variantedits import (
    SWAP_DONOR_MIN,
    ad_block,
    cookie_banner,
    minor_edit,
    other_url,
    redate_page,
    sidebar_box,
    swap_boilerplate,
    swap_content,
    swap_sidebar,
    swap_synonyms,
)
from variantpage import Article, Edit, Source, anatomy, parse, serialize, shingles, words

from scrapy_webclean.text.language import guess_language

#: The variant kinds, in the order the tables show them.
KINDS = (
    "timestamp",
    "ad_block",
    "url_only",
    "minor_edit",
    "synonyms",
    "boilerplate",
    "sidebar",
    "cookie_banner",
    "content_swap",
)
#: Kinds with a random stream of their own per page (see the module docstring).
OWN_STREAM_KINDS = frozenset(("synonyms", "sidebar", "cookie_banner"))
ORIGINAL = "original"
SEED = 13
DEFAULT_ARTICLES = 300
#: Sets the articles come from (WCXB: article pages only, by default).
SETS = ("wcxb-dev", "scrapinghub", "dragnet-gold")
#: The WCXB page types taken by default; None takes every type.
PAGE_TYPES: tuple[str, ...] | None = ("article",)
MIN_TEXT_CHARS = 400
MAX_PER_SITE = 4
#: Pairs of articles on one topic (hard negatives), taken first ...
TOPIC_PAIRS = 40
#: ... when their TF-IDF cosine is at least this.
TOPIC_MIN_COSINE = 0.2
#: Terms in more than this share of the pool's texts carry no topic.
TOPIC_MAX_DF = 0.1
#: A pool page whose truth shares more than this share of its word 5-grams with an earlier
#: page's truth (of the page with fewer) is left out: one story twice.
SOURCE_OVERLAP_MAX = 0.3
#: Donors tried for a content swap or a boilerplate swap.
DONOR_TRIES = 6
SAME_SITE_SWAP_SHARE = 0.5
#: Articles in this language only (``guess_language`` of the cleaned text).
LANGUAGE = "en"
_STOPWORD_LIST = (
    "the and for that with this from have has had was were are not but they their there "
    "will would can could been which when what who whom where why how all any each more most "
    "other some such only own same than too very also just about after before into over under "
    "again then once here his her hers him she our ours you your yours its it's itself them "
    "these those being did does doing out off down said says one two new year years time "
    "people like get got make made many much may might must shall should now even well back "
    "first last mr mrs ms per because while still since between through during"
)
STOPWORDS = frozenset(_STOPWORD_LIST.split())


Clean = Callable[[bytes, "str | None"], str]


@dataclass(slots=True)
class DevDoc:
    """A document of the dev set. ``cluster``: the article whose text it carries;
    ``template``: the article whose page was edited (differs for a content swap);
    ``site``: the site whose template it shows."""

    key: str
    cluster: int
    kind: str
    url: str | None
    html: bytes = field(repr=False)
    site: str
    template: int
    note: str = ""
    #: The variant's sort within its kind (see ``variantedits.DETAILS``), "" for an original.
    detail: str = ""


@dataclass(slots=True, frozen=True)
class Variant:
    """A page made by an edit: its bytes, URL and cluster (the article whose text it
    carries)."""

    html: bytes
    url: str | None
    cluster: int
    edit: Edit


@dataclass(slots=True)
class DevSet:
    """The originals (``articles``, by cluster), every page (``docs``: originals and
    variants, article by article) and what the report needs to know about them."""

    articles: list[Article]
    docs: list[DevDoc]
    #: (cluster, cluster, TF-IDF cosine), two articles on one topic.
    topic_pairs: list[tuple[int, int, float]]
    #: kind -> articles that allowed no variant of it.
    skips: Counter[str]
    #: Counts worth a line in the report (the pool, the selection).
    notes: dict[str, int]


# -- the set --------------------------------------------------------------------------------


def _pool(
    sets: Sequence[Dataset],
    clean: Clean,
    rng: random.Random,
    page_types: Sequence[str] | None = PAGE_TYPES,
) -> tuple[list[Article], dict[str, int]]:
    """Every eligible page with its cleaned text, in a seeded random order, one copy of each
    story (see :data:`SOURCE_OVERLAP_MAX`); WCXB pages of ``page_types`` only (None: all)."""
    pages: list[Page] = [
        p
        for s in sets
        for p in s.pages
        if (p.set_name != "wcxb-dev" or page_types is None or p.page_type in page_types)
        and p.has_truth
    ]
    rng.shuffle(pages)
    notes = {"pool pages": len(pages)}
    postings: dict[int, list[int]] = defaultdict(list)
    grams: list[set[int]] = []
    kept: list[Article] = []
    short = overlapping = foreign = 0
    for page in pages:
        own = shingles(page.truth or "", 5)
        shared: Counter[int] = Counter()
        for gram in own:
            for other in postings.get(gram, ()):
                shared[other] += 1
        if any(n > SOURCE_OVERLAP_MAX * min(len(own), len(grams[o])) for o, n in shared.items()):
            overlapping += 1
            continue
        text = clean(page.html, page.url)
        if len(text) < MIN_TEXT_CHARS:
            short += 1
            continue
        if guess_language(text) != LANGUAGE:
            foreign += 1
            continue
        number = len(grams)
        grams.append(own)
        for gram in own:
            postings[gram].append(number)
        kept.append(Article(-1, page, text))
    notes["pool: one story twice, left out"] = overlapping
    notes[f"pool: cleaned text under {MIN_TEXT_CHARS} chars, left out"] = short
    notes[f"pool: not in language {LANGUAGE!r}, left out"] = foreign
    notes["pool: eligible articles"] = len(kept)
    return kept, notes


def topic_pairs(pool: Sequence[Article]) -> list[tuple[int, int, float]]:
    """Pairs of pool positions by the TF-IDF cosine of their cleaned texts (content words of
    3+ letters, stop words left out, terms in 2 to :data:`TOPIC_MAX_DF` of the texts),
    highest first, of different sites, each article in one pair at most."""
    counts = [
        Counter(w for w in words(a.text) if len(w) > 2 and w.isalpha() and w not in STOPWORDS)
        for a in pool
    ]
    df: Counter[str] = Counter()
    for c in counts:
        df.update(c.keys())
    vocabulary = {
        w: n
        for n, w in enumerate(
            sorted(w for w, d in df.items() if 2 <= d <= TOPIC_MAX_DF * len(pool))
        )
    }
    rows, cols, values = [], [], []
    for i, c in enumerate(counts):
        for w, n in c.items():
            if w in vocabulary:
                rows.append(i)
                cols.append(vocabulary[w])
                values.append((1 + math.log(n)) * math.log(len(pool) / df[w]))
    matrix = sparse.csr_matrix((values, (rows, cols)), shape=(len(pool), len(vocabulary)))
    norms = np.sqrt(matrix.multiply(matrix).sum(axis=1)).A1
    matrix = sparse.diags(1 / np.maximum(norms, 1e-12)) @ matrix
    cosine = sparse.triu(matrix @ matrix.T, k=1).tocoo()
    order = sorted(
        zip(cosine.data, cosine.row, cosine.col, strict=True), key=lambda t: (-t[0], t[1], t[2])
    )
    pairs = []
    used: set[int] = set()
    for score, i, j in order:
        if score < TOPIC_MIN_COSINE:
            break
        if i in used or j in used or pool[i].page.site == pool[j].page.site:
            continue
        pairs.append((int(i), int(j), float(score)))
        used.update((int(i), int(j)))
    return pairs


def select_articles(
    pool: Sequence[Article], count: int
) -> tuple[list[Article], list[tuple[int, int, float]]]:
    """The topic pairs first (as many as :data:`TOPIC_PAIRS` within the site cap), then the
    pool in its order, at most :data:`MAX_PER_SITE` a site; clusters numbered in order."""
    per_site: Counter[str] = Counter()
    chosen: list[int] = []
    taken: set[int] = set()
    pairs: list[tuple[int, int, float]] = []
    for i, j, score in topic_pairs(pool):
        if len(pairs) == TOPIC_PAIRS or len(chosen) + 2 > count:
            break
        a, b = pool[i].page.site, pool[j].page.site
        if per_site[a] >= MAX_PER_SITE or per_site[b] >= MAX_PER_SITE:
            continue
        per_site.update((a, b))
        chosen += [i, j]
        taken.update((i, j))
        pairs.append((i, j, score))
    for i, article in enumerate(pool):
        if len(chosen) >= count:
            break
        if i in taken or per_site[article.page.site] >= MAX_PER_SITE:
            continue
        per_site[article.page.site] += 1
        chosen.append(i)
        taken.add(i)
    cluster_of = {i: c for c, i in enumerate(chosen)}
    articles = [Article(c, pool[i].page, pool[i].text) for c, i in enumerate(chosen)]
    return articles, [(cluster_of[i], cluster_of[j], score) for i, j, score in pairs]


def _pick(
    rng: random.Random, candidates: Sequence[Source], ok: Callable[[Source], bool]
) -> list[Source]:
    """Up to :data:`DONOR_TRIES` candidates that pass ``ok``, in a seeded random order."""
    order = list(candidates)
    rng.shuffle(order)
    return [c for c in order if ok(c)][:DONOR_TRIES]


def make_variant(
    kind: str, src: Source, sources: Sequence[Source], rng: random.Random
) -> Variant | None:
    """One variant of ``src``, or None when the page allows none of this kind."""
    page = src.article.page
    cluster = src.article.cluster
    if kind == "url_only":
        moved = other_url(page.url, rng)
        return Variant(page.html, moved.note, cluster, moved) if moved else None
    root = src.copy()
    edit: Edit | None = None
    if kind == "timestamp":
        edit = redate_page(root, rng)
    elif kind == "ad_block":
        edit = ad_block(root, src, rng)
    elif kind == "minor_edit":
        edit = minor_edit(root, src, rng)
    elif kind == "synonyms":
        edit = swap_synonyms(root, src, rng)
    elif kind == "cookie_banner":
        edit = cookie_banner(root, rng)
    elif kind == "sidebar":
        others = [d for d in sources if d.article.page.site != page.site]
        for donor in _pick(rng, others, lambda d: sidebar_box(d) is not None):
            edit = swap_sidebar(root, src, donor)
            if edit is not None:
                break
            root = src.copy()
    elif kind == "boilerplate":
        others = [d for d in sources if d.article.page.site != page.site]
        for donor in _pick(rng, others, lambda d: bool(d.parts.furniture)):
            edit = swap_boilerplate(root, src, donor)
            if edit is not None:
                break
            root = src.copy()
    elif kind == "content_swap":
        same = [d for d in sources if d is not src and d.article.page.site == page.site]
        others = [d for d in sources if d.article.page.site != page.site]
        donors = same if same and rng.random() < SAME_SITE_SWAP_SHARE else others
        for donor in _pick(rng, donors, lambda d: d.parts.donor_share >= SWAP_DONOR_MIN):
            edit = swap_content(root, src, donor)
            if edit is not None:
                cluster = donor.article.cluster
                break
            root = src.copy()
    else:
        raise ValueError(f"unknown variant kind {kind!r}")
    return None if edit is None else Variant(serialize(root), page.url, cluster, edit)


def build_dev_set(
    sets: Sequence[Dataset],
    clean: Clean,
    articles: int = DEFAULT_ARTICLES,
    seed: int = SEED,
    page_types: Sequence[str] | None = PAGE_TYPES,
) -> DevSet:
    """The dev set: originals, their variants (see the module docstring), the topic pairs,
    the skips per kind; WCXB pages of ``page_types`` (None: every type)."""
    rng = random.Random(seed)
    pool, notes = _pool(sets, clean, rng, page_types)
    chosen, pairs = select_articles(pool, articles)
    notes["articles"] = len(chosen)
    notes["sites"] = len({a.page.site for a in chosen})
    site_counts = Counter(a.page.site for a in chosen)
    notes["same-site article pairs"] = sum(n * (n - 1) // 2 for n in site_counts.values())
    for name in SETS:
        notes[f"articles from {name}"] = sum(a.page.set_name == name for a in chosen)
    sources = []
    for article in chosen:
        root = parse(article.page.html)
        sources.append(Source(article, root, anatomy(root, article.page.truth or "")))
    docs: list[DevDoc] = []
    skips: Counter[str] = Counter()
    for src in sources:
        page = src.article.page
        stem = f"{page.set_name}:{page.id}"
        original = Variant(page.html, page.url, src.article.cluster, Edit("", ""))
        variants: list[tuple[str, Variant | None]] = [(ORIGINAL, original)]
        variants += [
            (
                kind,
                make_variant(
                    kind,
                    src,
                    sources,
                    random.Random(f"{seed}:{kind}:{stem}") if kind in OWN_STREAM_KINDS else rng,
                ),
            )
            for kind in KINDS
        ]
        for kind, made in variants:
            if made is None:
                skips[kind] += 1
                continue
            docs.append(
                DevDoc(
                    f"{kind}:{stem}",
                    made.cluster,
                    kind,
                    made.url,
                    made.html,
                    page.site,
                    src.article.cluster,
                    made.edit.note,
                    made.edit.detail,
                )
            )
    return DevSet(chosen, docs, pairs, skips, notes)
