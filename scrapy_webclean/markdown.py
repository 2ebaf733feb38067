"""The main content as Markdown: headings, paragraphs, lists, tables, quotes, code, emphasis,
links (absolute URLs) and, when asked, images, from the lines the extractor kept and
nothing else.

The blocks come from ``markdown_blocks.build_blocks`` (the structure the lines sit in,
shared with the HTML output): ``<h1>``-``<h6>`` a heading of that level, a list an
unordered (``-``) or ordered (``1.``, from its ``start``) list, its items indented under
their mark when they hold more than a line (a nested list, a paragraph), a data table a
GFM table (the first row as its header, every row as wide as the widest), a quote
``>`` (a nested one ``> >``), a ``<pre>`` a fenced code block with its language;
anything else a paragraph. Within a block, a run inside ``<a href>`` becomes a link
(``links``), inside ``<b>``/``<strong>`` bold, inside ``<i>``/``<em>`` italic, inside
``<code>`` code, an image ``![alt](src)`` (``images``). The page's headline comes first,
as ``#`` (a heading of the same text is not repeated).

The page's text stays text in any CommonMark viewer: what Markdown or HTML would read as
markup is escaped (:func:`escape`; in a table cell every ``|``), a code span or a code
block is delimited by more backticks than any run inside (:func:`code_span`,
:func:`code_block`), and a link or an image goes only to an http(s), mailto, tel or
relative URL, written so that it reads back exactly (:func:`link_destination`). Every walk
up the tree is cached (``markdown_tree``), so the Markdown of a page, and
:func:`markdown_to_text` of any text, take time linear in its size.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.markdown_blocks import build_blocks
from scrapy_webclean.markdown_tree import (
    Block,
    Code,
    Heading,
    ImagePiece,
    ListBlock,
    Paragraph,
    Piece,
    Quote,
    Table,
)

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
#: A heading's trailing ``#`` run after a space: Markdown would read it as a closing mark.
#: What a code block's language may be written with.
_LANGUAGE_NAME_RE = re.compile(r"[A-Za-z0-9_+#.-]{1,32}+")
_CLOSING_HASHES_RE = re.compile(r"(\s)(#++)$")


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


def code_block(code: str, language: str = "") -> str:
    """``code`` as a fenced code block: the fence one backtick longer than the longest run
    of backticks inside (at least three), so that no line of it closes the block;
    ``language`` (letters, digits, ``_+#.-`` only: anything else is left out) after the
    opening fence."""
    longest = max((len(run) for run in _BACKTICKS_RE.findall(code)), default=0)
    fence = "`" * max(_MIN_FENCE, longest + 1)
    info = language if _LANGUAGE_NAME_RE.fullmatch(language) else ""
    return f"{fence}{info}\n{code}\n{fence}"


def link_destination(url: str) -> str | None:
    """``url`` written as a Markdown link destination that reads back as exactly ``url``,
    or None when it must not be a link: a scheme other than :data:`LINK_SCHEMES`
    (``javascript:`` ...), read as a browser reads it (controls and spaces at the ends,
    tabs and newlines inside, ignored). A URL with a space goes in ``<...>``; a bare one
    has ``<>`` percent-encoded, and its parentheses escaped unless they pair up."""
    if not allowed_url(url):
        return None
    url = _DESTINATION_PERCENT_RE.sub(_percent_encode, url)
    url = _DESTINATION_BACKSLASH_RE.sub(lambda m: "\\" + m.group(0), url)
    if " " in url:
        return "<" + _ANGLE_BRACKETS_RE.sub(lambda m: "\\" + m.group(0), url) + ">"
    url = _ANGLE_BRACKETS_RE.sub(_percent_encode, url)
    if not _parentheses_pair_up(url):
        url = url.replace("(", "\\(").replace(")", "\\)")
    return url


def allowed_url(url: str) -> bool:
    """Whether ``url`` may be a link's or an image's target: relative, or with a scheme of
    :data:`LINK_SCHEMES`, read as a browser reads it (controls and spaces at the ends,
    tabs and newlines inside, ignored)."""
    probe = url.strip(_URL_STRIP).translate(_URL_DROPPED)
    scheme = _SCHEME_RE.match(probe)
    return scheme is None or scheme.group(0)[:-1].lower() in LINK_SCHEMES


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


def to_markdown(
    model: PageModel,
    lines: Sequence[Line],
    title: str = "",
    *,
    links: bool = True,
    images: bool = False,
) -> str:
    """The Markdown of the kept ``lines`` of a page (see the module docstring): links
    kept when ``links`` (else their text only), images when ``images``."""
    title = " ".join(title.split())  # one line: a line break would start a new block
    blocks = build_blocks(model, lines, links=links, images=images)
    if title:
        blocks = [b for b in blocks if not (isinstance(b, Heading) and plain(b.pieces) == title)]
    out = _blocks(blocks)
    if title:
        out = ["# " + line_start(escape(title)), *([""] if out else []), *out]
    return "\n".join(out) + "\n" if out else ""


def plain(pieces: Sequence[Piece]) -> str:
    """The text of ``pieces``, whitespace collapsed (an image's alt text left out)."""
    return " ".join("".join(p[1] for p in pieces if isinstance(p, tuple)).split())


def _blocks(blocks: Sequence[Block], in_item: bool = False) -> list[str]:
    """The lines of ``blocks`` one after another, a blank line between two (in a list
    item, none before a list right after a paragraph, which may interrupt it: the list
    stays tight); two lists of one kind in a row take different marks, so that they stay
    two lists."""
    out: list[str] = []
    previous: Block | None = None
    alternate = False
    for block in blocks:
        if isinstance(block, ListBlock):
            same_kind = isinstance(previous, ListBlock) and previous.ordered == block.ordered
            alternate = not alternate if same_kind else False
            lines = _list(block, alternate)
        else:
            lines = _block(block)
        if not lines:
            continue
        if out and not (
            in_item
            and isinstance(previous, Paragraph)
            and isinstance(block, ListBlock)
            and (not block.ordered or block.start == 1)
        ):
            out.append("")
        out.extend(lines)
        previous = block
    return out


def _block(block: Block) -> list[str]:
    if isinstance(block, Paragraph):
        text = inline(block.pieces)
        return [line_start(text)] if text else []
    if isinstance(block, Heading):
        text = inline(block.pieces)
        if not text:
            return []
        return ["#" * block.level + " " + _CLOSING_HASHES_RE.sub(r"\1\\\2", line_start(text))]
    if isinstance(block, Code):
        return code_block(block.text, block.language).split("\n") if block.text.strip() else []
    if isinstance(block, Quote):
        return [f"> {line}" if line else ">" for line in _blocks(block.children)]
    if isinstance(block, Table):
        return _table(block)
    return _list(block, False)


def _list(block: ListBlock, alternate: bool) -> list[str]:
    out: list[str] = []
    number = block.start
    for item in block.items:
        lines = _blocks(item.children, in_item=True)
        if not lines:
            continue
        if block.ordered:
            mark = f"{number}{')' if alternate else '.'} "
            number += 1
        else:
            mark = "* " if alternate else "- "
        indent = " " * len(mark)
        out.append(mark + lines[0])
        out.extend(indent + line if line else "" for line in lines[1:])
    return out


def _table(table: Table) -> list[str]:
    rows = [[inline(cell, in_table=True) for cell in row] for row in table.rows]
    width = max(1, *(len(row) for row in rows))
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(padded[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(row) + " |" for row in padded[1:]]
    return lines


def inline(pieces: Sequence[Piece], *, in_table: bool = False) -> str:
    """The Markdown of a line's pieces: links, emphasis, code spans and images, on one line
    (``in_table``: every ``|`` escaped, for a table cell)."""
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, ImagePiece):
            destination = link_destination(piece.src)
            if destination is not None:
                if in_table:
                    destination = destination.replace("|", "%7C")
                out.append(f" ![{escape(' '.join(piece.alt.split()))}]({destination}) ")
            continue
        (href, bold, italic, code), text = piece
        core = text.strip()
        if not core:
            out.append(text)
            continue
        lead = " " if text[:1].isspace() else ""
        trail = " " if text[-1:].isspace() else ""
        shown = escape(core)
        if code:
            shown = code_span(core.replace("|", "\\|") if in_table else core)
        if italic:
            shown = f"*{shown}*"
        if bold:
            shown = f"**{shown}**"
        destination = link_destination(href) if href else None
        if destination is not None:
            if not lead and out and out[-1].endswith("!"):
                out[-1] = out[-1][:-1] + "\\!"  # not an image: "![...](...)"
            if in_table:
                destination = destination.replace("|", "%7C")
            shown = f"[{shown}]({destination})"
        out.append(lead + shown + trail)
    return " ".join("".join(out).split())


# Linear in any text, not only ours: a bare link target (with one level of parentheses)
# stops at the next "]" (where the next target could begin), a "<...>" one at the next
# "<", so no text is scanned twice; the marks at a line start (quote and list marks, any
# number of them, then a heading's mark or a code fence and its language) take spaces and
# tabs only, each step at least one character, possessively (a run of blank lines is read
# once).
_MARKUP_RE = re.compile(
    r"\]\((?:<(?:[^<>\\]|\\.)*+>|(?:[^()\s\\\]]|\\.|\((?:[^()\s\\\]]|\\.)*+\))*+)\)"
    r"|^(?:[ \t]*+(?:>[ \t]?+|(?:[-*]|\d++[.)])[ \t]++))*+"
    r"(?:#{1,6}+[ \t]++|`{3,}+[A-Za-z0-9_+#.-]*+$)?+",
    re.M,
)
_MARKS_RE = re.compile(r"(?<!\\)(?:[*`\[\]]|!(?=\[))")
_ESCAPED_RE = re.compile(r"\\(.)")


def markdown_to_text(markdown: str) -> str:
    """Plain text from our Markdown (for comparing copies): link targets, heading, list
    and quote marks, code fences and their languages, emphasis and escapes removed. Linear in the length of any text."""
    text = _MARKUP_RE.sub("", markdown)
    text = _MARKS_RE.sub("", text)
    return _ESCAPED_RE.sub(r"\1", text)
