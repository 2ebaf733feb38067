"""Quark segmentation (docs/algorithms.md section 4): bottom-up blocks, flattened.

Walking from the leaves upward (a reverse scan over document order), each node passes the
text, links, punctuation and L tags that no block has claimed yet to its parent, unless it
becomes a block itself:

- C-marked nodes (customised tags or patterns) are blocks at once;
- a B node is a block when its unclaimed text reaches ``min_block_chars`` or its unclaimed
  L tags reach ``min_l_tags`` and ``l_ratio`` of its unclaimed nodes;
- a list container (UL/OL/DL/MENU) is a block when it holds at least ``link_list_min_links``
  links and its text is mostly anchor text (our addition, see ``tagclasses``);
- a B node with a block somewhere below it keeps its own leftovers (a heading over a link
  list, a caption) as a block of their own instead of passing them to a far ancestor (our
  addition: the flattened blocks then follow the page's containers);
- the root (HTML) takes whatever is left, so no text is ever lost.

A block owns only what no inner block claimed: blocks never contain each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.html.tagclasses import LINK_LIST_TAGS, TagClass


@dataclass(frozen=True, slots=True)
class QuarkOptions:
    """Thresholds of the segmentation; lengths in characters, ratios 0-1."""

    min_block_chars: int = 60
    min_l_tags: int = 2
    l_ratio: float = 0.3
    link_list_min_links: int = 3
    link_list_anchor_ratio: float = 0.6


@dataclass(slots=True)
class Segment:
    """One flattened block of a page before classification.

    Counts are of what the block owns (chars, not bytes); ``runs``, ``links`` and
    ``images`` are indices into the page model's lists, in document order.
    """

    root: int
    text_len: int
    anchor_len: int
    punct_count: int
    link_count: int
    l_count: int
    node_count: int
    custom: bool
    runs: list[int] = field(default_factory=list)
    links: list[int] = field(default_factory=list)
    images: list[int] = field(default_factory=list)


def segment_page(model: PageModel, options: QuarkOptions | None = None) -> list[Segment]:
    """Split a page into flattened Quark blocks, in reading order (of their first text,
    link or image).

    Blocks with no text, no link and no image are left out.
    """
    opts = options or QuarkOptions()
    n = len(model)
    if n == 0:
        return []
    classes, tags, parents, visible = model.classes, model.tags, model.parents, model.visible
    text = model.own_text[:]
    anchor = model.own_anchor[:]
    punct = model.own_punct[:]
    links = model.own_links[:]
    l_tags = [1 if (c is TagClass.L and v) else 0 for c, v in zip(classes, visible, strict=False)]
    nodes = [1] * n
    custom = model.custom
    is_block = [False] * n
    holds_block = [False] * n

    for i in range(n - 1, -1, -1):
        if not visible[i]:
            continue
        cls = classes[i]
        if i == 0 or custom[i]:
            make = True
        elif cls is TagClass.B:
            make = (
                text[i] >= opts.min_block_chars
                or holds_block[i]
                or (l_tags[i] >= opts.min_l_tags and l_tags[i] >= opts.l_ratio * nodes[i])
            )
        elif tags[i] in LINK_LIST_TAGS:
            make = links[i] >= opts.link_list_min_links and anchor[i] >= (
                opts.link_list_anchor_ratio * text[i]
            )
        else:
            make = False
        p = parents[i]
        if make:
            is_block[i] = True
            if p >= 0:
                holds_block[p] = True
            continue
        if holds_block[i]:
            holds_block[p] = True
        text[p] += text[i]
        anchor[p] += anchor[i]
        punct[p] += punct[i]
        links[p] += links[i]
        l_tags[p] += l_tags[i]
        nodes[p] += nodes[i]

    # Flatten: every node belongs to its nearest block ancestor-or-self (pre-order pass).
    block_of = [-1] * n
    for i in range(n):
        if not visible[i]:
            continue
        block_of[i] = i if is_block[i] else block_of[parents[i]]

    segments: dict[int, Segment] = {}
    for i in range(n):
        if is_block[i]:
            segments[i] = Segment(
                i, text[i], anchor[i], punct[i], links[i], l_tags[i], nodes[i], custom[i]
            )
    for position, run in enumerate(model.runs):
        owner_block = block_of[run.owner]
        if owner_block >= 0:
            segments[owner_block].runs.append(position)
    for position, link in enumerate(model.links):
        owner_block = block_of[link.node]
        if owner_block >= 0:
            segments[owner_block].links.append(position)
    for position, image in enumerate(model.images):
        owner_block = block_of[image.node]
        if owner_block >= 0:
            segments[owner_block].images.append(position)
    kept = [s for s in segments.values() if s.runs or s.links or s.images]
    kept.sort(key=lambda s: _reading_position(model, s))
    return kept


def _reading_position(model: PageModel, segment: Segment) -> tuple[int, int]:
    first = min(
        segment.runs[:1]
        + [model.links[i].at_run for i in segment.links[:1]]
        + [model.images[i].at_run for i in segment.images[:1]]
    )
    return first, segment.root


def segment_text(model: PageModel, segment: Segment) -> str:
    """The text of a block: lines split where the page breaks them, runs joined inline.

    Runs of one block that are not adjacent on the page (another block sits between them)
    are put on separate lines.
    """
    lines: list[str] = []
    current: list[str] = []
    previous = -2
    runs = model.runs
    for position in segment.runs:
        run = runs[position]
        if current and (run.line_break or position != previous + 1):
            lines.append("".join(current))
            current = []
        current.append(run.text)
        previous = position
    if current:
        lines.append("".join(current))
    return "\n".join(line.strip() for line in lines if line.strip())
