"""The block structure of the kept lines of a page (:func:`build_blocks`), the one tree
that the Markdown (``markdown.to_markdown``) and the HTML (``htmloutput.to_html``) of the
main content are written from. The block types, and the cached walks up the tree that read
each line's frames and text runs, are ``markdown_tree``'s.

Each kept line is read in its frames (``markdown_tree.TreeContext.frames``: the quotes,
lists and their items, tables and their cells, headings and ``<pre>`` above it, outermost
first): consecutive lines share the frames they have in common, so the lines of one list
item become one :class:`Item`, the items of one ``<ul>`` one :class:`ListBlock`, a list
inside an item a list nested in it, a quote inside a quote a quote nested in it. Inside a
heading, a cell or a ``<pre>``, everything is its content (Markdown nests no block there).

A table is a :class:`Table` of its rows (``<tr>``) and cells (``<td>``, ``<th>``, a
``colspan`` as that many cells) when it is a data table; a *layout* table -- one that
holds a heading, a list, a quote, a ``<pre>`` or another table in a cell, or whose rows
are all one cell wide -- is read as its content. The cells of a row are read from the
page (an empty cell keeps its column); a row is kept when one of its cells has a kept
line; text in a table outside its cells (a caption) is a paragraph before it. A
``<pre>`` whose text was kept whole is its exact text (a ``<br>`` a new line, and a
``<div>``, ``<p>``, ``<li>`` or ``<tr>`` starts one), its language read from a ``class``
(:data:`LANGUAGE_RE`, on the ``<pre>``, its ``<code>`` or the element around it); a
partly kept one, the kept lines one a line.

With ``images``, an image inside a kept line (under the line's element, between its first
and last runs) is a piece of it, and an image between two kept lines, inside the element
holding every kept line, and not a thumbnail or a teaser (``ads.features.is_content_photo``)
a paragraph of its own. Linear in the page's size, as the tree walks are.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field

from lxml import etree

from scrapy_webclean.ads.features import is_content_photo
from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.markdown_tree import (
    CELL_TAGS,
    HEADINGS,
    LIST_TAGS,
    PLAIN,
    Block,
    Code,
    Heading,
    ImagePiece,
    Item,
    ListBlock,
    Paragraph,
    Piece,
    Quote,
    Table,
    TreeContext,
)

#: The frames inside which nothing nests: their content is one block.
_LEAF_TAGS = frozenset((*HEADINGS, *CELL_TAGS, "pre"))
#: The frames that make a table a layout table when they sit in one of its cells.
_LAYOUT_SIGNS = frozenset((*HEADINGS, *LIST_TAGS, "li", "table", "pre", "blockquote"))
_ROW = frozenset(("tr",))
_TABLE = frozenset(("table",))
#: Elements that start a line of their own inside a ``<pre>`` (as a browser shows them).
_LINE_TAGS = frozenset(("div", "p", "li", "tr"))
#: The widest ``colspan`` read (a larger one counts as this many cells).
MAX_COLSPAN = 50
#: A code block's language in a ``class``: ``language-python``, ``lang-js``,
#: ``highlight-source-rust``, ``brush: ruby``, ``sourceCode python``.
LANGUAGE_RE = re.compile(
    r"(?:^|\s)(?:language-|lang-|highlight-source-|brush:\s*+|sourceCode\s++)([A-Za-z0-9_+#.-]{1,32}+)"
)


@dataclass(slots=True)
class _Unit:
    """A kept line, or an image standing between kept lines, and its frames."""

    node: int
    frames: list[int]
    line: Line | None = None
    image: ImagePiece | None = None
    images: list[tuple[int, ImagePiece]] = field(default_factory=list)


def build_blocks(
    model: PageModel, lines: Sequence[Line], *, links: bool = True, images: bool = False
) -> list[Block]:
    """The blocks of the kept ``lines`` of a page (see the module docstring)."""
    context = TreeContext(model, links)
    units = _units(context, lines, images)
    layout = _layout_tables(context, units)
    builder = _Builder(context)
    for unit in units:
        frames = [
            f
            for f in unit.frames
            if not (
                (context.tags[f] == "table" and f in layout)
                or (context.tags[f] in CELL_TAGS and context.nearest(f, _TABLE) in layout)
            )
        ]
        for position, frame in enumerate(frames):
            if context.tags[frame] in _LEAF_TAGS:
                del frames[position + 1 :]
                break
        builder.add(unit, frames)
    return builder.finish()


def _units(context: TreeContext, lines: Sequence[Line], images: bool) -> list[_Unit]:
    """The kept lines with their frames, and with ``images`` the images in them and
    between them (see the module docstring)."""
    model = context.model
    runs = model.runs
    units = []
    for line in lines:
        start = runs[line.first_run].owner if line.end_run > line.first_run else line.node
        units.append(_Unit(start, context.frames(start, line.node), line))
    if not images or not model.images or not lines:
        return units
    refs = model.images
    at_runs = [ref.at_run for ref in refs]
    node_count = model.node_count
    used = [False] * len(refs)
    for unit in units:
        if unit.line is None:
            continue
        line = unit.line
        first = bisect_left(at_runs, line.first_run)
        end = line.node + node_count[line.node]
        for position in range(first, len(refs)):
            ref = refs[position]
            if ref.at_run > line.end_run:
                break
            if line.node < ref.node < end and not used[position]:
                used[position] = True
                if ref.src:
                    unit.images.append((ref.at_run, ImagePiece(ref.src, ref.alt or "")))
    # Images between kept lines, inside the element that holds them all.
    nodes = [line.node for line in lines]
    first_node, last_node = min(nodes), max(nodes)
    main = first_node
    while main > 0 and main + node_count[main] <= last_node:
        main = context.parents[main]
    main_end = main + node_count[main] if main > 0 else len(node_count)
    standing: list[tuple[int, _Unit]] = []
    for position, ref in enumerate(refs):
        if (
            not used[position]
            and main < ref.node < main_end
            and lines[0].first_run <= ref.at_run <= lines[-1].end_run
            and ref.src
            and is_content_photo(ref.width, ref.height, ref.link_url)
        ):
            image = ImagePiece(ref.src, ref.alt or "")
            standing.append((ref.at_run, _Unit(ref.node, context.frames(ref.node), None, image)))
    if not standing:
        return units
    merged: list[_Unit] = []
    place = 0
    for unit in units:
        assert unit.line is not None
        while place < len(standing) and standing[place][0] <= unit.line.first_run:
            merged.append(standing[place][1])
            place += 1
        merged.append(unit)
    merged.extend(unit for _, unit in standing[place:])
    return merged


def _layout_tables(context: TreeContext, units: Sequence[_Unit]) -> set[int]:
    """The tables read as their content: a layout sign in a cell, or every kept row one
    cell wide (see the module docstring)."""
    tags = context.tags
    layout: set[int] = set()
    widths: dict[int, int] = {}
    rows: set[int] = set()
    for unit in units:
        frames = unit.frames
        for position, frame in enumerate(frames):
            if tags[frame] not in CELL_TAGS:
                continue
            table = context.nearest(frame, _TABLE)
            if any(tags[inner] in _LAYOUT_SIGNS for inner in frames[position + 1 :]):
                layout.add(table)
            if table not in widths:
                widths[table] = 0
            row = context.nearest(frame, _ROW)
            if row > 0 and row not in rows:
                rows.add(row)
                widths[table] = max(widths[table], len(context.children(row, CELL_TAGS)))
    layout.update(table for table, width in widths.items() if width < 2)
    return layout


class _Builder:
    """Blocks from units one after another: the open frames are a stack."""

    def __init__(self, context: TreeContext) -> None:
        self.context = context
        self.top: list[Block] = []
        #: The open frames: their nodes and what they build (a list, an item, a quote,
        #: a table, a heading, a code block).
        self.open: list[tuple[int, _Open]] = []
        #: The node of the last line's own element and the paragraph it made, in the
        #: innermost open container (lines of one element in a list item or a quote join).
        self.last_paragraph: tuple[int, int, Paragraph] | None = None

    def add(self, unit: _Unit, frames: list[int]) -> None:
        """Add one unit in its frames."""
        keep = 0
        while keep < len(self.open) and keep < len(frames) and self.open[keep][0] == frames[keep]:
            keep += 1
        while len(self.open) > keep:
            self._close()
        for frame in frames[keep:]:
            self._open(frame)
        pieces: list[Piece] = (
            [unit.image]
            if unit.image is not None
            else self.context.pieces(unit.line, unit.images)
            if unit.line is not None
            else []
        )
        if self.open:
            node, target = self.open[-1]
            if isinstance(target, _OpenLeaf):
                if unit.line is not None:
                    target.lines.append(unit.line)
                if pieces:
                    if target.pieces:
                        target.pieces.append((PLAIN, " "))
                    target.pieces.extend(pieces)
                return
            if isinstance(target, _OpenTable):
                # Text of a table outside its cells (a caption): a paragraph before it.
                self._append(Paragraph(pieces))
                return
            if isinstance(target.block, ListBlock):
                self._open_item(node)  # text in a list, outside its items
        own = unit.line.node if unit.line is not None else -1
        depth = len(self.open)
        last = self.last_paragraph
        if self.open and last is not None and last[0] == depth and last[1] == own >= 0:
            last[2].pieces.append((PLAIN, " "))
            last[2].pieces.extend(pieces)
            return
        paragraph = Paragraph(pieces)
        self._append(paragraph)
        self.last_paragraph = (depth, own, paragraph)

    def _append(self, block: Block) -> None:
        """``block`` into the innermost open container (or the top). A block met in a
        table outside its cells goes to the container around the table (before it)."""
        self.last_paragraph = None
        depth = len(self.open)
        while depth and isinstance(self.open[depth - 1][1], _OpenTable | _OpenLeaf):
            depth -= 1
        if not depth:
            self.top.append(block)
            return
        target = self.open[depth - 1][1]
        assert isinstance(target, _OpenContainer)
        holder = target.block
        if isinstance(holder, ListBlock):
            if depth == len(self.open):
                self._open_item(self.open[-1][0])
            elif not holder.items:
                holder.items.append(Item())
            holder = holder.items[-1] if depth < len(self.open) else self._innermost_item()
        holder.children.append(block)

    def _innermost_item(self) -> Item:
        _, target = self.open[-1]
        assert isinstance(target, _OpenContainer) and isinstance(target.block, Item)
        return target.block

    def _open_item(self, list_node: int) -> None:
        """An item for text that sits in a list outside its items."""
        item = Item()
        _, target = self.open[-1]
        assert isinstance(target, _OpenContainer) and isinstance(target.block, ListBlock)
        target.block.items.append(item)
        self.open.append((-list_node, _OpenContainer(item)))

    def _open(self, frame: int) -> None:
        context = self.context
        tag = context.tags[frame]
        if tag in LIST_TAGS:
            listing = ListBlock(tag == "ol", _list_start(context, frame) if tag == "ol" else 1)
            self._append(listing)
            self.open.append((frame, _OpenContainer(listing)))
        elif tag == "li":
            parent = self.open[-1][1] if self.open else None
            if not (isinstance(parent, _OpenContainer) and isinstance(parent.block, ListBlock)):
                listing = ListBlock(False, 1)
                self._append(listing)
                self.open.append((-frame, _OpenContainer(listing)))
                parent = self.open[-1][1]
            assert isinstance(parent, _OpenContainer) and isinstance(parent.block, ListBlock)
            item = Item()
            parent.block.items.append(item)
            self.open.append((frame, _OpenContainer(item)))
            self.last_paragraph = None
        elif tag == "blockquote":
            quote = Quote()
            self._append(quote)
            self.open.append((frame, _OpenContainer(quote)))
        elif tag == "table":
            self.open.append((frame, _OpenTable(frame)))
        elif tag in CELL_TAGS:
            table = self.open[-1][1] if self.open else None
            leaf = _OpenLeaf(frame)
            if isinstance(table, _OpenTable):
                table.cells[frame] = leaf
            self.open.append((frame, leaf))
        else:
            self.open.append((frame, _OpenLeaf(frame)))

    def _close(self) -> None:
        node, target = self.open.pop()
        self.last_paragraph = None
        context = self.context
        if isinstance(target, _OpenTable):
            table = _table(context, target)
            if table is not None:
                self._append(table)
        elif isinstance(target, _OpenLeaf):
            tag = context.tags[node]
            if tag in HEADINGS:
                self._append(Heading(HEADINGS[tag], target.pieces))
            elif tag == "pre":
                self._append(_code(context, node, target.lines))
            elif not (self.open and isinstance(self.open[-1][1], _OpenTable)):
                self._append(Paragraph(target.pieces))  # a cell outside any table

    def finish(self) -> list[Block]:
        """The blocks, every frame closed."""
        while self.open:
            self._close()
        return self.top


@dataclass(slots=True)
class _OpenContainer:
    block: ListBlock | Item | Quote


@dataclass(slots=True)
class _OpenLeaf:
    node: int
    pieces: list[Piece] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)


@dataclass(slots=True)
class _OpenTable:
    node: int
    cells: dict[int, _OpenLeaf] = field(default_factory=dict)


_Open = _OpenContainer | _OpenLeaf | _OpenTable


def _list_start(context: TreeContext, listing: int) -> int:
    """The number of an ordered list's first item: its ``start`` (1 when none)."""
    start = (context.model.elements[listing].get("start") or "").strip()
    return int(start) if start.isdigit() and len(start) < 10 else 1


