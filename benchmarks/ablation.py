"""Which extraction rules earn their place: each rule family switched off in turn.

Usage::

    .venv/bin/python benchmarks/ablation.py ../shared/datasets/extract --models benchmarks/models \\
        [--families recovery,editor-line,...] [--sets scrapinghub,wcxb-dev,...] \\
        [--resamples 2000] [--out benchmarks/results/ablation.md] [--per-page-dir DIR]

Every page of the dev sets is cleaned by ``ours`` cross-validated (a page of fold k with
``DIR/fold{k}.json``, as ``extraction.py --models DIR``), once as the package stands and
once with each rule family of :data:`FAMILIES` switched off: an option set to the value
that disables it, or the function that applies it replaced by one that does nothing (in
the module that calls it, for this process only). Each set's headline metric (as
``extraction.py`` and ``compare_runs.py`` compute it) is compared page by page with the
full rulebook: the change and its paired bootstrap 95% interval
(``compare_runs.paired_interval``). A family whose interval includes 0 on every set is a
removal candidate (``remove?``); the report says which. The line model is the one trained
with every rule on (its features include the rules' verdicts), so a family's figure is
what switching it off costs with today's models.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_runs import headline, paired_interval, set_figure
from datasets import load_sets
from extraction_runs import per_page_records, run_extractors
from extractors import ours_setup
from report_tables import md_table

DEV_SETS = ("scrapinghub", "wcxb-dev", "dragnet-gold", "zh-news-silver")


def _nothing(*_args: Any, **_kwargs: Any) -> None:
    """A rule that changes nothing (the rules that edit ``kept`` in place)."""


def _never(*_args: Any, **_kwargs: Any) -> bool:
    return False


def _always(*_args: Any, **_kwargs: Any) -> bool:
    return True


def _same_ranges(_model: Any, ranges: Any, *_args: Any, **_kwargs: Any) -> Any:
    return ranges


def _copy_of_noisy(_model: Any, _lines: Any, noisy: list[bool]) -> list[bool]:
    return noisy[:]


def _none_flagged(lines: Sequence[Any]) -> list[bool]:
    return [False] * len(lines)


def _no_script_text(*_args: Any, **_kwargs: Any) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Family:
    """One rule family: what it does, and how it is switched off -- ``options`` (fields of
    ``ExtractOptions`` and their disabling values) or ``patches`` (``module:attribute``
    and the stand-in)."""

    name: str
    rule: str
    options: tuple[tuple[str, Any], ...] = ()
    patches: tuple[tuple[str, Callable[..., Any]], ...] = ()


_EXTRACT = "scrapy_webclean.extraction.extract"
_VERDICTS = "scrapy_webclean.extraction.verdicts"
_READING = "scrapy_webclean.extraction.reading"
_HINTS = "scrapy_webclean.extraction.hints"
_INF = float("inf")

#: The rule families, each switched off in turn.
FAMILIES: tuple[Family, ...] = (
    Family(
        "recovery",
        "prose outside the region by path and TF-IDF cosine",
        (("recover_outside_region", False),),
    ),
    Family(
        "gallery-captions",
        "captions kept on a page that kept next to nothing",
        (("gallery_max_units", 0.0),),
    ),
    Family(
        "repeated-copies",
        "a kept line repeating an earlier one elsewhere dropped",
        (("repeat_min_units", _INF),),
    ),
    Family("short-page", "a short page's best subtree kept", (("short_page_min_score", None),)),
    Family("landing", "a site's front page read whole", (("landing_pages", False),)),
    Family("thread-region", "a forum region widened to all posts", (("thread_min_posts", 10**9),)),
    Family(
        "surely-article",
        "the page-type model keeps a story from a listing",
        (("listing_article_probability", 2.0),),
    ),
    Family(
        "collection-grid",
        "a collection keeps its grid and introduction",
        (("collection_grid_probability", 2.0),),
    ),
    Family(
        "declared-lines",
        "lines the structured data declares kept",
        patches=((f"{_EXTRACT}:keep_declared_lines", _nothing),),
    ),
    Family(
        "related-headings",
        "sections under a 'related' heading dropped",
        patches=((f"{_EXTRACT}:drop_after_related_headings", _nothing),),
    ),
    Family(
        "repeated-buy-box",
        "a product page's repeated lines dropped",
        patches=((f"{_EXTRACT}:drop_repeated_lines", _nothing),),
    ),
    Family(
        "linked-headings",
        "section headings linking into the page kept",
        patches=((f"{_EXTRACT}:keep_linked_headings", _nothing),),
    ),
    Family(
        "introduced-lists",
        "linked items of a list a kept line introduces kept",
        patches=((f"{_EXTRACT}:keep_introduced_lists", _nothing),),
    ),
    Family(
        "stranded-labels",
        "a link box's label left alone dropped",
        patches=((f"{_EXTRACT}:drop_stranded_labels", _nothing),),
    ),
    Family(
        "editor-line",
        "what follows a Chinese editor line dropped",
        patches=((f"{_EXTRACT}:drop_after_editor_line", _nothing),),
    ),
    Family(
        "thread-retry",
        "a page keeping nothing read again as a thread",
        patches=((f"{_EXTRACT}:looks_like_dated_post", _always),),
    ),
    Family(
        "spare-prose",
        "prose and code naming a noise word spared",
        patches=((f"{_EXTRACT}:spare_prose_and_code", _copy_of_noisy),),
    ),
    Family(
        "drop-only-lines",
        "calls to action, tag lines, related-link lines dropped",
        patches=((f"{_EXTRACT}:drop_only_flags", _none_flagged),),
    ),
    Family(
        "article-body",
        "region widened to the article body",
        patches=((f"{_READING}:widen_to_article_body", _same_ranges),),
    ),
    Family(
        "forum-url",
        "forum addresses read as threads",
        patches=((f"{_EXTRACT}:looks_like_forum", _never),),
    ),
    Family(
        "declared-discussion",
        "declared discussion pages read as threads",
        patches=((f"{_EXTRACT}:declares_discussion", _never),),
    ),
    Family(
        "hint-not-text",
        "containers marked not-text by role/itemprop",
        patches=((f"{_HINTS}:_marked_not_text", _never),),
    ),
    Family(
        "hint-forms", "fill-in forms marked negative", patches=((f"{_HINTS}:_fill_in", _never),)
    ),
    Family(
        "hint-beside-text",
        "side columns beside the text marked negative",
        patches=((f"{_HINTS}:_beside_the_text", _never),),
    ),
    Family(
        "picture-credits",
        "short picture credits are noise",
        patches=((f"{_VERDICTS}:is_picture_credit", _never),),
    ),
    Family(
        "ui-lines", "a control's label is noise", patches=((f"{_VERDICTS}:is_ui_line", _never),)
    ),
    Family(
        "notices",
        "legal, no-script and status notices are noise",
        patches=((f"{_VERDICTS}:is_notice", _never),),
    ),
    Family(
        "calls-to-action",
        "calls to action dropped",
        patches=((f"{_VERDICTS}:is_call_to_action", _never),),
    ),
    Family(
        "taxonomy-lines",
        "tag and category lines dropped",
        patches=((f"{_VERDICTS}:is_taxonomy_line", _never),),
    ),
    Family(
        "related-link-lines",
        "'Read more: <title>' lines dropped",
        patches=((f"{_VERDICTS}:is_related_link_line", _never),),
    ),
    Family(
        "script-text",
        "text read from JSON-LD / script state",
        patches=(("scrapy_webclean.cleaning:script_text", _no_script_text),),
    ),
)


@contextmanager
def switched_off(family: Family | None) -> Iterator[None]:
    """The package with ``family`` switched off (as it is with None)."""
    if family is None:
        yield
        return
    saved: list[tuple[Any, str, Any]] = []
    patches = list(family.patches)
    if family.options:
        cleaning = import_module("scrapy_webclean.cleaning")
        original = cleaning.extract_main
        overrides = dict(family.options)

        def with_options(
            model: Any, lines: Any, noise: Any, title: Any, opts: Any, *rest: Any
        ) -> Any:
            return original(
                model, lines, noise, title, dataclasses.replace(opts, **overrides), *rest
            )

        patches.append(("scrapy_webclean.cleaning:extract_main", with_options))
    noise_text = import_module(_VERDICTS).is_noise_text  # remembers verdicts by text
    noise_text.cache_clear()
    try:
        for target, stand_in in patches:
            module_name, attribute = target.split(":")
            module = import_module(module_name)
            saved.append((module, attribute, getattr(module, attribute)))
            setattr(module, attribute, stand_in)
        yield
    finally:
        for module, attribute, value in reversed(saved):
            setattr(module, attribute, value)
        noise_text.cache_clear()


def run_all(
    datasets: Sequence[Any], setup: Any, family: Family | None, log: Callable[[str], None]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per set, per page id, ``ours``'s per-page scores with ``family`` off."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    with switched_off(family):
        for dataset in datasets:
            htmls = [""] * len(dataset.pages)  # ``ours`` reads the page's bytes
            results = run_extractors(["ours"], dataset, htmls, log, setup=setup)
            out[dataset.name] = {
                rec["id"]: rec["extractors"]["ours"]
                for rec in per_page_records(dataset, results)
                if rec["scored"]
            }
    return out


def compare_sets(
    base: dict[str, dict[str, dict[str, Any]]],
    off: dict[str, dict[str, dict[str, Any]]],
    resamples: int,
) -> dict[str, tuple[float, float, float, float]]:
    """Per set: (figure with every rule, change with the family off, interval low, high)."""
    figures = {}
    for set_name, pages in base.items():
        ids = sorted(pages)
        old = [pages[i] for i in ids]
        new = [off[set_name][i] for i in ids]
        _, field = headline(set_name, old)
        first, last = set_figure(old, field), set_figure(new, field)
        low, high = paired_interval(old, new, field, resamples)
        figures[set_name] = (first, last - first, low, high)
    return figures


def report(
    rows: list[tuple[Family, dict[str, tuple[float, float, float, float]]]],
    base_figures: dict[str, float],
    resamples: int,
) -> str:
    sets = list(base_figures)
    out = [
        "# Extraction rules switched off one family at a time",
        "",
        f"`python benchmarks/ablation.py <extract> --models benchmarks/models`; {time.strftime('%Y-%m-%d')}; "
        f"paired bootstrap over pages, {resamples} resamples, 95% interval; `ours` "
        "cross-validated by domain (5 folds).",
        "",
        "With every rule: " + ", ".join(f"{s} {v:.5f}" for s, v in base_figures.items()) + ".",
        "",
        "Each cell: the change of the set's headline metric when the family is off "
        "[interval]. A negative change means the rule helps. `remove?`: the interval "
        "includes 0 on every set.",
        "",
    ]
    table = []
    for family, figures in rows:
        cells = [family.name, family.rule]
        spans_zero = True
        for s in sets:
            _, change, low, high = figures[s]
            cells.append(f"{change:+.4f} [{low:+.4f}, {high:+.4f}]")
            spans_zero = spans_zero and low <= 0.0 <= high
        cells.append("yes" if spans_zero else "no")
        table.append(cells)
    out.append(md_table(["family", "rule", *sets, "remove?"], table))
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path, help="the extract/ folder of the shared datasets")
    parser.add_argument("--models", type=Path, required=True, help="the fold models (fold{k}.json)")
    parser.add_argument("--families", default="", help="comma-separated family names (all)")
    parser.add_argument("--sets", default=",".join(DEV_SETS))
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=None, help="write the report here too")
    parser.add_argument(
        "--per-page-dir",
        type=Path,
        default=None,
        help="keep each run's per-page scores here (DIR/<family>.json, 'all-rules.json'); "
        "a run whose file is there already is read, not made again",
    )
    args = parser.parse_args(argv)
    known = {f.name: f for f in FAMILIES}
    names = [n for n in args.families.split(",") if n] or list(known)
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"--families: unknown {', '.join(unknown)}; known: {', '.join(known)}")

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    datasets = load_sets(args.data, [s for s in args.sets.split(",") if s])
    setup = ours_setup(args.models)

    def scores_with(family: Family | None) -> dict[str, dict[str, dict[str, Any]]]:
        stored = None
        if args.per_page_dir is not None:
            stored = args.per_page_dir / f"{family.name if family else 'all-rules'}.json"
            if stored.exists():
                return dict(json.loads(stored.read_text(encoding="utf-8")))
        scores = run_all(datasets, setup, family, log)
        if stored is not None:
            stored.parent.mkdir(parents=True, exist_ok=True)
            stored.write_text(json.dumps(scores), encoding="utf-8")
        return scores

    base = scores_with(None)
    base_figures = {}
    for set_name, pages in base.items():
        entries = list(pages.values())
        base_figures[set_name] = set_figure(entries, headline(set_name, entries)[1])
    rows = []
    for name in names:
        log(f"family {name}")
        off = scores_with(known[name])
        rows.append((known[name], compare_sets(base, off, args.resamples)))
        partial = report(rows, base_figures, args.resamples)
        if args.out is not None:
            args.out.write_text(partial, encoding="utf-8")
    print(report(rows, base_figures, args.resamples))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
