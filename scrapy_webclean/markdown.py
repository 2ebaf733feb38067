"""The main content as Markdown: headings, paragraphs, lists, tables, quotes, code, emphasis
and links (absolute URLs), from the lines the extractor kept and nothing else.

Each kept line is rendered from its text runs: a run inside ``<a href>`` becomes a link
(the URL already made absolute by the page model), inside ``<b>``/``<strong>`` bold, inside
``<i>``/``<em>`` italic, inside ``<code>`` code. The element around the line decides the
block: ``<h1>``-``<h6>`` a heading, ``<li>`` a list item (``-`` or ``1.``, indented by
nesting), ``<td>``/``<th>`` a table cell (the lines of one table become one Markdown
table), ``<blockquote>`` a quote, ``<pre>`` a fenced code block; anything else a paragraph.
The page's headline comes first, as ``#``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from scrapy_webclean.extraction.lines import Line
from scrapy_webclean.html.pagemodel import PageModel

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BOLD = frozenset(("b", "strong"))
_ITALIC = frozenset(("i", "em"))
#: How far above a line's own element a list item, cell or quote may sit.
_BLOCK_LOOKUP = 4
_ESCAPE_RE = re.compile(r"([\\`*_\[\]|<>])")
_LEADING_RE = re.compile(r"^(#{1,6}\s|[-+*]\s|\d+[.)]\s|>)")


def escape(text: str) -> str:
    """Text that Markdown shows as it is."""
    text = _ESCAPE_RE.sub(r"\\\1", text)
    return _LEADING_RE.sub(lambda m: "\\" + m.group(0), text)


class _Context:
    def __init__(self, model: PageModel) -> None:
        self.model = model
        self.tags = model.tags
        self.parents = model.parents
        self.hrefs = {ref.node: ref.url for ref in model.links}

    def ancestors(self, node: int, limit: int | None = None) -> Iterator[int]:
        steps = 0
        while node > 0 and (limit is None or steps <= limit):
            yield node
            node = self.parents[node]
            steps += 1

    def inline(self, line: Line) -> str:
        """A line's text with its links and emphasis."""
        pieces: list[tuple[tuple[str | None, bool, bool, bool], str]] = []
        for run in self.model.runs[line.first_run : line.end_run]:
            if not run.text:
                continue
            href, bold, italic, code = None, False, False, False
            for node in self.ancestors(run.owner):
                if node == line.node:
                    break
                tag = self.tags[node]
                if tag == "a" and href is None:
                    href = self.hrefs.get(node)
                bold = bold or tag in _BOLD
                italic = italic or tag in _ITALIC
                code = code or tag == "code"
            style = (href, bold, italic, code)
            if pieces and pieces[-1][0] == style:
                pieces[-1] = (style, pieces[-1][1] + run.text)
            else:
                pieces.append((style, run.text))
        out = []
        for (href, bold, italic, code), text in pieces:
            core = text.strip()
            if not core:
                out.append(text)
                continue
            lead = " " if text[:1].isspace() else ""
            trail = " " if text[-1:].isspace() else ""
            shown = f"`{core.replace('`', '')}`" if code else escape(core)
            if italic:
                shown = f"*{shown}*"
            if bold:
                shown = f"**{shown}**"
            if href:
                shown = f"[{shown}](<{href}>)" if " " in href else f"[{shown}]({href})"
            out.append(lead + shown + trail)
        return " ".join("".join(out).split())

    def block_of(self, line: Line) -> tuple[str, int]:
        """The kind of block a line is in (heading1-6, li, cell, quote, pre, p) and the
        node that groups it (the list item, the table row ...)."""
        runs, parents = self.model.runs, self.parents
        # From the element holding the line's first text up to the line's own block
        # element (a heading may count as inline there), and a few levels above it.
        node = runs[line.first_run].owner if line.end_run > line.first_run else line.node
        chain = []
        while node > 0 and node != line.node:
            chain.append(node)
            node = parents[node]
        for _ in range(_BLOCK_LOOKUP + 1):
            if node <= 0:
                break
            chain.append(node)
            node = parents[node]
        for node in chain:
            tag = self.tags[node]
            if tag in _HEADINGS:
                return f"heading{_HEADINGS[tag]}", node
            if tag in ("td", "th"):
                return "cell", node
            if tag == "li":
                return "li", node
            if tag == "pre":
                return "pre", node
            if tag == "blockquote":
                return "quote", node
        return "p", line.node

    def nearest(self, node: int, tags: Sequence[str]) -> int:
        for up in self.ancestors(node):
            if self.tags[up] in tags:
                return up
        return -1


