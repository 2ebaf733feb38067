"""Ad and template image links dropped before fetch: ``AdImageModel`` against the labels.

Usage::

    python benchmarks/ads.py ../shared/datasets/ads [--limit-sites N] [--json out.json]

The argument is the ``ads/`` folder of the shared datasets (its README defines the labels);
nothing of it is copied. Per site, pages are fed in a fixed order (sorted by file name) to
``observe_page``, and each page's image links are judged as a crawler would judge them: once
the site has ``min_pages`` pages observed (image requests wait until then, as the middleware
defers them), or at the site's last page if it has fewer; a verdict that is still not
certain (too few pages of the site, or an image on half of them whose confidence bound falls
short) is judged again after the next page of the site, at most
``WEBCLEAN_ADS_MAX_DEFERS`` times (the middleware sends such a request back to the
scheduler; that the crawl meets one more page of the site before it comes back is this
benchmark's assumption), then kept if still uncertain. The "judged once" row decides every
image at the 4th page without deferral; the "at once" row right after its own page.

Labels, by the set's README (2026-11-25), in this order: *ad* = ``label_ad`` (EasyList
2023-10-22, network or element-hiding rule); *pixel* = a declared width or height of at most
2 (tracking pixels, spacers, rules: noise, never content); *template* = on at least half of
its site's pages in the set, or on at least half of its host's pages where that host has
:data:`HOST_TEMPLATE_MIN_PAGES` or more pages in the set (a blog on a shared platform has its
own template); *content* = none of these. Reported per link (every ``<img>`` occurrence)
and per unique image URL (a URL is dropped when every occurrence was dropped: otherwise it is
fetched once anyway), for the whole set and per domain-disjoint fold (``folds.py``: the
figures of every fold, since no threshold of the model may be fitted on the sites it is
judged on).

The sets and their labels are read by ``ads_data.py``.

A second set is the demo site's known truth (every ad, template and content image of the
bundled local site), judged the same way.

Baselines in the same run: URL redundancy alone (NRelm2, share >= 0.5 after 4 pages),
the keyword model alone (NRelm1), standard ad sizes alone.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ads_audit import audit_content_losses
from ads_data import Record, Site, as_int, load_ads_set, load_demo_set
from folds import FOLDS, fold_of

from scrapy_webclean.ads import AdImageModel, AdModelOptions, FilterList, Verdict
from scrapy_webclean.ads.features import geometry, is_content_photo
from scrapy_webclean.ads.links import ImageLink
from scrapy_webclean.integration.setting_table import SETTINGS


@dataclass
class Tally:
    """Counts of one run over a set."""

    links: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    dropped: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    url_kind: dict[tuple[str, str], str] = field(default_factory=dict)
    url_kept: dict[tuple[str, str], bool] = field(default_factory=dict)
    judge_ns: list[int] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    content_lost_by_site: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    #: (site, page number in the site, record) of every content link dropped.
    content_lost: list[tuple[str, int, Record]] = field(default_factory=list)
    #: The same counts per domain-disjoint fold of the sites (``folds.py``).
    folds: dict[int, Tally] = field(default_factory=dict)

    def add(self, site: str, record: Record, drop: bool, page: int = 0) -> None:
        self.links[record.kind] += 1
        if drop:
            self.dropped[record.kind] += 1
            if record.kind == "content":
                self.content_lost_by_site[site] += 1
                self.content_lost.append((site, page, record))
        key = (site, record.img_src)
        # A URL is an ad if any occurrence is; content only if every occurrence is.
        previous = self.url_kind.get(key)
        if previous is None or _rank(record.kind) > _rank(previous):
            self.url_kind[key] = record.kind
        self.url_kept[key] = self.url_kept.get(key, False) or not drop

    def row(self, per_url: bool = False) -> dict[str, float]:
        if per_url:
            links: dict[str, int] = defaultdict(int)
            dropped: dict[str, int] = defaultdict(int)
            for key, kind in self.url_kind.items():
                links[kind] += 1
                if not self.url_kept[key]:
                    dropped[kind] += 1
        else:
            links, dropped = self.links, self.dropped
        all_dropped = sum(dropped.values())
        ad_p = dropped["ad"] / all_dropped if all_dropped else 0.0
        ad_r = dropped["ad"] / links["ad"] if links["ad"] else 0.0
        noise = links["ad"] + links["pixel"] + links["template"]
        noise_dropped = dropped["ad"] + dropped["pixel"] + dropped["template"]
        return {
            "links": float(sum(links.values())),
            "ad_precision": ad_p,
            "ad_recall": ad_r,
            "ad_f1": 2 * ad_p * ad_r / (ad_p + ad_r) if ad_p + ad_r else 0.0,
            "template_dropped": dropped["template"] / links["template"]
            if links["template"]
            else 0.0,
            "pixel_dropped": dropped["pixel"] / links["pixel"] if links["pixel"] else 0.0,
            "noise_dropped": noise_dropped / noise if noise else 0.0,
            "content_dropped": dropped["content"] / links["content"] if links["content"] else 0.0,
        }


def _rank(kind: str) -> int:
    return {"content": 0, "template": 1, "pixel": 2, "ad": 3}[kind]


#: How many times the middleware sends an uncertain image request back (its default).
MAX_DEFERS: int = next(s.default for s in SETTINGS if s.name == "WEBCLEAN_ADS_MAX_DEFERS")

# -- runs ----------------------------------------------------------------------------------


Judge = Callable[[AdImageModel, Record], Verdict]


def run(
    sites: Iterable[Site],
    options: AdModelOptions,
    filter_list: FilterList | None = None,
    wait: bool = True,
    judge: Judge | None = None,
    main_content: dict[int, list[str]] | None = None,
    max_defers: int | None = None,
) -> Tally:
    """One pass over the sites; ``main_content`` (by ``id`` of a page: the images the
    cleaner finds in its main content, :func:`main_content_images`) is told to the model
    after each page is observed, as ``CleanPipeline`` does in a crawl."""
    tally = Tally()
    defers: dict[int, int] = {}
    if max_defers is None:
        max_defers = MAX_DEFERS
    for site in sites:
        model = AdImageModel(options, filter_list=filter_list)
        pending: list[tuple[int, Record]] = []
        for number, page in enumerate(site.pages, 1):
            model.observe_page(page.url, page.html)
            if main_content is not None:
                model.note_main_content(page.url, main_content[id(page)])
            pending.extend((number, record) for record in page.records)
            if wait and number < options.min_pages and number < len(site.pages):
                continue
            waiting: list[tuple[int, Record]] = []
            for page_number, record in pending:
                started = time.perf_counter_ns()
                verdict = (
                    judge(model, record) if judge else model.judge(record.img_src, record.page_url)
                )
                tally.judge_ns.append(time.perf_counter_ns() - started)
                if (
                    wait
                    and not verdict.certain
                    and not verdict.drop
                    and defers.get(id(record), 0) < max_defers
                    and number < len(site.pages)
                ):
                    # Sent back to wait, as the middleware does: judged again with the
                    # next page of the site seen.
                    defers[id(record)] = defers.get(id(record), 0) + 1
                    waiting.append((page_number, record))
                    continue
                tally.add(site.name, record, verdict.drop, page_number)
                fold = fold_of(site.name)
                if fold not in tally.folds:
                    tally.folds[fold] = Tally()
                tally.folds[fold].add(site.name, record, verdict.drop, page_number)
                if verdict.drop:
                    for reason in verdict.reasons:
                        tally.reasons[reason] += 1
            pending = waiting
    return tally


def main_content_images(sites: list[Site]) -> dict[int, list[str]]:
    """The photos ``Cleaner`` (one per site, pages in order) finds in each page's main
    content (the ``content`` group of ``page_images``, as ``CleanPipeline`` tells the ad
    filter: ``is_content_photo``)."""
    from scrapy_webclean import Cleaner
    from scrapy_webclean.errors import CleanError

    found: dict[int, list[str]] = {}
    for site in sites:
        cleaner = Cleaner()
        for page in site.pages:
            try:
                result = cleaner.clean(page.html, page.url)
            except CleanError:
                found[id(page)] = []
                continue
            found[id(page)] = [
                i.src
                for i in result.images_by_label().get("content", [])
                if is_content_photo(i.width, i.height, i.link)
            ]
    return found


def _redundancy_only(model: AdImageModel, record: Record) -> Verdict:
    verdict = model.judge(record.img_src, record.page_url)
    drop = "redundant" in verdict.reasons
    return Verdict(drop, "template" if drop else "content", 0.0)


def _keywords_only(model: AdImageModel, record: Record) -> Verdict:
    verdict = model.judge(record.img_src, record.page_url)
    drop = "noise_words" in verdict.reasons
    return Verdict(drop, "ad" if drop else "content", 0.0)


def _sizes_only(model: AdImageModel, record: Record) -> Verdict:
    raw = record.raw
    link = ImageLink(
        record.page_url,
        record.img_src,
        width=as_int(raw.get("width")),
        height=as_int(raw.get("height")),
    )
    drop = geometry(link) is not None
    return Verdict(drop, "ad" if drop else "content", 0.0)


# -- report --------------------------------------------------------------------------------


def _f(x: float) -> str:
    return f"{x:.3f}"


def report(
    name: str, rows: list[tuple[str, Tally]], audit: list[tuple[str, int]] | None = None
) -> str:
    out = [f"## {name}", ""]
    for per_url in (False, True):
        out.append("Per unique image URL:" if per_url else "Per link (every `<img>` occurrence):")
        out.append("")
        out.append(
            "| model | links | ad precision | ad recall | ad F1 | pixels dropped "
            "| template dropped | ads+pixels+template dropped | content dropped "
            "| judge median µs |"
        )
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        for label, tally in rows:
            row = tally.row(per_url)
            median = statistics.median(tally.judge_ns) / 1000 if tally.judge_ns else 0.0
            out.append(
                f"| {label} | {int(row['links'])} | {_f(row['ad_precision'])} | "
                f"{_f(row['ad_recall'])} | {_f(row['ad_f1'])} | {_f(row['pixel_dropped'])} | "
                f"{_f(row['template_dropped'])} | "
                f"{_f(row['noise_dropped'])} | {_f(row['content_dropped'])} | {median:.1f} |"
            )
        out.append("")
    first = rows[0][1]
    if first.folds:
        out.append(
            f"{rows[0][0]} per domain-disjoint fold (folds.py; every figure is on sites no "
            "threshold was fitted on only if it holds on every fold):"
        )
        out.append("")
        out.append(
            "| fold | sites | links | ad recall | ads+pixels+template dropped | "
            "content dropped per link | per unique URL |"
        )
        out.append("|---|---|---|---|---|---|---|")
        for fold in range(FOLDS):
            part = first.folds.get(fold)
            if part is None:
                continue
            row, by_url = part.row(), part.row(True)
            sites = len({site for site, _ in part.url_kind})
            out.append(
                f"| {fold} | {sites} | {int(row['links'])} | {_f(row['ad_recall'])} | "
                f"{_f(row['noise_dropped'])} | {_f(row['content_dropped'])} | "
                f"{_f(by_url['content_dropped'])} |"
            )
        out.append("")
    if first.reasons:
        reasons = ", ".join(
            f"{k} {v}" for k, v in sorted(first.reasons.items(), key=lambda kv: -kv[1])
        )
        out.append(f"Reasons among the links {rows[0][0]} dropped: {reasons}.")
        out.append("")
    if first.content_lost_by_site:
        lost = sorted(first.content_lost_by_site.items(), key=lambda kv: -kv[1])[:5]
        total = sum(first.content_lost_by_site.values())
        listed = ", ".join(f"{site} {count}" for site, count in lost)
        out.append(
            f"Content links {rows[0][0]} dropped, {total} in all; the sites with most: {listed}."
        )
        out.append("")
    if audit:
        content = first.links["content"]
        out.append(
            f"What the content links {rows[0][0]} dropped are, by the rules of "
            "`audit_content_losses` (an audit of the labels; the tables above keep them):"
        )
        out.append("")
        out.append("| what | links | share of all content links |")
        out.append("|---|---|---|")
        for kind, count in audit:
            out.append(f"| {kind} | {count} | {count / content:.3%} |")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' ads/ folder")
    parser.add_argument("--limit-sites", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--no-demo", action="store_true")
    parser.add_argument(
        "--quick", action="store_true", help="ours and ours + EasyList only (no baselines)"
    )
    args = parser.parse_args(argv)

    started = time.time()
    options = AdModelOptions()
    filter_path = args.data / "easylist-2023-10-22.txt"
    filter_list = FilterList.load(str(filter_path)) if filter_path.exists() else None
    sets = [("ads", load_ads_set(args.data, args.limit_sites))]
    if not args.no_demo:
        sets.append(("demo site truth", load_demo_set()))
    results: dict[str, Any] = {}
    print("# Ad and template image links dropped before fetch\n")
    print(
        "ours = scrapy_webclean.ads.AdImageModel with default options; pages per site fed in "
        f"file order; images judged once the site has {options.min_pages} pages (or at its last "
        "page). The filter list is the set's own EasyList snapshot (its labels come from it).\n"
    )
    for name, sites in sets:
        rows: list[tuple[str, Tally]] = [("ours", run(sites, options))]
        if not args.quick:
            rows.append(
                ("ours, judged once at 4 pages (no deferral)", run(sites, options, max_defers=0))
            )
        if filter_list is not None:
            rows.append(("ours + EasyList", run(sites, options, filter_list)))
        if not args.quick:
            rows.append(
                (
                    "ours in a crawl (the cleaner's main-content photos never dropped)",
                    run(sites, options, main_content=main_content_images(sites)),
                )
            )
        if not args.quick:
            rows.append(("ours, judged at once (no waiting)", run(sites, options, wait=False)))
            rows.append(
                ("URL redundancy alone (NRelm2)", run(sites, options, judge=_redundancy_only))
            )
            rows.append(("keywords alone (NRelm1)", run(sites, options, judge=_keywords_only)))
        if name == "ads" and not args.quick:
            rows.append(("standard ad sizes alone", run(sites, options, judge=_sizes_only)))
        audit = audit_content_losses(sites, rows[0][1].content_lost)
        title = f"{name} ({len(sites)} sites, {sum(len(s.pages) for s in sites)} pages)"
        print(report(title, rows, audit))
        results[name] = {
            label: {
                "per_link": t.row(),
                "per_url": t.row(True),
                "judge_median_us": statistics.median(t.judge_ns) / 1000,
            }
            for label, t in rows
        }
        results[name]["ours content losses audited"] = dict(audit)
    print(f"Total runtime: {time.time() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