def _colspan(context: TreeContext, cell: int) -> int:
    span = (context.model.elements[cell].get("colspan") or "").strip()
    return min(int(span), MAX_COLSPAN) if span.isdigit() and 0 < len(span) < 4 else 1


def _table(context: TreeContext, table: _OpenTable) -> Table | None:
    """The rows of a table with kept cells, each with every cell of the row (an empty one
    for a cell with nothing kept, a ``colspan`` as that many); a kept cell that is not a
    child of its row (or in no row) ends its row."""
    rows: dict[int, list[int]] = {}
    for cell in table.cells:
        rows.setdefault(context.nearest(cell, _ROW), []).append(cell)
    grid: list[list[list[Piece]]] = []
    for row, kept in rows.items():
        cells: list[list[Piece]] = []
        placed: set[int] = set()
        for cell in context.children(row, CELL_TAGS) if row > 0 else ():
            held = table.cells.get(cell)
            cells.append(held.pieces if held is not None else [])
            cells.extend([] for _ in range(_colspan(context, cell) - 1))
            placed.add(cell)
        cells.extend(table.cells[cell].pieces for cell in kept if cell not in placed)
        grid.append(cells)
    return Table(grid) if grid else None


def _code(context: TreeContext, pre: int, lines: Sequence[Line]) -> Code:
    """A ``<pre>``'s code block: its exact text when its text was kept whole, else the
    kept lines one a line; its language from a ``class``."""
    model = context.model
    kept = sum(line.chars for line in lines)
    text = _exact_text(model, pre) if kept >= model.text_len[pre] else None
    if text is None:
        text = "\n".join(line.text for line in lines)
    return Code(text, _language(context, pre))


