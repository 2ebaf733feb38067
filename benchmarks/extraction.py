"""Main-content extraction: scrapy_webclean against its peers, cross-validated by domain.

Usage::

    .venv/bin/python benchmarks/extraction.py ../shared/datasets/extract \\
        [--models DIR] [--sets scrapinghub,wcxb-dev,dragnet-gold,...] \\
        [--extractors ours,ours-heldin,trafilatura,...] [--limit N] \\
        [--json results.json] [--per-page out.jsonl] [--peers-from earlier.jsonl] \\
        [--take-turns]

The argument is the ``extract/`` folder of the shared datasets (its README defines the data
formats and the metrics); the sets are read by ``benchmarks/datasets.py`` and nothing of
them is copied. Everything runs in one process, one page at a time, and every extractor
sees the same pages in the same order: per set sorted by site, then by page id, as a crawl
of each site would deliver them.

Folds. Every page has a fold, ``0 .. 4``: a fixed hash of its registered domain
(``benchmarks/folds.py``; the Chinese sets, which have no real URLs, hash their site names).
With ``--models DIR``, ``ours`` is cross-validated: a page of fold ``k`` is cleaned with the
line model ``DIR/fold{k}.json``, trained on the other four folds only (by
``benchmarks/train_extraction.py``), so every figure of ``ours`` is a held-out figure.
``ours`` keeps one ``Cleaner`` per fold per set, fed its pages in crawl order: a site is
always in one fold, so the Cleaner still learns each site's template. Without
``--models``, ``ours`` runs the package's default options (``CleanOptions()``, whatever line
model they hold: none since the model became opt-in) and the report says its figures are
*not* cross-validated. ``--models`` needs ``scrapy_webclean.extraction.linemodel`` and
``CleanOptions.line_model``; without them it stops with an error, and ``ours-heldin`` and
``ours-rules`` both run the default options (the report says so).

Inputs. The ``ours*`` extractors get the raw page bytes (our loader decodes them). Every
peer gets the same ``str``: the bytes decoded by our loader (``decode_html(body,
None).text``) with a leading ``<?xml ...?>`` declaration removed (lxml refuses a ``str``
that declares an encoding), so that no peer loses by guessing the encoding differently.
Pages with a real URL pass it to the extractors that take one; the Chinese sets have none
and get a made-up ``http://<site>.<set>.invalid/<n>`` so that ``ours`` can tell sites apart.

Extractors (the default list leaves out the ones marked *optional*: slower or redundant
variants, still selectable with ``--extractors``):

* ``ours`` -- ``scrapy_webclean.Cleaner``, one per fold per set, cross-validated with
  ``--models`` (above);
* ``ours-heldin`` -- one ``Cleaner`` per set with the model shipped in the package
  (``CleanOptions(line_model=default_line_model())``), trained on all the dev data, so its
  figures are held-in (the ceiling of what training could fit); the default options when
  the package ships no model;
* ``ours-rules`` -- one ``Cleaner(CleanOptions(line_model=None))`` per set: the hand rules
  alone, no trained model;
* ``ours-stateless`` (optional) -- ``scrapy_webclean.clean_html``, one page at a time, default
  options; on the set without truth it runs beside ``ours`` whenever ``ours`` does;
* ``ours+blocks`` (optional) -- as ``ours``, plus the page's blocks (segmented, classified,
  links and images grouped by label through ``to_dict()``): what the crawl's pipeline pays
  per page;
* ``trafilatura`` -- ``extract(html, url=..., include_comments=False)``;
* ``trafilatura+comments`` (optional) -- ``extract(html, url=...)``, the library default;
* ``trafilatura-precision`` (optional) -- ``extract(..., include_comments=False,
  favor_precision=True)``;
* ``readability`` -- readability-lxml ``Document(html).summary()``, then the text of that
  HTML with one line per block element (the conversion is inside the timed call);
* ``justext`` -- paragraphs not classified as boilerplate, one per line; the English
  stoplist on the English sets; jusText has no Chinese stoplist, so on Chinese sets it runs
  in its language-independent mode (empty stoplist, ``stopwords_low = stopwords_high = 0``:
  length and link density only) -- a handicap to keep in mind;
* ``gne`` -- ``GeneralNewsExtractor().extract(html)["content"]``;
* ``resiliparse`` -- ``resiliparse.extract.html2text.extract_plain_text(html,
  main_content=True)`` (its parse is inside the timed call);
* ``lxml`` -- the floor: ``lxml.html.fromstring(html)``; its CPU time is the parse alone and
  its "prediction" is ``text_content()`` of the whole page (scripts and styles included).

Timing: ``time.process_time()`` around the extractor call only (no IO, decoding or
scoring). Each extractor runs through a whole set before the next one starts, with its code
and data warm in the CPU's caches; ``--take-turns`` makes them take turns page by page
instead, each starting every page with colder caches. Before a set, each extractor makes
untimed warm-up calls (imports, dictionaries, caches, the fold models) on a throw-away
instance: on the first page of each fold for ``ours*``, on the first page for the peers. An
exception counts as an error and an empty prediction.

Scoring (``benchmarks/metrics.py``), per page, then over pages:

* token F1 (4-token shingles): per-page P and R averaged over pages, F1 = harmonic mean of
  the averages; as in the scrapinghub benchmark's script, a page where an extractor returns
  nothing has no precision (left out of the P average) and recall 0;
* WCXB's metric (``word_f1``): per-page word F1 over ``\\w+`` tokens of the lower-cased
  texts, averaged over pages (an empty prediction scores 0); shown on ``wcxb-dev``, overall
  and per page type, with rs-trafilatura's published dev figures as a reference row; the
  set's table also gives it over every page, those with a blank truth too (there, 1 for an
  empty prediction, else 0: how the issue's WCXB dev figures seem to have been counted);
* character F1 (LCS, whitespace removed), P and R averaged as for tokens: Chinese sets only.

On ``dragnet-gold`` the truth is a gold file's main text: the readers' comments its
annotators marked apart (``datasets.split_comments``) are scored in a second table only,
token F1 against main text and comments together (how the set was scored before the marker
was read: 227 of its 881 files mark comments).

The headline metric is WCXB's on ``wcxb-dev``, token F1 on the other English sets and
character F1 on the Chinese sets. Pages whose ground truth is empty are run and timed but
left out of the scores (listed as notes), except in that one column. Per set the report gives each extractor's
figures, empty pages, errors, median CPU ms and its ratio to trafilatura's and to the lxml
parse's, p95 and max ms; then the headline metric per fold (all extractors, so the CV
spread of ``ours`` shows beside the peers' spread over the same folds: mean, standard
deviation and range of the five fold figures); on ``wcxb-dev`` the same per page type. The
report ends with the issue 20 targets, met or not, for ``ours`` (and, for reference, the
held-in and rules-only figures).

``--per-page FILE`` writes one JSON line per page and set: ``set``, ``id``, ``site``,
``domain``, ``fold``, ``page_type``, ``url``, ``scored`` and ``extractors``, a map from
extractor to ``ms``, ``chars``, ``empty``, ``error`` and, on scored pages, ``token_p``,
``token_r``, ``token_f1``, ``wcxb_f1`` (and ``char_p``, ``char_r``, ``char_f1`` on Chinese
sets). ``--json FILE`` writes every aggregate. ``--peers-from FILE`` reads the peers (every
extractor of an earlier run's ``--per-page`` file that is not ``ours*`` and not named by
``--extractors``) from that file instead of running them, so that a change to ``ours`` can be
judged in a few minutes against the peers' figures; their CPU times are that run's (each set's
notes say so), so the time targets are only checked properly in a run of everything, and the
new ``--per-page`` file carries those stored records on.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import platform
import re
import shlex
import statistics
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import ALL_SETS, LOADERS, WCXB_TYPES, Dataset, Page
from folds import FOLDS
from metrics import PRF, average, char_f1, mean_f1, token_f1, word_f1

from scrapy_webclean.html.tagclasses import BREAK_TAGS

ALL_EXTRACTORS = (
    "ours",
    "ours-heldin",
    "ours-rules",
    "ours-stateless",
    "ours+blocks",
    "trafilatura",
    "trafilatura+comments",
    "trafilatura-precision",
    "readability",
    "justext",
    "gne",
    "resiliparse",
    "lxml",
)
#: What runs without ``--extractors``: the slower or redundant variants are left out.
DEFAULT_EXTRACTORS = (
    "ours",
    "ours-heldin",
    "ours-rules",
    "trafilatura",
    "readability",
    "justext",
    "gne",
    "resiliparse",
    "lxml",
)
#: Not a peer: the parse floor, whose "text" is the whole page.
FLOOR = "lxml"
SLOW_MS = 1000.0

#: rs-trafilatura's published WCXB dev figures (WCXB's metric), the reference row.
RS_TRAFILATURA_DEV = {
    "all": 0.859,
    "article": 0.932,
    "documentation": 0.932,
    "service": 0.844,
    "forum": 0.808,
    "collection": 0.716,
    "listing": 0.707,
    "product": 0.641,
}
#: The issue 20 targets.
TARGET_WCXB = 0.88
TARGET_PEER_MARGIN = 0.01
TARGET_ZH_CHAR = 0.98
TARGET_TRAFILATURA_FACTOR = 2.5
TARGET_LXML_FACTOR = 6.0

_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)


def is_ours(name: str) -> bool:
    return name.startswith("ours")


def is_peer(name: str) -> bool:
    """A real extractor of another project (not ours, not the parse floor)."""
    return not is_ours(name) and name != FLOOR


def headline_of(dataset: Dataset) -> str:
    """``wcxb`` on WCXB sets, ``token`` on the other English sets, ``char`` on Chinese sets."""
    if dataset.language != "en":
        return "char"
    return "wcxb" if dataset.name.startswith("wcxb") else "token"


HEADLINE_LABEL = {"wcxb": "WCXB metric", "token": "token F1", "char": "char F1"}


# --------------------------------------------------------------------------- extractors

# An extractor is built per set (so stateful ones start fresh) and called per page.
Extract = Callable[[Page, str], str]

# The tags that start a new line of text: the same set our own text assembly uses, so
# readability's HTML output is turned into lines the way our text is.
_BLOCK_TAGS = BREAK_TAGS


def html_fragment_text(fragment: str) -> str:
    """Plain text of an HTML fragment: a line per block element, spaces collapsed."""
    import lxml.html

    if not fragment.strip():
        return ""
    root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    parts: list[str] = []

    def walk(el: Any) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag in ("script", "style", "noscript", "template"):
            if el.tail:
                parts.append(el.tail)
            return
        block = tag in _BLOCK_TAGS
        if block:
            parts.append("\n")
        if el.text and tag:
            parts.append(el.text)
        for child in el:
            walk(child)
        if block:
            parts.append("\n")
        if el.tail:
            parts.append(el.tail)

    walk(root)
    lines = (" ".join(line.split()) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


# --------------------------------------------------------------------------- ours


@dataclass(slots=True)
class OursSetup:
    """What ``ours`` runs with: the fold models of ``--models`` (empty without), and
    whether the package takes a line model at all."""

    models_dir: Path | None = None
    fold_models: dict[int, Any] = field(default_factory=dict)
    line_model_support: bool = False
    support_note: str = ""
    shipped_model: str = "none"
    #: The shipped model (``default_line_model()``), None when the package has none.
    shipped: Any = None
    #: The line model of the package's default options, as text.
    default_model: str = "none"

    @property
    def cross_validated(self) -> bool:
        return bool(self.fold_models)

    def describe(self) -> str:
        """One paragraph for the report's header."""
        if self.cross_validated:
            ours = (
                f"`ours` is **cross-validated**: a page of fold k is cleaned with "
                f"`{self.models_dir}/fold{{k}}.json`, trained without fold k"
            )
        else:
            ours = (
                "`ours` is **not cross-validated** (no `--models`): it runs the package's "
                f"default options, `CleanOptions()` (line model: {self.default_model})"
            )
        if self.line_model_support:
            heldin = (
                f"`CleanOptions(line_model=<the shipped model, {self.shipped_model}>)`"
                if self.shipped is not None
                else "`CleanOptions()` (the package ships no line model)"
            )
            rest = f"`ours-heldin` = {heldin}; `ours-rules` = `CleanOptions(line_model=None)`"
        else:
            rest = (
                f"no line model in the package ({self.support_note}): `ours-heldin` and "
                "`ours-rules` both run `CleanOptions()`"
            )
        return f"{ours}. {rest}."


