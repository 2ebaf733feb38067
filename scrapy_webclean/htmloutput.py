"""The main content as minimal, safe HTML: the same blocks as its Markdown
(``markdown_blocks.build_blocks``), written as HTML.

The headline comes first, as ``<h1>`` (a heading of the same text is not repeated), then
``<h1>``-``<h6>``, ``<p>``, ``<ul>``/``<ol>`` of ``<li>`` (a list item of a paragraph, and
of lists after it, holds its text before them; any other its blocks), ``<table>`` (the first row in ``<thead>`` as
``<th>``, the rest in ``<tbody>``, every row as wide as the widest), ``<pre><code>`` and
``<blockquote>``; in the text ``<a href>`` (``links``), ``<strong>``, ``<em>``, ``<code>``
and ``<img src alt>`` (``images``). No other element and no other attribute: an ordered
list's ``start`` and a code block's language, which the Markdown keeps, are left out.

Text and attribute values are HTML-escaped, a link or image goes only to an http(s),
mailto, tel or relative URL (``markdown.allowed_url``, as the Markdown's), and the whole
is passed through the report's ``nh3`` allowlist sanitizer with the output's own lists
(``report_sanitize.sanitize_output``): safe to render as it is. Linear in the page's
size, as the blocks are.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel
from scrapy_webclean.markdown import allowed_url, plain
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
from scrapy_webclean.report_sanitize import sanitize_output


def to_html(
    model: PageModel,
    lines: Sequence[Line],
    title: str,
    *,
    links: bool = True,
    images: bool = False,
) -> str:
    """The HTML of the kept ``lines`` of a page (see the module docstring): links kept
    when ``links`` (else their text only), images when ``images``."""
    title = " ".join(title.split())
    blocks = build_blocks(model, lines, links=links, images=images)
    if title:
        blocks = [b for b in blocks if not (isinstance(b, Heading) and plain(b.pieces) == title)]
    out = [f"<h1>{escape(title, quote=False)}</h1>"] if title else []
    out.extend(html for html in (_block(block) for block in blocks) if html)
    return sanitize_output("\n".join(out)) + "\n" if out else ""


def _block(block: Block) -> str:
    if isinstance(block, Paragraph):
        text = inline(block.pieces)
        return f"<p>{text}</p>" if text else ""
    if isinstance(block, Heading):
        text = inline(block.pieces)
        return f"<h{block.level}>{text}</h{block.level}>" if text else ""
    if isinstance(block, Code):
        if not block.text.strip():
            return ""
        return f"<pre><code>{escape(block.text, quote=False)}</code></pre>"
    if isinstance(block, Quote):
        inner = "\n".join(html for html in (_block(child) for child in block.children) if html)
        return f"<blockquote>\n{inner}\n</blockquote>" if inner else ""
    if isinstance(block, Table):
        return _table(block)
    return _list(block)


def _list(block: ListBlock) -> str:
    items = []
    for item in block.items:
        children = item.children
        parts = [_block(child) for child in children]
        if children and isinstance(children[0], Paragraph) and _tight(children[1:]):
            parts[0] = inline(children[0].pieces)  # as the Markdown's tight item reads
        inner = "\n".join(html for html in parts if html)
        if inner:
            items.append(f"<li>{inner}</li>")
    if not items:
        return ""
    tag = "ol" if block.ordered else "ul"
    return f"<{tag}>\n" + "\n".join(items) + f"\n</{tag}>"


def _tight(blocks: Sequence[Block]) -> bool:
    """Whether blocks after an item's first paragraph leave it tight: lists only, as
    ``markdown._item_blocks`` writes without a blank line."""
    return all(isinstance(b, ListBlock) and (not b.ordered or b.start == 1) for b in blocks)


def _table(table: Table) -> str:
    rows = [[inline(cell) for cell in row] for row in table.rows]
    width = max(1, *(len(row) for row in rows))
    padded = [row + [""] * (width - len(row)) for row in rows]
    head = "<tr>" + "".join(f"<th>{cell}</th>" for cell in padded[0]) + "</tr>"
    body = "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in padded[1:]
    )
    return f"<table><thead>{head}</thead>" + (f"<tbody>{body}</tbody>" if body else "") + "</table>"


def inline(pieces: Sequence[Piece]) -> str:
    """The HTML of a line's pieces: links, emphasis, code and images, whitespace
    collapsed."""
    out: list[str] = []
    for piece in pieces:
        if isinstance(piece, ImagePiece):
            if allowed_url(piece.src):
                src, alt = escape(piece.src), escape(" ".join(piece.alt.split()))
                out.append(f' <img src="{src}" alt="{alt}"> ')
            continue
        (href, bold, italic, code), text = piece
        shown = escape(" ".join(text.split()), quote=False)
        if not shown:
            out.append(text)
            continue
        lead = " " if text[:1].isspace() else ""
        trail = " " if text[-1:].isspace() else ""
        if code:
            shown = f"<code>{shown}</code>"
        if italic:
            shown = f"<em>{shown}</em>"
        if bold:
            shown = f"<strong>{shown}</strong>"
        if href and allowed_url(href):
            shown = f'<a href="{escape(href)}">{shown}</a>'
        out.append(lead + shown + trail)
    return " ".join("".join(out).split())
