"""Editorial furniture: the lines a reprint wraps around an article.

A reprinted or syndicated article usually arrives with lines of its own: where it came from
("来源：新华网 编辑：张伟", "This article first appeared on ..."), a disclaimer ("声明：本文系
转载，版权归原作者所有"), a copyright line, an editor's signature ("（责任编辑：张伟）"), a
prompt to read on or to follow an account ("点击阅读全文，关注...微信公众号"). The extractor
keeps them when they sit inside the article's container, and they are what the
long-sentence method of ALGORITHMS.md section 3 stumbles on: they are long sentences, shared
by thousands of unrelated pages and missing from the original. So the near-duplicate index
compares texts without them.

A line is furniture when it is short (a paragraph of prose that merely starts with "来源"
is not) and it opens with, or consists of, one of these formulas. The formulas are the
generic ones of Chinese and English news sites, never one site's wording.
"""

from __future__ import annotations

import re

#: Longest furniture line, in characters (a disclaimer with a site name fits; a paragraph
#: of prose does not).
MAX_CHARS = 160

_OPENERS = (
    # Chinese: source, reprint, disclaimer, editor, read-on and follow prompts.
    r"(?:本文|文章|稿件)?(?:来源|出处|转载自|转自|原标题|原文标题|原文链接|作者)\s*[:：]",
    r"本文(?:系|为|由)?(?:转载|转自|转载自|来自|来源于|原载于|首发于)",
    r"(?:免责)?声明\s*[:：]",
    r"[（(【\[]?\s*(?:责任编辑|责编|编辑|审核|校对)\s*[:：]",
    r"点击(?:阅读|查看|进入|关注|下载|这里)",
    r"(?:扫码|扫描二维码|长按二维码|关注我们|欢迎关注)",
    r"(?:版权所有|未经(?:授权|许可)|转载请注明)",
    r"【[^】]{1,12}(?:讯|报道|消息)】\s*$",
    # English: source, reprint, copyright, prompts.
    r"(?:this|the) (?:article|story|post) (?:was )?(?:first|originally) "
    r"(?:appeared|published|ran)",
    r"(?:originally|first) (?:published|appeared) (?:on|in|at|by)\b",
    r"(?:copyright|\(c\)|©)\s",
    r"all rights reserved",
    r"(?:source|via|editor|edited by|reporting by|writing by)\s*:",
    r"(?:click here|read more|read the full|follow us|subscribe to|sign up for)\b",
)
#: Formulas that mark a line wherever they stand in it (a short line only).
_INSIDE = r"版权归原作者所有|如有侵权|微信公众号|all rights reserved"
_FURNITURE_RE = re.compile(r"^(?:" + "|".join(_OPENERS) + ")|" + _INSIDE, re.IGNORECASE)


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