def _exact_text(model: PageModel, pre: int) -> str | None:
    """The visible text of ``pre`` as written (a ``<br>`` a new line, the first and last
    blank lines left out), read in the page model's own order; None when the tree does
    not match the model."""
    element = model.elements[pre]
    parts: list[str] = []
    index = pre - 1
    walker = etree.iterwalk(element, events=("start", "end"))
    for event, sub in walker:
        if event == "start":
            index += 1
            if index >= len(model.elements) or model.elements[index] is not sub:
                return None
            if not model.visible[index]:
                walker.skip_subtree()
                continue
            if sub.tag == "br":
                parts.append("\n")
                continue
            if sub.tag in _LINE_TAGS and parts and not parts[-1].endswith("\n"):
                parts.append("\n")  # (a line of code in an element of its own)
            if isinstance(sub.tag, str) and sub.text:
                parts.append(sub.text)
        elif sub is not element and sub.tail:
            parts.append(sub.tail)
    text = "".join(parts).replace("\r\n", "\n").replace("\r", "\n")
    return text.strip("\n").rstrip()


def _language(context: TreeContext, pre: int) -> str:
    """The language a ``class`` names on the ``<pre>``, its first ``<code>`` or the
    element around it ("" when none)."""
    model = context.model
    candidates = [pre, *context.children(pre, frozenset(("code",)))[:1], model.parents[pre]]
    for node in candidates:
        if node <= 0:
            continue
        found = LANGUAGE_RE.search(model.elements[node].get("class") or "")
        if found:
            return found.group(1).lower()
    return ""