def line_model_support() -> tuple[Any, str]:
    """``(LineModel, "")`` when the package takes a line model, else ``(None, why not)``."""
    try:
        from scrapy_webclean.extraction.linemodel import LineModel
    except ImportError as exc:
        return None, f"scrapy_webclean.extraction.linemodel cannot be imported: {exc}"
    from scrapy_webclean import CleanOptions

    if "line_model" not in {f.name for f in dataclasses.fields(CleanOptions)}:
        return None, "CleanOptions has no line_model field"
    return LineModel, ""


def ours_setup(models_dir: Path | None) -> OursSetup:
    """Check the package's line-model support and load ``DIR/fold{k}.json`` for every fold;
    ``SystemExit`` with the reason when ``--models`` cannot be honoured."""
    line_model, why = line_model_support()
    setup = OursSetup(models_dir, {}, line_model is not None, why)
    if line_model is not None:
        from scrapy_webclean import CleanOptions

        default = CleanOptions().line_model
        setup.default_model = str(getattr(default, "path", None) or default or "none")
        try:
            from scrapy_webclean.extraction.linemodel import default_line_model
        except ImportError:
            setup.shipped = default
        else:
            setup.shipped = default_line_model()
        shipped = setup.shipped
        setup.shipped_model = str(getattr(shipped, "path", None) or shipped or "none")
    if models_dir is None:
        return setup
    if line_model is None:
        raise SystemExit(f"--models {models_dir}: the package takes no line model ({why})")
    missing = [k for k in range(FOLDS) if not (models_dir / f"fold{k}.json").is_file()]
    if missing:
        raise SystemExit(
            f"--models {models_dir}: no " + ", ".join(f"fold{k}.json" for k in missing)
        )
    for k in range(FOLDS):
        try:
            setup.fold_models[k] = line_model.load(models_dir / f"fold{k}.json")
        except (OSError, ValueError, KeyError) as exc:
            raise SystemExit(f"--models {models_dir}: fold{k}.json: {exc}") from exc
    return setup


