"""Authors' names: what a byline, an author field or a ``<meta name="author">`` holds,
reduced to the names in it (:func:`author_names`).

A text is read as a byline: its label is dropped ("By ", "Written by:", "Authors:"), it
ends where a date, a separator (``|``, ``•``, ``—``, `` - ``, ``(``) or a word that
follows a name in a byline ("on", "in", "Updated") starts, and it is split into names at
``,``, ``;``, ``&`` and " and ". A part is no name when it is empty or has no letter,
is longer than :data:`MAX_NAME_CHARS` or :data:`MAX_NAME_WORDS`, is an address, a handle or
an e-mail, holds a date, is made only of role words (:data:`NON_NAME_WORDS`: "Staff",
"Editorial Team"), is the site's name, or, after a name, is a degree or a suffix
("Jane Doe, PhD": :data:`CREDENTIALS`). A text that names someone else ("Reviewed by",
"Updated by": :data:`NOT_AUTHOR_LABELS`) gives no name. At most :data:`MAX_NAMES` names
are read, from the first :data:`MAX_BYLINE_CHARS` characters.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from scrapy_webclean.extraction.dates import date_start
from scrapy_webclean.html.pagemodel import collapse_ws
from scrapy_webclean.text.wordlists import read_word_list

#: At most this many names are read from one text (or one page).
MAX_NAMES = 10
#: A name longer than this (characters) is no name: a sentence, a bio.
MAX_NAME_CHARS = 100
#: A name of more words than this is no name ("Marna van der Merwe" has four).
MAX_NAME_WORDS = 6
#: A byline is read up to this many characters.
MAX_BYLINE_CHARS = 400

#: Words that, alone or only with each other, are a role or a placeholder, not a name.
NON_NAME_WORDS = frozenset(read_word_list("extraction/data/author_non_names.txt"))
#: Degrees, titles and suffixes that follow a name after a comma (lower case, no dots).
CREDENTIALS = frozenset(read_word_list("extraction/data/name_credentials.txt"))
#: Labels of a line that names someone other than the author ("Reviewed by").
NOT_AUTHOR_LABELS: tuple[str, ...] = read_word_list("extraction/data/not_author_labels.txt")
#: A text that opens with one of :data:`NOT_AUTHOR_LABELS`.
NOT_AUTHOR_RE = re.compile(
    r"^\W*+(?:" + "|".join(re.escape(label) for label in NOT_AUTHOR_LABELS) + r")\b", re.I
)
#: A byline's label: "By", "Written by", "Posted by:", "Author:", "Authors:", and the
#: Chinese "作者：", "记者：", "撰文：", "文：" (a colon, ASCII or full-width, after a word label).
LABEL_RE = re.compile(
    r"^[^\w@]*+(?:(?:(?:written|posted|published|authored|words|story|text|article|reported|"
    r"created|submitted|compiled|recipe|(?:view\s++)?(?:all\s++)?(?:posts|articles|stories))"
    r"\s++)?by\b|(?:authors?|author\(s\)|byline|writers?|reporters?|contributors?|"
    r"作者|记者|撰文|撰稿|文)\s*+[:：])"
    r"[^\w@]*+",
    re.I,
)
#: A Chinese byline's author label anywhere in the line ("2026年4月10日 来源：晚报 作者：张三"):
#: the names follow it, up to the next labelled field.
ZH_AUTHOR_LABEL_RE = re.compile(r"(?:作者|记者|撰文|撰稿)\s*+[:：]\s*+")
#: The start of the next labelled field after a Chinese byline's names ("  编辑："; tried
#: at the start of a run of spaces only, so a long run is scanned once).
_ZH_NEXT_FIELD_RE = re.compile(r"(?<!\s)\s++[^\s:：]{1,8}+[:：]")
#: Where a Chinese byline's names split (a space too: "作者：张三 李四").
_ZH_SPLIT_RE = re.compile(r"[\s、，,;；&]++")
#: Where a byline's names end: a separator, an opening bracket, a word that follows a name
#: ("on 19 Dec", "in News", "Updated ..."), a reading time ("5 min read").
_CUT_RE = re.compile(
    r"[|•·⋅—–/(\[{<>»«]| - |\b(?:on|at|in|from|via|for|is|was|has)\b|"
    r"\b(?:[Uu]pdated|[Pp]ublished|[Pp]osted|[Ll]ast|UPDATED|PUBLISHED)\b|"
    r"\b\d++\s*+(?:min|hour|day|week|month|year|comment|repl|respons|view|share|like)"
)
#: Where a field's names end: a separator, an opening bracket.
_FIELD_CUT_RE = re.compile(r"[|•·⋅(\[{<>»«]")
#: An address, not a name.
_ADDRESS_RE = re.compile(r"(?:https?:|www\.|/)", re.I)
#: A template's placeholder left unfilled ("{{ author }}", "page.head.extra.author").
_PLACEHOLDER_RE = re.compile(r"[{}$%]|^\w++(?:\.\w++){3,}$")
#: Where a list of names splits.
_SPLIT_RE = re.compile(r"[,;&、，；]|\band\b|\bAND\b")
#: A part of two to five capitals (dots aside) after a name is a degree ("RD", "M.D.").
_INITIALS_RE = re.compile(r"(?:[A-Z]\.?){2,5}")
_EDGE_CHARS = " \t\n.,:;-–—|•·'\"*!?()[]：，。"
_NAME_KEY_RE = re.compile(r"\W+|_")


def name_key(text: str) -> str:
    """``text`` reduced for comparing names: lower case, letters and digits only."""
    return _NAME_KEY_RE.sub("", text.casefold())


def author_names(text: str, site_keys: Collection[str] = (), byline: bool = True) -> list[str]:
    """The names a byline or an author field holds (see the module docstring), at most
    :data:`MAX_NAMES`; ``site_keys`` are the :func:`name_key` of the site's names, which
    are no author's. A field that holds names only (``byline`` False: a ``<meta>`` tag's,
    JSON-LD's) ends at a separator, not at a word ("Center for Drug Evaluation")."""
    text = collapse_ws(text[:MAX_BYLINE_CHARS]).strip()
    if not text or NOT_AUTHOR_RE.match(text) or _ADDRESS_RE.match(text):
        return []
    zh_label = ZH_AUTHOR_LABEL_RE.search(text)
    if zh_label is not None:
        return _chinese_names(text[zh_label.end() :], site_keys)
    label = LABEL_RE.match(text)
    if label is not None:
        text = text[label.end() :]
        if NOT_AUTHOR_RE.match(text):  # ("Written by" over "Fact checked by ...")
            return []
    end = date_start(text)
    if end >= 0:
        text = text[:end]
    cut = (_CUT_RE if byline else _FIELD_CUT_RE).search(text)
    if cut is not None:
        text = text[: cut.start()]
    names: list[str] = []
    keys: set[str] = set()
    for index, part in enumerate(_SPLIT_RE.split(text)):
        name = part.strip(_EDGE_CHARS)
        if not name or (index > 0 and is_credential(name)):
            continue
        key = name_key(name)
        if key in keys or not is_name(name, site_keys):
            continue
        keys.add(key)
        names.append(name)
        if len(names) >= MAX_NAMES:
            break
    return names


