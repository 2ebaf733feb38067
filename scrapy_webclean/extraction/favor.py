"""The precision/recall knob: ``CleanOptions.favor`` (``WEBCLEAN_FAVOR``), as other
extractors have it (trafilatura's ``favor_precision`` and ``favor_recall``).

``"balanced"`` (the default) is the extraction as it is; ``"recall"`` keeps more of what
may be content, ``"precision"`` less of what may not be. Every figure it moves is one of
the constants below, the same on every page:

- the line model (``linemodel.LineModel.decide``, on the pages it decides): its two
  probability thresholds, ``keep_above`` (a line is kept from there up) and
  ``drop_below`` (a line the rules kept is dropped under it), both move by
  :data:`THRESHOLD_SHIFT` (recall lower, precision higher); the rules' vetoes stay;
- the hand rules, on the pages they decide (no line model, a page in a CJK script the
  article model leaves to them, a page the model would leave empty): :func:`favor_rules`.
  Recall runs the recovery step again with looser cut-offs (:data:`RECALL_COSINE_LAMBDA`,
  :data:`RECALL_RECOVER_MIN_UNITS`) and keeps the region's photo captions and its
  date and byline lines; precision drops kept lines more than
  :data:`PRECISION_MAX_LINK_DENSITY` links (not on a listing or landing page, whose items
  are links) and up to :data:`PRECISION_EDGE_MAX_LINES` short lines that are not prose
  at either end of the text. Neither ever empties a page the rules kept something of.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from scrapy_webclean.extraction.lines import Line, shows_text
from scrapy_webclean.extraction.options import (
    BALANCED,
    FAVOR_CHOICES,
    PRECISION,
    RECALL,
    ExtractOptions,
    check_favor,
)
from scrapy_webclean.extraction.recovery import second_opinion
from scrapy_webclean.extraction.verdicts import in_h1
from scrapy_webclean.html.pagemodel import PageModel

#: How far the line model's thresholds move (probability, 0-1): at 0.6 / 0.4, recall keeps
#: a line from 0.45 up (a line the rules kept from 0.25), precision from 0.75 (0.55).
THRESHOLD_SHIFT: dict[str, float] = {BALANCED: 0.0, PRECISION: 0.15, RECALL: -0.15}
#: Recall, pages the rules decide: the recovery step (``recovery.second_opinion``) takes
#: prose from half the length and half the in-page cosine (``ExtractOptions``: 40 units,
#: 0.1).
RECALL_RECOVER_MIN_UNITS = 20.0
RECALL_COSINE_LAMBDA = 0.05
#: Precision, pages the rules decide: a kept line more than this share links (0-1) is
#: dropped (``ExtractOptions.max_link_density``: a half).
PRECISION_MAX_LINK_DENSITY = 0.3
#: Precision, pages the rules decide: up to this many lines at each end of the text that
#: are shorter than ``PRECISION_EDGE_MAX_UNITS`` (text units) and not prose (a label, a
#: credit, a "Share" line, a lone heading) are dropped.
PRECISION_EDGE_MAX_LINES = 3
PRECISION_EDGE_MAX_UNITS = 10.0

#: A photo's caption: a ``<figcaption>`` or a container named "caption", the line's
#: element or one of its two parents (as ``extract.keep_gallery_captions`` finds them).
_CAPTION_CLASS_RE = re.compile(r"(?<![a-z0-9])caption")
_CAPTION_LEVELS = 3
#: Rules' page types whose linked lines are the content (a list's items).
_LINKED_PAGE_TYPES = frozenset(("listing", "landing"))

__all__ = [
    "BALANCED",
    "FAVOR_CHOICES",
    "PRECISION",
    "RECALL",
    "THRESHOLD_SHIFT",
    "check_favor",
    "favor_rules",
    "shifted_thresholds",
]


def shifted_thresholds(keep_above: float, drop_below: float, favor: str) -> tuple[float, float]:
    """The line model's ``(keep_above, drop_below)`` moved by :data:`THRESHOLD_SHIFT`
    (within 0-1); the same two numbers for ``"balanced"``."""
    shift = THRESHOLD_SHIFT[favor]
    if not shift:
        return keep_above, drop_below
    return min(max(keep_above + shift, 0.0), 1.0), min(max(drop_below + shift, 0.0), 1.0)


def favor_rules(
    model: PageModel,
    lines: list[Line],
    kept: list[bool],
    metadata: Sequence[bool],
    in_region: Sequence[bool],
    drop_noisy: Sequence[bool],
    closed: Sequence[bool],
    title: str,
    page_type: str,
    opts: ExtractOptions,
) -> None:
    """Move the rules' verdicts (``kept``, in place) toward ``opts.favor`` on a page the
    rules decide (see the module docstring). Per line: ``metadata``, the region's
    headline, date and byline lines; ``in_region``, in the rules' region;
    ``drop_noisy``, boilerplate the verdicts drop; ``closed``, what no later pass may keep
    (noise, a strong-negative container, what a structural rule dropped). ``page_type``
    is the rules' ("landing" for a landing page)."""
    if opts.favor == RECALL:
        if opts.recover_outside_region:
            second_opinion(model, lines, kept, list(closed), _recall_recovery(opts))
        _keep_region_captions(model, lines, kept, metadata, in_region, drop_noisy, opts)
        _keep_region_metadata(model, lines, kept, metadata, in_region, title)
    elif opts.favor == PRECISION:
        _drop_for_precision(lines, kept, page_type)


