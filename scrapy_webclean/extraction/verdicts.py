"""Line verdicts: which lines of the region are text, which are metadata, which are
dropped (step 4 of ``extract``), and the passes that revise them.

``noise_flags`` marks boilerplate lines from the vocabulary (``vocabulary``) and
``spare_prose_and_code`` takes back the lines that only name a noise word;
``drop_only_flags`` marks the buttons' labels, a post's tag lines and the "Read more:
<title>" lines inside the text, which are dropped without counting as noise.
``region_verdicts`` then gives every line its verdict: KEEP, DROP or METADATA (a
headline, a date or byline line: content, reported apart). The passes after it keep
linked lines that belong to the text (``keep_linked_headings``,
``keep_introduced_lists``) and drop kept lines that do not (``drop_after_related_headings``);
they change ``kept`` in place. Lines that repeat earlier ones
are ``repeats``' job.
"""

from __future__ import annotations

import sys
from bisect import bisect_left
from functools import lru_cache
from urllib.parse import urlsplit

from lxml import etree

from scrapy_webclean.extraction.hintwords import STRONG_NEGATIVE
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.extraction.vocabulary import (
    BARE_URL_RE,
    CONSENT_RE,
    HARD_NOISE,
    RELATED_LINK_LINE_MAX_UNITS,
    TAXONOMY_LINE_MAX_UNITS,
    UI_LINE_MAX_UNITS,
    is_call_to_action,
    is_notice,
    is_picture_credit,
    is_related_heading,
    is_related_link_line,
    is_taxonomy_line,
    is_ui_line,
)
from scrapy_webclean.html.pagemodel import PageModel, UrlResolver, climb
from scrapy_webclean.html.tagclasses import TagClass
from scrapy_webclean.segmentation.classify import NoiseWords

KEEP, DROP, METADATA = 1, 0, 2

#: On a listing page a linked line is an item's name from this share of
#: ``min_item_title_units`` on (names may be short, as the list's detection allows); on a
#: landing page only title-like links are.
LISTING_TITLE_SHARE = 0.5
#: A sentence of this many words that names a soft noise word ("share", "cookies",
#: "login") is prose about it, not a control.
SPARED_PROSE_WORDS = 10
#: A line is code when a code element sits at most this many levels above its text.
CODE_LEVELS = 12
_CODE_TAGS = frozenset(("pre", "code", "kbd", "samp"))
#: A related-section heading is short (text units); a longer line is text.
RELATED_HEADING_MAX_UNITS = 15
#: A container of at most this many nodes that is the heading's own node is the heading
#: (its element, a link in it), not the section it opens.
HEADING_ELEMENT_MAX_NODES = 2
#: A list is looked for this many levels above a linked line.
_LIST_LEVELS = 4
_HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_H1 = frozenset(("h1",))


def _verdict(
    line: Line,
    hint: int,
    title: str,
    opts: ExtractOptions,
    listing: bool,
    forum: bool = False,
    min_link_units: float = 0.0,
) -> int:
    """KEEP, DROP or METADATA for a line of the region. On a listing (or landing) page a
    linked line of ``min_link_units`` or more is an item's title, not navigation."""
    if hint == STRONG_NEGATIVE:
        return DROP
    if line.link_density > opts.max_link_density and not (listing and line.units >= min_link_units):
        return DROP
    # A short customised line (headline, date/byline line) is metadata, not body text --
    # except on a forum thread, where who wrote each post and when is part of the thread.
    if line.custom and not forum and not line.prose and line.units < opts.metadata_max_units:
        return METADATA
    if title and line.text == title:
        return METADATA
    return KEEP


def region_verdicts(
    lines: list[Line],
    hints: list[int],
    drop_noisy: list[bool],
    ranges: list[tuple[int, int]],
    title: str,
    opts: ExtractOptions,
    listing: bool,
    landing: bool,
    forum: bool,
) -> tuple[bytearray, list[bool], list[bool]]:
    """Per node, inside one of the region's ``ranges``; per line, kept and metadata
    (``_verdict``; lines outside the region and lines of ``drop_noisy`` are dropped)."""
    in_region = bytearray(len(hints))
    for start, end in ranges:
        in_region[start:end] = b"\x01" * (end - start)
    kept: list[bool] = []
    metadata: list[bool] = []
    # (a list's items: their names may be short, as the list's detection allows; a
    # landing page's: only title-like links)
    min_link_units = opts.min_item_title_units * (LISTING_TITLE_SHARE if listing else 1.0)
    for line, is_noisy in zip(lines, drop_noisy, strict=False):
        verdict = (
            _verdict(line, hints[line.node], title, opts, listing or landing, forum, min_link_units)
            if in_region[line.node] and not is_noisy
            else DROP
        )
        kept.append(verdict == KEEP)
        metadata.append(verdict == METADATA)
    return in_region, kept, metadata


