"""Page titles: the ``title`` field of ours against the peers' titles, on WCXB dev, whose
ground truth names each page's title.

Usage::

    .venv/bin/python benchmarks/titles.py ../shared/datasets/extract [--json FILE] [--limit N]

Per page, a title is *right* when it equals the truth's once both are lower-cased and
every run of non-word characters is one space (``"Models¶"`` is ``"Models"``, ``"C#"`` is
``"C"``), and its *word F1* is the F1 of the two titles' words (``\\w+``, lower-cased,
multiset overlap). The tables give the share of right titles and the mean word F1 over
the pages, for every extractor, then per fold (``folds.py``: sites disjoint) and per page
type. The peers: trafilatura's metadata (``extract_metadata``), readability-lxml's
``short_title`` and GNE's ``title``. Ours is ``clean_html(...).title`` with the default
options (the title reads no trained model: the same on every fold).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import Page, load_set
from extractors import peer_html
from folds import FOLDS
from report_tables import fmt, md_table

TitleOf = Callable[[Page, str], str]

_NON_WORD_RE = re.compile(r"\W+")
_WORD_RE = re.compile(r"\w+")


def normalized(title: str) -> str:
    """A title lower-cased, each run of non-word characters one space."""
    return _NON_WORD_RE.sub(" ", title.lower()).strip()


def word_f1(found: str, truth: str) -> float:
    """The F1 of two titles' words (lower-cased, multiset overlap)."""
    a = Counter(_WORD_RE.findall(found.lower()))
    b = Counter(_WORD_RE.findall(truth.lower()))
    shared = sum((a & b).values())
    if not shared:
        return 0.0
    precision, recall = shared / sum(a.values()), shared / sum(b.values())
    return 2 * precision * recall / (precision + recall)


def _ours() -> TitleOf:
    from scrapy_webclean import clean_html

    return lambda page, html: clean_html(page.body, page.url).title


def _trafilatura() -> TitleOf:
    import trafilatura

    def title(page: Page, html: str) -> str:
        metadata = trafilatura.extract_metadata(html, default_url=page.url)
        return (metadata.title if metadata is not None else None) or ""

    return title


def _readability() -> TitleOf:
    from readability import Document  # type: ignore[import-untyped]

    return lambda page, html: str(Document(html).short_title() or "")


def _gne() -> TitleOf:
    from gne import GeneralNewsExtractor  # type: ignore[import-untyped]

    extractor = GeneralNewsExtractor()
    return lambda page, html: str(extractor.extract(html).get("title") or "")


EXTRACTORS: dict[str, Callable[[], TitleOf]] = {
    "ours": _ours,
    "trafilatura": _trafilatura,
    "readability": _readability,
    "gne": _gne,
}


def run(pages: Sequence[Page]) -> dict[str, list[tuple[bool, float, str]]]:
    """Per extractor, per page: (right, word F1, the title found)."""
    htmls = [peer_html(page.body) for page in pages]
    out: dict[str, list[tuple[bool, float, str]]] = {}
    for name, factory in EXTRACTORS.items():
        title_of = factory()
        rows = []
        for page, html in zip(pages, htmls, strict=True):
            truth = page.title or ""
            try:
                found = title_of(page, html)
            except Exception as exc:  # a peer failing on a page is data, not a crash
                print(f"  {name} {page.id}: {type(exc).__name__}", file=sys.stderr)
                found = ""
            found = " ".join(found.split())
            rows.append((normalized(found) == normalized(truth), word_f1(found, truth), found))
        out[name] = rows
        print(f"  {name}: {len(rows)} pages", file=sys.stderr)
    return out


def _share(rows: Sequence[tuple[bool, float, str]]) -> float:
    return sum(right for right, _, _ in rows) / len(rows) if rows else 0.0


def _mean_f1(rows: Sequence[tuple[bool, float, str]]) -> float:
    return statistics.fmean(f1 for _, f1, _ in rows) if rows else 0.0


def report(pages: Sequence[Page], results: dict[str, list[tuple[bool, float, str]]]) -> str:
    ours = results["ours"]
    lines = [
        "# Page titles (WCXB dev)",
        "",
        f"{len(pages)} pages with a title in the truth. right = the title equals the "
        "truth's, lower-cased, non-word characters as spaces; word F1 = the F1 of the "
        "two titles' words, averaged over pages.",
        "",
    ]
    lines.append(
        md_table(
            ["extractor", "pages", "right", "word F1", "ours − this (right)"],
            [
                [
                    name,
                    str(len(rows)),
                    fmt(_share(rows)),
                    fmt(_mean_f1(rows)),
                    "–" if name == "ours" else f"{_share(ours) - _share(rows):+.3f}",
                ]
                for name, rows in results.items()
            ],
        )
    )
    lines += ["", "Right, per fold (sites disjoint):", ""]
    lines.append(
        md_table(
            ["extractor", *(f"fold {k}" for k in range(FOLDS))],
            [
                [
                    name,
                    *(
                        fmt(_share([r for r, p in zip(rows, pages, strict=True) if p.fold == k]))
                        for k in range(FOLDS)
                    ),
                ]
                for name, rows in results.items()
            ],
        )
    )
    types = sorted({page.page_type for page in pages})
    lines += ["", "Right, per page type:", ""]
    lines.append(
        md_table(
            ["extractor", *types],
            [
                [
                    name,
                    *(
                        fmt(
                            _share(
                                [r for r, p in zip(rows, pages, strict=True) if p.page_type == t]
                            )
                        )
                        for t in types
                    ),
                ]
                for name, rows in results.items()
            ],
        )
    )
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--json", type=Path, default=None, help="per-page titles (JSON)")
    parser.add_argument("--limit", type=int, default=None, help="the first N pages only")
    args = parser.parse_args(argv)
    pages = [page for page in load_set(args.data, "wcxb-dev").pages if page.title]
    if args.limit is not None:
        pages = pages[: args.limit]
    results = run(pages)
    print(report(pages, results))
    if args.json is not None:
        records = {
            page.id: {"truth": page.title, **{name: rows[i][2] for name, rows in results.items()}}
            for i, page in enumerate(pages)
        }
        args.json.write_text(json.dumps(records, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