@lru_cache(maxsize=8)
def _recall_recovery(opts: ExtractOptions) -> ExtractOptions:
    """``opts`` with the recovery step's looser cut-offs (recall)."""
    return replace(
        opts,
        recover_min_units=min(opts.recover_min_units, RECALL_RECOVER_MIN_UNITS),
        cosine_lambda=min(opts.cosine_lambda, RECALL_COSINE_LAMBDA),
    )


def _keep_region_captions(
    model: PageModel,
    lines: Sequence[Line],
    kept: list[bool],
    metadata: Sequence[bool],
    in_region: Sequence[bool],
    drop_noisy: Sequence[bool],
    opts: ExtractOptions,
) -> None:
    """Keep the photo captions of the region (not a picture credit or other noise, not
    mostly links): the hints drop them as image descriptions."""
    tags, elements, parents = model.tags, model.elements, model.parents
    for i, line in enumerate(lines):
        if kept[i] or metadata[i] or not in_region[i] or drop_noisy[i]:
            continue
        if line.link_density > opts.max_link_density:
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


def _keep_region_metadata(
    model: PageModel,
    lines: Sequence[Line],
    kept: list[bool],
    metadata: Sequence[bool],
    in_region: Sequence[bool],
    title: str,
) -> None:
    """Keep the region's date and byline lines in the text too (they stay metadata: the
    ``date`` and ``author`` fields read them); not the headline (the ``title``)."""
    for i, line in enumerate(lines):
        if metadata[i] and in_region[i] and line.text != title and not in_h1(model, line):
            kept[i] = True


def _drop_for_precision(lines: Sequence[Line], kept: list[bool], page_type: str) -> None:
    """Drop the kept lines that are more than :data:`PRECISION_MAX_LINK_DENSITY` links
    (but on a listing or landing page) and the short lines that are not prose at either
    end of the text (:data:`PRECISION_EDGE_MAX_LINES`); nothing when that would drop
    every line."""
    before = kept[:]
    if page_type not in _LINKED_PAGE_TYPES:
        for i, line in enumerate(lines):
            if kept[i] and line.link_density > PRECISION_MAX_LINK_DENSITY:
                kept[i] = False
    shown = [i for i, keep in enumerate(kept) if keep and shows_text(lines[i].text)]
    for edge in (shown, shown[::-1]):
        for i in edge[:PRECISION_EDGE_MAX_LINES]:
            line = lines[i]
            if line.prose or line.units >= PRECISION_EDGE_MAX_UNITS:
                break
            kept[i] = False
    if not any(kept):
        kept[:] = before
