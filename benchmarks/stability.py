"""Text stability on HTML variants of dev pages: is the extracted text the same when the
page's HTML changes in ways that do not touch its content?

Usage::

    python benchmarks/stability.py ../shared/datasets [--articles 2000] [--seed 13]
        [--models benchmarks/models] [--out FILE.md] [--json FILE] [--worst 30]
        [--no-trafilatura]

The argument is the shared ``datasets/`` folder. ``benchmarks/htmlvariants.py`` builds the
variants in memory with the seed, from the pages of ``extract/`` of every page type
(WCXB dev's seven types, scrapinghub and dragnet-gold, whose pages are articles): each
page's original and, edited in the HTML, one variant of each kind the page allows (a date
moved, an ad block injected, only the URL changed, a word changed in 3-5 paragraphs, 5-10
words swapped for synonyms, another site's navigation and footer, another site's sidebar
box, a cookie banner, another page's body in the page's template).

What is measured:

* every page is cleaned by ours **cross-validated**: a page of fold k (``folds.py``, by
  registered domain; a variant is in its template page's fold) is cleaned by
  ``clean_html`` (stateless: no page teaches another) with
  ``CleanOptions(line_model=<MODELS/fold{k}.json>)``, loaded by ``extractors.py``
  (``ours_setup``); the peer is trafilatura, ``trafilatura.extract(html, url=url)`` on the
  page decoded as the extraction benchmark decodes it for its peers (``peer_html``);
* a variant's text is compared with its cluster's original text by the same extractor
  (for a content swap, the original page of the donor whose body it carries; for the
  kinds that change the text itself, ``timestamp``, ``minor_edit`` and ``synonyms``,
  aligned: the original's date moved as the edit moved it, the edited words written as
  one token in both texts, so that the same text scores 1): the word 5-gram Jaccard
  (``variantpage.shingles``; two texts without words are the same text); beside it, per
  kind, the share by the character 5-gram Jaccard of ``dedup_html``;
* for those text edits, the raw ceiling: the Jaccard of ours' original text with the
  edit's changes made against the unedited one, what the edit alone costs a comparison
  of unaligned texts; and a control, every original parsed and serialized again by lxml
  with no edit (as the edited variants are), ours;
* per kind, per page type and per kind and page type: versions, the share with a
  Jaccard >= :data:`STABLE`, the share under :data:`UNSTABLE`, the median, the empty
  texts; the same per fold (ours); the target (:data:`TARGET` of the versions of every
  kind the issue names at :data:`STABLE` or more, ours), met or not; the least stable
  versions of ours (version, kind, set, page type, fold, both Jaccards; no page text).

``--texts FILE`` writes every cleaned text (JSON lines, both extractors) to a file of your
choice, outside the repository, to look into the failures: page text, never a result.

The pool keeps pages whose text by ours has 400+ characters and reads as English
(``htmlvariants``): the originals are the same for both extractors.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import Page, load_sets
from dedup_html_report import jaccard as char_jaccard
from dedup_html_report import revision
from extractors import _ours_options, ours_setup, peer_html
from folds import FOLDS, fold_of
from htmlvariants import KINDS, ORIGINAL, SEED, SETS, DevSet, build_dev_set
from stability_report import STABLE, TARGET, UNSTABLE, Version, report
from variantedits import _replace_date
from variantpage import parse, serialize, shingles, words

from scrapy_webclean import clean_html

DEFAULT_ARTICLES = 2000
DEFAULT_MODELS = Path(__file__).resolve().parent / "models"
#: Word n-grams of the Jaccard.
GRAM = 5
#: The kinds that change the text itself, whose notes say how (``old->new``; a date's
#: ``old -> new``): they are compared aligned (:func:`aligned`), their raw ceiling beside.
TEXT_EDITS = frozenset(("timestamp", "minor_edit", "synonyms"))


def jaccard(a: str, b: str) -> float:
    """Word 5-gram Jaccard of two texts (1.0 for two texts without words)."""
    x, y = (shingles(t, GRAM) if words(t) else set() for t in (a, b))
    return len(x & y) / len(x | y) if x or y else 1.0


def edited(text: str, note: str) -> str:
    """``text`` with a timestamp's own change made: its date (the note: ``old -> new,
    ...``) wherever it stands, as the edit wrote it."""
    old, new = (dt.date.fromisoformat(d) for d in note.split(",")[0].split(" -> "))
    return "\n".join(_replace_date(line, old, new)[0] for line in text.split("\n"))


def merge_words(text: str, note: str) -> str:
    """``text`` with each word of a word edit's pairs (its note: ``old->new, ...``), old or
    new, in any case, written as one token per pair: where the edit changed a word, the
    original's and the variant's texts then read the same (the note does not say which
    occurrence the edit changed)."""
    pairs = [part.split("->") for part in note.split(", ") if part.count("->") == 1]
    token = {}
    for n, pair in enumerate(pairs):
        for word in pair:
            token.setdefault(word.lower(), f"edited{n}")
    if not token:
        return text
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(token))) + r")\b", re.I)
    return pattern.sub(lambda m: token[m.group(0).lower()], text)


def changed(text: str, kind: str, note: str) -> str:
    """``text`` with a text edit's changes made: a timestamp's date (:func:`edited`); a
    word edit's words, each at the next occurrence of its old word not yet changed (the
    raw ceiling: what the edit alone costs a comparison of unaligned texts)."""
    if kind == "timestamp":
        return edited(text, note)
    pairs = [part.split("->") for part in note.split(", ") if part.count("->") == 1]
    left = Counter(old for old, _ in pairs)
    new_of = dict(pairs)
    if not left:
        return text

    def change(match: re.Match[str]) -> str:
        old = match.group(0)
        if not left[old]:
            return old
        left[old] -= 1
        return new_of[old]

    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(left))) + r")\b")
    return pattern.sub(change, text)


def aligned(variant: str, original: str, kind: str, note: str) -> tuple[str, str]:
    """A variant's text and the original's, made comparable: for a timestamp the
    original's date moved as the edit moved it; for a word edit the edited words merged
    (:func:`merge_words`); so that an extractor that kept the same text scores 1."""
    if kind == "timestamp":
        return variant, edited(original, note)
    if kind in TEXT_EDITS:
        return merge_words(variant, note), merge_words(original, note)
    return variant, original


def page_type(page: Page) -> str:
    """WCXB's page type on its pages; scrapinghub's and dragnet-gold's are articles."""
    return page.page_type if page.set_name == "wcxb-dev" else "article"


