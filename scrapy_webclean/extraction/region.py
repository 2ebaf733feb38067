"""The region choice: which part of the page holds its main text (steps 2 and 3 of
``extract``).

The region is the node whose subtree has the largest sum of line scores, unless the
container that directly holds the most prose (the paragraph holder) lies elsewhere: then
the holder, widened by its sibling sections that score (``choose_region``). The article
body that schema.org markup declares may widen it further (``widen_to_article_body``). A page whose thin prose is outweighed
by one list of title-like linked items is a listing, and that list is its region
(``best_list``); a site's front page is a landing page, whose region is its main element
(``landing_region``, ``landing_range``). Regions are node ranges ``[start, end)`` of the
page model's pre-order numbering.
"""

from __future__ import annotations

from bisect import bisect_left

from scrapy_webclean.extraction.hintwords import STRONG_NEGATIVE
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.options import ExtractOptions
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.tagclasses import TagClass

#: A content line adds its score to its holder, and this share of it to the holder's
#: parent: a container whose prose is split over child holders (an article's sections)
#: can still win.
HOLDER_PARENT_SHARE = 0.5
#: A list item with a shorter anchor than a title's (down to this share of it) still
#: counts when a title's length of other text stands beside it: a linked name with its
#: details (a film's year and rating), which menu entries lack.
NAMED_ITEM_ANCHOR_SHARE = 0.5
#: Text above a landing page's headline that may be dropped as the site's own (chars).
LANDING_MAX_CHARS_BEFORE_H1 = 200
#: First characters of a footnote line: superscript numbers, asterisk, dagger.
_FOOTNOTE_MARKS = frozenset("¹²³⁴⁵⁶⁷⁸⁹⁰*†‡")


def choose_region(
    model: PageModel,
    lines: list[Line],
    scores: list[float],
    subtree: list[float],
    opts: ExtractOptions,
) -> tuple[int, list[tuple[int, int]], float]:
    """The main region: its node, its node ranges ``[start, end)`` of the pre-order
    numbering (none when no subtree sum reaches ``min_region_score``), and the score of the
    best paragraph holder (how concentrated the page's prose is).

    Candidates are the containers that *hold* content lines: a content line adds its score
    to its holder (the line's own B element, else its parent) and ``HOLDER_PARENT_SHARE``
    of it to the holder's parent, and a candidate's score is discounted by its link
    density. When the node with the best subtree sum holds the best candidate, that node
    is the region and its ranges are the candidate, widened level by level up to it
    (``_widen``, from ``outer_share`` of the candidate's score); otherwise the candidate is
    the region, with its siblings whose subtree score reaches ``sibling_share`` of its
    score (and ``min_region_score``). When no candidate reaches ``min_region_score``, the
    best subtree is the region. Holding lines directly is what tells an article body (many
    paragraphs in one container) from a list of teasers (one description per container),
    which a plain subtree sum cannot.
    """
    n = len(model)
    classes, parents, node_count = model.classes, model.parents, model.node_count
    candidate = [0.0] * n
    for line, score in zip(lines, scores, strict=False):
        if score <= 0 or line.text[:1] in _FOOTNOTE_MARKS:
            # (Footnotes are the page's fine print: text of the page, never where its
            # main text lies; a block of them holds long prose in one container.)
            continue
        holder = line.node if classes[line.node] is TagClass.B else parents[line.node]
        if holder < 0:
            holder = line.node
        candidate[holder] += score
        grand = parents[holder]
        if grand >= 0:
            candidate[grand] += score * HOLDER_PARENT_SHARE
    best, best_score = 0, 0.0
    for i in range(n):
        value = candidate[i]
        if value > best_score:
            value *= 1.0 - model.link_density(i)
            if value > best_score:
                best, best_score = i, value
    # The node with the best subtree sum: the region, when it holds the best candidate
    # (service pages, documentation: content spread over many sections).
    top = max(range(n), key=subtree.__getitem__)
    if subtree[top] < opts.min_region_score:
        # No region: the short-page reading takes the best subtree, the deepest of those
        # with the best sum (the paragraph, not the root above a bare body's one line).
        deepest = max(range(n), key=lambda i: (subtree[i], i))
        return deepest, [], best_score
    if best_score < opts.min_region_score:
        return top, [(top, top + node_count[top])], best_score
    if top <= best < top + node_count[top]:
        threshold = opts.outer_share * best_score
        return top, _widen(best, top, subtree, node_count, parents, threshold), best_score
    # Otherwise the best sum came from elsewhere (a long list of teasers beside the
    # article): the article's holder wins, with its sibling sections.
    ranges = [(best, best + node_count[best])]
    parent = parents[best]
    if parent >= 0:
        threshold = max(opts.min_region_score, opts.sibling_share * best_score)
        child, stop = parent + 1, parent + node_count[parent]
        while child < stop:
            if child != best and subtree[child] >= threshold:
                ranges.append((child, child + node_count[child]))
            child += node_count[child]
    return best, ranges, best_score


