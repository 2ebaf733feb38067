"""The ``title``, ``date`` and ``author`` fields of ours against the peers', on WCXB dev,
whose ground truth names each page's title, on 708 of its 1,358 pages its publication
date and on 673 its author; and how often ours and trafilatura give the other metadata
fields (no truth for those: coverage only).

Usage::

    .venv/bin/python benchmarks/fields.py ../shared/datasets/extract [--out FILE] [--json FILE]
        [--limit N]

*Titles.* A title is *right* when it equals the truth's once both are lower-cased and
every run of non-word characters is one space (``"Models¶"`` is ``"Models"``); its *word
F1* is WCXB's metric between the two titles (``metrics.word_f1``: ``\\w+`` words,
lower-cased, multiset overlap). Peers:
trafilatura's metadata (``bare_extraction(..., with_metadata=True)``), readability-lxml's
``short_title``, GNE's ``title``, newspaper4k's ``title``.

*Dates.* On the pages whose truth has a date, a date is *right* when its day (read as the
cleaner reads dates: ``2025-07-18``, ``2025/7/18``, ``Jul 18, 2025``) is the truth's,
*wrong* when it names another day, *none* when the extractor gives no date (or none that
reads as one); on the pages whose truth has none, how many get a date anyway (the
truth may have left out a date the page shows: not scored). Peers: trafilatura's metadata,
htmldate's ``find_date`` (``original_date=True``: the publication date), GNE's
``publish_time`` and newspaper4k's ``publish_date``.

*Authors.* Exact-name F1 on the pages whose truth (``ground_truth.author``, a string) names
an author: the truth and each extractor's answer (ours: its list of names; trafilatura:
its "; "-joined string; newspaper4k: ``article.authors``) are split into names at " and ",
",", "&" and ";" alike, each name lower-cased with every run of non-word characters one
space; per page, precision = matched names / predicted names (0 when none is predicted),
recall = matched names / truth names; P and R are averaged over those pages and F1 is the
harmonic mean of the two averages. The pages whose truth names no author but that an
extractor gives one are counted apart (not scored: the truth may leave out a byline the
page shows).

*The other fields* (``sitename``, ``description``, ``image``, ``canonical_url``,
``date_modified``, ``categories``, ``tags``, ``license``): the share of pages where an
extractor gives a value, ours beside trafilatura's and newspaper4k's equivalents where they
have one.

Every score is given overall and per fold (``folds.py``: sites disjoint); titles, dates and
authors per page type too. Ours is ``clean_html(...)`` with the default options: its
metadata read no trained model, so they are the same on every fold. *Tuning:* the author
rules (``extraction/authors.py``, ``extraction/metadata.py``: the order of the sources,
the word lists, the caps) were written looking at the pages of folds 0-3 only; fold 4
was held out and read once to confirm (the rules have no fitted threshold: the caps are
bounds on work, not tuned).

A peer that is not installed is left out, and said so under the tables.
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


#: The metadata fields counted for coverage, and the peers' names for them.
COVERAGE_FIELDS = (
    "sitename",
    "description",
    "image",
    "canonical_url",
    "date_modified",
    "categories",
    "tags",
    "license",
)


def _joined(value: object) -> str:
    """A field's value as a string: a list's items joined with "; " ("" for None)."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple, set)):
        return "; ".join(str(item) for item in value if item)
    return str(value)


def _ours() -> FieldsOf:
    from scrapy_webclean import clean_html

    def fields(page: Page, html: str) -> Fields:
        result = clean_html(page.body, page.url)
        found = {"title": result.title, "date": result.date or ""}
        found["author"] = _joined(result.author)
        for name in COVERAGE_FIELDS:
            found[name] = _joined(getattr(result, name))
        return found

    return fields


#: trafilatura's names of the coverage fields (it has no modified date; its ``url`` is
#: the canonical address when the page declares one, else the URL it was given).
_TRAFILATURA_FIELDS = {
    "sitename": "sitename",
    "description": "description",
    "image": "image",
    "categories": "categories",
    "tags": "tags",
    "license": "license",
}


def _trafilatura() -> FieldsOf:
    import trafilatura

    def fields(page: Page, html: str) -> Fields:
        document = trafilatura.bare_extraction(html, url=page.url, with_metadata=True)
        if document is None:
            return {"title": "", "date": "", "author": ""}
        found = {
            "title": document.title or "",
            "date": document.date or "",
            "author": document.author or "",
        }
        for name, theirs in _TRAFILATURA_FIELDS.items():
            found[name] = _joined(getattr(document, theirs, None))
        return found

    return fields