def to_markdown(model: PageModel, lines: Sequence[Line], title: str = "") -> str:
    """The Markdown of the kept ``lines`` of a page (see the module docstring)."""
    context = _Context(model)
    blocks: list[str] = []
    if title:
        blocks.append("# " + escape(title))
    index = 0
    while index < len(lines):
        line = lines[index]
        kind, node = context.block_of(line)
        if kind == "cell":
            table = context.nearest(node, ("table",))
            rows: dict[int, dict[int, list[str]]] = {}
            while index < len(lines):
                kind, cell = context.block_of(lines[index])
                if kind != "cell" or context.nearest(cell, ("table",)) != table:
                    break
                row = context.nearest(cell, ("tr",))
                rows.setdefault(row, {}).setdefault(cell, []).append(context.inline(lines[index]))
                index += 1
            blocks.append(_table([[" ".join(c) for c in r.values()] for r in rows.values()]))
            continue
        if kind == "li":
            items: list[tuple[int, str]] = []
            while index < len(lines):
                kind, item = context.block_of(lines[index])
                if kind != "li":
                    break
                depth = sum(1 for up in context.ancestors(item) if model.tags[up] == "li") - 1
                listing = context.nearest(item, ("ul", "ol"))
                mark = "1." if listing > 0 and model.tags[listing] == "ol" else "-"
                text = context.inline(lines[index])
                if items and items[-1][0] == item:
                    items[-1] = (item, items[-1][1] + " " + text)
                else:
                    items.append((item, "  " * max(depth, 0) + f"{mark} {text}"))
                index += 1
            blocks.append("\n".join(text for _, text in items))
            continue
        if kind == "pre":
            code = []
            while index < len(lines) and context.block_of(lines[index]) == ("pre", node):
                code.append(lines[index].text)
                index += 1
            blocks.append("```\n" + "\n".join(code) + "\n```")
            continue
        text = context.inline(line)
        if kind.startswith("heading"):
            level = max(2, int(kind[-1]))  # the page's headline is the one "#"
            if title and text == escape(title):
                index += 1
                continue
            blocks.append("#" * level + " " + text)
        elif kind == "quote":
            blocks.append("> " + text)
        else:
            blocks.append(text)
        index += 1
    return "\n\n".join(block for block in blocks if block.strip()) + ("\n" if blocks else "")


def _table(rows: list[list[str]]) -> str:
    width = max(len(row) for row in rows)
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(padded[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(row) + " |" for row in padded[1:]]
    return "\n".join(lines)


# (Marks at a line start take spaces and tabs only: a run of blank lines is read once.)
_MARKUP_RE = re.compile(
    r"\]\((?:<[^<>]*>|[^)\s]*)\)|^#{1,6}[ \t]+|^[ \t]*(?:[-*]|\d+\.)[ \t]+|^>[ \t]?", re.M
)


def markdown_to_text(markdown: str) -> str:
    """Plain text from our Markdown (for comparing copies): link targets, heading, list
    and quote marks, emphasis and escapes removed."""
    text = _MARKUP_RE.sub("", markdown)
    text = re.sub(r"(?<!\\)[*`\[\]]", "", text)
    return re.sub(r"\\(.)", r"\1", text)