def _ours_options(kind: str, setup: OursSetup, fold: int) -> Any:
    """The ``CleanOptions`` of one ``ours`` variant for a page of ``fold``."""
    from scrapy_webclean import CleanOptions

    if kind == "cv" and setup.cross_validated:
        return CleanOptions(line_model=setup.fold_models[fold])
    if kind == "rules" and setup.line_model_support:
        return CleanOptions(line_model=None)
    if kind == "heldin" and setup.shipped is not None:
        return CleanOptions(line_model=setup.shipped)
    return CleanOptions()


def _ours_factory(kind: str, setup: OursSetup, with_blocks: bool = False) -> Callable[[], Extract]:
    """``kind``: ``cv`` (one Cleaner per fold, each with its fold's options), ``heldin`` or
    ``rules`` (one Cleaner for the set), ``stateless`` (``clean_html``)."""

    def build() -> Extract:
        from scrapy_webclean import Cleaner, clean_html

        if kind == "stateless":

            def run_stateless(page: Page, _html: str) -> str:
                return clean_html(page.body, page.url).text

            return run_stateless

        if kind == "cv":
            cleaners = {k: Cleaner(_ours_options(kind, setup, k)) for k in range(FOLDS)}
        else:
            one = Cleaner(_ours_options(kind, setup, 0))
            cleaners = dict.fromkeys(range(FOLDS), one)

        def run_cleaner(page: Page, _html: str) -> str:
            result = cleaners[page.fold].clean(page.body, page.url)
            if with_blocks:  # what the crawl's pipeline exports: links/images by label
                result.to_dict()
            return str(result.text)

        return run_cleaner

    return build


# --------------------------------------------------------------------------- peers


def _trafilatura_factory(**kwargs: Any) -> Callable[[], Extract]:
    def build() -> Extract:
        import trafilatura

        def run(page: Page, html: str) -> str:
            return trafilatura.extract(html, url=page.url, **kwargs) or ""

        return run

    return build


def _readability_factory() -> Extract:
    from readability import Document  # type: ignore[import-untyped]

    def run(page: Page, html: str) -> str:
        return html_fragment_text(Document(html).summary(html_partial=True))

    return run


def _justext_factory_for(language: str) -> Callable[[], Extract]:
    def build() -> Extract:
        import justext  # type: ignore[import-untyped]

        if language == "en":
            stoplist = justext.get_stoplist("English")
            extra: dict[str, float] = {}
        else:
            stoplist = frozenset()
            extra = {"stopwords_low": 0.0, "stopwords_high": 0.0}

        def run(page: Page, html: str) -> str:
            paragraphs = justext.justext(html, stoplist, **extra)
            return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)

        return run

    return build


def _gne_factory() -> Extract:
    from gne import GeneralNewsExtractor  # type: ignore[import-untyped]

    extractor = GeneralNewsExtractor()

    def run(page: Page, html: str) -> str:
        return str(extractor.extract(html).get("content") or "")

    return run


def _resiliparse_factory() -> Extract:
    from resiliparse.extract.html2text import extract_plain_text

    def run(page: Page, html: str) -> str:
        return str(extract_plain_text(html, main_content=True))

    return run


@dataclass(slots=True)
class Outcome:
    """What one extractor did on one page."""

    text: str
    ms: float
    error: str | None = None


def _run_lxml_floor(page: Page, html: str) -> Outcome:
    """Parse alone is timed; the whole-page text is taken afterwards."""
    import lxml.html

    start = time.process_time()
    root = lxml.html.fromstring(html)
    ms = (time.process_time() - start) * 1000
    return Outcome(root.text_content(), ms)


def _timed(fn: Extract, page: Page, html: str) -> Outcome:
    start = time.process_time()
    try:
        text = fn(page, html)
    except Exception as exc:  # a peer failing on a page is data, not a crash
        ms = (time.process_time() - start) * 1000
        return Outcome("", ms, f"{type(exc).__name__}: {str(exc)[:200]}")
    return Outcome(text, (time.process_time() - start) * 1000)


def build_extractor(
    name: str, language: str, setup: OursSetup | None = None
) -> Callable[[Page, str], Outcome]:
    """A fresh extractor for one set, wrapped to return an :class:`Outcome`."""
    if name == FLOOR:

        def floor(page: Page, html: str) -> Outcome:
            try:
                return _run_lxml_floor(page, html)
            except Exception as exc:
                return Outcome("", 0.0, f"{type(exc).__name__}: {str(exc)[:200]}")

        return floor
    setup = setup or OursSetup()
    factories: dict[str, Callable[[], Extract]] = {
        "ours": _ours_factory("cv", setup),
        "ours-heldin": _ours_factory("heldin", setup),
        "ours-rules": _ours_factory("rules", setup),
        "ours-stateless": _ours_factory("stateless", setup),
        "ours+blocks": _ours_factory("cv", setup, with_blocks=True),
        "trafilatura": _trafilatura_factory(include_comments=False),
        "trafilatura+comments": _trafilatura_factory(),
        "trafilatura-precision": _trafilatura_factory(include_comments=False, favor_precision=True),
        "readability": _readability_factory,
        "justext": _justext_factory_for(language),
        "gne": _gne_factory,
        "resiliparse": _resiliparse_factory,
    }
    fn = factories[name]()
    return lambda page, html: _timed(fn, page, html)


def peer_html(body: bytes) -> str:
    """The ``str`` every peer gets: our loader's decode, minus a leading XML declaration."""
    from scrapy_webclean.html.loader import decode_html

    return _XML_DECL_RE.sub("", decode_html(body, None).text, count=1)


def data_notes(dataset: Dataset) -> list[str]:
    """What the data itself looks like: encodings found, undecodable bytes, empty truths."""
    from scrapy_webclean.html.loader import decode_html

    encodings: Counter[str] = Counter()
    replaced = []
    for page in dataset.pages:
        decoded = decode_html(page.body, None)
        encodings[f"{decoded.encoding} ({decoded.source})"] += 1
        if decoded.replaced:
            replaced.append(f"{page.id} ({decoded.replaced})")
    notes = ["decoded as " + ", ".join(f"{k} ×{v}" for k, v in encodings.most_common())]
    if replaced:
        notes.append("undecodable bytes replaced on " + ", ".join(replaced))
    for page in dataset.pages:
        if page.truth is not None and not page.truth.strip():
            kind = f"{page.page_type}, " if page.page_type else ""
            notes.append(f"{page.id} ({kind}{page.site}): empty ground truth, run but not scored")
    return notes


# --------------------------------------------------------------------------- running