#: Distinct line texts whose noise verdict each process remembers (:func:`noise_flags`):
#: a site's menus and footers recur on every page it serves (on dragnet-gold's news
#: sites, 58% of a page's distinct lines were on an earlier page of the set), short labels
#: ("Share", "Home") on every site. About 7 MB when full (3.3 MB of entries, 3.4 MB of
#: texts, measured on the last 16,384 distinct lines of WCXB's and dragnet-gold's pages).
NOISE_VERDICTS_REMEMBERED = 16_384


def noise_flags(lines: list[Line], noise_re: NoiseWords, opts: ExtractOptions) -> list[bool]:
    """Per line: a short line (under ``short_noise_units``) with a noise word, a picture
    credit, a bare address or (under ``UI_LINE_MAX_UNITS``) a control's label; or, of any
    length, a consent notice or another notice (``vocabulary.is_notice``: "All rights
    reserved", "Please enable JavaScript", "Thank you! Your submission has been
    received!"). A verdict depends on the line's text alone: each distinct text is judged
    once (:func:`is_noise_text` remembers the last :data:`NOISE_VERDICTS_REMEMBERED`)."""
    limit = opts.short_noise_units
    return [
        is_noise_text(line.text, line.units < limit, line.units < UI_LINE_MAX_UNITS, noise_re)
        for line in lines
    ]


@lru_cache(maxsize=NOISE_VERDICTS_REMEMBERED)
def is_noise_text(text: str, short: bool, control: bool, noise_re: NoiseWords) -> bool:
    """The verdict of :func:`noise_flags` on a line's ``text``: ``short`` says the line is
    under ``short_noise_units``, ``control`` under ``UI_LINE_MAX_UNITS``."""
    flag = short and (
        noise_re.search(text)
        or is_picture_credit(text)
        or BARE_URL_RE.match(text)
        or (control and is_ui_line(text))
    )
    if not flag and ("ookie" in text or "OOKIE" in text):  # every consent names cookies
        flag = CONSENT_RE.search(text) is not None
    if not flag and is_notice(text):
        flag = True  # a legal notice, a fallback for a browser without scripts, a status
    return bool(flag)


#: A related-link line's share of linked text is at least this (its title is the link).
RELATED_LINK_MIN_DENSITY = 0.5


def drop_only_flags(lines: list[Line]) -> list[bool]:
    """Per line: boilerplate that is dropped but, unlike :func:`noise_flags`, does not count
    against a region's score (an item card's button says nothing about whether the cards
    are the page's content). Three kinds, each cross-validated with
    ``benchmarks/compare_runs.py`` on two ``extraction.py --per-page`` runs:

    - a call to action under ``UI_LINE_MAX_UNITS`` ("Learn more", "Shop now":
      ``vocabulary.is_call_to_action``). As noise, a collection page lost its region, WCXB
      -0.00013; dropped only, WCXB +0.00006 (37 pages up, 12 down; four folds up, fold 0
      -0.00002), dragnet-gold -0.00001 (one page), the others unchanged;
    - a post's taxonomy line under ``TAXONOMY_LINE_MAX_UNITS`` ("Tags: ...", "Filed under:
      ...", "Posted in: ...": ``vocabulary.is_taxonomy_line``): dragnet-gold +0.0003 (11
      pages up, 1 down; nine of them one site's "Posted in:" lines), scrapinghub +0.00003
      (2 up), WCXB +0.00001 (2 up, 1 down), Chinese news unchanged;
    - a pointer to another article inside the text, mostly linked, under
      ``RELATED_LINK_LINE_MAX_UNITS`` ("Read more: <title>":
      ``vocabulary.is_related_link_line``). The rules dropped most such lines already as
      links; the models kept some as part of the text. Scrapinghub +0.0007 (7 pages up, none
      down), WCXB +0.00008 (17 up, 12 down; four folds up, one -0.00002; WCXB's truths keep
      such lines on some sites, drop them on more), dragnet-gold -0.00004 (2 pages down,
      whose truths keep them), Chinese news unchanged.
    """
    return [
        (line.units < UI_LINE_MAX_UNITS and is_call_to_action(line.text))
        or (line.units < TAXONOMY_LINE_MAX_UNITS and is_taxonomy_line(line.text))
        or (
            line.link_density >= RELATED_LINK_MIN_DENSITY
            and line.units < RELATED_LINK_LINE_MAX_UNITS
            and is_related_link_line(line.text)
        )
        for line in lines
    ]


