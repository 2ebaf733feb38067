"""Where a page's cleaning time goes, stage by stage, beside issue 20's time limits.

Usage::

    .venv/bin/python benchmarks/stage_times.py ../shared/datasets/extract \\
        [--models benchmarks/models] [--sets scrapinghub,wcxb-dev,dragnet-gold]

Per set, in one run and in crawl order, as ``extraction.py`` runs them (warmed up the same
way, ``extractors.warmed_extractor``; ``--models`` gives ``ours`` its fold models):

- ``ours`` as it is, first, as ``extraction.py`` runs it: the CPU time of each page's
  ``Cleaner.clean``;
- ``ours`` again, fresh, with every stage of :data:`STAGES` timed where the cleaner calls
  it (each function wrapped in every module that imported it, for this pass only): per
  page the CPU time spent inside each stage, the stages a page calls twice summed, and
  the rest of each stage that calls others (``clean``'s rest is the template model, the
  result and the garbage collector's deferred run);
- trafilatura and the bare lxml parse, for the limits (trafilatura's median / 2.5 and 6
  times the parse's median).

Prints, per set, each stage's median and mean CPU ms a page and its share of the mean
cleaning time (a stage inside another is indented under it; ``clean`` is the whole call
in the timed pass, whose wrappers add a few microseconds), and the limits beside
``ours``'s median and the median of what every page pays before any extraction decision
(loading, the page model's walk, the lines, the title, the date and the language).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from datasets import crawl_order, load_set  # noqa: E402
from extractors import ours_setup, peer_html, warmed_extractor  # noqa: E402

DEFAULT_SETS = ("scrapinghub", "wcxb-dev", "dragnet-gold")
#: issue 20's limits: at most trafilatura's median over this, and this many lxml parses.
TRAFILATURA_DIVISOR = 2.5
PARSE_FACTOR = 6.0


@dataclass(frozen=True, slots=True)
class Stage:
    """A function of the cleaning timed as one stage: ``target`` is ``module:name`` or
    ``module:Class.method`` under ``scrapy_webclean``; ``within`` the stage that calls it."""

    label: str
    target: str
    within: str = ""


#: The stages, in the order a page goes through them (``within`` names the caller).
STAGES: tuple[Stage, ...] = (
    Stage("clean", "cleaning:Cleaner.clean"),
    Stage("load and parse", "html.loader:load_html", "clean"),
    Stage("page model walk", "html.pagewalk:build_page_model", "clean"),
    Stage("title", "extraction.title:pick_title", "clean"),
    Stage("lines", "extraction.lines:build_lines", "clean"),
    Stage("template signatures", "extraction.template:line_signatures", "clean"),
    Stage("extraction", "extraction.extract:extract_main", "clean"),
    Stage("page-type features", "extraction.pagetype:page_type_features", "extraction"),
    Stage(
        "page-type trees", "extraction.linemodel:LineModel.page_type_probabilities", "extraction"
    ),
    Stage("container hints", "extraction.hints:node_hints", "extraction"),
    Stage("noise flags", "extraction.verdicts:noise_flags", "extraction"),
    Stage("region and page type", "extraction.reading:read_page", "extraction"),
    Stage("line verdicts", "extraction.verdicts:region_verdicts", "extraction"),
    Stage("recovery", "extraction.recovery:second_opinion", "extraction"),
    Stage("line model", "extraction.linemodel:LineModel.decide", "extraction"),
    Stage("line features", "extraction.linefeatures:line_features", "line model"),
    Stage("line trees", "extraction.linemodel:LineModel.probabilities", "line model"),
    Stage("date", "extraction.dates:page_date", "clean"),
    Stage("language", "text.language:guess_language", "clean"),
)
#: The stages every page pays before any extraction decision.
FLOOR_STAGES = ("load and parse", "page model walk", "lines", "title", "date", "language")


def _modules() -> list[Any]:
    import scrapy_webclean

    found = [scrapy_webclean]
    for info in pkgutil.walk_packages(scrapy_webclean.__path__, "scrapy_webclean."):
        try:
            found.append(importlib.import_module(info.name))
        except ImportError:  # (an optional dependency missing: the cleaner cannot use it)
            continue
    return found


@contextmanager
def timed_stages(spent: dict[str, float]) -> Iterator[None]:
    """Within the block, every stage's CPU seconds are added to ``spent[label]``."""
    modules = _modules()
    undo: list[tuple[Any, str, Any]] = []

    def wrap(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        clock = time.process_time

        def timed(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + clock() - start

        return timed

    try:
        for stage in STAGES:
            module_name, _, name = stage.target.partition(":")
            module = importlib.import_module(f"scrapy_webclean.{module_name}")
            owner_name, _, method = name.rpartition(".")
            if owner_name:  # a method: wrapped on its class
                owner = getattr(module, owner_name)
                undo.append((owner, method, owner.__dict__[method]))
                setattr(owner, method, wrap(stage.label, getattr(owner, method)))
                continue
            original = getattr(module, method)
            timed = wrap(stage.label, original)
            for holder in modules:
                if getattr(holder, method, None) is original:
                    undo.append((holder, method, original))
                    setattr(holder, method, timed)
        yield
    finally:
        for holder, name, value in reversed(undo):
            setattr(holder, name, value)


def _median_ms(seconds: Sequence[float]) -> float:
    return 1000 * statistics.median(seconds) if seconds else 0.0


def measure(data: Path, name: str, models: Path | None) -> dict[str, Any]:
    """One set's per-page times: ``ours``, its stages, trafilatura and the lxml parse."""
    dataset = load_set(data, name)
    dataset.pages = crawl_order(dataset.pages)
    htmls = [peer_html(page.body) for page in dataset.pages]
    setup = ours_setup(models)
    times: dict[str, list[float]] = {}

    def timed_run(extractor: str) -> None:
        run = warmed_extractor(extractor, dataset, htmls, setup)
        times[extractor] = [  # (seconds, as the stages)
            run(page, html).ms / 1000 for page, html in zip(dataset.pages, htmls, strict=True)
        ]

    timed_run("ours")
    run = warmed_extractor("ours", dataset, htmls, setup)
    stages: dict[str, list[float]] = {stage.label: [] for stage in STAGES}
    spent: dict[str, float] = {}
    with timed_stages(spent):
        for page, html in zip(dataset.pages, htmls, strict=True):
            spent.clear()
            run(page, html)
            for label, seconds in stages.items():
                seconds.append(spent.get(label, 0.0))
    timed_run("trafilatura")
    timed_run("lxml")
    floor = [sum(parts) for parts in zip(*(stages[s] for s in FLOOR_STAGES), strict=True)]
    return {"pages": len(dataset.pages), "times": times, "stages": stages, "floor": floor}


def _rest(stages: dict[str, list[float]], parent: str) -> list[float]:
    """Per page, the time of ``parent`` outside the stages it calls."""
    children = [stages[s.label] for s in STAGES if s.within == parent]
    return [total - sum(parts) for total, *parts in zip(stages[parent], *children, strict=True)]


def _stage_rows(
    stages: dict[str, list[float]], parent: str = "", level: int = 0
) -> list[tuple[int, str, list[float]]]:
    """``(level, label, times)`` of the stages ``parent`` calls, in :data:`STAGES` order,
    each followed by the stages it calls and the rest of its time."""
    rows: list[tuple[int, str, list[float]]] = []
    for stage in STAGES:
        if stage.within != parent:
            continue
        rows.append((level, stage.label, stages[stage.label]))
        if any(other.within == stage.label for other in STAGES):
            rows += _stage_rows(stages, stage.label, level + 1)
            rows.append((level + 1, f"(the rest of {stage.label})", _rest(stages, stage.label)))
    return rows


def report(name: str, result: dict[str, Any]) -> list[str]:
    """The set's tables, as Markdown lines."""
    times, stages = result["times"], result["stages"]
    mean_clean = statistics.mean(stages["clean"]) or 1.0
    rows = _stage_rows(stages)
    out = [f"## {name} ({result['pages']} pages)", ""]
    out += ["| stage | median ms | mean ms | share of the mean |", "|---|---|---|---|"]
    for level, label, values in rows:
        out.append(
            f"| {'— ' * level}{label} | {_median_ms(values):.2f} "
            f"| {1000 * statistics.mean(values):.2f} "
            f"| {statistics.mean(values) / mean_clean:.0%} |"
        )
    ours = _median_ms(times["ours"])
    limit_peer = _median_ms(times["trafilatura"]) / TRAFILATURA_DIVISOR
    limit_parse = PARSE_FACTOR * _median_ms(times["lxml"])
    floor = _median_ms(result["floor"])
    out += [
        "",
        "| median CPU ms a page | ms | ÷ trafilatura / 2.5 | ÷ 6 × lxml parse |",
        "|---|---|---|---|",
        f"| ours (untimed stages) | {ours:.2f} | {ours / limit_peer:.2f} "
        f"| {ours / limit_parse:.2f} |",
        f"| before any extraction decision ({', '.join(FLOOR_STAGES)}) | {floor:.2f} "
        f"| {floor / limit_peer:.2f} | {floor / limit_parse:.2f} |",
        f"| trafilatura | {_median_ms(times['trafilatura']):.2f} | – | – |",
        f"| lxml parse | {_median_ms(times['lxml']):.2f} | – | – |",
        "",
        f"Limits: trafilatura / 2.5 = {limit_peer:.2f} ms, 6 × the parse = {limit_parse:.2f} ms.",
        "",
    ]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--models", type=Path, default=None, help="fold models, as extraction.py")
    args = parser.parse_args(argv)
    print("# Where a page's cleaning time goes\n")
    print(
        "CPU time per page, each set in crawl order; `ours` "
        + ("with the fold models of " + str(args.models) if args.models else "as configured")
        + ". A stage's time is its own and its callees' (indented under it).\n"
    )
    for name in (s for s in args.sets.split(",") if s):
        print("\n".join(report(name, measure(args.data, name, args.models))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
