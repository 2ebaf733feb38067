"""The ``title`` and ``date`` fields of ours against the peers', on WCXB dev, whose ground
truth names each page's title and, on 708 of its 1,358 pages, its publication date.

Usage::

    .venv/bin/python benchmarks/fields.py ../shared/datasets/extract [--json FILE] [--limit N]

*Titles.* A title is *right* when it equals the truth's once both are lower-cased and
every run of non-word characters is one space (``"Models¶"`` is ``"Models"``); its *word
F1* is WCXB's metric between the two titles (``metrics.word_f1``: ``\\w+`` words,
lower-cased, multiset overlap). Peers:
trafilatura's metadata (``extract_metadata``), readability-lxml's ``short_title``, GNE's
``title``.

*Dates.* On the pages whose truth has a date, a date is *right* when its day (read as the
cleaner reads dates: ``2025-07-18``, ``2025/7/18``, ``Jul 18, 2025``) is the truth's,
*wrong* when it names another day, *none* when the extractor gives no date (or none that
reads as one); on the pages whose truth has none, how many get a date anyway (the
truth may have left out a date the page shows: not scored). Peers: trafilatura's metadata,
htmldate's ``find_date`` (``original_date=True``: the publication date) and GNE's
``publish_time``.

Every table is given overall, per fold (``folds.py``: sites disjoint) and per page type.
Ours is ``clean_html(...)`` with the default options: its title and date read no trained
model, so they are the same on every fold.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import Page, load_set
from extractors import peer_html
from folds import FOLDS
from metrics import word_f1
from report_tables import fmt, md_table

from scrapy_webclean.extraction.dates import parse_date

#: An extractor's fields of one page (``title``, ``date``: the ones it gives).
Fields = dict[str, str]
FieldsOf = Callable[[Page, str], Fields]

_NON_WORD_RE = re.compile(r"\W+")


def normalized(title: str) -> str:
    """A title lower-cased, each run of non-word characters one space."""
    return _NON_WORD_RE.sub(" ", title.lower()).strip()


def day(date: str | None) -> str:
    """The first day a date names, as ``YYYY-MM-DD`` ("" when none), read with the cleaner's
    own date parser (``extraction.dates.parse_date``): a peer's ``"Jul 18, 2025"`` or
    ``"2025/01/06"`` counts as its ISO form does."""
    return parse_date(date or "") or ""


def _ours() -> FieldsOf:
    from scrapy_webclean import clean_html

    def fields(page: Page, html: str) -> Fields:
        result = clean_html(page.body, page.url)
        return {"title": result.title, "date": result.date or ""}

    return fields


def _trafilatura() -> FieldsOf:
    import trafilatura

    def fields(page: Page, html: str) -> Fields:
        metadata = trafilatura.extract_metadata(html, default_url=page.url)
        if metadata is None:
            return {"title": "", "date": ""}
        return {"title": metadata.title or "", "date": metadata.date or ""}

    return fields


def _readability() -> FieldsOf:
    from readability import Document  # type: ignore[import-untyped]

    return lambda page, html: {"title": str(Document(html).short_title() or "")}


def _htmldate() -> FieldsOf:
    from htmldate import find_date

    # (the publication date, as the truth's: not the page's latest date)
    return lambda page, html: {"date": str(find_date(html, url=page.url, original_date=True) or "")}


def _gne() -> FieldsOf:
    from gne import GeneralNewsExtractor  # type: ignore[import-untyped]

    extractor = GeneralNewsExtractor()

    def fields(page: Page, html: str) -> Fields:
        found = extractor.extract(html)
        return {
            "title": str(found.get("title") or ""),
            "date": str(found.get("publish_time") or ""),
        }

    return fields


EXTRACTORS: dict[str, Callable[[], FieldsOf]] = {
    "ours": _ours,
    "trafilatura": _trafilatura,
    "readability": _readability,
    "htmldate": _htmldate,
    "gne": _gne,
}


def run(pages: Sequence[Page]) -> dict[str, list[Fields]]:
    """Per extractor, per page: the fields it gave."""
    htmls = [peer_html(page.body) for page in pages]
    out: dict[str, list[Fields]] = {}
    for name, factory in EXTRACTORS.items():
        fields_of = factory()
        rows = []
        for page, html in zip(pages, htmls, strict=True):
            try:
                found = fields_of(page, html)
            except Exception as exc:  # a peer failing on a page is data, not a crash
                print(f"  {name} {page.id}: {type(exc).__name__}", file=sys.stderr)
                found = {}
            rows.append({key: " ".join(value.split()) for key, value in found.items()})
        out[name] = rows
        print(f"  {name}: {len(rows)} pages", file=sys.stderr)
    return out


# --------------------------------------------------------------------------- report


def title_verdicts(
    pages: Sequence[Page], rows: Sequence[Fields]
) -> list[tuple[bool, float] | None]:
    """Per page: (right, word F1) of the title found, None where the truth has no title."""
    return [
        (
            normalized(row.get("title", "")) == normalized(page.title),
            word_f1(row.get("title", ""), page.title).f1,
        )
        if page.title
        else None
        for page, row in zip(pages, rows, strict=True)
    ]


def date_verdicts(pages: Sequence[Page], rows: Sequence[Fields]) -> list[str]:
    """Per page: "right", "wrong" or "none" where the truth has a date; "given" or ""
    (a date found or not) where it has none."""
    out = []
    for page, row in zip(pages, rows, strict=True):
        found = day(row.get("date"))
        if page.date:
            out.append("none" if not found else "right" if found == day(page.date) else "wrong")
        else:
            out.append("given" if found else "")
    return out


def _share(flags: Sequence[bool]) -> str:
    return fmt(sum(flags) / len(flags)) if flags else "–"


def _by_group(pages: Sequence[Page], right: dict[str, list[bool | None]], label: str) -> list[str]:
    """The share right per fold and per page type (pages with a truth only)."""
    lines = []
    groupings: list[tuple[str, list[str], list[str]]] = [
        (
            "fold (sites disjoint)",
            [f"fold {p.fold}" for p in pages],
            [f"fold {k}" for k in range(FOLDS)],
        ),
        ("page type", [p.page_type for p in pages], sorted({p.page_type for p in pages})),
    ]
    for title, keys, values in groupings:
        lines += ["", f"{label} right, per {title}:", ""]
        rows = []
        for name, flags in right.items():
            cells = []
            for value in values:
                group = [
                    f for f, k in zip(flags, keys, strict=True) if f is not None and k == value
                ]
                cells.append(_share(group))
            rows.append([name, *cells])
        lines.append(md_table(["extractor", *values], rows))
    return lines


def report(pages: Sequence[Page], results: dict[str, list[Fields]]) -> str:
    lines = ["# Page titles and dates (WCXB dev)", ""]
    # (an extractor's fields are those it gave on some page: a page it failed on gave none)
    titled = [name for name, rows in results.items() if any("title" in row for row in rows)]
    verdicts = {name: title_verdicts(pages, results[name]) for name in titled}
    right = {name: [v[0] if v else None for v in verdicts[name]] for name in titled}
    count = sum(1 for page in pages if page.title)

    def title_share(name: str) -> float:
        return sum(v[0] for v in verdicts[name] if v) / max(1, count)

    lines += [
        "## Titles",
        "",
        f"{count} pages with a title in the truth. right = the title equals the truth's, "
        "lower-cased, non-word characters as spaces; word F1 = the F1 of the two titles' "
        "words, averaged over pages.",
        "",
        md_table(
            ["extractor", "pages", "right", "word F1", "ours − this (right)"],
            [
                [
                    name,
                    str(count),
                    fmt(title_share(name)),
                    fmt(statistics.fmean(v[1] for v in verdicts[name] if v) if count else 0.0),
                    "–" if name == "ours" else f"{title_share('ours') - title_share(name):+.3f}",
                ]
                for name in titled
            ],
        ),
    ]
    lines += _by_group(pages, right, "Titles")
    dated = [name for name, rows in results.items() if any("date" in row for row in rows)]
    days = {name: date_verdicts(pages, results[name]) for name in dated}
    with_date = sum(1 for page in pages if page.date)
    without = len(pages) - with_date

    def date_share(name: str, verdict: str) -> float:
        return days[name].count(verdict) / max(1, with_date)

    lines += [
        "",
        "## Dates",
        "",
        f"{with_date} pages with a publication date in the truth: right = the same day, "
        "wrong = another day, none = no date given. On the "
        f"{without} pages whose truth has no date, the share given one anyway (not scored: "
        "the truth may leave out a date the page shows).",
        "",
        md_table(
            [
                "extractor",
                "pages",
                "right",
                "wrong",
                "none",
                "ours − this (right)",
                "undated pages given a date",
            ],
            [
                [
                    name,
                    str(with_date),
                    fmt(date_share(name, "right")),
                    fmt(date_share(name, "wrong")),
                    fmt(date_share(name, "none")),
                    "–"
                    if name == "ours"
                    else f"{date_share('ours', 'right') - date_share(name, 'right'):+.3f}",
                    fmt(days[name].count("given") / max(1, without)),
                ]
                for name in dated
            ],
        ),
    ]
    date_right = {
        name: [
            (v == "right") if page.date else None for v, page in zip(days[name], pages, strict=True)
        ]
        for name in dated
    }
    lines += _by_group(pages, date_right, "Dates")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--json", type=Path, default=None, help="per-page fields (JSON)")
    parser.add_argument("--limit", type=int, default=None, help="the first N pages only")
    args = parser.parse_args(argv)
    pages = [page for page in load_set(args.data, "wcxb-dev").pages if page.title or page.date]
    if args.limit is not None:
        pages = pages[: args.limit]
    results = run(pages)
    print(report(pages, results))
    if args.json is not None:
        records = {
            page.id: {
                "truth": {"title": page.title, "date": page.date},
                **{name: rows[i] for name, rows in results.items()},
            }
            for i, page in enumerate(pages)
        }
        args.json.write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