@dataclass(slots=True)
class Extractor:
    """One extractor's texts and costs."""

    cpu_seconds: float = 0.0
    pages: int = 0
    errors: Counter[str] | None = None

    def timed(self, run: Any, *args: Any) -> str:
        started = time.process_time()
        try:
            text = str(run(*args) or "")
        except Exception as exc:  # a failing page (a CleanError too) is data, not a crash
            self.errors = self.errors or Counter()
            self.errors[getattr(exc, "reason", type(exc).__name__)] += 1
            text = ""
        self.cpu_seconds += time.process_time() - started
        self.pages += 1
        return text


class Ours(Extractor):
    """``clean_html`` with the options of the page's fold (the pool's ``clean`` finds the
    fold of a pool page by its URL, or by its bytes for a page without URL)."""

    def __init__(self, models: Path, pages: Sequence[Page]) -> None:
        super().__init__()
        setup = ours_setup(models)
        if not setup.cross_validated:
            raise SystemExit("--models: no fold models, ours would not be cross-validated")
        self.describe = (
            f"`ours` is **cross-validated**: a page of fold k is cleaned by `clean_html` with "
            f"`CleanOptions(line_model=<{models}/fold{{k}}.json>)`, trained without fold k."
        )
        self.options = {k: _ours_options("cv", setup, k) for k in range(FOLDS)}
        self.fold_by_url = {p.url: p.fold for p in pages if p.url}
        self.fold_by_body = {id(p.html): p.fold for p in pages if not p.url}

    def clean(self, html: bytes, url: str | None, fold: int) -> str:
        return self.timed(lambda: clean_html(html, url, options=self.options[fold]).text)

    def __call__(self, html: bytes, url: str | None) -> str:
        fold = self.fold_by_url.get(url) if url else self.fold_by_body.get(id(html))
        return self.clean(html, url, fold if fold is not None else fold_of(url or ""))


def trafilatura_text(html: bytes, url: str | None) -> str:
    import trafilatura

    return trafilatura.extract(peer_html(html), url=url) or ""