def _widen(
    core: int,
    top: int,
    subtree: list[float],
    node_count: list[int],
    parents: list[int],
    threshold: float,
) -> list[tuple[int, int]]:
    """From ``core`` up to ``top``, add at every level the sibling subtrees whose score
    reaches ``threshold``, and all positive siblings when together they do (paragraphs
    that sit one by one beside a fact box): sections of a long page stay, a ticker or a
    teaser strip that only shares a wrapper with the article does not. A parent's own
    lines (text written straight into it between its children, a blog post's paragraphs
    separated by ``<br>`` around a list) are added when they reach ``threshold`` too."""
    ranges = [(core, core + node_count[core])]
    node = core
    while node != top:
        parent = parents[node]
        siblings = []
        children_sum = 0.0
        child, stop = parent + 1, parent + node_count[parent]
        while child < stop:
            children_sum += subtree[child]
            if child != node and subtree[child] > 0:
                siblings.append(child)
            child += node_count[child]
        # The parent's own lines (text written straight into it between its children: a
        # post's paragraphs separated by <br>s around a list) are its siblings' peers.
        own = subtree[parent] - children_sum
        if sum(subtree[c] for c in siblings) >= threshold:
            ranges.extend((c, c + node_count[c]) for c in siblings)
        if own >= threshold:
            ranges.append((parent, parent + 1))
        node = parent
    return ranges


#: How many levels above the region the article body that declares itself may be.
ARTICLE_BODY_MAX_LEVELS = 6


def widen_to_article_body(
    model: PageModel,
    ranges: list[tuple[int, int]],
    subtree: list[float],
) -> list[tuple[int, int]]:
    """When the region lies inside an element that schema.org markup names the article's
    body (``itemprop="articleBody"``), at most :data:`ARTICLE_BODY_MAX_LEVELS` levels up,
    and that body does not score negative, the whole body is the region (a short post whose
    lines are too short, or too linked, to outweigh its one best paragraph)."""
    if len(ranges) != 1:
        return ranges
    start = ranges[0][0]
    elements, parents = model.elements, model.parents
    node = start
    for _ in range(ARTICLE_BODY_MAX_LEVELS + 1):
        if node <= 0:
            return ranges
        if "articleBody" in (elements[node].get("itemprop") or "").split():
            break
        node = parents[node]
    else:
        return ranges
    if node == start or subtree[node] < 0:
        return ranges
    return [(node, node + model.node_count[node])]


def join_same_sections(
    model: PageModel, ranges: list[tuple[int, int]], subtree: list[float]
) -> list[tuple[int, int]]:
    """A documentation page's other sections: the elements of the region's own tag and
    ``class`` (a generator's "section" or "content-section"), outside the region and not
    inside one another, whose lines score positive, join it (a reference page's
    constructor, properties and methods under its introduction)."""
    if not ranges:
        return ranges
    start = ranges[0][0]
    tag, name = model.tags[start], model.elements[start].get("class")
    if not name:
        return ranges
    tags, elements, node_count = model.tags, model.elements, model.node_count
    own = sorted(ranges)
    starts = [a for a, _ in own]
    joined = list(own)
    i, n, k = 1, len(model), 0
    while i < n:
        while k < len(own) and own[k][1] <= i:
            k += 1
        if k < len(own) and own[k][0] <= i:
            i = own[k][1]  # (inside the region: skipped)
            continue
        end = i + node_count[i]
        if (
            tags[i] == tag
            and subtree[i] > 0
            and elements[i].get("class") == name
            and bisect_left(starts, i) == bisect_left(starts, end)  # (holds no range)
        ):
            joined.append((i, end))
            i = end
            continue
        i += 1
    return sorted(joined)


def landing_range(model: PageModel, lines: list[Line], whole: int) -> tuple[int, int]:
    """The node range of a landing page's content: the landing region, from its first
    ``<h1>`` on when only a little text (a top bar, a slogan) comes before it; page
    builders that put an ``<h1>`` half-way down get the whole region."""
    end = whole + model.node_count[whole]
    h1 = next((i for i in range(whole, end) if model.tags[i] == "h1"), -1)
    if h1 < 0:
        return whole, end
    before = sum(line.chars for line in lines if whole <= line.node < h1)
    return (h1, end) if before <= LANDING_MAX_CHARS_BEFORE_H1 else (whole, end)


