"""Load the demo articles from ``demo_site/content/{en,zh}/*.txt``.

The article files are plain text so writers can edit them without touching
code; this module turns them into :class:`Article` objects for the site
builder.  Loading is tolerant: whatever files exist are used, so the demo site
works while the content set is still being written.
"""

from __future__ import annotations

import datetime
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CATEGORIES",
    "CONTENT_DIR",
    "Article",
    "load_articles",
    "normalize_ws",
    "parse_article",
]

#: Categories an article may declare; the site templates have labels for these.
CATEGORIES: tuple[str, ...] = (
    "city",
    "environment",
    "transport",
    "education",
    "technology",
    "science",
    "health",
    "culture",
    "economy",
)

#: Default location of the article files.
CONTENT_DIR: Path = Path(__file__).resolve().parent / "content"

_ID_RE = re.compile(r"^(en|zh)-(\d{2,4})$")
_REQUIRED = ("title", "date", "author", "category")
_KNOWN = frozenset(_REQUIRED) | {"image"}


@dataclass(frozen=True)
class Article:
    """One article as written by the content writers (not yet rendered)."""

    id: str
    lang: str
    title: str
    date: str
    author: str
    category: str
    image_caption: str | None
    paragraphs: tuple[str, ...]

    @property
    def number(self) -> int:
        """The ``NN`` of ``en-NN``; it decides which demo site shows the article."""
        return int(self.id.split("-", 1)[1])


def normalize_ws(text: str) -> str:
    """Collapse whitespace the way the ground truth compares text.

    ``str.split()`` also splits on U+3000 (ideographic space) and NBSP, so an
    indented Chinese paragraph and its plain form compare equal.
    """
    return " ".join(text.split())


def parse_article(text: str, article_id: str) -> Article:
    """Parse the text of one article file; raise ``ValueError`` if malformed."""
    match = _ID_RE.match(article_id)
    if not match:
        raise ValueError(f"bad article id {article_id!r} (expected en-NN or zh-NN)")
    lang = match.group(1)
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")

    header: dict[str, str] = {}
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and lines[index].strip():
        key, sep, value = lines[index].partition(":")
        key = key.strip().lower()
        if not sep or key not in _KNOWN:
            raise ValueError(f"{article_id}: bad header line {lines[index]!r}")
        header[key] = normalize_ws(value)
        index += 1
    missing = [key for key in _REQUIRED if not header.get(key)]
    if missing:
        raise ValueError(f"{article_id}: missing header field(s) {', '.join(missing)}")
    try:
        datetime.date.fromisoformat(header["date"])
    except ValueError as exc:
        raise ValueError(f"{article_id}: bad date {header['date']!r}") from exc
    if header["category"] not in CATEGORIES:
        raise ValueError(f"{article_id}: unknown category {header['category']!r}")

    # Lines of one paragraph are joined: with a space for English, directly
    # for Chinese (a hard-wrapped Chinese line has no word boundary).
    joiner = " " if lang == "en" else ""
    paragraphs: list[str] = []
    block: list[str] = []
    for line in [*lines[index:], ""]:
        if line.strip():
            block.append(line.strip())
        elif block:
            paragraphs.append(normalize_ws(joiner.join(block)))
            block = []
    if not paragraphs:
        raise ValueError(f"{article_id}: no paragraphs")
    return Article(
        id=article_id,
        lang=lang,
        title=header["title"],
        date=header["date"],
        author=header["author"],
        category=header["category"],
        image_caption=header.get("image") or None,
        paragraphs=tuple(paragraphs),
    )


def load_articles(content_dir: str | Path | None = None) -> list[Article]:
    """Load every ``en-NN.txt`` / ``zh-NN.txt`` under *content_dir*, sorted by id.

    Files that do not parse (for example one still being written) are skipped
    with a warning rather than breaking the whole demo site.
    """
    root = Path(content_dir) if content_dir is not None else CONTENT_DIR
    articles: list[Article] = []
    for lang in ("en", "zh"):
        folder = root / lang
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob(f"{lang}-*.txt")):
            if not _ID_RE.match(path.stem):
                continue
            try:
                articles.append(parse_article(path.read_text(encoding="utf-8"), path.stem))
            except (ValueError, UnicodeDecodeError) as exc:
                warnings.warn(f"skipping {path}: {exc}", stacklevel=2)
    return articles