def compare(
    dev: DevSet, ours: Ours, peer: Extractor | None, texts: Path | None
) -> tuple[list[Version], dict[str, float]]:
    """Every variant of the set, cleaned and compared with its cluster's original; and the
    control's Jaccards (each original serialized again, ours), by page."""
    articles = {a.cluster: a for a in dev.articles}
    mine: dict[str, str] = {}
    theirs: dict[str, str] = {}
    original: dict[int, str] = {}
    control = {}
    for n, doc in enumerate(dev.docs):
        if n % 1000 == 0:
            print(f"stability: {n} of {len(dev.docs)} pages", file=sys.stderr, flush=True)
        page = articles[doc.template].page
        if doc.kind == ORIGINAL:
            original[doc.cluster] = doc.key
            mine[doc.key] = articles[doc.cluster].text  # cleaned so in the pool
            again = ours.clean(serialize(parse(doc.html)), doc.url, page.fold)
            control[doc.key.split(":", 1)[1]] = jaccard(again, mine[doc.key])
        else:
            mine[doc.key] = ours.clean(doc.html, doc.url, page.fold)
        if peer is not None:
            theirs[doc.key] = peer.timed(trafilatura_text, doc.html, doc.url)
    if texts is not None:
        with texts.open("w", encoding="utf-8") as fh:
            for doc in dev.docs:
                row = {"key": doc.key, "original": original[doc.cluster], "ours": mine[doc.key]}
                fh.write(json.dumps({**row, "trafilatura": theirs.get(doc.key)}) + "\n")
    versions = []
    for doc in dev.docs:
        if doc.kind == ORIGINAL:
            continue
        page, ref = articles[doc.template].page, original[doc.cluster]
        versions.append(
            Version(
                key=doc.key,
                kind=doc.kind,
                detail=doc.detail,
                set_name=page.set_name,
                page_id=page.id,
                page_type=page_type(page),
                fold=page.fold,
                compared_with=ref.split(":", 1)[1],
                ours=jaccard(*aligned(mine[doc.key], mine[ref], doc.kind, doc.note)),
                ours_char=char_jaccard(*aligned(mine[doc.key], mine[ref], doc.kind, doc.note)),
                ceiling=(
                    jaccard(mine[ref], changed(mine[ref], doc.kind, doc.note))
                    if doc.kind in TEXT_EDITS
                    else None
                ),
                ours_chars=len(mine[doc.key]),
                ours_original_chars=len(mine[ref]),
                ours_empty=not words(mine[doc.key]),
                peer=(
                    jaccard(*aligned(theirs[doc.key], theirs[ref], doc.kind, doc.note))
                    if peer is not None
                    else None
                ),
                peer_char=(
                    char_jaccard(*aligned(theirs[doc.key], theirs[ref], doc.kind, doc.note))
                    if peer is not None
                    else None
                ),
                peer_empty=not words(theirs[doc.key]) if peer is not None else False,
                peer_original_empty=not words(theirs[ref]) if peer is not None else False,
            )
        )
    return versions, control


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the shared datasets/ folder")
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--models", type=Path, default=DEFAULT_MODELS)
    parser.add_argument("--out", type=Path, default=None, help="write the report here too")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--worst", type=int, default=30, help="least stable versions listed")
    parser.add_argument("--no-trafilatura", action="store_true", help="leave the peer out")
    parser.add_argument("--texts", type=Path, default=None, help="JSON lines of the texts")
    args = parser.parse_args(argv)
    started = time.time()
    measured = revision()  # (the code the run measures: taken before it runs)
    models = args.models.resolve()
    with contextlib.suppress(ValueError):
        models = models.relative_to(Path.cwd())
    sets = load_sets(args.data / "extract", SETS)
    ours = Ours(models, [p for s in sets for p in s.pages])
    dev = build_dev_set(sets, ours, args.articles, args.seed, page_types=None)
    pool = (ours.pages, ours.cpu_seconds)
    peer = None if args.no_trafilatura else Extractor()
    versions, control = compare(dev, ours, peer, args.texts)
    command = (
        f"python benchmarks/stability.py <datasets> --articles {args.articles} "
        f"--seed {args.seed} --models {models}" + (" --no-trafilatura" if peer is None else "")
    )
    costs = [
        f"ours: {pool[0]} pool pages cleaned in {pool[1]:.1f} CPU-s (the originals among "
        f"them), {ours.pages - pool[0]} variants in {ours.cpu_seconds - pool[1]:.1f} CPU-s"
        + (f"; errors {dict(ours.errors)}" if ours.errors else "")
    ]
    if peer is not None:
        costs.append(
            f"trafilatura: {peer.pages} pages in {peer.cpu_seconds:.1f} CPU-s"
            + (f"; errors {dict(peer.errors)}" if peer.errors else "")
        )
    header = {
        "revision": measured,
        "command": command,
        "ours": ours.describe,
        "costs": costs,
        "control": control,
        "runtime": f"{time.time() - started:.0f} s",
    }
    text, summary = report(dev, versions, header, args.worst)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    if args.json:
        results = {
            **header,
            "seed": args.seed,
            "articles": args.articles,
            "notes": dev.notes,
            "skips": {k: dev.skips[k] for k in KINDS},
            "stable": STABLE,
            "unstable": UNSTABLE,
            "target": TARGET,
            **summary,
            "versions": [asdict(v) for v in versions],
        }
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