def landing_region(model: PageModel) -> int:
    """The page's ``<main>`` element when exactly one is visible and holds text, else its
    ``<body>``; -1 without either."""
    mains = [
        i
        for i, tag in enumerate(model.tags)
        if model.visible[i] and model.text_len[i] and tag == "main"
    ]
    if len(mains) == 1:
        return mains[0]
    for i, tag in enumerate(model.tags):
        if tag == "body":
            return i
    return -1


def best_list(
    model: PageModel, lines: list[Line], hints: list[int], opts: ExtractOptions
) -> tuple[int, float]:
    """The container of the largest list of title-like linked items, and its text units.

    Items are the children of one node that share a tag and first class name (``li``,
    ``div.card``, ``article.post``); an item counts when it holds a link and its anchor
    text averages at least ``min_item_title_units`` per link (titles, not menu entries),
    or when its anchor text reaches ``NAMED_ITEM_ANCHOR_SHARE`` of that and a title's
    length of other text stands beside it (a linked name with its details). Lists inside strong-negative
    containers (navigation, sidebars, related links) are not candidates. A list's units
    are its items' characters at the page's units per character. Returns ``(-1, 0.0)``
    when no node has ``min_list_items`` such items.
    """
    chars = sum(line.chars for line in lines)
    if not chars:
        return -1, 0.0
    units_per_char = sum(line.units for line in lines) / chars
    min_anchor_chars = opts.min_item_title_units / units_per_char
    tags, elements, node_count = model.tags, model.elements, model.node_count
    text_len, anchor_len, link_count = model.text_len, model.anchor_len, model.link_count
    visible = model.visible
    best, best_units = -1, 0.0
    smallest = opts.min_list_items + 1
    # (One comprehension finds the few nodes big enough and with links: most are not.)
    parents = [
        parent
        for parent, count in enumerate(node_count)
        if count >= smallest and parent and link_count[parent] and visible[parent]
    ]
    for parent in parents:
        if hints[parent] == STRONG_NEGATIVE:  # menus, sidebars, related-link strips
            continue
        count = node_count[parent]
        groups: dict[tuple[str, str], list[int]] = {}
        child, stop = parent + 1, parent + count
        while child < stop:
            links = link_count[child]
            # A title-like item: long anchors, or a linked name with more text beside it
            # (a film's year and rating, a repository's description), which menu entries
            # lack.
            if links and (
                anchor_len[child] >= min_anchor_chars * links
                or (
                    anchor_len[child] >= min_anchor_chars * NAMED_ITEM_ANCHOR_SHARE
                    and text_len[child] - anchor_len[child] >= min_anchor_chars
                )
            ):
                classes = (elements[child].get("class") or "").split()
                key = (tags[child], classes[0] if classes else "")
                groups.setdefault(key, []).append(text_len[child])
            child += node_count[child]
        for sizes in groups.values():
            if len(sizes) >= opts.min_list_items:
                units = sum(sizes) * units_per_char
                if units > best_units:
                    best, best_units = parent, units
    return best, best_units


def sum_up(values: list[float], parents: list[int]) -> None:
    """Turn per-node values into subtree sums, in place (children have larger indices)."""
    for i in range(len(values) - 1, 0, -1):
        values[parents[i]] += values[i]


def thread_region(model: PageModel, region: int, min_posts: int) -> int:
    """On a discussion thread, the container of the posts around ``region``, or -1.

    The best region of a thread is often one long post: each post pays for its linked
    "Re: <title>" heading, its author's card and its "Top" link, so the thread scores
    below its longest post. Going up from ``region``, the first element with
    ``min_posts`` or more siblings of its kind (same tag, half their class tokens shared:
    phpBB's ``post bg1`` and ``post bg2``) is a post; their parent holds the thread."""
    tags, elements, parents, count = model.tags, model.elements, model.parents, model.node_count
    node = region
    while node > 0:
        parent = parents[node]
        if parent <= 0:
            return -1
        mine = _class_tokens(elements[node].get("class"))
        if mine:
            alike = 0
            child, end = parent + 1, parent + count[parent]
            while child < end:
                if tags[child] == tags[node]:
                    theirs = _class_tokens(elements[child].get("class"))
                    if 2 * len(mine & theirs) >= max(len(mine), len(theirs)):
                        alike += 1
                child += count[child]
            if alike >= min_posts:
                return parent
        node = parent
    return -1


def _class_tokens(value: str | None) -> frozenset[str]:
    return frozenset((value or "").split())
