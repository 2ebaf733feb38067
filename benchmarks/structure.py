"""How much of the main content's structure the Markdown keeps, ours against trafilatura's,
on WCXB dev, whose ground truth gives each page's main content as Markdown too
(``ground_truth.main_content_markdown``).

Usage::

    .venv/bin/python benchmarks/structure.py ../shared/datasets/extract \\
        [--out benchmarks/results/structure.md] [--models benchmarks/models] [--limit N] \\
        [--cache FILE]

Both the truth's Markdown and each extractor's are parsed with markdown-it-py (CommonMark
with GFM tables) into *elements*, and each kind is scored by the F1 of the elements kept:

* a *heading* by its level and its normalized text (lower-cased, each run of non-word
  characters one space);
* a *list item* by its list's kind (ordered or unordered) and its own text (the text of
  the item's paragraphs and headings, not that of the lists nested in it);
* a *table cell* by its row, its column (both counted from 0 in its table, the header
  row being row 0) and its text;
* a *quote* by its text (a nested quote is an element of its own);
* a *code block* by characters: the blocks of the two sides are paired greedily, the
  pair with the longest common subsequence (whitespace removed) first; the page's
  precision is the characters matched over the extractor's code characters, its recall
  over the truth's.

Elements are multisets (a cell "1" twice in the truth can be matched twice). A kind is
scored on the pages whose truth has at least one element of it (an extractor with none
there scores 0): the **per-page F1 averaged over those pages** (macro). The *word F1* is
WCXB's metric (``metrics.word_f1``) of the text of the Markdown (what markdown-it reads
as text: link targets and marks left out, code kept) against the truth's plain main text
(``ground_truth.main_content``), on every page with a truth; beside it the word F1 of our
plain text (``CleanResult.text``) against the same truth. Our Markdown starts with the
page's title as ``#``, which the truth's Markdown mostly leaves out, and so does our plain
text unless it kept the page's ``<h1>`` as a line: ``ours, no headline`` is our Markdown
without that first block where the plain text does not start with it
(:func:`without_headline`), scored beside it.

Peers: trafilatura 2.x, ``extract(html, url=..., output_format="markdown",
include_formatting=True, include_tables=True, include_links=True)`` -- its defaults
otherwise (``include_comments`` is on by default and so stays on; ``include_images`` off,
as ours): links on, as in the truth's Markdown (which has links on most pages) and as in
ours by default. Ours: ``clean_html(page.body, page.url, options=...).markdown`` with the
default options, the line model (which lines are kept) cross-validated by domain with
``--models`` (``DIR/fold{k}.json`` for the pages of fold ``k``, trained without it; the
default ``benchmarks/models``; ``--models none``: the package's shipped model).

Every figure is given overall and per fold (``folds.py``: registered domains disjoint).
Nothing in the Markdown renderer is tuned on these pages: its choices are
parameter-free.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import Page, load_set
from extractors import peer_html
from folds import FOLDS
from metrics import lcs_length, strip_whitespace, word_f1, words
from report_tables import fmt, md_table

#: The element kinds scored, in the order the tables show them.
KINDS = ("heading", "list item", "table cell", "code", "quote")
#: The peer's options (see the module docstring).
TRAFILATURA_OPTIONS: dict[str, Any] = {
    "output_format": "markdown",
    "include_formatting": True,
    "include_tables": True,
    "include_links": True,
}
#: The extractors of a run, ours first.
EXTRACTORS = ("ours", "trafilatura")
#: Where the trained fold models are by default.
DEFAULT_MODELS = Path(__file__).resolve().parent / "models"
#: Ours without the headline the Markdown starts with, where the plain text has none
#: (see :func:`without_headline`).
BODY = "ours, no headline"
#: The set scored.
SET_NAME = "wcxb-dev"

_NON_WORD_RE = re.compile(r"\W++")


def normalized(text: str) -> str:
    """``text`` lower-cased, each run of non-word characters one space."""
    return _NON_WORD_RE.sub(" ", text.lower()).strip()


@dataclass(slots=True)
class Elements:
    """The structure of one Markdown document (see the module docstring)."""

    headings: Counter[tuple[int, str]] = field(default_factory=Counter)
    items: Counter[tuple[str, str]] = field(default_factory=Counter)
    cells: Counter[tuple[int, int, str]] = field(default_factory=Counter)
    quotes: Counter[str] = field(default_factory=Counter)
    code: list[str] = field(default_factory=list)
    text: str = ""

    def has(self, kind: str) -> bool:
        """Whether the document has an element of ``kind``."""
        if kind == "heading":
            return bool(self.headings)
        if kind == "list item":
            return bool(self.items)
        if kind == "table cell":
            return bool(self.cells)
        if kind == "quote":
            return bool(self.quotes)
        return bool(self.code)


def _markdown_parser() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


def inline_text(token: Any) -> str:
    """The text of an inline token: its text and code spans, an image's alt text, a line
    break as a space (no link target, no raw HTML)."""
    parts = []
    for child in token.children or ():
        if child.type in ("text", "code_inline", "image"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def parse_elements(markdown: str, parser: Any) -> Elements:
    """The elements of ``markdown`` (see the module docstring)."""
    found = Elements()
    lists: list[str] = []  # the kinds of the open lists
    items: list[tuple[str, list[str]]] = []  # the open items: their list's kind, text
    quotes: list[list[str]] = []
    heading: list[str] | None = None
    level = 0
    cell: list[str] | None = None
    row = column = -1
    texts: list[str] = []
    for token in parser.parse(markdown):
        kind = token.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            lists.append("ordered" if kind == "ordered_list_open" else "unordered")
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            items.append((lists[-1] if lists else "unordered", []))
        elif kind == "list_item_close":
            list_kind, parts = items.pop()
            text = normalized(" ".join(parts))
            if text:
                found.items[list_kind, text] += 1
        elif kind == "blockquote_open":
            quotes.append([])
        elif kind == "blockquote_close":
            text = normalized(" ".join(quotes.pop()))
            if text:
                found.quotes[text] += 1
        elif kind == "heading_open":
            heading, level = [], int(token.tag[1:])
        elif kind == "heading_close" and heading is not None:
            text = normalized(" ".join(heading))
            if text:
                found.headings[level, text] += 1
            heading = None
        elif kind == "table_open":
            row = -1
        elif kind == "tr_open":
            row, column = row + 1, -1
        elif kind in ("th_open", "td_open"):
            cell, column = [], column + 1
        elif kind in ("th_close", "td_close") and cell is not None:
            text = normalized(" ".join(cell))
            if text:
                found.cells[row, column, text] += 1
            cell = None
        elif kind in ("fence", "code_block"):
            code = token.content.rstrip("\n")
            if code.strip():
                found.code.append(code)
                texts.append(code)
        elif kind == "inline":
            text = inline_text(token)
            texts.append(text)
            if heading is not None:
                heading.append(text)
            if cell is not None:
                cell.append(text)
            if items:
                items[-1][1].append(text)
            if quotes:
                quotes[-1].append(text)
    found.text = "\n".join(texts)
    return found


def multiset_f1(predicted: Counter[Any], truth: Counter[Any]) -> float:
    """The F1 of the elements of ``predicted`` found in ``truth`` (multisets)."""
    matched = sum((predicted & truth).values())
    if not matched:
        return 0.0
    precision = matched / sum(predicted.values())
    recall = matched / sum(truth.values())
    return 2 * precision * recall / (precision + recall)


def code_f1(predicted: Sequence[str], truth: Sequence[str]) -> float:
    """Character F1 of the code blocks, paired greedily by longest common subsequence
    (whitespace removed)."""
    ours = [strip_whitespace(block) for block in predicted]
    gold = [strip_whitespace(block) for block in truth]
    pairs = sorted(
        ((lcs_length(a, b), i, j) for i, a in enumerate(ours) for j, b in enumerate(gold)),
        reverse=True,
    )
    used_ours: set[int] = set()
    used_gold: set[int] = set()
    matched = 0
    for overlap, i, j in pairs:
        if overlap and i not in used_ours and j not in used_gold:
            used_ours.add(i)
            used_gold.add(j)
            matched += overlap
    if not matched:
        return 0.0
    precision = matched / sum(len(block) for block in ours)
    recall = matched / sum(len(block) for block in gold)
    return 2 * precision * recall / (precision + recall)


def kind_f1(kind: str, predicted: Elements, truth: Elements) -> float:
    """The page's F1 of one element kind."""
    if kind == "heading":
        return multiset_f1(predicted.headings, truth.headings)
    if kind == "list item":
        return multiset_f1(predicted.items, truth.items)
    if kind == "table cell":
        return multiset_f1(predicted.cells, truth.cells)
    if kind == "quote":
        return multiset_f1(predicted.quotes, truth.quotes)
    return code_f1(predicted.code, truth.code)