def spare_prose_and_code(model: PageModel, lines: list[Line], noisy: list[bool]) -> list[bool]:
    """``noisy`` less the lines that only name a noise word: code (``['login']`` in a
    ``<pre>``) and long sentences without a hard noise word (copyright, terms of use);
    consent notices, picture credits and notices (``vocabulary.is_notice``) stay noisy."""
    spared = noisy[:]
    tags, parents = model.tags, model.parents
    for i, line in enumerate(lines):
        if not noisy[i]:
            continue
        text = line.text
        in_code = False
        node = model.runs[line.first_run].owner
        for _ in range(CODE_LEVELS):
            if node <= 0:
                break
            if tags[node] in _CODE_TAGS:
                in_code = True
                break
            node = parents[node]
        if not in_code and not (
            line.prose and len(text.split()) >= SPARED_PROSE_WORDS and not HARD_NOISE.search(text)
        ):
            continue
        if CONSENT_RE.search(text) or is_picture_credit(text) or is_notice(text):
            continue
        spared[i] = False
    return spared


def keep_linked_headings(
    model: PageModel, lines: list[Line], kept: list[bool], linked: list[bool], url: str | None
) -> None:
    """A heading of the region that links to its own section, its own page or a page
    below it (documentation sites link each section heading to its own anchor, and an
    index page's headings to its chapters) is a heading of the text, not navigation. A
    heading that links elsewhere is a teaser's title."""
    into_page = _InPage(url, model.base_url)
    headings: dict[int, int] = {}  # line -> its heading
    for i, line in enumerate(lines):
        if linked[i]:
            heading = text_element(model, line, _HEADING_TAGS)
            if heading > 0:
                headings[i] = heading
    if not headings:
        return
    within = _headings_linking_within(model, set(headings.values()), into_page)
    for i, heading in headings.items():
        if within[heading]:
            kept[i] = True


class _InPage:
    """Whether an ``href`` points into a page: an anchor, the page itself, or a page
    whose path lies below the page's."""

    def __init__(self, url: str | None, base_url: str | None) -> None:
        self.page = urlsplit(url) if url else None
        self.resolve = UrlResolver(base_url)

    def __call__(self, href: str) -> bool:
        if not href or href.startswith("#"):
            return True
        if self.page is None:
            return False
        try:
            target = urlsplit(self.resolve(href))
        except ValueError:
            return False
        path = self.page.path
        below = path if path.endswith("/") else path + "/"
        return target.netloc.lower() == self.page.netloc.lower() and (
            target.path == path or target.path.startswith(below)
        )


def _links_within(model: PageModel, heading: int, into_page: _InPage) -> bool:
    """True when every link of a heading (or the link around it) points into the page."""
    return _headings_linking_within(model, {heading}, into_page)[heading]


def _headings_linking_within(
    model: PageModel, headings: set[int], into_page: _InPage
) -> dict[int, bool]:
    """:func:`_links_within` of each of ``headings``, each heading's elements walked once:
    a heading's answer is worked out once however many of its lines ask, and a heading
    inside another (a page's headings nested a thousand deep) lends its answer to the one
    around it instead of being walked again (the inner ones first: document order,
    backwards)."""
    elements, parents, tags = model.elements, model.parents, model.tags
    # (element -> (every link in it points into the page, it holds a link))
    done: dict[etree._Element, tuple[bool, bool]] = {}
    answers: dict[int, bool] = {}
    for heading in sorted(headings, reverse=True):
        element = elements[heading]
        within, linked = True, False
        walker = etree.iterwalk(element, events=("start",))
        for _, node in walker:
            known = done.get(node) if node is not element else None
            if known is not None:
                within, linked = within and known[0], linked or known[1]
                walker.skip_subtree()
            elif node.tag == "a":
                linked = True
                within = into_page((node.get("href") or "").strip())
            if not within:
                break
        done[element] = (within, linked)
        parent = parents[heading]
        if not linked and parent > 0 and tags[parent] == "a":
            within = into_page((elements[parent].get("href") or "").strip())
        answers[heading] = within
    return answers


def keep_introduced_lists(
    model: PageModel, lines: list[Line], kept: list[bool], linked: list[bool]
) -> None:
    """The linked items of a list that a kept line introduces ("The following data
    types are supported:", the nearest kept line before them ending with a colon) are
    part of the text."""
    tags, parents, node_count = model.tags, model.parents, model.node_count
    n = len(lines)
    # The nearest kept line before line i: found going forwards, each line looked at once
    # (the lines before i are final: a list sets only its own lines, from i on).
    previous, looked = -1, 0
    i = 0
    while i < n:
        if not linked[i]:
            i += 1
            continue
        node, found = lines[i].node, -1
        for _ in range(_LIST_LEVELS):
            if node <= 0:
                break
            if tags[node] in ("ul", "ol"):
                found = node
                break
            node = parents[node]
        if found < 0:
            i += 1
            continue
        end = found + node_count[found]
        after = i
        while after < n and found <= lines[after].node < end:
            after += 1
        for k in range(looked, i):
            if kept[k]:
                previous = k
        looked = max(looked, i)
        if previous >= 0 and lines[previous].text.endswith((":", "：")):
            for k in range(i, after):
                if linked[k]:
                    kept[k] = True
        i = max(after, i + 1)