def _chinese_names(text: str, site_keys: Collection[str]) -> list[str]:
    """The names after a Chinese byline's author label, up to the next labelled field,
    split on spaces and enumeration commas (at most :data:`MAX_NAMES`)."""
    following = _ZH_NEXT_FIELD_RE.search(text)
    if following is not None:
        text = text[: following.start()]
    names: list[str] = []
    for part in _ZH_SPLIT_RE.split(text):
        name = part.strip(_EDGE_CHARS)
        if name and name not in names and is_name(name, site_keys):
            names.append(name)
            if len(names) >= MAX_NAMES:
                break
    return names


def is_credential(part: str) -> bool:
    """True for a degree, a title or a suffix written after a name ("PhD", "Jr.", "RD")."""
    words = part.replace(".", "").lower().split()
    return bool(words) and (
        all(word in CREDENTIALS for word in words) or _INITIALS_RE.fullmatch(part) is not None
    )


def is_name(name: str, site_keys: Collection[str] = ()) -> bool:
    """True when ``name`` (one name, its edges stripped) may be a person's or an
    organisation's name (see the module docstring)."""
    if len(name) > MAX_NAME_CHARS or not any(char.isalpha() for char in name):
        return False
    lowered = name.lower()
    if "://" in lowered or lowered.startswith("www.") or "@" in name:
        return False
    words = [word.strip(_EDGE_CHARS) for word in lowered.split()]
    if len(words) > MAX_NAME_WORDS or all(word in NON_NAME_WORDS for word in words if word):
        return False
    if words[-1] == "by" or ":" in name:  # (a label: "Recipe by", "design: Jane Doe")
        return False
    if "©" in name or "copyright" in lowered:
        return False
    if date_start(name) >= 0 or _PLACEHOLDER_RE.search(name):
        return False
    return name_key(name) not in site_keys


def one_name(text: str) -> str:
    """A name written surname first ("Roy, Aniruddha", one author of a tag that names one
    each: ``citation_author``) in reading order ("Aniruddha Roy"); any other text as it
    is."""
    parts = [part.strip() for part in text.split(",")]
    if (
        len(parts) == 2
        and all(parts)
        and not is_credential(parts[1])
        and all(len(part.split()) <= 3 for part in parts)
    ):
        return f"{parts[1]} {parts[0]}"
    return text