@dataclass(slots=True)
class PageScores:
    """One extractor's scores on one page: F1 per kind the truth has, word F1s."""

    fold: int
    kinds: dict[str, float]
    markdown_words: float
    text_words: float | None = None


def truth_markdown(root: Path, page: Page) -> str:
    """The truth's Markdown of a WCXB page (its ground-truth file)."""
    record = json.loads(
        (root / SET_NAME / "ground-truth" / f"{page.id}.json").read_text(encoding="utf-8")
    )
    return str(record["ground_truth"].get("main_content_markdown") or "")


#: An extractor: a page and its decoded HTML in, its Markdown and plain text (None for a
#: peer whose plain text is not scored) out.
Run = Callable[[Page, str], tuple[str, str | None]]


def ours(models: Path | None) -> Run:
    """Ours with the fold's line model (see the module docstring)."""
    from scrapy_webclean import CleanOptions, clean_html
    from scrapy_webclean.extraction.linemodel import LineModel

    options = {
        k: CleanOptions(line_model=LineModel.load(models / f"fold{k}.json"))
        if models is not None
        else CleanOptions()
        for k in range(FOLDS)
    }

    def run(page: Page, _html: str) -> tuple[str, str | None]:
        result = clean_html(page.body, page.url, options=options[page.fold])
        return result.markdown, result.text

    return run


