"""The main-content extraction sets of ``../shared/datasets/extract``, loaded one way for every
script that evaluates or trains on them.

Each set becomes a :class:`Dataset`: its :class:`Page` objects in *crawl order* (sites in
name order, each site's pages by id, numeric ids numerically), so a stateful cleaner fed
them one after another learns each site's template as a crawl would. Every page carries
its domain-disjoint fold (``benchmarks/folds.py``): ``fold_of(url)`` for a page with a real
URL, ``fold_of(site)`` otherwise, so the pages of one registered domain are always in one
fold, in whichever set they are.

Sets (the folder's ``README.md`` defines the formats; nothing is copied from them):

* ``scrapinghub`` -- 181 articles; ``ground-truth.json`` -> ``articleBody``;
* ``wcxb-dev`` -- 1,358 pages, the whole WCXB dev split;
  ``ground-truth/<id>.json`` -> ``ground_truth.main_content`` (and its ``with`` and
  ``without`` snippets: ``Page.snippets``); ``metadata.json`` gives the page type (one of
  :data:`WCXB_TYPES`) and the domain (the site). Three pages have neither URL nor domain:
  their site comes from the URL the page declares (``<link rel=canonical>``, else
  ``og:url``; their ``url`` stays None), so that they fall into the fold of the other pages
  of their site; a page that declares none is a site of its own (``<id>.wcxb-dev.invalid``);
* ``dragnet-gold`` -- 881 news pages; truth ``gold/<id>.txt.gz``, HTML
  ``../ads/pages/dragnet_data/input/<id>.html.gz``, URL = ``page_url`` of the records of
  ``../ads/image-links.jsonl`` whose ``file`` ends with ``/<id>.html.gz``;
* ``zh-news-silver`` -- the 38 manifest pages with a silver truth (``gt_silver/...``);
* ``zh-netease-template`` -- 74 pages of one site (money.163.com), no truth (``truth`` None).

The Chinese sets have no real URL: a page's ``url`` is made up as
``http://<site>.<set>.invalid/<n>`` (so that a cleaner can still tell sites apart) and
``url_is_real`` is False (as for a page without URL); their fold and registered domain
come from the site name the set gives (``163``, ``sina`` ...; ``money.163.com`` for the
template set).

Its parts: where pages get their URLs in ``page_urls.py``, the Dragnet gold files in
``dragnet_gold.py``, the folds in ``folds.py``.
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The benchmarks folder is not a package: make its modules importable however this is run.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from dragnet_gold import dragnet_urls, gold_text, split_comments
from folds import fold_of, registered_domain
from page_urls import declared_url, fake_url, host_of, unshare_urls

#: Every set, in the order the benchmarks run them.
ALL_SETS = ("scrapinghub", "wcxb-dev", "dragnet-gold", "zh-news-silver", "zh-netease-template")
#: WCXB's seven page types, in the order the tables show them.
WCXB_TYPES = ("article", "service", "forum", "listing", "product", "documentation", "collection")


@dataclass(slots=True)
class Page:
    """One page of a set.

    ``html`` is the page's raw bytes (gzip already undone, not decoded); ``truth`` the
    ground-truth main text, None when the set has none (an empty string when the set has
    an empty truth for this page); ``site`` the host or site name that groups the crawl
    order; ``domain`` its registered domain; ``fold`` in ``0 .. FOLDS-1``; ``page_type``
    WCXB's type, ``""`` where unknown; ``language`` ``"en"`` or ``"zh"``.
    """

    set_name: str
    id: str
    url: str | None
    html: bytes = field(repr=False)
    truth: str | None = field(repr=False)
    site: str
    domain: str
    fold: int
    page_type: str = ""
    language: str = "en"
    url_is_real: bool = True
    #: The readers' comments the gold text marks apart from the main text (Dragnet's
    #: comment marker; ``""`` for a page without any), None on a set that does not mark
    #: them: scored as a second figure only.
    comments: str | None = field(default=None, repr=False)
    #: The snippets the main text must hold and must not hold (WCXB's ``with`` and
    #: ``without``), None on a set without them: scored apart (``metrics.snippet_counts``).
    snippets: tuple[tuple[str, ...], tuple[str, ...]] | None = field(default=None, repr=False)
    #: The page's title and publication date (``YYYY-MM-DD``) in the ground truth (WCXB's
    #: ``title`` and ``publish_date``), None where it names none.
    title: str | None = field(default=None, repr=False)
    date: str | None = field(default=None, repr=False)

    @property
    def body(self) -> bytes:
        """The raw bytes (an alias of ``html``)."""
        return self.html

    @property
    def has_truth(self) -> bool:
        """Whether the page can be scored: a truth that is not blank."""
        return self.truth is not None and bool(self.truth.strip())


@dataclass(slots=True)
class Dataset:
    """The pages of one set, in crawl order, and what the loader noticed about the data."""

    name: str
    language: str  # "en" or "zh"
    pages: list[Page]
    notes: list[str] = field(default_factory=list)

    @property
    def has_truth(self) -> bool:
        return any(p.truth is not None for p in self.pages)

    def fold_pages(self, fold: int) -> list[Page]:
        """The pages of one fold, in crawl order."""
        return [p for p in self.pages if p.fold == fold]


def read_gz(path: Path) -> bytes:
    """The bytes of a gzipped file."""
    with gzip.open(path, "rb") as fh:
        return fh.read()


def crawl_order(pages: Iterable[Page]) -> list[Page]:
    """Sites in name order, each site's pages by id (numeric ids numerically)."""

    def key(p: Page) -> tuple[str, int, str]:
        tail = p.id.rsplit("/", 1)[-1]
        return (p.site, int(tail) if tail.isdigit() else 1 << 30, p.id)

    return sorted(pages, key=key)