@dataclass(slots=True)
class PageResult:
    """Scores and time of one extractor on one page (scores None when not scored; ``char``
    only on Chinese sets)."""

    page: Page
    extractor: str
    ms: float
    chars: int
    empty: bool
    error: str | None
    token: PRF | None
    word: PRF | None
    char: PRF | None
    #: Token F1 against the gold's main text and its marked comments together (Dragnet's
    #: gold files; None on other sets).
    token_with_comments: PRF | None = None

    @property
    def scored(self) -> bool:
        return self.token is not None


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


#: A page with Chinese text, cleaned once before ``ours`` is timed (see below).
_CHINESE_WARM_UP = "<html><body><p>用一段简短的中文预热清洗器，加载分词词典。</p></body></html>"
#: A text in neither English nor Chinese, whose language is guessed once before ``ours``
#: is timed (see below).
_OTHER_LANGUAGE_WARM_UP = (
    "Der schnelle braune Fuchs springt über den faulen Hund und läuft danach weiter."
)


def warmed_extractor(
    name: str, dataset: Dataset, htmls: Sequence[str], setup: OursSetup | None = None
) -> Callable[[Page, str], Outcome]:
    """An extractor for a set, after untimed warm-up calls on a throw-away instance: the
    first page of each fold for ``ours*`` (each fold's model), the first page for peers."""
    if is_ours(name):
        firsts: dict[int, int] = {}
        for i, page in enumerate(dataset.pages):
            firsts.setdefault(page.fold, i)
        warm = [dataset.pages[i] for i in firsts.values()], [htmls[i] for i in firsts.values()]
    else:
        warm = [dataset.pages[0]], [htmls[0]]
    throwaway = build_extractor(name, dataset.language, setup)
    for page, html in zip(*warm, strict=True):
        throwaway(page, html)
    if is_ours(name):
        # jieba reads its dictionary on a process's first Chinese text (a second or so,
        # once): an English page with a language menu must not pay it as its own time
        from scrapy_webclean import clean_html
        from scrapy_webclean.text.language import guess_language

        clean_html(_CHINESE_WARM_UP)
        # ... nor the language identifier's model (0.4 s, read on the first text that is
        # neither plainly English nor Chinese)
        guess_language(_OTHER_LANGUAGE_WARM_UP)
    return build_extractor(name, dataset.language, setup)


def _scored(name: str, page: Page, out: Outcome) -> PageResult:
    token = word = char = None
    if page.has_truth:
        truth = page.truth or ""
        token = token_f1(out.text, truth)
        word = word_f1(out.text, truth)
        if page.language != "en":
            char = char_f1(out.text, truth)
    with_comments = None
    if page.has_truth and page.comments is not None:
        with_comments = (
            token_f1(out.text, f"{page.truth}\n{page.comments}") if page.comments else token
        )
    return PageResult(
        page,
        name,
        out.ms,
        len(out.text),
        not out.text.strip(),
        out.error,
        token,
        word,
        char,
        with_comments,
    )


def run_extractors(
    names: Sequence[str],
    dataset: Dataset,
    htmls: Sequence[str],
    log: Callable[[str], None],
    take_turns: bool = False,
    setup: OursSetup | None = None,
) -> dict[str, list[PageResult]]:
    """Run the extractors over a set, in crawl order, and score every page that has truth.

    By default each extractor runs through the whole set before the next starts (its code
    and data stay in the CPU's caches, as in a worker that cleans page after page); with
    ``take_turns`` they take turns page by page (every extractor then starts each page
    with colder caches, as cleaning between a crawl's other work does)."""
    results: dict[str, list[PageResult]] = {name: [] for name in names}
    wall = time.perf_counter()
    pages = list(zip(dataset.pages, htmls, strict=True))
    if take_turns:
        extractors = {name: warmed_extractor(name, dataset, htmls, setup) for name in names}
        for page, html in pages:
            for name, extractor in extractors.items():
                results[name].append(_scored(name, page, extractor(page, html)))
    else:
        for name in names:
            extractor = warmed_extractor(name, dataset, htmls, setup)
            results[name] = [_scored(name, page, extractor(page, html)) for page, html in pages]
            log(f"  {dataset.name:<20} {name:<22} done")
    for name, rs in results.items():
        errors = sum(1 for r in rs if r.error)
        cpu = sum(r.ms for r in rs) / 1000
        log(
            f"  {dataset.name:<20} {name:<22} {len(rs)} pages, {errors} errors, "
            f"{cpu:.1f} s CPU in the extractor"
        )
    log(f"  {dataset.name:<20} {time.perf_counter() - wall:.1f} s wall with scoring")
    return results


@dataclass(slots=True)
class Summary:
    """Aggregates of one extractor on one set (or one fold, or one page type)."""

    extractor: str
    pages: int
    scored: int
    token: PRF
    wcxb: float
    #: WCXB's metric over every page with a truth, blank truths included (1 for an empty
    #: prediction, else 0); None when there are none.
    wcxb_all: float | None
    char: PRF | None
    median_ms: float
    p95_ms: float
    max_ms: float
    errors: int
    empty: int

    def metric(self, name: str) -> float:
        """The F1 of a headline metric: ``token``, ``wcxb`` or ``char``."""
        if name == "wcxb":
            return self.wcxb
        if name == "char":
            return self.char.f1 if self.char is not None else 0.0
        return self.token.f1

    def to_dict(self) -> dict[str, Any]:
        return {
            "extractor": self.extractor,
            "pages": self.pages,
            "scored_pages": self.scored,
            "token": self.token._asdict(),
            "wcxb": self.wcxb,
            "wcxb_all_pages": self.wcxb_all,
            "char": self.char._asdict() if self.char is not None else None,
            "median_ms": self.median_ms,
            "p95_ms": self.p95_ms,
            "max_ms": self.max_ms,
            "errors": self.errors,
            "empty_outputs": self.empty,
        }


def summarize(name: str, results: Iterable[PageResult]) -> Summary:
    """Average the scored pages' scores; time statistics over all pages."""
    items = list(results)
    scored = [r for r in items if r.scored]
    chars = [r.char for r in scored if r.char is not None]
    times = [r.ms for r in items]
    judged = [r for r in items if r.page.truth is not None]
    all_pages = [r.word.f1 if r.word is not None else float(r.empty) for r in judged]
    return Summary(
        extractor=name,
        pages=len(items),
        scored=len(scored),
        token=average(r.token for r in scored if r.token is not None),
        wcxb=mean_f1(r.word for r in scored if r.word is not None),
        wcxb_all=statistics.fmean(all_pages) if all_pages else None,
        char=average(chars) if chars else None,
        median_ms=statistics.median(times) if times else 0.0,
        p95_ms=_percentile(times, 0.95),
        max_ms=max(times) if times else 0.0,
        errors=sum(1 for r in items if r.error),
        empty=sum(1 for r in items if r.empty),
    )


@dataclass(slots=True)
class FoldFigures:
    """One extractor's headline metric on each fold, and the spread of the five."""

    values: dict[int, float]
    pages: dict[int, int]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.values.values()) if self.values else 0.0

    @property
    def sd(self) -> float:
        return statistics.stdev(self.values.values()) if len(self.values) > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "per_fold": {str(k): v for k, v in self.values.items()},
            "pages": {str(k): n for k, n in self.pages.items()},
            "mean": self.mean,
            "sd": self.sd,
        }