def trafilatura_run() -> Run:
    """trafilatura's Markdown (:data:`TRAFILATURA_OPTIONS`)."""
    import trafilatura

    def run(page: Page, html: str) -> tuple[str, str | None]:
        return trafilatura.extract(html, url=page.url, **TRAFILATURA_OPTIONS) or "", None

    return run


def score_pages(
    root: Path,
    pages: Iterable[Page],
    runs: dict[str, Run],
    cache: dict[str, dict[str, str]],
) -> dict[str, list[tuple[PageScores, Elements]]]:
    """Every extractor's scores on every page with a truth (``cache``: trafilatura's
    Markdown by page id, read and filled)."""
    parser = _markdown_parser()
    scores: dict[str, list[tuple[PageScores, Elements]]] = {name: [] for name in runs}
    for page in pages:
        if not page.has_truth or page.truth is None:
            continue
        truth = parse_elements(truth_markdown(root, page), parser)
        html = peer_html(page.body)
        for name, run in runs.items():
            cached = cache.get(name, {}).get(page.id) if name != "ours" else None
            if cached is not None:
                markdown, text = cached, None
            else:
                try:
                    markdown, text = run(page, html)
                except Exception as exc:  # a failing page scores 0
                    print(f"{name} {page.id}: {exc!r}", file=sys.stderr)
                    markdown, text = "", None
                if name != "ours":
                    cache.setdefault(name, {})[page.id] = markdown
            variants = [(name, markdown)]
            if name == "ours":
                variants.append((BODY, without_headline(markdown, text or "")))
            for variant, written in variants:
                predicted = parse_elements(written, parser)
                kinds = {k: kind_f1(k, predicted, truth) for k in KINDS if truth.has(k)}
                page_scores = PageScores(
                    page.fold,
                    kinds,
                    word_f1(predicted.text, page.truth).f1,
                    word_f1(text, page.truth).f1 if text is not None else None,
                )
                scores.setdefault(variant, []).append((page_scores, truth))
    return scores


def without_headline(markdown: str, text: str) -> str:
    """Our Markdown as ``text`` (``CleanResult.text``) reads the page: without its first
    block when that is the headline (``# ...``) and ``text`` does not start with it (the
    text leaves the headline to ``CleanResult.title`` unless it kept the page's ``<h1>``
    as a line)."""
    if not markdown.startswith("# "):
        return markdown
    headline, _, rest = markdown.partition("\n\n")
    if words(headline) == words(text.split("\n", 1)[0]):
        return markdown
    return rest


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _kind_mean(
    scored: Sequence[tuple[PageScores, Elements]], kind: str, fold: int | None
) -> float | None:
    return _mean([s.kinds[kind] for s, _ in scored if kind in s.kinds and fold in (None, s.fold)])


def _diff(a: float | None, b: float | None) -> str:
    return "–" if a is None or b is None else f"{a - b:+.3f}"


