"""Where the page model's time goes: the walk of ``html.pagewalk.build_page_model`` set
beside lxml's own walk of the same parsed tree, per page and per element.

Usage::

    .venv/bin/python benchmarks/page_model_walk.py ../shared/datasets/extract \\
        [--sets scrapinghub,wcxb-dev,dragnet-gold] [--repeat 3]

Every page of a set is decoded as the extraction benchmark gives it to every extractor
(``extraction.peer_html``) and parsed once (``html.loader.load_html``). Then, per page,
the median CPU time over ``--repeat`` runs of:

- the parse: ``load_html`` (decode, parse, the loader's checks);
- lxml's walk: ``etree.iterwalk`` over start and end events, reading each element's tag,
  text, ``style`` and ``hidden`` attributes at its start and its tail at its end (the
  least any walk that builds a page model must read);
- the page model: ``build_page_model`` on the same tree.

Prints, per set, the medians over its pages of the elements walked (the page model's
elements: ``hidden`` subtrees are skipped) and of each time, the page model's time per
element beside lxml's, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from datasets import crawl_order, load_set  # noqa: E402
from extractors import peer_html  # noqa: E402
from lxml import etree  # noqa: E402

from scrapy_webclean.html.loader import load_html  # noqa: E402
from scrapy_webclean.html.pagewalk import build_page_model  # noqa: E402

DEFAULT_SETS = ("scrapinghub", "wcxb-dev", "dragnet-gold")


def lxml_walk(root: etree._Element) -> None:
    """What every walk that builds a page model reads, and nothing more."""
    for event, element in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            _ = element.tag, element.text, element.get("style"), element.get("hidden")
        else:
            _ = element.tail


def cpu_median(run: Callable[[], object], repeat: int) -> float:
    """The median CPU seconds of ``repeat`` calls of ``run``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def measure(data: Path, name: str, repeat: int) -> dict[str, float]:
    """The medians over a set's pages (ms, µs per element, elements)."""
    rows = []
    for page in crawl_order(load_set(data, name).pages):
        html = peer_html(page.body)
        root = load_html(html).root
        model = build_page_model(root, page.url)
        elements = max(1, len(model.tags))
        parse = cpu_median(lambda html=html: load_html(html), repeat)
        walk = cpu_median(lambda root=root: lxml_walk(root), repeat)
        built = cpu_median(lambda root=root, url=page.url: build_page_model(root, url), repeat)
        rows.append((elements, parse, walk, built, walk / elements, built / elements))
    columns = list(zip(*rows, strict=True))
    elements, parse, walk, built, walk_each, built_each = (statistics.median(c) for c in columns)
    return {
        "pages": len(rows),
        "elements": elements,
        "parse_ms": 1000 * parse,
        "walk_ms": 1000 * walk,
        "model_ms": 1000 * built,
        "walk_us": 1e6 * walk_each,
        "model_us": 1e6 * built_each,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="the datasets' extract/ folder")
    parser.add_argument("--sets", default=",".join(DEFAULT_SETS))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("# The page model's walk beside lxml's\n")
    print(
        "Medians over each set's pages of CPU time per page (median of "
        f"{args.repeat} runs each) and per element walked.\n"
    )
    print(
        "| set | pages | elements | load_html ms | lxml walk ms | build_page_model ms "
        "| lxml µs / element | page model µs / element | page model ÷ lxml walk |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in (s for s in args.sets.split(",") if s):
        r = measure(args.data, name, args.repeat)
        print(
            f"| {name} | {r['pages']} | {r['elements']:.0f} | {r['parse_ms']:.2f} "
            f"| {r['walk_ms']:.2f} | {r['model_ms']:.2f} | {r['walk_us']:.2f} "
            f"| {r['model_us']:.2f} | {r['model_us'] / r['walk_us']:.1f}× |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