def _newspaper() -> FieldsOf:
    import logging
    import warnings

    warnings.filterwarnings("ignore", module="newspaper")
    import newspaper

    logging.getLogger("newspaper").setLevel(logging.ERROR)
    config = newspaper.Config()
    # (no network: it would fetch every image of the page to size the top one)
    config.fetch_images = False

    def fields(page: Page, html: str) -> Fields:
        article = newspaper.Article(page.url or "http://example.invalid/", config=config)
        article.download(input_html=html)
        article.parse()
        published = article.publish_date
        return {
            "title": article.title or "",
            "date": published.isoformat() if published else "",
            "author": _joined(article.authors),
            "description": article.meta_description or "",
            "image": article.top_image or "",
            "canonical_url": article.canonical_link or "",
            "tags": _joined(sorted(article.tags or ())),
        }

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
    "newspaper4k": _newspaper,
    "readability": _readability,
    "htmldate": _htmldate,
    "gne": _gne,
}
#: The peers left out of a run because they are not installed (``run`` fills it).
MISSING: list[str] = []


def run(pages: Sequence[Page]) -> dict[str, list[Fields]]:
    """Per extractor, per page: the fields it gave."""
    htmls = [peer_html(page.body) for page in pages]
    out: dict[str, list[Fields]] = {}
    for name, factory in EXTRACTORS.items():
        try:
            fields_of = factory()
        except ImportError as exc:  # (a peer not installed: said so under the tables)
            print(f"  {name}: not installed ({exc})", file=sys.stderr)
            MISSING.append(name)
            continue
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


_NAME_SPLIT_RE = re.compile(r" and |,|&|;")


def author_names(text: str) -> list[str]:
    """The names of an author string, split at " and ", ",", "&" and ";", each
    :func:`normalized`, without repeats, in order."""
    names = (normalized(part) for part in _NAME_SPLIT_RE.split(text or ""))
    return list(dict.fromkeys(name for name in names if name))


def author_scores(
    truths: Sequence[str], rows: Sequence[Fields]
) -> list[tuple[float, float] | None]:
    """Per page: (precision, recall) of the names found against the truth's, None where
    the truth names no author."""
    out: list[tuple[float, float] | None] = []
    for truth, row in zip(truths, rows, strict=True):
        wanted = set(author_names(truth))
        if not wanted:
            out.append(None)
            continue
        found = author_names(row.get("author", ""))
        matched = len(wanted.intersection(found))
        out.append((matched / len(found) if found else 0.0, matched / len(wanted)))
    return out


def prf(scores: Sequence[tuple[float, float] | None]) -> tuple[float, float, float, int]:
    """(P, R, F1, pages) over the scored pages: P and R averaged, F1 their harmonic mean."""
    scored = [score for score in scores if score is not None]
    if not scored:
        return 0.0, 0.0, 0.0, 0
    precision = statistics.fmean(p for p, _ in scored)
    recall = statistics.fmean(r for _, r in scored)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1, len(scored)


def author_report(
    pages: Sequence[Page], truths: Sequence[str], results: dict[str, list[Fields]]
) -> list[str]:
    """The author tables: overall, per fold, per page type."""
    named = [name for name, rows in results.items() if any("author" in row for row in rows)]
    if not named:
        return []
    scores = {name: author_scores(truths, results[name]) for name in named}
    with_truth = sum(1 for truth in truths if author_names(truth))
    without = len(pages) - with_truth
    overall = {name: prf(scores[name]) for name in named}
    ours_f1 = overall["ours"][2] if "ours" in overall else 0.0

    def given_without(name: str) -> int:
        return sum(
            1
            for truth, row in zip(truths, results[name], strict=True)
            if not author_names(truth) and author_names(row.get("author", ""))
        )

    lines = [
        "",
        "## Authors",
        "",
        f"{with_truth} pages whose truth names an author: exact-name precision, recall (each "
        "averaged over pages) and F1, names split at ' and ', ',', '&', ';' and normalized "
        f"(lower case, non-word runs as one space). On the {without} pages whose truth names "
        "none, how many get an author anyway (not scored).",
        "",
        md_table(
            ["extractor", "pages", "P", "R", "F1", "ours − this (F1)", "no-truth pages given one"],
            [
                [
                    name,
                    str(overall[name][3]),
                    fmt(overall[name][0]),
                    fmt(overall[name][1]),
                    fmt(overall[name][2]),
                    "–" if name == "ours" else f"{ours_f1 - overall[name][2]:+.3f}",
                    f"{given_without(name)} / {without}",
                ]
                for name in named
            ],
        ),
    ]
    groupings = _groupings(pages)
    for title, keys, values in groupings:
        lines += ["", f"Author F1, per {title} (pages with an author in the truth):", ""]
        counts = [
            sum(1 for s, k in zip(scores[named[0]], keys, strict=True) if s is not None and k == v)
            for v in values
        ]
        rows = [["pages", *(str(count) for count in counts)]]
        for name in named:
            cells = []
            for value in values:
                group = [s for s, k in zip(scores[name], keys, strict=True) if k == value]
                f1 = prf(group)
                cells.append(fmt(f1[2]) if f1[3] else "–")
            rows.append([name, *cells])
        lines.append(md_table(["extractor", *values], rows))
    return lines