def _page(
    set_name: str,
    page_id: str,
    url: str | None,
    html: bytes,
    truth: str | None,
    site: str,
    *,
    page_type: str = "",
    language: str = "en",
    url_is_real: bool = True,
    snippets: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    title: str | None = None,
    date: str | None = None,
) -> Page:
    """A page, its registered domain and fold taken from the real URL if any, else the site."""
    key = url if url and url_is_real else site
    return Page(
        set_name=set_name,
        id=page_id,
        url=url,
        html=html,
        truth=truth,
        site=site,
        domain=registered_domain(key),
        fold=fold_of(key),
        page_type=page_type,
        language=language,
        url_is_real=url_is_real and url is not None,
        snippets=snippets,
        title=title,
        date=date,
    )


def load_scrapinghub(root: Path) -> Dataset:
    """``ground-truth.json`` -> ``articleBody`` for ``html/<id>.html.gz``."""
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    pages = [
        _page(
            "scrapinghub",
            page_id,
            record["url"],
            read_gz(root / "html" / f"{page_id}.html.gz"),
            record.get("articleBody") or "",
            host_of(record["url"]),
        )
        for page_id, record in truth.items()
    ]
    return Dataset("scrapinghub", "en", crawl_order(pages))


def load_wcxb(root: Path) -> Dataset:
    """``ground-truth/<id>.json`` -> ``ground_truth.main_content`` and its snippets; type and
    domain from metadata."""
    files = json.loads((root / "metadata.json").read_text(encoding="utf-8"))["files"]
    pages = []
    declared = []
    for page_id, meta in files.items():
        record = json.loads((root / "ground-truth" / f"{page_id}.json").read_text(encoding="utf-8"))
        html = read_gz(root / "html" / f"{page_id}.html.gz")
        truth = record["ground_truth"]
        url = record.get("url") or None
        site = meta.get("domain") or (host_of(url) if url else "")
        if not site:
            own = declared_url(html)
            site = host_of(own) if own else f"{page_id}.wcxb-dev.invalid"
            declared.append(f"{page_id} -> {site}")
        pages.append(
            _page(
                "wcxb-dev",
                page_id,
                url,
                html,
                truth.get("main_content") or "",
                site,
                page_type=meta.get("page_type") or "",
                snippets=(tuple(truth.get("with") or ()), tuple(truth.get("without") or ())),
                title=(truth.get("title") or "").strip() or None,
                date=(truth.get("publish_date") or "").strip() or None,
            )
        )
    notes = []
    if declared:
        notes.append(
            "pages without URL or domain, site from the URL the page declares: "
            + ", ".join(declared)
        )
    return Dataset("wcxb-dev", "en", crawl_order(pages), notes)


