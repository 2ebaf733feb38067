"""The text of a page whose markup holds little of it but whose scripts declare it
(:func:`script_text`), and that text as Markdown and HTML (:func:`text_markdown`,
:func:`text_html`).

A page built in the browser ships its article in data: a JSON-LD ``articleBody``, the
question and answers of a JSON-LD ``QAPage``, or the state of the framework that renders
it (Next.js's ``__NEXT_DATA__``, Nuxt's ``__NUXT_DATA__`` or ``window.__NUXT__``, another
``application/json`` script). When the text extracted from the markup is short beside
that declared text (:data:`MAX_EXTRACTED_SHARE`), the declared text is the page's text.
A framework's state is read for its one long field of prose (``jsonprose.best_prose``),
whatever its key; JavaScript is never run: ``window.__NUXT__`` is read only when it is
assigned plain JSON.

Memory and time: the JSON-LD parses are ``jsonld.json_ld_items``'s, shared with the other
readers of the page; the other scripts are read under the same caps
(``jsonld.MAX_SCRIPT_CHARS`` a script, ``jsonld.MAX_PAGE_CHARS`` a page), and only those
long enough to hold a text that would be taken; one nested deeper than the parser's limit
is skipped.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree

from scrapy_webclean.extraction.extract import Extraction
from scrapy_webclean.extraction.jsonld import (
    MAX_PAGE_CHARS,
    MAX_SCRIPT_CHARS,
    json_ld_items,
    json_objects,
    types_of,
)
from scrapy_webclean.extraction.jsonprose import (
    INVALID,
    MIN_FIELD_CHARS,
    ProseField,
    best_prose,
    devalue_strings,
    json_strings,
    paragraphs_of,
    parse_json,
    prose_units,
)
from scrapy_webclean.markdown import escape, line_start

#: The declared text replaces the extracted one when the extracted text (characters) is
#: shorter than this share of it: the markup shows less than a third of what the page
#: declares. A round number, not fitted: no page of the extraction sets is built in the
#: browser, and on the pages whose scripts declare a body the markup's text is at least
#: 0.79 of it on every fold (0 to 3 and 4 alike), so that no share under 0.79 moves a
#: page; a third keeps well clear of them.
MAX_EXTRACTED_SHARE = 1 / 3
#: What a JSON-LD script read here holds (a cheap test before its parse).
_JSON_LD_NEEDLES = ("articleBody", "Question")
#: The page types (``Extraction.page_type``) whose text may be replaced: an article, a
#: page the markup told nothing of, and a forum by its question and answers only. A
#: listing's data holds many texts, or one the page does not show as its content (a
#: category's blurb for search engines).
_TAKEN_ON = frozenset(("article", "other", "forum"))
#: Answers of a question read, at most.
MAX_ANSWERS = 100


@dataclass(frozen=True, slots=True)
class ScriptText:
    """The text a page declares in its structured data (paragraphs, one a line), where it
    was found (``CleanResult.text_source``), and the page type it makes a page the markup
    told nothing of ("article", or "forum" for a question and its answers)."""

    text: str
    source: str
    page_type: str = "article"


def script_text(root: etree._Element, markup: str, extraction: Extraction) -> ScriptText | None:
    """The declared text of a page whose extracted text is short beside it (under
    :data:`MAX_EXTRACTED_SHARE` of its characters), or None: a JSON-LD ``articleBody``
    first, then a ``QAPage``'s question and answers, then the longest field of prose of
    a framework's state (``__NEXT_DATA__``, ``__NUXT_DATA__``, ``window.__NUXT__``,
    another ``application/json`` script); each must read as prose
    (``jsonprose.prose_units``)."""
    # The declared text must be longer than this (characters); it is no longer than the
    # script that holds it, so a page's shorter scripts are not parsed.
    least = max(len(extraction.text) / MAX_EXTRACTED_SHARE, MIN_FIELD_CHARS)
    kind = extraction.page_type
    if len(markup) <= least or kind not in _TAKEN_ON:
        return None
    if any(needle in markup for needle in _JSON_LD_NEEDLES):
        items = json_ld_items(root, _JSON_LD_NEEDLES)
        answered = _question_and_answers(items)
        if answered is not None and len(answered.text) > least:
            return ScriptText(answered.text, "json-ld", "forum")
        body = best_prose(_article_bodies(items)) if kind != "forum" else None
        if body is not None and len(body.text) > least:
            return ScriptText(body.text, "json-ld")
    if kind == "forum":
        return None
    best: tuple[ProseField, str] | None = None
    for source, strings in _framework_states(root, least):
        found = best_prose(strings)
        if (
            found is not None
            and len(found.text) > least
            and (best is None or found.units > best[0].units)
        ):
            best = (found, source)
    if best is None:
        return None
    return ScriptText(best[0].text, best[1])


def _article_bodies(items: list[object]) -> Iterator[tuple[str, str]]:
    for obj in json_objects(items):
        body = obj.get("articleBody")
        if isinstance(body, str):
            yield body, "articleBody"


def _question_and_answers(items: list[object]) -> ProseField | None:
    """The question of a JSON-LD ``QAPage`` (its ``mainEntity``) and its accepted and
    suggested answers, a paragraph each, when the whole reads as prose."""
    for obj in json_objects(items):
        if "qapage" not in types_of(obj):
            continue
        for question in _objects(obj.get("mainEntity")):
            if "question" not in types_of(question):
                continue
            parts = _texts(question.get("text")) or _texts(question.get("name"))
            answers = _objects(question.get("acceptedAnswer"))
            answers += _objects(question.get("suggestedAnswer"))
            for answer in answers[:MAX_ANSWERS]:
                parts.extend(_texts(answer.get("text")))
            units = prose_units("\n".join(parts))
            if units:
                return ProseField(tuple(parts), "text", units)
    return None


def _texts(value: object) -> list[str]:
    return paragraphs_of(value) if isinstance(value, str) else []


def _objects(value: object) -> list[dict[str, object]]:
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, dict)]


def _framework_states(
    root: etree._Element, least: float
) -> Iterator[tuple[str, Iterator[tuple[str, str]]]]:
    """The strings of each framework state of the page (``(source, strings)``, in page
    order) longer than ``least`` characters: at most :data:`MAX_SCRIPT_CHARS` a script and
    :data:`MAX_PAGE_CHARS` in all are parsed."""
    budget = MAX_PAGE_CHARS
    for script in root.iter("script"):
        text = script.text
        if not text or len(text) <= least or len(text) > MAX_SCRIPT_CHARS:
            continue
        script_id = script.get("id") or ""
        kind = (script.get("type") or "").strip().lower()
        if script_id == "__NEXT_DATA__":
            source = "next-data"
        elif script_id == "__NUXT_DATA__":
            source = "nuxt-data"
        elif kind.endswith("json") and "ld+json" not in kind:
            source = "json"
        elif (not kind or "javascript" in kind) and "__NUXT__" in text:
            source = "nuxt-data"
        else:
            continue
        budget -= len(text)
        if budget < 0:
            return
        if source == "nuxt-data" and script_id != "__NUXT_DATA__":
            data = _nuxt2_state(text)
        else:
            data = parse_json(text)
        if data is INVALID:
            continue
        if script_id == "__NUXT_DATA__":
            yield source, devalue_strings(data)
        else:
            yield source, json_strings(data)


def _nuxt2_state(text: str) -> object:
    """The value of ``window.__NUXT__ = {...}`` when it is plain JSON (a state that is a
    function call, the usual build, is JavaScript: :data:`INVALID`)."""
    start = text.find("__NUXT__")
    position = start + len("__NUXT__")
    rest = text[position : position + 64].lstrip()
    if start < 0 or not rest.startswith("="):
        return INVALID
    position = text.index("=", position) + 1
    while position < len(text) and text[position].isspace():
        position += 1
    if not text.startswith("{", position):
        return INVALID
    try:
        return json.JSONDecoder().raw_decode(text, position)[0]
    except (ValueError, RecursionError):
        return INVALID


def text_markdown(title: str, text: str) -> str:
    """``text`` (paragraphs, one a line) as Markdown: the title as ``#``, then each
    paragraph escaped (``markdown.escape``, ``markdown.line_start``), a blank line
    between (a first paragraph that is the title is not repeated)."""
    title, paragraphs = _title_and_paragraphs(title, text)
    blocks = ["# " + line_start(escape(title))] if title else []
    blocks.extend(line_start(escape(paragraph)) for paragraph in paragraphs)
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def text_html(title: str, text: str) -> str:
    """``text`` (paragraphs, one a line) as HTML: the title as ``<h1>``, each paragraph a
    ``<p>``, all of it escaped (a first paragraph that is the title is not repeated)."""
    title, paragraphs = _title_and_paragraphs(title, text)
    parts = [f"<h1>{html.escape(title)}</h1>"] if title else []
    parts.extend(f"<p>{html.escape(paragraph)}</p>" for paragraph in paragraphs)
    return "\n".join(parts) + ("\n" if parts else "")


def _title_and_paragraphs(title: str, text: str) -> tuple[str, list[str]]:
    """The title on one line, and the non-blank lines of ``text`` stripped, less a first
    one that is the title."""
    title = " ".join(title.split())
    paragraphs = [line.strip() for line in text.split("\n") if line.strip()]
    if title and paragraphs and paragraphs[0] == title:
        del paragraphs[0]
    return title, paragraphs