def fold_figures(results: Sequence[PageResult], metric: str) -> FoldFigures:
    """The headline metric per fold, over the folds that have scored pages."""
    values: dict[int, float] = {}
    pages: dict[int, int] = {}
    for k in range(FOLDS):
        rs = [r for r in results if r.page.fold == k and r.scored]
        if rs:
            values[k] = summarize("", rs).metric(metric)
            pages[k] = len(rs)
    return FoldFigures(values, pages)


# --------------------------------------------------------------------------- reporting


def _f(x: float | None) -> str:
    return "–" if x is None else f"{x:.3f}"


def _ms(x: float) -> str:
    return f"{x:.1f}" if x < 100 else f"{x:.0f}"


def _ratio(a: float, b: float | None) -> str:
    return f"{a / b:.2f}×" if b else "–"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def figures_table(summaries: dict[str, Summary], language: str, headline: str, wcxb: bool) -> str:
    """One row per extractor: quality, empty pages, errors and CPU time with ratios."""
    ref = summaries.get("ours")
    traf = summaries.get("trafilatura")
    floor = summaries.get(FLOOR)
    header = ["extractor", "scored", "token F1", "token P", "token R"]
    if wcxb:
        header += ["WCXB metric", "WCXB, blank truths in"]
    if language != "en":
        header += ["char F1", "char P", "char R"]
    header += [
        f"ours − this ({HEADLINE_LABEL[headline]})",
        "empty",
        "errors",
        "median ms",
        "÷ trafilatura",
        "÷ lxml parse",
        "p95 ms",
        "max ms",
    ]
    rows = []
    for name, s in summaries.items():
        row = [name, str(s.scored), _f(s.token.f1), _f(s.token.precision), _f(s.token.recall)]
        if wcxb:
            row += [_f(s.wcxb), _f(s.wcxb_all)]
        if language != "en":
            c = s.char or PRF(None, None, 0.0)
            row += [_f(c.f1), _f(c.precision), _f(c.recall)]
        delta = "–"
        if ref is not None and name != "ours":
            delta = f"{ref.metric(headline) - s.metric(headline):+.3f}"
        row += [
            delta,
            str(s.empty),
            str(s.errors),
            _ms(s.median_ms),
            _ratio(s.median_ms, traf.median_ms if traf else None),
            _ratio(s.median_ms, floor.median_ms if floor else None),
            _ms(s.p95_ms),
            _ms(s.max_ms),
        ]
        rows.append(row)
    return _table(header, rows)


def folds_table(folds: dict[str, FoldFigures]) -> str:
    """Extractor x fold of one metric, with the mean, standard deviation and range."""
    present = sorted({k for f in folds.values() for k in f.values})
    pages = {k: max(f.pages.get(k, 0) for f in folds.values()) for k in present}
    header = ["extractor"] + [f"fold {k} ({pages[k]})" for k in present]
    header += ["mean of folds", "sd", "min – max"]
    rows = []
    for name, f in folds.items():
        values = list(f.values.values())
        row = [name] + [_f(f.values.get(k)) for k in present]
        span = f"{min(values):.3f} – {max(values):.3f}" if values else "–"
        row += [_f(f.mean), _f(f.sd), span]
        rows.append(row)
    return _table(header, rows)


def set_report(
    dataset: Dataset, results: dict[str, list[PageResult]], setup: OursSetup
) -> tuple[str, dict[str, Any]]:
    """Markdown for one set with truth, and its numbers for the JSON output."""
    headline = headline_of(dataset)
    wcxb = headline == "wcxb"
    summaries = {name: summarize(name, rs) for name, rs in results.items()}
    scored = max((s.scored for s in summaries.values()), default=0)
    fold_pages = Counter(p.fold for p in dataset.pages if p.has_truth)
    domains = len({p.domain for p in dataset.pages})
    out = [f"## {dataset.name}", ""]
    out.append(
        f"{len(dataset.pages)} pages, {scored} scored, {domains} registered domains; pages "
        "scored per fold: "
        + ", ".join(f"{k}: {fold_pages[k]}" for k in sorted(fold_pages))
        + f". Headline metric: **{HEADLINE_LABEL[headline]}**. `ours` "
        + ("cross-validated" if setup.cross_validated else "NOT cross-validated (no --models)")
        + ". ours − this: the headline metric of ours minus this extractor's; ÷ trafilatura, "
        "÷ lxml parse: median CPU ms over theirs; empty = pages with no text (errors "
        "included): left out of the P average, recall 0, WCXB metric 0."
        + (
            " WCXB, blank truths in: WCXB's metric over every page, those with a blank truth "
            "too (1 for an empty prediction there, else 0)."
            if wcxb
            else ""
        )
    )
    out.append("")
    out.append(figures_table(summaries, dataset.language, headline, wcxb))
    out.append("")
    folds = {name: fold_figures(rs, headline) for name, rs in results.items()}
    out.append(
        f"{HEADLINE_LABEL[headline]} per fold (a fold's domains are held out of the model "
        "that `ours` uses on them); sd = standard deviation of the fold figures:"
    )
    out.append("")
    out.append(folds_table(folds))
    out.append("")
    data: dict[str, Any] = {
        "pages": len(dataset.pages),
        "scored_pages": scored,
        "domains": domains,
        "headline_metric": headline,
        "extractors": {name: s.to_dict() for name, s in summaries.items()},
        "folds": {name: f.to_dict() for name, f in folds.items()},
        "notes": list(dataset.notes),
    }
    if any(p.comments is not None for p in dataset.pages):
        text, data["with_comments"] = comments_report(dataset, results, summaries)
        out.append(text)
    if wcxb:
        token_folds = {name: fold_figures(rs, "token") for name, rs in results.items()}
        out.append("token F1 per fold:")
        out.append("")
        out.append(folds_table(token_folds))
        out.append("")
        data["folds_token"] = {name: f.to_dict() for name, f in token_folds.items()}
    ref = summaries.get("ours")
    floor = summaries.get(FLOOR)
    if ref is not None and floor is not None and floor.median_ms > 0:
        factor = ref.median_ms / floor.median_ms
        out.append(
            f"ours median {_ms(ref.median_ms)} ms = {factor:.1f}× the lxml parse floor "
            f"({_ms(floor.median_ms)} ms)."
        )
        data["ours_over_lxml_floor"] = factor
    if "ours" in results:
        slow = [(r.page.id, r.ms) for r in results["ours"] if r.ms > SLOW_MS]
        slow.sort(key=lambda x: -x[1])
        data["ours_pages_over_1s"] = [{"id": i, "ms": ms} for i, ms in slow]
        listed = ", ".join(f"{i} ({ms:.0f} ms)" for i, ms in slow) or "none"
        out.append(f"ours pages over 1 s: {len(slow)}: {listed}.")
    errs = {
        name: Counter((r.error or "").split(":", 1)[0] for r in rs if r.error)
        for name, rs in results.items()
    }
    err_lines = [
        f"{name}: " + ", ".join(f"{k} ×{v}" for k, v in c.most_common())
        for name, c in errs.items()
        if c
    ]
    data["errors"] = {
        name: [{"id": r.page.id, "error": r.error} for r in rs if r.error]
        for name, rs in results.items()
        if any(r.error for r in rs)
    }
    if err_lines:
        out.append("Errors: " + "; ".join(err_lines) + ".")
    for note in dataset.notes:
        out.append(f"Note: {note}.")
    out.append("")
    if wcxb:
        text, by_type = page_type_report(dataset, results, summaries)
        out.append(text)
        data["by_page_type"] = by_type
    return "\n".join(out), data


