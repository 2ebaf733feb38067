"""The extractors that ``extraction.py`` compares, each built fresh per set and timed per
page: ``ours`` (a ``Cleaner``, with the fold models of ``--models``: :class:`OursSetup`),
its held-in and rules-only variants, its precision/recall knob (``ours-precision``,
``ours-recall``: ``CleanOptions.favor``), and the peers (trafilatura, readability-lxml, jusText,
GNE, resiliparse), beside the bare lxml parse (the floor). Every peer gets the same
``str`` (:func:`peer_html`); ``ours`` gets the page's bytes.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from datasets import Dataset, Page
from folds import FOLDS
from memo_caches import clear_memo_caches

from scrapy_webclean.html.tagclasses import BREAK_TAGS

ALL_EXTRACTORS = (
    "ours",
    "ours-precision",
    "ours-recall",
    "ours-heldin",
    "ours-rules",
    "ours-stateless",
    "ours+blocks",
    "trafilatura",
    "trafilatura+comments",
    "trafilatura-precision",
    "trafilatura-recall",
    "readability",
    "justext",
    "gne",
    "resiliparse",
    "lxml",
)
#: What runs without ``--extractors``: the slower or redundant variants are left out.
DEFAULT_EXTRACTORS = (
    "ours",
    "ours-precision",
    "ours-recall",
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
#: The ``ours`` variants of the precision/recall knob (``CleanOptions.favor``): each is
#: ``ours`` (cross-validated with ``--models``) with that ``favor``.
FAVORED = {"ours-precision": "precision", "ours-recall": "recall"}

_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)


def is_ours(name: str) -> bool:
    return name.startswith("ours")


def is_peer(name: str) -> bool:
    """A real extractor of another project (not ours, not the parse floor)."""
    return not is_ours(name) and name != FLOOR


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
            rest += (
                "; `ours-precision` and `ours-recall` = `ours` with `favor='precision'` and "
                "`favor='recall'`"
            )
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


def _ours_options(kind: str, setup: OursSetup, fold: int, favor: str = "balanced") -> Any:
    """The ``CleanOptions`` of one ``ours`` variant for a page of ``fold``; a ``favor``
    other than "balanced" (``ours-precision``, ``ours-recall``) goes with ``kind`` "cv"."""
    from scrapy_webclean import CleanOptions

    if favor != "balanced":
        if setup.cross_validated:
            return CleanOptions(line_model=setup.fold_models[fold], favor=favor)
        return CleanOptions(favor=favor)
    if kind == "cv" and setup.cross_validated:
        return CleanOptions(line_model=setup.fold_models[fold])
    if kind == "rules" and setup.line_model_support:
        return CleanOptions(line_model=None)
    if kind == "heldin" and setup.shipped is not None:
        return CleanOptions(line_model=setup.shipped)
    return CleanOptions()


def _ours_factory(
    kind: str, setup: OursSetup, with_blocks: bool = False, favor: str = "balanced"
) -> Callable[[], Extract]:
    """``kind``: ``cv`` (one Cleaner per fold, each with its fold's options, and
    ``favor``), ``heldin`` or ``rules`` (one Cleaner for the set), ``stateless``
    (``clean_html``)."""

    def build() -> Extract:
        from scrapy_webclean import Cleaner, clean_html

        if kind == "stateless":

            def run_stateless(page: Page, _html: str) -> str:
                return clean_html(page.body, page.url).text

            return run_stateless

        if kind == "cv":
            cleaners = {k: Cleaner(_ours_options(kind, setup, k, favor)) for k in range(FOLDS)}
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
        **{name: _ours_factory("cv", setup, favor=favor) for name, favor in FAVORED.items()},
        "trafilatura": _trafilatura_factory(include_comments=False),
        "trafilatura+comments": _trafilatura_factory(),
        "trafilatura-precision": _trafilatura_factory(include_comments=False, favor_precision=True),
        "trafilatura-recall": _trafilatura_factory(include_comments=False, favor_recall=True),
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
    """An extractor for a set, after untimed warm-up calls on a throw-away instance (the
    first page of each fold for ``ours*``, each fold's model; the first page for peers),
    with the process's memo caches emptied after them (:mod:`memo_caches`)."""
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
        from scrapy_webclean.text.tokenize import tokenize

        clean_html(_CHINESE_WARM_UP)
        # (a page that small is never tokenized: the first tokenizing of Chinese text,
        # a page's own or its language menu's, reads the dictionary)
        tokenize(_CHINESE_WARM_UP)
        # ... nor the language identifier's model (0.4 s, read on the first text that is
        # neither plainly English nor Chinese)
        guess_language(_OTHER_LANGUAGE_WARM_UP)
    # (what an earlier row or pass memoized on these same pages must not be reused)
    clear_memo_caches()
    return build_extractor(name, dataset.language, setup)
