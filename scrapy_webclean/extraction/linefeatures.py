"""Features of a page's lines for the trained keep/drop decision (``linemodel``).

Every feature means the same on any site: the hand rules' own verdict and score parts
(region, hints, noise and template flags, the line score), the line's text statistics
(length, link density, prose, digits, punctuation), its element (tag kind, custom), where
it sits (position on the page and relative to the region), its neighbours' verdicts, and
a few page-level figures (how much of the page the rules kept, the page type they read,
the page-type model's probabilities: ``pagetype``).
Nothing names a site, a word of one language or a class name of one template.

The page-level figures are gathered in one pass over the lines, from lists the extractor
already holds, and rows are built only for the lines the model is asked about (a line's
distance to the nearest kept line, and the kept lines near it, are found in the sorted
indexes of the kept lines), so a page of 300 lines costs a few hundred microseconds.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.pagetype import PAGE_TYPES, uniform_probabilities
from scrapy_webclean.html.pagemodel import PageModel

#: The feature columns, in order (a model file names them; a mismatch refuses the file).
FEATURE_NAMES: tuple[str, ...] = (
    "rule_keep",
    "rule_metadata",
    "in_region",
    "noisy",
    "drop_noisy",
    "template",
    "hint",
    "log_units",
    "link_density",
    "prose",
    "score",
    "custom",
    "position",
    "region_side",
    "tag_kind",
    "log_chars",
    "digit_share",
    "punct_share",
    "prev_keep",
    "next_keep",
    "prev_link_density",
    "next_link_density",
    "kept_nearby",
    "page_log_lines",
    "page_kept_share",
    "page_type",
    "page_link_density",
    "repeats",
    "units_vs_kept",
    "gap_to_kept",
    "region_position",
    "has_template",
    "parent_link_density",
    "grandparent_link_density",
    "sibling_lines",
    "same_shape_lines",
    "in_main",
    "relative_depth",
    "after_h1",
    "page_prose_share",
    "page_item_share",
    "page_headings",
    "parent_log_chars",
    *(f"type_{name}" for name in PAGE_TYPES),
    "structural_drop",
    "seen_on_site",
)

#: Page types of the rules (``Extraction.page_type``), as numbers.
PAGE_TYPE_CODES = {"article": 0, "listing": 1, "forum": 2, "landing": 3, "other": 4}
#: The code of a page type not in :data:`PAGE_TYPE_CODES`.
OTHER_PAGE_CODE = PAGE_TYPE_CODES["other"]

#: Kinds of a line's container element, as numbers (the model reads them as ordered
#: codes; the trees split them as they need).
TAG_KINDS: dict[str, int] = {
    "h1": 1,
    "h2": 2,
    "h3": 2,
    "h4": 3,
    "h5": 3,
    "h6": 3,
    "p": 4,
    "li": 5,
    "dd": 5,
    "dt": 5,
    "td": 6,
    "th": 6,
    "pre": 7,
    "code": 7,
    "blockquote": 8,
    "figcaption": 9,
    "caption": 9,
    "a": 10,
    "span": 11,
    "div": 12,
    "section": 12,
    "article": 12,
    "main": 12,
    "header": 13,
    "footer": 13,
    "nav": 13,
    "aside": 13,
    "label": 14,
    "button": 14,
    "option": 14,
    "time": 15,
}
_OTHER_TAG = 0

#: Lines within this many lines before or after count as "nearby".
NEARBY_LINES = 3
#: The distance to the nearest kept line is counted up to this many lines.
MAX_GAP = 20

_PUNCT = frozenset(",.;:!?'\"()[]{}«»“”‘’-–—/|·•，。；：！？、（）《》【】…")
#: One match per character of :data:`_PUNCT` (counted by ``findall``: a regular
#: expression's class reads a line faster than a test per character in Python).
_PUNCT_RE = re.compile("[" + "".join(re.escape(c) for c in sorted(_PUNCT)) + "]")


@dataclass(frozen=True, slots=True)
class RuleState:
    """What the hand rules decided and measured for each line of a page."""

    kept: Sequence[bool]
    metadata: Sequence[bool]
    in_region: Sequence[bool]
    noisy: Sequence[bool]
    drop_noisy: Sequence[bool]
    template: Sequence[bool] | None
    hints: Sequence[int]
    scores: Sequence[float]
    page_type: str
    #: The page-type model's probability of each of ``pagetype.PAGE_TYPES``.
    type_probs: Sequence[float] = ()
    #: Lines the structural rules dropped after the verdicts (a "related" section, a
    #: ``<noscript>`` copy, a repeated buy box).
    structural: Sequence[bool] = ()
    #: Lines met on an earlier page of the site (``TemplateModel.template_evidence``).
    seen_on_site: Sequence[bool] = ()
    #: What the model's verdicts favor (``ExtractOptions.favor``): "balanced", or
    #: "precision" or "recall", which move its thresholds (``favor.shifted_thresholds``).
    favor: str = "balanced"


def line_features(
    model: PageModel, lines: Sequence[Line], rules: RuleState, only: Sequence[int] | None = None
) -> list[list[float]]:
    """One row of :data:`FEATURE_NAMES` per line, or per line of ``only`` (indexes into
    ``lines``, in order): the other lines' rows are not built, though every page-level
    feature still reads them all."""
    n = len(lines)
    if n == 0:
        return []
    tags = model.tags
    parents = model.parents
    text_len, anchor_len = model.text_len, model.anchor_len
    rule_kept, in_region = rules.kept, rules.in_region
    kept = [1.0 if k else 0.0 for k in rule_kept]
    # The page-level figures, in one pass over the lines (each sum in line order, as
    # ``sum`` would add them).
    kept_idx: list[int] = []
    first_region, last_region = n, -1
    total_units = kept_units = prose_units = item_units = 0.0
    total_chars = all_anchor_chars = heading_lines = 0
    first_h1 = -1
    parent_of = [0] * n
    grand_of = [0] * n
    shapes: list[tuple[str, str, str]] = []
    add_shape = shapes.append
    for i, line in enumerate(lines):
        units = line.units
        node = line.node
        tag = tags[node]
        total_units += units
        total_chars += line.chars
        all_anchor_chars += line.anchor_chars
        if rule_kept[i]:
            kept_idx.append(i)
            kept_units += units
        if in_region[i]:
            if first_region == n:
                first_region = i
            last_region = i
        if line.prose:
            prose_units += units
        if tag == "li":
            item_units += units
        elif tag in _HEADINGS:
            heading_lines += 1
            if first_h1 < 0 and tag == "h1":
                first_h1 = i
        parent = parents[node] if node > 0 else 0
        grand = parents[parent] if parent > 0 else 0
        parent_of[i] = parent
        grand_of[i] = grand
        add_shape((tag, tags[parent], tags[grand]))
    has_region = last_region >= 0
    total_units = total_units or 1.0
    page_kept_share = kept_units / total_units
    mean_kept_units = kept_units / len(kept_idx) if kept_idx else 1.0
    total_chars = total_chars or 1
    page_link_density = all_anchor_chars / total_chars
    page_log_lines = math.log1p(n)
    page_type = float(PAGE_TYPE_CODES.get(rules.page_type, OTHER_PAGE_CODE))
    has_template = 1.0 if rules.template is not None else 0.0
    template = rules.template or [False] * n
    repeats = Counter(line.text for line in lines)
    region_span = max(1, last_region - first_region + 1)
    depth, in_main = _depths(model)
    max_depth = max(1, model.depth)

    def density(node: int) -> float:
        return anchor_len[node] / text_len[node] if text_len[node] else 0.0

    siblings = Counter(parent_of)
    shape_count = Counter(shapes)
    prose_share = prose_units / total_units
    item_share = item_units / total_units
    headings = math.log1p(heading_lines)
    type_probs = list(rules.type_probs) or uniform_probabilities()
    structural = rules.structural or [False] * n
    seen_on_site = rules.seen_on_site or [False] * n
    rows: list[list[float]] = []
    is_digit, punct_findall = str.isdigit, _PUNCT_RE.findall
    for i in range(n) if only is None else only:
        line = lines[i]
        text = line.text
        chars = len(text) or 1
        digits = sum(map(is_digit, text))
        punct = len(punct_findall(text))
        lo = max(0, i - NEARBY_LINES)
        hi = min(n, i + NEARBY_LINES + 1)
        # (the distances to the nearest kept line at or before i and at or after it, from
        # the sorted kept indexes)
        before = bisect_left(kept_idx, i)
        previous_kept = i - kept_idx[before - 1] if before else MAX_GAP
        if rule_kept[i]:
            previous_kept = 0
        next_kept = kept_idx[before] - i if before < len(kept_idx) else MAX_GAP
        rows.append(
            [
                kept[i],
                1.0 if rules.metadata[i] else 0.0,
                1.0 if rules.in_region[i] else 0.0,
                1.0 if rules.noisy[i] else 0.0,
                1.0 if rules.drop_noisy[i] else 0.0,
                1.0 if template[i] else 0.0,
                float(rules.hints[line.node]),
                math.log1p(line.units),
                line.link_density,
                1.0 if line.prose else 0.0,
                max(-200.0, min(200.0, rules.scores[i])),
                1.0 if line.custom else 0.0,
                i / n,
                -1.0 if i < first_region else (1.0 if i > last_region else 0.0),
                float(TAG_KINDS.get(tags[line.node], _OTHER_TAG)),
                math.log1p(line.chars),
                digits / chars,
                punct / chars,
                kept[i - 1] if i > 0 else 0.0,
                kept[i + 1] if i + 1 < n else 0.0,
                lines[i - 1].link_density if i > 0 else 0.0,
                lines[i + 1].link_density if i + 1 < n else 0.0,
                float(bisect_left(kept_idx, hi) - bisect_left(kept_idx, lo)) - kept[i],
                page_log_lines,
                page_kept_share,
                page_type,
                page_link_density,
                float(min(repeats[text], 10)),
                line.units / mean_kept_units,
                float(min(MAX_GAP, previous_kept, next_kept)),
                (i - first_region) / region_span if has_region else -1.0,
                has_template,
                density(parent_of[i]),
                density(grand_of[i]),
                float(min(siblings[parent_of[i]], 50)),
                float(min(shape_count[shapes[i]], 50)),
                in_main[line.node],
                depth[line.node] / max_depth,
                0.0 if first_h1 < 0 else (1.0 if i > first_h1 else (-1.0 if i < first_h1 else 0.5)),
                prose_share,
                item_share,
                headings,
                math.log1p(text_len[parent_of[i]]),
                *type_probs,
                1.0 if structural[i] else 0.0,
                1.0 if seen_on_site[i] else 0.0,
            ]
        )
    return rows


_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_MAIN_TAGS = frozenset(("main", "article"))


def _depths(model: PageModel) -> tuple[list[int], list[float]]:
    """Each node's depth, and 1.0 when it sits in a ``main`` or ``article`` element."""
    parents, tags = model.parents, model.tags
    n = len(tags)
    depth = [0] * n
    in_main = [0.0] * n
    for i in range(1, n):
        p = parents[i]
        depth[i] = depth[p] + 1
        in_main[i] = 1.0 if in_main[p] or tags[i] in _MAIN_TAGS else 0.0
    if n and tags[0] in _MAIN_TAGS:
        in_main[0] = 1.0
    return depth, in_main