def comments_report(
    dataset: Dataset, results: dict[str, list[PageResult]], summaries: dict[str, Summary]
) -> tuple[str, dict[str, Any]]:
    """The headline figure beside token F1 against the gold's main text and marked
    comments together (how the set was scored before its comment marker was read)."""
    marked = sum(1 for p in dataset.pages if p.has_truth and p.comments)
    figures = {
        name: average(r.token_with_comments for r in rs if r.token_with_comments is not None)
        for name, rs in results.items()
    }
    rows = [
        [
            name,
            _f(summaries[name].token.f1),
            _f(prf.f1),
            _f(prf.precision),
            _f(prf.recall),
        ]
        for name, prf in figures.items()
    ]
    text = (
        f"The truth is the gold file's main text: {marked} gold files mark readers' comments "
        "apart from it (Dragnet's comment marker), and the main-content extractors leave "
        "comments out. Token F1 against the main text and the comments together:\n\n"
        + _table(["extractor", "token F1 (main text)", "token F1 (with comments)", "P", "R"], rows)
        + "\n"
    )
    return text, {
        "pages_with_comments": marked,
        "extractors": {name: prf._asdict() for name, prf in figures.items()},
    }


def page_type_report(
    dataset: Dataset, results: dict[str, list[PageResult]], summaries: dict[str, Summary]
) -> tuple[str, dict[str, Any]]:
    """WCXB's metric and token F1 per page type (with rs-trafilatura's published row and the
    fold spread of ours), then every figure per type."""
    types = [t for t in WCXB_TYPES if any(p.page_type == t for p in dataset.pages)]
    counts = Counter(p.page_type for p in dataset.pages if p.has_truth)
    by_type = {
        name: {t: summarize(name, (r for r in rs if r.page.page_type == t)) for t in types}
        for name, rs in results.items()
    }
    name = dataset.name
    out = [f"### {name} per page type", ""]
    header = ["extractor", f"all ({sum(counts.values())})"]
    header += [f"{t} ({counts[t]})" for t in types]
    rows = [["rs-trafilatura (published, dev)", _f(RS_TRAFILATURA_DEV["all"])]]
    rows[0] += [_f(RS_TRAFILATURA_DEV.get(t)) for t in types]
    for extractor, per in by_type.items():
        rows.append([extractor, _f(summaries[extractor].wcxb)] + [_f(per[t].wcxb) for t in types])
    spread: dict[str, Any] = {}
    if "ours" in results:
        row = ["ours: mean ± sd of the folds"]
        for t in ["all", *types]:
            rs = [r for r in results["ours"] if t == "all" or r.page.page_type == t]
            f = fold_figures(rs, "wcxb")
            spread[t] = f.to_dict()
            row.append(f"{f.mean:.3f} ± {f.sd:.3f}")
        rows.append(row)
    out.append("WCXB metric per page type (pages scored):")
    out.append("")
    out.append(_table(header, rows))
    out.append("")
    rows = [
        [extractor, _f(summaries[extractor].token.f1)] + [_f(per[t].token.f1) for t in types]
        for extractor, per in by_type.items()
    ]
    out.append("token F1 per page type:")
    out.append("")
    out.append(_table(header, rows))
    out.append("")
    for t in types:
        out.append(f"#### {name}: {t} ({counts[t]} pages scored)")
        out.append("")
        out.append(
            figures_table({e: per[t] for e, per in by_type.items()}, dataset.language, "wcxb", True)
        )
        out.append("")
    data: dict[str, Any] = {
        extractor: {t: s.to_dict() for t, s in per.items()} for extractor, per in by_type.items()
    }
    data["rs-trafilatura (published)"] = dict(RS_TRAFILATURA_DEV)
    if spread:
        data["ours_folds"] = spread
    return "\n".join(out), data


@dataclass(slots=True)
class Target:
    """One target: what is measured, the goal, and ``ours``'s figure (None: not measured)."""

    what: str
    goal: str
    ours: float | None
    met: bool | None
    shown: str
    heldin: str = "–"
    rules: str = "–"