def load_dragnet(root: Path) -> Dataset:
    """``gold/<id>.txt.gz`` with the HTML and URL from the ``ads`` folder beside ``extract``.
    The truth is the main text: the comments the gold file marks apart
    (:func:`split_comments`) are kept in ``Page.comments``, for a second figure."""
    ads = root.parent.parent / "ads"
    urls = dragnet_urls(ads / "image-links.jsonl")
    pages = []
    no_url = []
    for gold in sorted((root / "gold").glob("*.txt.gz")):
        page_id = gold.name.removesuffix(".txt.gz")
        url = urls.get(f"{page_id}.html.gz")
        if url is None:
            no_url.append(page_id)
            continue
        main, comments = split_comments(gold_text(read_gz(gold)))
        page = _page(
            "dragnet-gold",
            page_id,
            url,
            read_gz(ads / "pages" / "dragnet_data" / "input" / f"{page_id}.html.gz"),
            main,
            host_of(url),
        )
        page.comments = comments
        pages.append(page)
    notes = (
        [f"{len(no_url)} gold pages without a URL left out: {', '.join(no_url)}"] if no_url else []
    )
    notes += unshare_urls(pages)
    return Dataset("dragnet-gold", "en", crawl_order(pages), notes)


def _manifest(root: Path) -> list[dict[str, Any]]:
    with (root / "manifest.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_zh_silver(root: Path) -> Dataset:
    """Only the manifest records with a ``gt`` file (``gt_silver/<site>/<n>.txt``)."""
    pages = []
    skipped = 0
    for rec in _manifest(root):
        if not rec.get("gt"):
            skipped += 1
            continue
        site = rec.get("site") or rec["id"].split("/", 1)[0]
        pages.append(
            _page(
                "zh-news-silver",
                rec["id"],
                fake_url("zh-news-silver", site, rec["id"]),
                read_gz(root / rec["html"]),
                (root / rec["gt"]).read_text(encoding="utf-8"),
                site,
                language="zh",
                url_is_real=False,
            )
        )
    notes = [f"{skipped} manifest pages without silver truth not run"]
    return Dataset("zh-news-silver", "zh", crawl_order(pages), notes)


def load_zh_template(root: Path) -> Dataset:
    """All pages of the one-template set, by numeric id; no truth."""
    site = "money.163.com"
    pages = [
        _page(
            "zh-netease-template",
            rec["id"],
            fake_url("zh-netease-template", site, rec["id"]),
            read_gz(root / rec["html"]),
            None,
            site,
            language="zh",
            url_is_real=False,
        )
        for rec in _manifest(root)
    ]
    return Dataset("zh-netease-template", "zh", crawl_order(pages))


LOADERS: dict[str, Callable[[Path], Dataset]] = {
    "scrapinghub": load_scrapinghub,
    "wcxb-dev": load_wcxb,
    "dragnet-gold": load_dragnet,
    "zh-news-silver": load_zh_silver,
    "zh-netease-template": load_zh_template,
}


def load_set(root: Path, name: str) -> Dataset:
    """One set from the ``extract/`` folder ``root``."""
    if name not in LOADERS:
        raise ValueError(f"unknown set {name!r} (choose from {', '.join(ALL_SETS)})")
    return LOADERS[name](Path(root) / name)


def load_sets(root: Path | str, names: Sequence[str] = ALL_SETS) -> list[Dataset]:
    """The named sets from the ``extract/`` folder ``root``, in the order asked; a set whose
    folder is missing raises ``FileNotFoundError``."""
    root = Path(root)
    out = []
    for name in names:
        if not (root / name).is_dir():
            raise FileNotFoundError(f"{root / name} not found")
        out.append(load_set(root, name))
    return out


__all__ = [
    "ALL_SETS",
    "LOADERS",
    "WCXB_TYPES",
    "Dataset",
    "Page",
    "crawl_order",
    "load_set",
    "load_sets",
]
