"""The last passes over a page's verdicts, after the line model: lines whose verdict
follows their neighbours'.

**Labels of link boxes left behind.** A box of links to other pages often sits under the
article, inside its container: a bold or heading label ("Company news", "证券要闻") over a
few linked headlines. The verdicts drop the headlines (mostly anchor text) but keep the
label, a short line of plain text, which then ends the text alone.
:func:`drop_stranded_labels` drops such a label once every line after it, up to the next
kept line, is a dropped link line. It only looks at the text's tail, after its last kept
line that reads like prose: a section heading over a list of links in the middle of a
text (a checklist, a table of contents) heads what follows and stays. On the one-site
Chinese set (``zh-netease-template``) it drops the three labels ("证券要闻", "行业动态",
"公司新闻") that ended 15 of the 74 texts of a Cleaner fed the pages in order (24 of
clean_html's): the lines that recur on three texts or more went from 6 to 3
(``benchmarks/extraction.py``). On the dev sets it changes 7 of 2,458 pages,
cross-validated (``benchmarks/compare_runs.py``): WCXB +0.000002 (3 pages up, 3 down),
scrapinghub +0.00003, dragnet-gold and the Chinese news unchanged.

**What follows an editor's line.** Chinese news sites sign an article with its editor's
line ("责任编辑：张伟"); what follows it inside the article's container is other articles'
teasers, a follow prompt, a QR code's caption. :func:`drop_after_editor_line` drops it.
Cross-validated: Chinese news +0.0033 (one page of five teasers after the signature, up
by 0.146), no page of another set changed.
"""

from __future__ import annotations

import re

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.extraction.verdicts import text_element
from scrapy_webclean.html.pagemodel import PageModel

#: A label is at most this many text units long.
LABEL_MAX_UNITS = 8.0
#: A label is left stranded when at least this many dropped link lines follow it.
STRANDED_MIN_LINK_LINES = 2
#: A label's text sits in one of these elements (a heading, or bold text).
LABEL_TAGS = frozenset(("h2", "h3", "h4", "h5", "h6", "b", "strong"))
#: An editor's signature, the line a Chinese news site ends an article with ("责任编辑：张伟",
#: "（责编：李明）", "本文来源：网易财经 责任编辑：NF042").
EDITOR_LINE_RE = re.compile(r"(?:责任编辑|责编)\s*[:：]")
#: An editor's line is at most this many characters long (a paragraph that names an
#: editor is no signature).
EDITOR_LINE_MAX_CHARS = 80


def drop_stranded_labels(
    model: PageModel, lines: list[Line], kept: list[bool], max_link_density: float
) -> None:
    """Drop (in ``kept``) each label in the text's tail whose following lines, up to the
    next kept line or the page's end, are at least :data:`STRANDED_MIN_LINK_LINES` lines
    that were dropped and are mostly anchor text (over ``max_link_density``). A label is
    a kept line of at most :data:`LABEL_MAX_UNITS` text units, not prose, not itself a
    link, whose text sits in one of :data:`LABEL_TAGS`."""
    n = len(lines)
    last_prose = next((i for i in range(n - 1, -1, -1) if kept[i] and lines[i].prose), -1)
    for i in range(last_prose + 1, n):
        if not (kept[i] and _is_label(model, lines[i], max_link_density)):
            continue
        after = i + 1
        while after < n and not kept[after] and lines[after].link_density > max_link_density:
            after += 1
        if after - i - 1 >= STRANDED_MIN_LINK_LINES and (after == n or kept[after]):
            kept[i] = False


def _is_label(model: PageModel, line: Line, max_link_density: float) -> bool:
    """True for a short line of plain text in a heading or bold element."""
    if line.units > LABEL_MAX_UNITS or line.prose or line.link_density > max_link_density:
        return False
    return text_element(model, line, LABEL_TAGS) > 0


def drop_after_editor_line(lines: list[Line], kept: list[bool]) -> None:
    """Drop (in ``kept``) the kept lines after the first kept editor's line
    (:data:`EDITOR_LINE_RE`), when more of the kept text comes before it than after it:
    what follows an article's signature is other articles' teasers, a follow prompt, a QR
    code's caption. An editor's line above most of the text (a header's "来源：… 责任编辑：…")
    changes nothing."""
    signature = next(
        (
            i
            for i, line in enumerate(lines)
            if kept[i]
            and len(line.text) <= EDITOR_LINE_MAX_CHARS
            and EDITOR_LINE_RE.search(line.text) is not None
        ),
        -1,
    )
    if signature < 0:
        return
    before = sum(line.chars for line, keep in zip(lines[:signature], kept, strict=False) if keep)
    after = sum(
        line.chars
        for line, keep in zip(lines[signature + 1 :], kept[signature + 1 :], strict=True)
        if keep
    )
    if before > after:
        for i in range(signature + 1, len(lines)):
            kept[i] = False
