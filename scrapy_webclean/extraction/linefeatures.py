"""Features of a page's lines for the trained keep/drop decision (``linemodel``).

Every feature means the same on any site: the hand rules' own verdict and score parts
(region, hints, noise and template flags, the line score), the line's text statistics
(length, link density, prose, digits, punctuation), its element (tag kind, custom), where
it sits (position on the page and relative to the region), its neighbours' verdicts, and
a few page-level figures (how much of the page the rules kept, the page type they read,
the page-type model's probabilities: ``pagetype``).
Nothing names a site, a word of one language or a class name of one template.

The features are computed column by column from lists the extractor already holds, so a
page of 300 lines costs a few hundred microseconds.
"""

from __future__ import annotations

import math
import re
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


def line_features(
    model: PageModel, lines: Sequence[Line], rules: RuleState, only: Sequence[int] | None = None
) -> list[list[float]]:
    """One row of :data:`FEATURE_NAMES` per line, or per line of ``only`` (indexes into
    ``lines``, in order): the other lines' rows are not built, though every page-level
    feature still reads them all."""
    n = len(lines)
    if n == 0:
        return []
    kept = [1.0 if k else 0.0 for k in rules.kept]
    densities = [line.link_density for line in lines]
    kept_idx = [i for i in range(n) if kept[i]]
    region_idx = [i for i in range(n) if rules.in_region[i]]
    first_region = region_idx[0] if region_idx else n
    last_region = region_idx[-1] if region_idx else -1
    total_units = sum(line.units for line in lines) or 1.0
    kept_units = sum(line.units for line, k in zip(lines, kept, strict=False) if k)
    page_kept_share = kept_units / total_units
    mean_kept_units = kept_units / len(kept_idx) if kept_idx else 1.0
    total_chars = sum(line.chars for line in lines) or 1
    page_link_density = sum(line.anchor_chars for line in lines) / total_chars
    page_log_lines = math.log1p(n)
    page_type = float(PAGE_TYPE_CODES.get(rules.page_type, OTHER_PAGE_CODE))
    has_template = 1.0 if rules.template is not None else 0.0
    template = rules.template or [False] * n
    repeats = Counter(line.text for line in lines)
    # kept lines within +-NEARBY_LINES: a prefix sum over the verdicts
    prefix = [0.0]
    for k in kept:
        prefix.append(prefix[-1] + k)
    # distance to the nearest kept line, both ways
    gap = [float(MAX_GAP)] * n
    last = -MAX_GAP - 1
    for i in range(n):
        if kept[i]:
            last = i
        gap[i] = float(min(MAX_GAP, i - last))
    last = n + MAX_GAP + 1
    for i in range(n - 1, -1, -1):
        if kept[i]:
            last = i
        gap[i] = min(gap[i], float(min(MAX_GAP, last - i)))
    region_span = max(1, last_region - first_region + 1)
    tags = model.tags
    parents = model.parents
    text_len, anchor_len = model.text_len, model.anchor_len
    depth, in_main = _depths(model)
    max_depth = max(1, model.depth)

    def density(node: int) -> float:
        return anchor_len[node] / text_len[node] if text_len[node] else 0.0

    parent_of = [parents[line.node] if line.node > 0 else 0 for line in lines]
    grand_of = [parents[p] if p > 0 else 0 for p in parent_of]
    siblings = Counter(parent_of)
    shapes = [
        (tags[line.node], tags[p], tags[g])
        for line, p, g in zip(lines, parent_of, grand_of, strict=True)
    ]
    shape_count = Counter(shapes)
    first_h1 = next((i for i, line in enumerate(lines) if tags[line.node] == "h1"), -1)
    prose_share = sum(line.units for line in lines if line.prose) / total_units
    item_share = sum(line.units for line in lines if tags[line.node] == "li") / total_units
    headings = math.log1p(sum(1 for line in lines if tags[line.node] in _HEADINGS))
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
                densities[i],
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
                densities[i - 1] if i > 0 else 0.0,
                densities[i + 1] if i + 1 < n else 0.0,
                prefix[hi] - prefix[lo] - kept[i],
                page_log_lines,
                page_kept_share,
                page_type,
                page_link_density,
                float(min(repeats[text], 10)),
                line.units / mean_kept_units,
                gap[i],
                (i - first_region) / region_span if region_idx else -1.0,
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