def coverage_report(results: dict[str, list[Fields]]) -> list[str]:
    """The share of pages where each extractor gives each of :data:`COVERAGE_FIELDS`."""
    if "ours" not in results:
        return []
    peers = [name for name in ("trafilatura", "newspaper4k") if name in results]
    header = ["field", "ours"]
    for peer in peers:
        header += [peer, f"ours / {peer}"]
    rows = []
    for field in COVERAGE_FIELDS:

        def share(name: str, field: str = field) -> float | None:
            found = results[name]
            if not any(field in row for row in found):
                return None
            return sum(1 for row in found if row.get(field)) / max(1, len(found))

        ours = share("ours") or 0.0
        cells = [field, fmt(ours)]
        for peer in peers:
            theirs = share(peer)
            cells += [fmt(theirs), f"{ours / theirs:.2f}×" if theirs else "–"]
        rows.append(cells)
    return [
        "",
        "## Other fields: coverage",
        "",
        "Share of pages where the extractor gives a value (no truth: coverage only, not "
        "correctness); – where the peer has no such field.",
        "",
        md_table(header, rows),
    ]


def _share(flags: Sequence[bool]) -> str:
    return fmt(sum(flags) / len(flags)) if flags else "–"


def _groupings(pages: Sequence[Page]) -> list[tuple[str, list[str], list[str]]]:
    """The groupings every per-group table uses: (its name, each page's group, the groups
    in order): the folds (sites disjoint) and the page types."""
    return [
        (
            "fold (sites disjoint)",
            [f"fold {p.fold}" for p in pages],
            [f"fold {k}" for k in range(FOLDS)],
        ),
        ("page type", [p.page_type for p in pages], sorted({p.page_type for p in pages})),
    ]


def _by_group(pages: Sequence[Page], right: dict[str, list[bool | None]], label: str) -> list[str]:
    """The share right per fold and per page type (pages with a truth only)."""
    lines = []
    groupings = _groupings(pages)
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


def report(
    pages: Sequence[Page], results: dict[str, list[Fields]], truths: Sequence[str] | None = None
) -> str:
    """The Markdown report; ``truths`` are the pages' truth authors ("" where none)."""
    lines = ["# Page titles, dates and authors (WCXB dev)", ""]
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
    if truths is not None:
        lines += author_report(pages, truths, results)
    lines += coverage_report(results)
    if MISSING:
        lines += ["", f"Not installed, left out: {', '.join(MISSING)}."]
    return "\n".join(lines) + "\n"


def truth_authors(data: Path, pages: Sequence[Page]) -> list[str]:
    """Each page's truth author (WCXB's ``ground_truth.author``; "" where none): read here,
    the loader does not keep it."""
    folder = data / "wcxb-dev" / "ground-truth"
    out = []
    for page in pages:
        record = json.loads((folder / f"{page.id}.json").read_text(encoding="utf-8"))
        out.append(" ".join(str(record["ground_truth"].get("author") or "").split()))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--json", type=Path, default=None, help="per-page fields (JSON)")
    parser.add_argument("--out", type=Path, default=None, help="the report (Markdown) here too")
    parser.add_argument("--limit", type=int, default=None, help="the first N pages only")
    args = parser.parse_args(argv)
    pages = [page for page in load_set(args.data, "wcxb-dev").pages if page.title or page.date]
    if args.limit is not None:
        pages = pages[: args.limit]
    truths = truth_authors(args.data, pages)
    results = run(pages)
    text = report(pages, results, truths)
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    if args.json is not None:
        records = {
            page.id: {
                "truth": {"title": page.title, "date": page.date, "author": truths[i]},
                **{name: rows[i] for name, rows in results.items()},
            }
            for i, page in enumerate(pages)
        }
        args.json.write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
