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

**The cells of a kept table.** A data table's cells are short lines, and the line model
drops many of them, or all, where the text around it is kept (a table of results, of
prices, of a formula's values). :func:`keep_table_cells` keeps the cells of a table one
of whose cells is kept, or that sits in the region between kept lines: a table of at
least :data:`TABLE_MIN_ROWS` rows with no table inside it (a layout table holds other
tables, or the page), cells not vetoed nor mostly links.

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
#: A kept table has at least this many rows.
TABLE_MIN_ROWS = 2
#: A line's cell is its node or at most this many levels above it, and the cell's table
#: at most this many levels above the cell.
CELL_LEVELS = 3
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


def _above(model: PageModel, node: int, tags: frozenset[str]) -> int:
    """The element of ``tags`` that is ``node`` or at most :data:`CELL_LEVELS` levels above
    it, or -1."""
    for _ in range(CELL_LEVELS + 1):
        if node <= 0:
            break
        if model.tags[node] in tags:
            return node
        node = model.parents[node]
    return -1


_CELL_TAGS = frozenset(("td", "th"))
_TABLE_TAGS = frozenset(("table",))


def _data_table(model: PageModel, table: int) -> bool:
    """True for a table of at least :data:`TABLE_MIN_ROWS` rows, a row of two cells or
    more, and no table inside it (a layout table holds other tables, or stacks its parts
    one a row)."""
    tags, parents = model.tags, model.parents
    rows = 0
    cells: dict[int, int] = {}
    for node in range(table + 1, table + model.node_count[table]):
        tag = tags[node]
        if tag == "table":
            return False
        if tag == "tr":
            rows += 1
        elif tag in _CELL_TAGS:
            cells[parents[node]] = cells.get(parents[node], 0) + 1
    return rows >= TABLE_MIN_ROWS and max(cells.values(), default=0) >= 2


def keep_table_cells(
    model: PageModel,
    lines: list[Line],
    kept: list[bool],
    vetoed: list[bool],
    in_region: list[bool],
    max_link_density: float,
) -> None:
    """Keep (in ``kept``) the dropped cells of a data table (:func:`_data_table`) one of
    whose cells is kept, or whose lines are in the region (``in_region``) with a kept
    line before and after the table; unless ``vetoed`` (noise, a strong-negative
    container, a structural drop, a metadata line) or mostly anchor text (over ``max_link_density``)."""
    table_of = [-1] * len(lines)
    tables: set[int] = set()
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, line in enumerate(lines):
        cell = _above(model, line.node, _CELL_TAGS)
        if cell > 0:
            table = _above(model, model.parents[cell], _TABLE_TAGS)
            table_of[i] = table
            if table > 0:
                first.setdefault(table, i)
                last[table] = i
                if kept[i]:
                    tables.add(table)
    # (a kept line before a table and one after it: the first kept line is before it,
    # the last after it)
    kept_at = [i for i, keep in enumerate(kept) if keep]
    for table, start in first.items():
        if kept_at and in_region[start] and kept_at[0] < start and kept_at[-1] > last[table]:
            tables.add(table)
    if not tables:
        return
    data = {table for table in tables if _data_table(model, table)}
    for i, line in enumerate(lines):
        if (
            table_of[i] in data
            and not kept[i]
            and not vetoed[i]
            and line.link_density <= max_link_density
        ):
            kept[i] = True
