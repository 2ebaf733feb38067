"""The page's byline found in its markup (:func:`markup_authors`: the elements whose
``itemprop``, ``rel``, ``class`` or ``id`` name the author or the byline, read out of the
source text by ``extraction.markupscan``) and in its text lines (:func:`line_authors`:
"By Jane Doe", "Written by: Jane Doe", "Author" over "Jane Doe"). Names are read as
``authors.author_names`` reads them, and from these sources a name of several words must
have each capitalised (a phrase is no name: "billed annually", "you agree to").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from scrapy_webclean.extraction.authors import (
    LABEL_RE,
    NON_NAME_WORDS,
    NOT_AUTHOR_RE,
    author_names,
)
from scrapy_webclean.extraction.markupscan import (
    VOID_TAGS,
    StartTag,
    tag_around,
    tags_with,
    texts_after,
)
from scrapy_webclean.html.pagemodel import TextRun

#: Words of an attribute value that name the author ("author", "Author") or the byline
#: ("byline", "ByLine") as written...
_AUTHOR_WORD, _BYLINE_WORD = "uthor", "yline"
#: ...in these attributes.
_AUTHOR_ATTRIBUTES = frozenset(("class", "id", "itemprop", "rel"))
#: A class or id word that names the author or the byline...
_AUTHOR_CLASS_RE = re.compile(r"(?<![a-z])(?:author(?!i[tsz])|by-?line)", re.I)
#: ...but not a part of the author's box other than the name (a photo, a biography, a job
#: title, a date), nor a commenter's or a reviewer's name.
_NOT_NAME_CLASS_RE = re.compile(
    r"comment|review|repl(?:y|ies)|avatar|bio|im(?:g|age)|photo|pic|desc|job|title|role|"
    r"social|follow|share|count|date|time|more|posts|list|label|about|related|recommend",
    re.I,
)
#: The start tags inside a byline whose text is no name: a tag's or a category's link,
#: a date, a photo's caption, a text for screen readers only.
_NOT_NAME_TAG_RE = re.compile(
    r"^time\b|tag|categor|date|time|avatar|sr-only|screen-reader|visually-hidden|"
    r"badge|heading",
    re.I,
)
#: A byline this close (characters) after a comment's start tag is the commenter's.
COMMENT_REACH = 400
#: At most this many hits of each word are looked at, and this many elements read.
MAX_CANDIDATES = 60
MAX_READ = 12
#: An ``itemprop="name"`` is looked for this far (characters) into an author element.
NAME_REACH = 400


def markup_authors(markup: str, site_keys: Collection[str] = ()) -> list[str]:
    """The names of the first element of the page's body (in source order) that is named
    as its author or byline (``itemprop="author"``, ``rel="author"``, ``class="byline"``,
    ``class="author-name"``; not a photo's or a biography's, nor one shortly after a
    comment's start, nor a link to the front page) and holds a name (its
    ``itemprop="name"``, else its first text that is not a label alone, read with the
    label); a name of several words must have each capitalised."""
    # (from the head's end: the head's author tags and scripts are read otherwise)
    body = markup.find("</head>")
    if body < 0:
        body = max(markup.find("</HEAD>"), 0)
    # The first element named as the author, then the first named as a byline before it:
    # the first of the two in the source (the second search stops where the first found
    # one, and both stop at their first name: most of a page's source is never searched).
    position, names = _first_names(markup, _AUTHOR_WORD, body, None, site_keys)
    _, before = _first_names(markup, _BYLINE_WORD, body, position, site_keys)
    return before or names


def _first_names(
    markup: str, word: str, start: int, end: int | None, site_keys: Collection[str]
) -> tuple[int | None, list[str]]:
    """The position and the names of the first element between ``start`` and ``end``
    whose class, id, ``itemprop`` or ``rel`` holds ``word`` and names the author (see
    :func:`markup_authors`), at most :data:`MAX_READ` elements read; (None, []) when none
    does."""
    read = 0
    for tag in tags_with(markup, word, _AUTHOR_ATTRIBUTES, MAX_CANDIDATES, start, end):
        if tag.name in ("link", "script", "style") or not _names_author(tag.attributes):
            continue
        if _after_comment(markup, tag.start):
            continue
        read += 1
        if read > MAX_READ:
            break
        if tag.name == "meta" or tag.name in VOID_TAGS:
            names = author_names(tag.attributes.get("content", ""), site_keys)
        elif tag.name == "a" and tag.attributes.get("href", "").strip() in ("/", "./"):
            continue  # (a link to the front page: the site's name)
        else:
            names = _element_names(markup, tag, site_keys)
        names = [name for name in names if _capitalised(name)]
        if names:
            return tag.start, names
    return None, []


def _after_comment(markup: str, start: int) -> bool:
    """True when a start tag whose class or id names a comment opens shortly before
    ``start`` (:data:`COMMENT_REACH`): the byline is a commenter's."""
    position = markup.rfind("comment", max(0, start - COMMENT_REACH), start)
    if position < 0:
        return False
    tag = tag_around(markup, position)
    return tag is not None and any(
        "comment" in tag.attributes.get(name, "").lower() for name in ("class", "id")
    )


def _names_author(attributes: dict[str, str]) -> bool:
    """True when the tag's ``itemprop`` or ``rel`` names the author, or a word of its
    class or id does and no word names another part of the author's box."""
    if "author" in attributes.get("itemprop", "") or "author" in attributes.get("rel", ""):
        return True
    words = f"{attributes.get('class', '')} {attributes.get('id', '')}"
    return _AUTHOR_CLASS_RE.search(words) is not None and _NOT_NAME_CLASS_RE.search(words) is None


