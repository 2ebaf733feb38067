"""The block types of the main content (:class:`Paragraph`, :class:`Heading`, :class:`Code`,
:class:`Quote`, :class:`ListBlock` of :class:`Item`, :class:`Table`; text as :data:`Piece`
runs) and :class:`TreeContext`, the cached walks up a page's tree that
``markdown_blocks.build_blocks`` reads the kept lines with.

A kept line is read in the *frames* above it (:meth:`TreeContext.frames`): the structural
elements (:data:`STRUCTURE_TAGS`: quotes, lists and their items, tables and their cells,
headings, ``<pre>``) around it, outermost first. An element counts as a frame of a line
when it sits at most :data:`FRAME_GAP` levels above the line's own element or above the
next frame inside it (an article laid out inside one huge ``<li>`` or ``<td>`` is not a
list item, or a cell), and at most :data:`MAX_FRAMES` frames nest (the outermost ones;
deeper ones are read as their content).

Text is kept as :data:`Piece` runs (:meth:`TreeContext.pieces`): a style (link target,
bold, italic, code; :meth:`TreeContext.style`) and the text, or an :class:`ImagePiece`.
Without ``links``, text in a link is plain text.

Every walk up the tree is cached (each question asked of a node is answered once) and a
line has at most :data:`MAX_FRAMES` frames: the tree of a page takes time linear in its
size however deep it nests.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel

HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BOLD = frozenset(("b", "strong"))
_ITALIC = frozenset(("i", "em"))
#: Table cells.
CELL_TAGS = frozenset(("td", "th"))
#: Lists.
LIST_TAGS = frozenset(("ul", "ol"))
#: The elements a line's frames are made of (see the module docstring).
STRUCTURE_TAGS = frozenset((*HEADINGS, *CELL_TAGS, *LIST_TAGS, "li", "table", "pre", "blockquote"))
#: How many levels above the element below it a frame may sit.
FRAME_GAP = 4
#: How many frames nest at most.
MAX_FRAMES = 12

#: One text run's style: its link target, bold, italic, code.
Style = tuple[str | None, bool, bool, bool]
PLAIN: Style = (None, False, False, False)


@dataclass(slots=True)
class ImagePiece:
    """An image in the text: its absolute URL and its alternative text."""

    src: str
    alt: str


#: A piece of text with its style, or an image.
Piece = tuple[Style, str] | ImagePiece


@dataclass(slots=True)
class Paragraph:
    """A paragraph: its pieces."""

    pieces: list[Piece]


@dataclass(slots=True)
class Heading:
    """A heading of ``level`` 1-6."""

    level: int
    pieces: list[Piece]


@dataclass(slots=True)
class Code:
    """A code block: its exact text and its language ("" when not given)."""

    text: str
    language: str = ""


@dataclass(slots=True)
class Quote:
    """A block quote of blocks."""

    children: list[Block] = field(default_factory=list)


@dataclass(slots=True)
class Item:
    """A list item of blocks."""

    children: list[Block] = field(default_factory=list)


@dataclass(slots=True)
class ListBlock:
    """A list: ordered (numbered from ``start``) or not, and its items."""

    ordered: bool
    start: int
    items: list[Item] = field(default_factory=list)


@dataclass(slots=True)
class Table:
    """A table: its rows of cells, each cell its pieces; the first row is the header."""

    rows: list[list[list[Piece]]]


Block = Paragraph | Heading | Code | Quote | ListBlock | Table


class TreeContext:
    """The page's tree as the block structure reads it; each walk up the tree is cached,
    so a page costs time linear in its size however deep it nests."""

    def __init__(self, model: PageModel, links: bool = True) -> None:
        self.model = model
        self.tags = model.tags
        self.parents = model.parents
        self.hrefs = {ref.node: ref.url for ref in model.links} if links else {}
        self._nearest: dict[frozenset[str], dict[int, int]] = {}
        self._depths: dict[int, int] = {}
        self._frame_above: dict[int, int] = {}
        self._frame_depths: dict[int, int] = {}
        self._shallow: dict[int, int] = {}
        #: Run styles by the line element they are read up to, then by node.
        self._styles: dict[int, dict[int, Style]] = {}

    def _path_up(self, node: int, cache: Container[int], stop: int = 0) -> list[int]:
        """The nodes from ``node`` up to (not including) the first one that is cached, is
        ``stop`` or is the root."""
        path = []
        while node > 0 and node != stop and node not in cache:
            path.append(node)
            node = self.parents[node]
        return path

    def nearest(self, node: int, tags: frozenset[str]) -> int:
        """The nearest ancestor-or-self of ``node`` with one of ``tags`` (-1: none)."""
        cache = self._nearest.setdefault(tags, {})
        path = []
        found = -1
        while node > 0:
            held = cache.get(node)
            if held is not None:
                found = held
                break
            if self.tags[node] in tags:
                found = node
                break
            path.append(node)
            node = self.parents[node]
        for up in path:
            cache[up] = found
        if found > 0:
            cache[found] = found
        return found

    def _count_up(self, node: int, cache: dict[int, int], counts: Callable[[int], int]) -> int:
        """The sum of ``counts`` over ``node`` and its ancestors (the root excluded)."""
        path = self._path_up(node, cache)
        top = path[-1] if path else node
        total = cache.get(self.parents[top], 0) if path else cache.get(node, 0)
        for up in reversed(path):
            total += counts(up)
            cache[up] = total
        return total

    def depth(self, node: int) -> int:
        """How many elements ``node`` sits under, the root excluded (0 for the root)."""
        return self._count_up(node, self._depths, lambda up: 1)

    def frame_of(self, node: int, base: int | None = None) -> int:
        """The innermost frame of text in ``node``: its nearest ancestor-or-self with a
        structure tag, when that is below ``base`` (the line's own element; ``node`` when
        None) or at most :data:`FRAME_GAP` levels above it (-1: none)."""
        frame = self.nearest(node, STRUCTURE_TAGS)
        if frame <= 0:
            return -1
        base_depth = self.depth(node if base is None else base)
        return -1 if base_depth - self.depth(frame) > FRAME_GAP else frame

    def frame_above(self, frame: int) -> int:
        """The frame around ``frame`` (-1: none), cached."""
        above = self._frame_above.get(frame)
        if above is None:
            parent = self.parents[frame]
            above = self.frame_of(parent, frame) if parent > 0 else -1
            self._frame_above[frame] = above
        return above

    def frame_depth(self, frame: int) -> int:
        """How many frames ``frame`` is or sits in (1 for an outermost one), cached."""
        path = []
        node = frame
        while node > 0 and node not in self._frame_depths:
            path.append(node)
            node = self.frame_above(node)
        total = self._frame_depths.get(node, 0) if node > 0 else 0
        for up in reversed(path):
            total += 1
            self._frame_depths[up] = total
        return total

    def frames(self, node: int, base: int | None = None) -> list[int]:
        """The frames of text in ``node`` (its line's element ``base``), outermost first:
        at most :data:`MAX_FRAMES`, the outermost ones."""
        frame = self.frame_of(node, base)
        if frame > 0 and self.frame_depth(frame) > MAX_FRAMES:
            frame = self._skip_deep(frame)
        chain = []
        while frame > 0:
            chain.append(frame)
            frame = self.frame_above(frame)
        chain.reverse()
        return chain

    def _skip_deep(self, frame: int) -> int:
        """The nearest frame around ``frame`` that is at most :data:`MAX_FRAMES` deep
        (cached in the frames climbed through)."""
        path = []
        while frame > 0 and self.frame_depth(frame) > MAX_FRAMES:
            held = self._shallow.get(frame)
            if held is not None:
                frame = held
                break
            path.append(frame)
            frame = self.frame_above(frame)
        for up in path:
            self._shallow[up] = frame
        return frame

    def style(self, node: int, stop: int) -> Style:
        """The style of text in ``node``, from the elements up to (not including) ``stop``:
        the innermost link's URL, bold, italic, code."""
        cache = self._styles.setdefault(stop, {})
        path = self._path_up(node, cache, stop)
        top = self.parents[path[-1]] if path else node
        style = cache.get(top, PLAIN)
        tags, hrefs = self.tags, self.hrefs
        for up in reversed(path):
            href, bold, italic, code = style
            tag = tags[up]
            if tag == "a":
                href = hrefs.get(up, href)
            style = (href, bold or tag in _BOLD, italic or tag in _ITALIC, code or tag == "code")
            cache[up] = style
        return style

    def pieces(self, line: Line, images: Sequence[tuple[int, ImagePiece]] = ()) -> list[Piece]:
        """A line's text runs with their styles (runs of one style joined), and
        ``images`` (by the run they come before) in their places."""
        pieces: list[Piece] = []
        runs = self.model.runs
        place = 0
        for position in range(line.first_run, line.end_run):
            while place < len(images) and images[place][0] <= position:
                pieces.append(images[place][1])
                place += 1
            run = runs[position]
            if not run.text:
                continue
            style = self.style(run.owner, line.node)
            last = pieces[-1] if pieces else None
            if isinstance(last, tuple) and last[0] == style:
                pieces[-1] = (style, last[1] + run.text)
            else:
                pieces.append((style, run.text))
        pieces.extend(image for _, image in images[place:])
        return pieces

    def children(self, node: int, tags: frozenset[str]) -> list[int]:
        """The children of ``node`` with one of ``tags`` (each other child's subtree is
        jumped over, not walked)."""
        found = []
        end = node + self.model.node_count[node]
        child = node + 1
        while child < end:
            if self.tags[child] in tags:
                found.append(child)
            child += self.model.node_count[child]
        return found
