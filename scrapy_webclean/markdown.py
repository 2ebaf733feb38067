"""The main content as Markdown: headings, paragraphs, lists, tables, quotes, code, emphasis
and links (absolute URLs), from the lines the extractor kept and nothing else.

Each kept line is rendered from its text runs: a run inside ``<a href>`` becomes a link
(the URL already made absolute by the page model), inside ``<b>``/``<strong>`` bold, inside
``<i>``/``<em>`` italic, inside ``<code>`` code. The element around the line decides the
block: ``<h1>``-``<h6>`` a heading, ``<li>`` a list item (``-`` or ``1.``, indented by
nesting), ``<td>``/``<th>`` a table cell (the lines of one table become one Markdown
table), ``<blockquote>`` a quote, ``<pre>`` a fenced code block; anything else a paragraph.
The page's headline comes first, as ``#``.

The page's text stays text in any CommonMark viewer: what Markdown or HTML would read as
markup is escaped (:func:`escape`), a code span or a code block is delimited by more
backticks than any run inside (:func:`code_span`, :func:`code_block`), and a link goes
only to an http(s), mailto, tel or relative URL, written so that it reads back exactly
(:func:`link_destination`). Every walk up the tree is cached, so the Markdown of a page,
and :func:`markdown_to_text` of any text, take time linear in its size.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Sequence

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BOLD = frozenset(("b", "strong"))
_ITALIC = frozenset(("i", "em"))
#: The elements that make a line a block other than a paragraph (see :meth:`block_of`).
_BLOCK_TAGS = frozenset((*_HEADINGS, "td", "th", "li", "pre", "blockquote"))
_TABLE = frozenset(("table",))
_ROW = frozenset(("tr",))
_LISTS = frozenset(("ul", "ol"))
#: How far above a line's own element a list item, cell or quote may sit.
_BLOCK_LOOKUP = 4
#: Link targets written as links: the web's, mail and telephone numbers (inert, and
#: common on the pages of businesses); a relative URL has no scheme. Any other
#: (``javascript:``, ``data:``, ``vbscript:``, ``file:`` ...) leaves the text unlinked.
LINK_SCHEMES = frozenset(("http", "https", "mailto", "tel"))
#: The shortest fence of a code block (CommonMark: three backticks).
_MIN_FENCE = 3

#: Characters that Markdown would read as markup anywhere in a line: escaped with a
#: backslash. ``&`` only where it starts an entity (``&lt;``, ``&#60;``): Markdown would
#: decode it.
_ESCAPE_RE = re.compile(r"([\\`*_\[\]|<>])|&(?=#?[A-Za-z0-9]++;)")
#: A block marker at the start of a piece of text (heading, list item, a tilde fence): its
#: first mark is escaped, or the dot or bracket of an ordered item's number.
_LEADING_RE = re.compile(r"^(?:(#{1,6}|[-+*])(?=\s)|\d++([.)])(?=\s)|(~)~~)")
#: The same at the start of a whole line, where a mark alone (``-``, ``#``, ``1.``) or a
#: line of dashes is a block too (an empty list item or heading, a rule).
_LINE_START_RE = re.compile(r"^(?:(#{1,6}|[-+*])(?=\s|$)|\d++([.)])(?=\s|$)|(~)~~|(-)(?=[-\s]*+$))")
#: In a link's destination, percent-encoded: controls, ``"`` and the backtick (which could
#: pair with a code span's); backslash-escaped: the backslash and an ``&`` that starts an
#: entity, so that Markdown reads back the exact URL.
_DESTINATION_PERCENT_RE = re.compile(r"[\x00-\x1f\x7f\"`]")
_DESTINATION_BACKSLASH_RE = re.compile(r"\\|&(?=#?[A-Za-z0-9]++;)")
_ANGLE_BRACKETS_RE = re.compile(r"[<>]")
#: How deep a bare destination's parentheses may nest (CommonMark renderers stop at 32).
_MAX_PAREN_DEPTH = 32
#: What a browser drops from a URL before reading its scheme: C0 controls and spaces at
#: the ends, tabs and newlines anywhere.
_URL_STRIP = "".join(chr(c) for c in range(0x21))
_URL_DROPPED = str.maketrans("", "", "\t\n\r")
_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*+:")
_BACKTICKS_RE = re.compile(r"`++")

#: One text run's style: its link target, bold, italic, code.
_Style = tuple[str | None, bool, bool, bool]
_PLAIN: _Style = (None, False, False, False)


def escape(text: str) -> str:
    """Text that Markdown shows as it is (no markup, no HTML, no entity read), put
    anywhere in a line (a line's start: :func:`line_start` too)."""
    text = _ESCAPE_RE.sub(lambda m: "\\" + m.group(0), text)
    return _LEADING_RE.sub(_escape_leading, text)


def line_start(line: str) -> str:
    """A line of escaped text as the start of a block: a lone mark escaped too."""
    return _LINE_START_RE.sub(_escape_leading, line)


def _escape_leading(match: re.Match[str]) -> str:
    number_end = match.group(2)
    if number_end:
        return match.group(0)[:-1] + "\\" + number_end
    return "\\" + match.group(0)


def code_span(code: str) -> str:
    """``code`` as an inline code span: delimited by one backtick more than its longest
    run of backticks, padded with a space where it starts or ends with one (CommonMark
    strips that space), so that nothing inside can close it."""
    longest = max((len(run) for run in _BACKTICKS_RE.findall(code)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if code[:1] == "`" or code[-1:] == "`" else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def code_block(code: str) -> str:
    """``code`` as a fenced code block: the fence one backtick longer than the longest run
    of backticks inside (at least three), so that no line of it closes the block."""
    longest = max((len(run) for run in _BACKTICKS_RE.findall(code)), default=0)
    fence = "`" * max(_MIN_FENCE, longest + 1)
    return f"{fence}\n{code}\n{fence}"


def link_destination(url: str) -> str | None:
    """``url`` written as a Markdown link destination that reads back as exactly ``url``,
    or None when it must not be a link: a scheme other than :data:`LINK_SCHEMES`
    (``javascript:`` ...), read as a browser reads it (controls and spaces at the ends,
    tabs and newlines inside, ignored). A URL with a space goes in ``<...>``; a bare one
    has ``<>`` percent-encoded, and its parentheses escaped unless they pair up."""
    probe = url.strip(_URL_STRIP).translate(_URL_DROPPED)
    scheme = _SCHEME_RE.match(probe)
    if scheme is not None and scheme.group(0)[:-1].lower() not in LINK_SCHEMES:
        return None
    url = _DESTINATION_PERCENT_RE.sub(_percent_encode, url)
    url = _DESTINATION_BACKSLASH_RE.sub(lambda m: "\\" + m.group(0), url)
    if " " in url:
        return "<" + _ANGLE_BRACKETS_RE.sub(lambda m: "\\" + m.group(0), url) + ">"
    url = _ANGLE_BRACKETS_RE.sub(_percent_encode, url)
    if not _parentheses_pair_up(url):
        url = url.replace("(", "\\(").replace(")", "\\)")
    return url


def _percent_encode(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group(0).encode("utf-8"))


def _parentheses_pair_up(text: str) -> bool:
    """True when every ``)`` closes a ``(`` and every ``(`` is closed, at most
    :data:`_MAX_PAREN_DEPTH` deep (a bare destination may hold such parentheses)."""
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
            if depth > _MAX_PAREN_DEPTH:
                return False
        elif char == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


class _Context:
    """The page's tree as the Markdown reads it; each walk up the tree is cached, so a
    page costs time linear in its size however deep it nests."""

    def __init__(self, model: PageModel) -> None:
        self.model = model
        self.tags = model.tags
        self.parents = model.parents
        self.hrefs = {ref.node: ref.url for ref in model.links}
        self._nearest: dict[frozenset[str], dict[int, int]] = {}
        self._depths: dict[int, int] = {}
        self._li_depths: dict[int, int] = {}
        #: Run styles by the line element they are read up to, then by node.
        self._styles: dict[int, dict[int, _Style]] = {}

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

    def li_depth(self, node: int) -> int:
        """How many ``<li>`` are ``node`` or above it."""
        tags = self.tags
        return self._count_up(node, self._li_depths, lambda up: tags[up] == "li")

    def style(self, node: int, stop: int) -> _Style:
        """The style of text in ``node``, from the elements up to (not including) ``stop``:
        the innermost link's URL, bold, italic, code."""
        cache = self._styles.setdefault(stop, {})
        path = self._path_up(node, cache, stop)
        top = self.parents[path[-1]] if path else node
        style = cache.get(top, _PLAIN)
        tags, hrefs = self.tags, self.hrefs
        for up in reversed(path):
            href, bold, italic, code = style
            tag = tags[up]
            if tag == "a":
                href = hrefs.get(up, href)
            style = (href, bold or tag in _BOLD, italic or tag in _ITALIC, code or tag == "code")
            cache[up] = style
        return style

    def inline(self, line: Line) -> str:
        """A line's text with its links and emphasis."""
        pieces: list[tuple[_Style, list[str]]] = []
        for run in self.model.runs[line.first_run : line.end_run]:
            if not run.text:
                continue
            style = self.style(run.owner, line.node)
            if pieces and pieces[-1][0] == style:
                pieces[-1][1].append(run.text)
            else:
                pieces.append((style, [run.text]))
        out: list[str] = []
        for (href, bold, italic, code), texts in pieces:
            text = "".join(texts)
            core = text.strip()
            if not core:
                out.append(text)
                continue
            lead = " " if text[:1].isspace() else ""
            trail = " " if text[-1:].isspace() else ""
            shown = code_span(core) if code else escape(core)
            if italic:
                shown = f"*{shown}*"
            if bold:
                shown = f"**{shown}**"
            destination = link_destination(href) if href else None
            if destination is not None:
                if not lead and out and out[-1].endswith("!"):
                    out[-1] = out[-1][:-1] + "\\!"  # not an image: "![...](...)"
                shown = f"[{shown}]({destination})"
            out.append(lead + shown + trail)
        return " ".join("".join(out).split())

    def block_of(self, line: Line) -> tuple[str, int]:
        """The kind of block a line is in (heading1-6, li, cell, quote, pre, p) and the
        node that groups it (the list item, the table row ...)."""
        # The nearest such element from the one holding the line's first text up to the
        # line's own block element (a heading may count as inline there), or at most
        # _BLOCK_LOOKUP levels above it.
        runs = self.model.runs
        start = runs[line.first_run].owner if line.end_run > line.first_run else line.node
        node = self.nearest(start, _BLOCK_TAGS)
        if node <= 0 or self.depth(node) < self.depth(line.node) - _BLOCK_LOOKUP:
            return "p", line.node
        tag = self.tags[node]
        if tag in _HEADINGS:
            return f"heading{_HEADINGS[tag]}", node
        if tag in ("td", "th"):
            return "cell", node
        if tag == "li":
            return "li", node
        if tag == "pre":
            return "pre", node
        return "quote", node


def to_markdown(model: PageModel, lines: Sequence[Line], title: str = "") -> str:
    """The Markdown of the kept ``lines`` of a page (see the module docstring)."""
    context = _Context(model)
    blocks: list[str] = []
    title = " ".join(title.split())  # one line: a line break would start a new block
    if title:
        blocks.append("# " + line_start(escape(title)))
    index = 0
    while index < len(lines):
        line = lines[index]
        kind, node = context.block_of(line)
        if kind == "cell":
            table = context.nearest(node, _TABLE)
            rows: dict[int, dict[int, list[str]]] = {}
            while index < len(lines):
                kind, cell = context.block_of(lines[index])
                if kind != "cell" or context.nearest(cell, _TABLE) != table:
                    break
                row = context.nearest(cell, _ROW)
                rows.setdefault(row, {}).setdefault(cell, []).append(context.inline(lines[index]))
                index += 1
            blocks.append(_table([[" ".join(c) for c in r.values()] for r in rows.values()]))
            continue
        if kind == "li":
            items: list[tuple[int, list[str]]] = []
            while index < len(lines):
                kind, item = context.block_of(lines[index])
                if kind != "li":
                    break
                depth = context.li_depth(item) - 1
                listing = context.nearest(item, _LISTS)
                mark = "1." if listing > 0 and model.tags[listing] == "ol" else "-"
                text = context.inline(lines[index])
                if items and items[-1][0] == item:
                    items[-1][1].append(text)
                else:
                    items.append((item, ["  " * max(depth, 0) + f"{mark} {line_start(text)}"]))
                index += 1
            blocks.append("\n".join(" ".join(texts) for _, texts in items))
            continue
        if kind == "pre":
            code = []
            while index < len(lines) and context.block_of(lines[index]) == ("pre", node):
                code.append(lines[index].text)
                index += 1
            blocks.append(code_block("\n".join(code)))
            continue
        text = context.inline(line)
        if kind.startswith("heading"):
            level = max(2, int(kind[-1]))  # the page's headline is the one "#"
            if title and text == escape(title):
                index += 1
                continue
            blocks.append("#" * level + " " + text)
        elif kind == "quote":
            blocks.append("> " + line_start(text))
        else:
            blocks.append(line_start(text))
        index += 1
    return "\n\n".join(block for block in blocks if block.strip()) + ("\n" if blocks else "")


def _table(rows: list[list[str]]) -> str:
    width = max(len(row) for row in rows)
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(padded[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(row) + " |" for row in padded[1:]]
    return "\n".join(lines)


# Linear in any text, not only ours: a bare link target (with one level of parentheses)
# stops at the next "]" (where the next target could begin), a "<...>" one at the next
# "<", so no text is scanned twice; marks at a line start take spaces and tabs only (a run
# of blank lines is read once).
_MARKUP_RE = re.compile(
    r"\]\((?:<(?:[^<>\\]|\\.)*+>|(?:[^()\s\\\]]|\\.|\((?:[^()\s\\\]]|\\.)*+\))*+)\)"
    r"|^#{1,6}[ \t]++|^[ \t]*+(?:[-*]|\d++\.)[ \t]++|^>[ \t]?",
    re.M,
)
_MARKS_RE = re.compile(r"(?<!\\)[*`\[\]]")
_ESCAPED_RE = re.compile(r"\\(.)")


def markdown_to_text(markdown: str) -> str:
    """Plain text from our Markdown (for comparing copies): link targets, heading, list
    and quote marks, emphasis and escapes removed. Linear in the length of any text."""
    text = _MARKUP_RE.sub("", markdown)
    text = _MARKS_RE.sub("", text)
    return _ESCAPED_RE.sub(r"\1", text)