def drop_after_related_headings(model: PageModel, lines: list[Line], kept: list[bool]) -> None:
    """A section that opens with a "related"/"you may also like" heading holds teasers of
    other pages, however much prose they carry: drop it. The section is the nearest
    B container above the heading whose first line is the heading; a heading in the middle
    of a larger container changes nothing, and neither does an ``<h1>``: the page's own
    headline names what the page is about.

    Linear in the page: the nearest B containers are found once per node
    (``pagemodel.climb``), a section's first line by a range-minimum query, and a
    section inside one dropped already is not walked again."""
    classes, parents, node_count = model.classes, model.parents, model.node_count
    first_lines: _FirstLines | None = None
    to_block: dict[int, int] = {}

    def not_block(node: int) -> bool:
        return classes[node] is not TagClass.B

    dropped_until = 0  # the lines before it that a section took are dropped
    for i, line in enumerate(lines):
        if line.units > RELATED_HEADING_MAX_UNITS or not is_related_heading(line.text):
            continue
        if in_h1(model, line):
            continue  # the page's own headline ("Most popular films") names the page
        section = climb(parents, line.node, not_block, to_block)
        # The heading's own element: climb to the section it introduces.
        while (
            section > 0
            and node_count[section] <= HEADING_ELEMENT_MAX_NODES
            and section == line.node
        ):
            section = climb(parents, parents[section], not_block, to_block)
        if section <= 0:
            continue
        if i < dropped_until:
            # (Inside the lines of a section dropped already: a section that starts here
            # lies inside that one, and one around it starts before it.)
            continue
        end = section + node_count[section]
        if first_lines is None:
            first_lines = _FirstLines(lines)
        starts = first_lines.first(section, end)
        if starts != i and starts != _NO_LINE:
            continue
        j = i
        while j < len(lines) and section <= lines[j].node < end:
            kept[j] = False
            j += 1
        dropped_until = j


class _FirstLines:
    """The first line of each node (lines by index, nodes in document order), for the
    first line of any range of nodes -- a subtree -- in logarithmic time (a segment tree
    over the nodes' first lines)."""

    def __init__(self, lines: list[Line]) -> None:
        first: dict[int, int] = {}
        for j, line in enumerate(lines):
            first.setdefault(line.node, j)
        self.nodes = sorted(first)
        size = 1
        while size < len(self.nodes):
            size *= 2
        self.size = size
        tree = [_NO_LINE] * (2 * size)
        for place, node in enumerate(self.nodes):
            tree[size + place] = first[node]
        for place in range(size - 1, 0, -1):
            tree[place] = min(tree[2 * place], tree[2 * place + 1])
        self.tree = tree

    def first(self, start: int, end: int) -> int:
        """The first line whose node is in ``[start, end)``, or :data:`_NO_LINE`."""
        low = bisect_left(self.nodes, start) + self.size
        high = bisect_left(self.nodes, end) + self.size
        best = _NO_LINE
        tree = self.tree
        while low < high:
            if low & 1:
                best = min(best, tree[low])
                low += 1
            if high & 1:
                high -= 1
                best = min(best, tree[high])
            low //= 2
            high //= 2
        return best


#: :meth:`_FirstLines.first` of a range that holds no line.
_NO_LINE = sys.maxsize


def in_h1(model: PageModel, line: Line) -> bool:
    """True when the line's text sits in an ``<h1>``."""
    return text_element(model, line, _H1) > 0


def text_element(model: PageModel, line: Line, names: frozenset[str]) -> int:
    """The element named in ``names`` that the line's text sits in (between its first
    run's element and the line's node), or -1. (The answers are kept in
    ``model.memo``, for every element climbed through: the lines of text nested deep in
    inline elements climb each element once, however many lines ask.)"""
    tags, parents = model.tags, model.parents
    stop = line.node
    known = model.memo.setdefault(("text_element", names, stop), {})
    node = model.runs[line.first_run].owner
    climbed: list[int] = []
    found = -1
    while node >= stop and node > 0:
        answer = known.get(node)
        if answer is not None:
            found = answer
            break
        climbed.append(node)
        if tags[node] in names:
            found = node
            break
        node = parents[node]
    for passed in climbed:
        known[passed] = found
    return found