def targets_report(
    datasets: dict[str, Dataset], results: dict[str, dict[str, list[PageResult]]]
) -> tuple[str, list[dict[str, Any]]]:
    """The issue 20 targets for ``ours``, met or not, with the held-in and rules figures."""
    targets: list[Target] = []

    def add(
        set_name: str,
        what: str,
        goal: str,
        measure: Callable[[list[PageResult]], float | None],
        bound: float,
        at_least: bool,
        fmt: Callable[[float], str] = _f,
    ) -> None:
        rs = results.get(set_name, {})
        value = measure(rs["ours"]) if "ours" in rs else None
        if value is None:
            targets.append(Target(what, goal, None, None, "not run" if not rs else "no pages"))
            return
        ok = value >= bound if at_least else value <= bound
        ref = []
        for name in ("ours-heldin", "ours-rules"):
            other = measure(rs[name]) if name in rs else None
            ref.append("–" if other is None else fmt(other))
        targets.append(Target(what, goal, value, ok, fmt(value), *ref))

    def wcxb_of(page_type: str | None) -> Callable[[list[PageResult]], float | None]:
        def measure(rs: list[PageResult]) -> float | None:
            chosen = [
                r for r in rs if r.scored and (page_type is None or r.page.page_type == page_type)
            ]
            return summarize("", chosen).wcxb if chosen else None

        return measure

    def token(rs: list[PageResult]) -> float:
        return summarize("", rs).token.f1

    def char(rs: list[PageResult]) -> float:
        return summarize("", rs).metric("char")

    def median_ms(rs: list[PageResult]) -> float:
        return summarize("", rs).median_ms

    wcxb = next((n for n in datasets if headline_of(datasets[n]) == "wcxb"), None)
    if wcxb is not None:
        add(wcxb, f"{wcxb}: WCXB metric", f"≥ {TARGET_WCXB}", wcxb_of(None), TARGET_WCXB, True)
        for t in WCXB_TYPES:
            ref = RS_TRAFILATURA_DEV[t]
            add(
                wcxb,
                f"{wcxb} {t}: WCXB metric",
                f"≥ {ref:.3f} (rs-trafilatura)",
                wcxb_of(t),
                ref,
                True,
            )
    for set_name in ("scrapinghub", "dragnet-gold"):
        rs = results.get(set_name)
        if not rs:
            continue
        peers = {n: token(r) for n, r in rs.items() if is_peer(n)}
        what = f"{set_name}: token F1"
        if not peers:
            targets.append(Target(what, "best peer + 0.01", None, None, "no peer run"))
            continue
        best_name, best = max(peers.items(), key=lambda kv: kv[1])
        goal = best + TARGET_PEER_MARGIN
        label = f"≥ {goal:.3f} ({best_name} {best:.3f} + {TARGET_PEER_MARGIN})"
        add(set_name, what, label, token, goal, True)
    if "zh-news-silver" in results:
        what = "zh-news-silver: char F1"
        add("zh-news-silver", what, f"≥ {TARGET_ZH_CHAR}", char, TARGET_ZH_CHAR, True)
    for set_name, ds in datasets.items():
        rs = results.get(set_name, {})
        if ds.language != "en" or "ours" not in rs:
            continue
        what = f"{set_name}: median CPU ms"
        for peer, factor, label in (
            (
                "trafilatura",
                1 / TARGET_TRAFILATURA_FACTOR,
                f"trafilatura's / {TARGET_TRAFILATURA_FACTOR}",
            ),
            (FLOOR, TARGET_LXML_FACTOR, f"{TARGET_LXML_FACTOR:g}× the lxml parse"),
        ):
            if peer not in rs:
                targets.append(Target(what, f"≤ {label}", None, None, f"{peer} not run"))
                continue
            limit = median_ms(rs[peer]) * factor
            add(set_name, what, f"≤ {_ms(limit)} ({label})", median_ms, limit, False, _ms)
    ran = {n: rs["ours"] for n, rs in results.items() if "ours" in rs}
    if ran:
        slow = sum(1 for rs in ran.values() for r in rs if r.ms > SLOW_MS)
        errors = sum(1 for rs in ran.values() for r in rs if r.error)
        pages = sum(len(rs) for rs in ran.values())
        for what, n in (("pages over 1 s", slow), ("errors", errors)):
            targets.append(Target(f"all sets ({pages} pages): {what}", "0", n, n == 0, str(n)))
    header = ["target", "goal", "ours", "met", "ours-heldin", "ours-rules"]
    rows = [
        [
            t.what,
            t.goal,
            t.shown,
            "–" if t.met is None else ("met" if t.met else "**not met**"),
            t.heldin,
            t.rules,
        ]
        for t in targets
    ]
    met = sum(1 for t in targets if t.met)
    text = "\n".join(
        [
            "## Targets (issue 20)",
            "",
            f"{met} of {len(targets)} met by `ours`. `ours-heldin` and `ours-rules` for "
            "reference (not judged; the time limits are those of `ours`'s row).",
            "",
            _table(header, rows),
            "",
        ]
    )
    data = [{"target": t.what, "goal": t.goal, "ours": t.ours, "met": t.met} for t in targets]
    return text, data


def template_report(dataset: Dataset, results: dict[str, list[PageResult]]) -> tuple[str, Any]:
    """For the set without truth: our CPU time and text length per page, in crawl order."""
    out = [f"## {dataset.name} (no ground truth)", ""]
    names = [n for n in ("ours", "ours-stateless") if n in results]
    if not names:
        return "", {}
    out.append(
        f"{len(dataset.pages)} pages of one site, in id order. `ours` is a Cleaner fed the "
        "pages in order, `ours-stateless` is `clean_html`; characters of extracted text and "
        "CPU ms per page."
    )
    out.append("")
    per_page = {n: [(r.chars, r.ms) for r in results[n]] for n in names}
    n_pages = len(dataset.pages)
    bounds = [(0, 1), (1, 2), (2, 10), (10, 25), (25, 50), (50, n_pages)]
    both = len(names) == 2
    header = ["pages"]
    for n in names:
        header += [f"{n} median chars", f"{n} median ms"]
    if both:
        header += ["pages where ours is shorter", "chars ours drops (sum)"]
    rows = []
    for lo, hi in bounds:
        hi = min(hi, n_pages)
        if lo >= hi:
            continue
        row = [f"{lo + 1}" if hi == lo + 1 else f"{lo + 1}–{hi}"]
        for n in names:
            chunk = per_page[n][lo:hi]
            row += [
                f"{statistics.median(c for c, _ in chunk):.0f}",
                _ms(statistics.median(m for _, m in chunk)),
            ]
        if both:
            pairs = list(
                zip(per_page["ours"][lo:hi], per_page["ours-stateless"][lo:hi], strict=True)
            )
            row += [
                str(sum(1 for a, b in pairs if a[0] < b[0])),
                str(sum(b[0] - a[0] for a, b in pairs)),
            ]
        rows.append(row)
    out.append(_table(header, rows))
    out.append("")
    if both:
        differ = [
            i
            for i, (a, b) in enumerate(
                zip(per_page["ours"], per_page["ours-stateless"], strict=True)
            )
            if a[0] != b[0]
        ]
        first = (
            f"the first is page {differ[0] + 1} (id {dataset.pages[differ[0]].id})"
            if differ
            else "none"
        )
        out.append(
            f"Pages where the Cleaner's text differs in length from clean_html's: "
            f"{len(differ)} of {n_pages}; {first}."
        )
        out.append("")
    for note in dataset.notes:
        out.append(f"Note: {note}.")
    if dataset.notes:
        out.append("")
    data = {
        "pages": n_pages,
        "notes": list(dataset.notes),
        "per_page": {
            n: [{"id": r.page.id, "chars": r.chars, "ms": r.ms} for r in results[n]] for n in names
        },
        "median_ms": {n: statistics.median(m for _, m in per_page[n]) for n in names},
    }
    return "\n".join(out), data


def per_page_records(
    dataset: Dataset, results: dict[str, list[PageResult]]
) -> list[dict[str, Any]]:
    """One record per page: its identity, fold and type, and every extractor's scores."""
    records = []
    for i, page in enumerate(dataset.pages):
        rec: dict[str, Any] = {
            "set": page.set_name,
            "id": page.id,
            "site": page.site,
            "domain": page.domain,
            "fold": page.fold,
            "page_type": page.page_type,
            "url": page.url,
            "scored": page.has_truth,
            "extractors": {},
        }
        for name, rs in results.items():
            r = rs[i]
            entry: dict[str, Any] = {
                "ms": round(r.ms, 3),
                "chars": r.chars,
                "empty": r.empty,
                "error": r.error,
            }
            if r.token is not None:
                entry.update(token_p=r.token.precision, token_r=r.token.recall, token_f1=r.token.f1)
            if r.word is not None:
                entry["wcxb_f1"] = r.word.f1
            if r.char is not None:
                entry.update(char_p=r.char.precision, char_r=r.char.recall, char_f1=r.char.f1)
            if r.token_with_comments is not None:
                c = r.token_with_comments
                entry.update(token_wc_p=c.precision, token_wc_r=c.recall, token_wc_f1=c.f1)
            rec["extractors"][name] = entry
        records.append(rec)
    return records


def _stored_prf(entry: dict[str, Any], prefix: str) -> PRF | None:
    if f"{prefix}_f1" not in entry:
        return None
    return PRF(entry.get(f"{prefix}_p"), entry.get(f"{prefix}_r"), entry[f"{prefix}_f1"])