def report(scores: dict[str, list[tuple[PageScores, Elements]]], header: str) -> str:
    """The report: per kind ours against trafilatura, overall and per fold; word F1s."""
    ours_scored, peer = scores["ours"], scores["trafilatura"]
    folds: list[int | None] = [None, *range(FOLDS)]
    rows = []
    for kind in KINDS:
        pages = sum(1 for s, _ in ours_scored if kind in s.kinds)
        row = [kind, str(pages)]
        for fold in folds:
            a, b = _kind_mean(ours_scored, kind, fold), _kind_mean(peer, kind, fold)
            row.append(f"{fmt(a)} / {fmt(b)} ({_diff(a, b)})")
        rows.append(row)
    body_rows = []
    for kind in KINDS:
        a, b = _kind_mean(scores[BODY], kind, None), _kind_mean(peer, kind, None)
        body_rows.append([kind, f"{fmt(a)} / {fmt(b)} ({_diff(a, b)})"])
    body_table = md_table(["kind", "all: ours, no headline / traf. (diff)"], body_rows)
    fold_names = ["all"] + [f"fold {k}" for k in range(FOLDS)]
    kinds_table = md_table(
        ["kind", "pages", *(f"{n}: ours / traf. (diff)" for n in fold_names)], rows
    )
    word_rows = []
    for label, values in (
        ("ours, Markdown", [(s.fold, s.markdown_words) for s, _ in ours_scored]),
        (
            f"{BODY} (as the plain text)",
            [(s.fold, s.markdown_words) for s, _ in scores[BODY]],
        ),
        ("ours, plain text", [(s.fold, s.text_words or 0.0) for s, _ in ours_scored]),
        ("trafilatura, Markdown", [(s.fold, s.markdown_words) for s, _ in peer]),
    ):
        word_rows.append(
            [label, str(len(values))]
            + [fmt(_mean([v for f, v in values if fold in (None, f)])) for fold in folds]
        )
    words_table = md_table(["word F1 (WCXB)", "pages", *fold_names], word_rows)
    return (
        f"{header}\n\n## Structure kept: F1 per element kind\n\n"
        "Per-page F1 averaged over the pages whose truth has the kind (macro); "
        "`ours / trafilatura (ours − trafilatura)`.\n\n"
        f"{kinds_table}\n\nThe same without the headline our Markdown starts with (the "
        "page's title as `#`, which the truth's Markdown mostly leaves out), on the pages "
        "whose plain text (`CleanResult.text`) does not start with it either: "
        f"`{BODY}`\n\n{body_table}\n\n"
        "## Word F1 of the text\n\n"
        "Against the truth's plain main text (`ground_truth.main_content`), on every page "
        f"with a truth.\n\n{words_table}\n"
    )


def _shown(path: Path) -> str:
    """``path`` relative to the repository when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path(__file__).resolve().parent.parent))
    except ValueError:
        return str(path)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the extraction sets' folder")
    parser.add_argument("--out", type=Path, help="write the report here (Markdown)")
    parser.add_argument(
        "--models",
        default=str(DEFAULT_MODELS),
        help="the fold models' folder ('none': the shipped model)",
    )
    parser.add_argument("--limit", type=int, help="score the first N pages only")
    parser.add_argument("--cache", type=Path, help="a JSON file of trafilatura's Markdown")
    args = parser.parse_args(argv)
    models = None if args.models == "none" else Path(args.models)
    pages = load_set(args.root, SET_NAME).pages[: args.limit]
    cache: dict[str, dict[str, str]] = {}
    if args.cache is not None and args.cache.is_file():
        cache = json.loads(args.cache.read_text(encoding="utf-8"))
    started = time.perf_counter()
    scores = score_pages(
        args.root, pages, {"ours": ours(models), "trafilatura": trafilatura_run()}, cache
    )
    if args.cache is not None:
        args.cache.write_text(json.dumps(cache), encoding="utf-8")
    import trafilatura

    header = (
        f"# Structure of the Markdown: ours against trafilatura on {SET_NAME}\n\n"
        f"Generated by `benchmarks/structure.py` ({len(scores['ours'])} pages with a truth, "
        f"{time.perf_counter() - started:.0f} s). Ours: `clean_html(...).markdown`, "
        f"default options, line model "
        + (f"cross-validated (`{_shown(models)}/fold{{k}}.json`)" if models else "shipped")
        + f"; trafilatura {trafilatura.__version__}: `extract(html, url=..., "
        + ", ".join(f"{k}={v!r}" for k, v in TRAFILATURA_OPTIONS.items())
        + ")`. How elements are matched: the module docstring."
    )
    text = report(scores, header)
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
