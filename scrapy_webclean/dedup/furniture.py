"""Editorial furniture: the lines a reprint wraps around an article.

A reprinted or syndicated article usually arrives with lines of its own: where it came from
("来源：新华网 编辑：张伟", "This article first appeared on ..."), a disclaimer ("声明：本文系
转载，版权归原作者所有"), a copyright line, an editor's signature ("（责任编辑：张伟）"), a
prompt to read on or to follow an account ("点击阅读全文，关注...微信公众号"). The extractor
keeps them when they sit inside the article's container, and they are what the
long-sentence method of docs/algorithms.md section 3 stumbles on: they are long sentences, shared
by thousands of unrelated pages and missing from the original. So the near-duplicate index
compares texts without them.

A line is furniture when it is short (a paragraph of prose that merely starts with "来源"
is not) and it opens with one of these formulas, or holds one of the few that count
anywhere (``data/furniture_*.txt``). The formulas are the generic ones of Chinese and
English news sites, never one site's wording.
"""

from __future__ import annotations

import re

from scrapy_webclean.text.wordlists import read_word_list

#: Longest furniture line, in characters (a disclaimer with a site name fits; a paragraph
#: of prose does not).
MAX_CHARS = 160

#: The formulas a furniture line opens with, and those that count wherever they stand in it:
#: regular expressions, as data (``data/furniture_openers.txt``,
#: ``data/furniture_anywhere.txt``).
_OPENERS = read_word_list("dedup/data/furniture_openers.txt")
_ANYWHERE = read_word_list("dedup/data/furniture_anywhere.txt")
_FURNITURE_RE = re.compile("^(?:" + "|".join(_OPENERS) + ")|" + "|".join(_ANYWHERE), re.IGNORECASE)


def is_furniture(line: str) -> bool:
    """Whether a line of text is editorial furniture (see the module docstring)."""
    stripped = line.strip()  # (the formulas are matched at its start)
    if not stripped or len(stripped) > MAX_CHARS:
        return False
    return _FURNITURE_RE.search(stripped) is not None


def strip_furniture(text: str) -> str:
    """``text`` without its furniture lines; ``text`` itself when nothing else is left (a
    page that is all furniture is compared as it is)."""
    if "\n" not in text:  # one line: kept whatever it is
        return text
    lines = text.split("\n")
    kept = [line for line in lines if not is_furniture(line)]
    if len(kept) == len(lines):
        return text
    if not any(line.strip() for line in kept):
        return text
    return "\n".join(kept)