def stored_results(
    path: Path, dataset: Dataset, skip: Iterable[str]
) -> tuple[dict[str, list[PageResult]], list[str]]:
    """The peers' results on ``dataset`` from an earlier run's ``--per-page`` file: every
    extractor there that is not ours and not in ``skip``, when it has every page of the
    set; returns them and the names left out (pages missing)."""
    wanted = {(p.set_name, p.id) for p in dataset.pages}
    records: dict[str, dict[str, Any]] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if (rec.get("set"), rec.get("id")) in wanted:
                records[rec["id"]] = rec
    names: list[str] = []
    for rec in records.values():
        names += [n for n in rec["extractors"] if n not in names]
    skipped = set(skip)
    found: dict[str, list[PageResult]] = {}
    missing: list[str] = []
    for name in names:
        if is_ours(name) or name in skipped:
            continue
        entries = [records.get(p.id, {}).get("extractors", {}).get(name) for p in dataset.pages]
        if any(e is None for e in entries):
            missing.append(name)
            continue
        found[name] = [
            PageResult(
                page,
                name,
                float(e["ms"]),
                int(e["chars"]),
                bool(e["empty"]),
                e.get("error"),
                _stored_prf(e, "token"),
                PRF(None, None, e["wcxb_f1"]) if "wcxb_f1" in e else None,
                _stored_prf(e, "char"),
                _stored_prf(e, "token_wc"),
            )
            for page, e in zip(dataset.pages, entries, strict=True)
            if e is not None
        ]
    return found, missing


def _git_state() -> str:
    """HEAD of the repository this script lives in, and whether the package has local edits."""
    import subprocess

    repo = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "scrapy_webclean"],
            cwd=repo,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head}{' + uncommitted changes in scrapy_webclean/' if dirty else ''}" or "unknown"


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "scrapy_webclean git": _git_state()}
    for dist in (
        "scrapy-webclean",
        "trafilatura",
        "readability-lxml",
        "justext",
        "gne",
        "resiliparse",
        "lxml",
    ):
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            found[dist] = "missing"
    return found


def _csv(value: str, allowed: Sequence[str], what: str) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    unknown = [v for v in items if v not in allowed]
    if unknown:
        raise SystemExit(f"unknown {what}: {', '.join(unknown)} (choose from {', '.join(allowed)})")
    return items


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument(
        "--models",
        type=Path,
        default=None,
        help="folder of fold{k}.json line models, each trained without fold k: "
        "cross-validates `ours`",
    )
    parser.add_argument("--sets", default=",".join(ALL_SETS))
    parser.add_argument(
        "--extractors",
        default=",".join(DEFAULT_EXTRACTORS),
        help=f"comma-separated, from {', '.join(ALL_EXTRACTORS)}",
    )
    parser.add_argument("--limit", type=int, default=None, help="first N pages per set")
    parser.add_argument("--json", type=Path, default=None, help="write all numbers here")
    parser.add_argument(
        "--per-page", type=Path, default=None, help="JSON lines, one per page and set"
    )
    parser.add_argument(
        "--peers-from",
        type=Path,
        default=None,
        help="an earlier run's --per-page file: the peers in it that --extractors does not "
        "name are read from it instead of run (their CPU times are that run's)",
    )
    parser.add_argument(
        "--take-turns",
        action="store_true",
        help="extractors take turns page by page (colder caches) instead of one set each",
    )
    args = parser.parse_args(argv)
    sets = _csv(args.sets, ALL_SETS, "set")
    extractors = _csv(args.extractors, ALL_EXTRACTORS, "extractor")
    setup = ours_setup(args.models)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    logging.disable(logging.WARNING)  # peers log per-page warnings; they are not results
    warnings.simplefilter("ignore")

    started = time.perf_counter()
    cpu_started = time.process_time()
    report: dict[str, Any] = {
        "command": shlex.join([sys.executable, *sys.argv]),
        "versions": _versions(),
        "ours": {
            "cross_validated": setup.cross_validated,
            "models": str(setup.models_dir) if setup.models_dir else None,
            "line_model_support": setup.line_model_support,
            "shipped_model": setup.shipped_model,
            "default_options_model": setup.default_model,
        },
        "sets": {},
    }
    per_page_fh = args.per_page.open("w", encoding="utf-8") if args.per_page else None
    markdown = [
        "# Main-content extraction",
        "",
        setup.describe(),
        "",
        ", ".join(f"{k} {v}" for k, v in report["versions"].items())
        + ". CPU ms per page from time.process_time() around the extractor call; token and "
        "char F1: P and R averaged over pages, F1 = harmonic mean of the averages; WCXB "
        "metric: mean of per-page word F1s. Folds: 5, by registered domain "
        "(benchmarks/folds.py).",
        "",
    ]
    loaded: dict[str, Dataset] = {}
    all_results: dict[str, dict[str, list[PageResult]]] = {}
    try:
        for set_name in sets:
            folder = args.data / set_name
            if not folder.is_dir():
                log(f"{set_name}: {folder} not found, skipped")
                continue
            dataset = LOADERS[set_name](folder)
            if args.limit is not None:
                dataset.pages = dataset.pages[: args.limit]
            names = extractors
            if not dataset.has_truth:
                names = [n for n in extractors if n in ("ours", "ours-stateless")]
                if "ours" in names and "ours-stateless" not in names:
                    names.append("ours-stateless")
            log(f"{set_name}: {len(dataset.pages)} pages, extractors: {', '.join(names)}")
            if not names or not dataset.pages:
                continue
            htmls = [peer_html(p.body) for p in dataset.pages]
            dataset.notes.extend(data_notes(dataset))
            results = run_extractors(names, dataset, htmls, log, args.take_turns, setup)
            if args.peers_from is not None and dataset.has_truth:
                stored, missing = stored_results(args.peers_from, dataset, names)
                results.update(stored)
                if stored:
                    dataset.notes.append(
                        f"{', '.join(stored)} read from {args.peers_from} (an earlier run: "
                        "their CPU times and ratios are from that run)"
                    )
                if missing:
                    dataset.notes.append(
                        f"{', '.join(missing)} in {args.peers_from} without every page: left out"
                    )
            if per_page_fh is not None:
                for rec in per_page_records(dataset, results):
                    per_page_fh.write(json.dumps(rec, ensure_ascii=False))
                    per_page_fh.write("\n")
            if dataset.has_truth:
                text, data = set_report(dataset, results, setup)
                loaded[set_name] = dataset
                all_results[set_name] = results
            else:
                text, data = template_report(dataset, results)
            markdown.append(text)
            report["sets"][set_name] = data
    finally:
        if per_page_fh is not None:
            per_page_fh.close()
    if all_results:
        text, targets = targets_report(loaded, all_results)
        markdown.append(text)
        report["targets"] = targets
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    report["runtime_s"] = {"wall": wall, "cpu": cpu}
    markdown.append(f"Total runtime: {wall:.0f} s wall, {cpu:.0f} s CPU (all sets, with scoring).")
    print("\n".join(markdown))
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    log(f"done in {wall:.0f} s")
    return 0


__all__ = ["html_fragment_text", "main", "summarize"]

if __name__ == "__main__":
    raise SystemExit(main())