def _element_names(markup: str, tag: StartTag, site_keys: Collection[str]) -> list[str]:
    """The names of an author element: its ``itemprop="name"`` (``content`` or text) when
    it has one near its start, else its first text piece that is not a label alone ("By",
    "Written by:"), read with the label before it."""
    position = markup.find('itemprop="name"', tag.end, tag.end + NAME_REACH)
    named = tag_around(markup, position) if position >= 0 else None
    if named is not None:
        text = named.attributes.get("content") or next(
            texts_after(markup, named.end, skip=_NOT_NAME_TAG_RE), ""
        )
        names = author_names(text, site_keys)
        if names:
            return names
    label = ""
    for piece in texts_after(markup, tag.end, skip=_NOT_NAME_TAG_RE):
        text = f"{label} {piece}" if label else piece
        match = LABEL_RE.match(text)
        if match is not None and match.end() == len(text):
            label = text
            continue
        if NOT_AUTHOR_RE.match(piece):
            return []  # (what follows is a reviewer's name, an editor's)
        # (a link's text is a name as it is: "Human in the Loop"; a byline's ends at a word)
        return author_names(text, site_keys, byline=bool(label) or tag.name != "a")
    return []


# --------------------------------------------------------------------------- text lines

#: A line read as a byline is at most this long (characters): "By Jane Doe", not a
#: sentence that opens with "By".
MAX_LINE_CHARS = 120
#: At most this many text runs of the page are looked at.
MAX_RUNS = 5000
#: The words of a name that need no capital ("Marna van der Merwe").
NAME_PARTICLES = frozenset(("van", "von", "der", "den", "de", "del", "della", "da", "di", "du"))
NAME_PARTICLES |= frozenset(("la", "le", "bin", "al", "el", "y", "ten", "ter", "dos", "das"))
NAME_PARTICLES |= frozenset(("of", "the", "at", "for"))  # (an organisation's, a role's)
#: A label alone on its line: the name is on the next ("Author" over "Lisa D. Ellis").
_LABEL_LINE_RE = re.compile(
    r"(?:(?:written|posted|published|recipe|story|words)\s++)?by|authors?|author\(s\)|"
    r"written|contributors?",
    re.I,
)


def line_authors(runs: Sequence[TextRun], site_keys: Collection[str] = ()) -> list[str]:
    """The names of the page's first text line that is a byline ("By Jane Doe",
    "Written by: Jane Doe", a label alone and the name on the next line): at most
    :data:`MAX_LINE_CHARS` long, its label no link's text (a menu's "By Category"), every
    name capitalised (a sentence's "By clicking Sign Up, you agree" is no byline); the
    first :data:`MAX_RUNS` runs are looked at."""
    count = min(len(runs), MAX_RUNS)
    for index in range(count):
        run = runs[index]
        text = run.text
        # (cheap looks first: most runs are no label; a link's "By Role", "By Category" is
        # a menu's filter, not a byline's label)
        if run.length > MAX_LINE_CHARS or run.anchor or not _may_open_byline(text):
            continue
        text = text.strip()
        if "by" not in text[:30].lower() and text[:6].lower() not in ("author", "contri"):
            continue
        line, end = line_at(runs, index, count, MAX_LINE_CHARS)
        label = LABEL_RE.match(line)
        if (label is not None and label.end() == len(line)) or _LABEL_LINE_RE.fullmatch(
            line.rstrip(": ")
        ):
            following, _ = line_at(runs, end, count, MAX_LINE_CHARS)
            line = f"{line.rstrip(': ')}: {following}" if following else ""
        elif label is None:
            continue
        if not line or len(line) > MAX_LINE_CHARS:
            continue
        names = author_names(line, site_keys)
        if names and all(_capitalised(name) for name in names):
            return names
    return []


def _may_open_byline(text: str) -> bool:
    """A cheap first look: True when ``text`` may open a byline (it holds "by" in some case,
    or "uthor", or "ontrib")."""
    return "y" in text or "Y" in text or "uthor" in text or "UTHOR" in text or "ontrib" in text


def line_at(runs: Sequence[TextRun], start: int, count: int, limit: int) -> tuple[str, int]:
    """The text of the line that starts at run ``start`` (up to the next line break or
    run ``count``, read until it is over ``limit`` characters), whitespace collapsed, and
    the index of the run after it."""
    parts: list[str] = []
    size = 0
    end = start
    while end < count and (end == start or not runs[end].line_break):
        parts.append(runs[end].text)
        size += len(runs[end].text)
        end += 1
        if size > limit:
            break
    return " ".join("".join(parts).split()), end


def _capitalised(name: str) -> bool:
    """True for a name of one word (a member's "ibby", "luizjr4") or of words that each
    open with a capital (or a digit), but the particles of :data:`NAME_PARTICLES` and the
    role words of :data:`NON_NAME_WORDS`: a phrase ("billed annually", "you agree to")
    is no name."""
    words = name.split()
    return len(words) == 1 or all(
        word[0].isupper()
        or word[0].isdigit()
        or word in NAME_PARTICLES
        or word in NON_NAME_WORDS  # ("The Currency editors", "the Lavazza Team")
        for word in words
    )
