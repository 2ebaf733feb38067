"""Reading the Dragnet gold set (``datasets.load_dragnet`` loads it): each page's URL from
the ads folder's image-link records, the gold files' text (five were mangled once), and
the readers' comments the annotators marked apart from the main text."""

from __future__ import annotations

import json
import re
from pathlib import Path


def dragnet_urls(links: Path) -> dict[str, str]:
    """Page file name (``<id>.html.gz``) -> ``page_url``, from the Dragnet records of
    ``image-links.jsonl``."""
    urls: dict[str, str] = {}
    with links.open(encoding="utf-8") as fh:
        for line in fh:
            if '"dragnet_data"' not in line:
                continue
            record = json.loads(line)
            name = str(record.get("file", "")).rsplit("/", 1)[-1]
            if name and record.get("page_url"):
                urls.setdefault(name, record["page_url"])
    return urls


#: What a UTF-16 byte-order mark became when a UTF-16 file was once read as UTF-8 and
#: written back: two replacement characters.
_MANGLED_BOM = "\ufffd\ufffd".encode()


def gold_text(raw: bytes) -> str:
    """A gold file's text. Five dragnet-gold files are UTF-16 (little-endian) that went
    through a UTF-8 decoder once: the byte-order mark and every byte over 127 became
    U+FFFD (three bytes for one, so the pairs stay aligned). They are read as UTF-16,
    which gives their words back (a few accented letters stay lost); read as UTF-8 they
    were text with a NUL after every letter, which no extractor can match."""
    if raw.startswith(_MANGLED_BOM) and raw.count(0) * 4 > len(raw):
        return raw[len(_MANGLED_BOM) :].decode("utf-16-le", "replace")
    return raw.decode("utf-8")


#: Dragnet's annotators put the readers' comments after a line ``!@#$%^&*()  COMMENTS``:
#: "any text appearing before this string in the file is the main article, text after
#: belongs to comments" (the dragnet_data README). The line was typed by hand: 17 of the
#: 227 marked files carry a variant (one space, a symbol missing or doubled, "COMMNENTS",
#: "CORRECTED", the symbols alone on their line).
COMMENTS_MARKER_RE = re.compile(
    r"(?:[!@#$%^&*()] ?){3,}[!@#$%^&*() ]*(?:COMMN?ENTS|CORRECTED)[ \t]*\r?$"
    r"|^[ \t]*!@#\$%\^&\*\(\)[ \t]*\r?$",
    re.M,
)


def split_comments(gold: str) -> tuple[str, str]:
    """A Dragnet gold text as (main text, comments); comments ``""`` when none are marked."""
    match = COMMENTS_MARKER_RE.search(gold)
    if match is None:
        return gold, ""
    return gold[: match.start()].rstrip(), gold[match.end() :].strip()
