"""What jieba costs (issue 19): its dictionary load, the characters it cuts per second beside
the character bigrams used where words do not matter, and the page cleaning and ad-image
observation on real Chinese pages before and after jieba was put to use.

Usage::

    python benchmarks/jieba_cost.py [--pages ../shared/datasets/extract/zh-news-silver]
        [--before f8a0ba9] [--after HEAD] [--repeat 3] [--rounds 2]

jieba cuts the Chinese words of image links' anchor, alt and title text (the ad models
NRelm1 and NRelm3), the blocks of the in-page TF-IDF and the paragraphs that query keywords
are looked for in; before, those used whole Chinese runs (ads) and character bigrams
(TF-IDF). The default revisions are the last commit before that change and the current
code (``HEAD``), which holds everything since, the extraction work of issue 20 too: the
figure that isolates jieba is the in-process one, the TF-IDF's text tokenized both ways in
the same process (``--after 7f1e1b4`` compares with the commit that finished the change,
before jieba's words were cut by ``text/segmenter.py``). The cleaning is measured in a
child process per git revision (``--before`` and ``--after``, each exported with ``git
archive``, so that uncommitted work in the tree does not count), after a warm-up (jieba and
py3langid loaded, one page cleaned): the median CPU ms per page and the CPU s per pass, best
of ``--repeat`` passes, each pass starting with no remembered jieba cut (the cache helps
only across the pages of one pass, as across the pages of one site in a crawl).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lxml.html  # noqa: E402

DEFAULT_PAGES = ROOT.parent / "shared" / "datasets" / "extract" / "zh-news-silver"
_CJK_RUN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")

# Run in a child process with one revision's package first on sys.path: clean every page
# and observe its images with a fresh AdImageModel, once to warm up, then ``repeat`` times.
_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from scrapy_webclean.ads import AdImageModel
from scrapy_webclean.cleaning import clean_html
paths, repeat = json.loads(sys.argv[2]), int(sys.argv[3])
import gzip
pages = [gzip.decompress(open(p, "rb").read()) if p.endswith(".gz") else open(p, "rb").read()
         for p in paths]
def one_pass():
    clean, observe = [], []
    for number, page in enumerate(pages):
        started = time.process_time()
        clean_html(page, f"https://zh.example/{number}.html")
        clean.append(time.process_time() - started)
    model = AdImageModel()
    for number, page in enumerate(pages):
        started = time.process_time()
        model.observe_page(f"https://zh.example/{number}.html", page)
        observe.append(time.process_time() - started)
    return clean, observe
import importlib
tokenize_module = importlib.import_module("scrapy_webclean.text.tokenize")
started = time.process_time()
tokenize_module.tokenize("预热")  # (loads jieba: its load is measured apart)
clean_html(pages[0], "https://zh.example/0.html")
AdImageModel().observe_page("https://zh.example/0.html", pages[0])
warm_up = time.process_time() - started
def forget_cuts():
    # Each pass starts with no remembered cut: the pages of a crawl are each seen once.
    cut = getattr(tokenize_module, "_cut", None)
    if cut is not None:
        cut.cache_clear()
best = None
for _ in range(repeat):
    forget_cuts()
    clean, observe = one_pass()
    if best is None or sum(clean) < sum(best[0]):
        best = (clean, observe)
import scrapy_webclean
print(json.dumps({"warm_up": warm_up, "clean": best[0], "observe": best[1],
                  "package": scrapy_webclean.__file__}))
"""


def page_paths(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.name.endswith((".html", ".html.gz")))


def read(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def chinese_text(pages: list[bytes]) -> list[str]:
    """The text of each page (markup, scripts and styles left out)."""
    texts = []
    for page in pages:
        root = lxml.html.document_fromstring(page)
        for bad in root.xpath("//script|//style"):
            bad.drop_tree()
        texts.append(root.text_content())
    return texts


def load_cost() -> float:
    """Seconds a fresh process spends in its first jieba cut (the dictionary load)."""
    script = (
        "import time; from scrapy_webclean.text.tokenize import tokenize\n"
        "t = time.perf_counter(); tokenize('点击查看广告'); print(time.perf_counter() - t)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return float(done.stdout.strip())


def chars_per_second(texts: list[str]) -> list[tuple[str, float]]:
    import jieba

    from scrapy_webclean.ads.features import tokens
    from scrapy_webclean.text.tokenize import _cut, overlap_tokens, search_tokens, tokenize

    tokenize("预热")  # (the dictionary load is measured apart)
    chinese = sum(len(run) for text in texts for run in _CJK_RUN_RE.findall(text))

    def jieba_own_loop(text: str) -> None:
        for run in _CJK_RUN_RE.findall(text):
            jieba.lcut(run, HMM=False)

    rows = []
    for name, function in (
        ("jieba.lcut(HMM=False) on each Chinese run (jieba's own loop)", jieba_own_loop),
        ("tokenize (jieba words, text.segmenter's loop)", tokenize),
        ("search_tokens (jieba search mode)", search_tokens),
        ("ads tokens (jieba words)", tokens),
        ("overlap_tokens (character bigrams)", overlap_tokens),
    ):
        _cut.cache_clear()  # (each tokenizer cuts every run itself)
        started = time.process_time()
        for text in texts:
            function(text)
        rows.append((name, chinese / (time.process_time() - started)))
    return rows


def tfidf_share(pages: list[bytes]) -> tuple[int, int, float, float, float, float]:
    """The in-page TF-IDF, where cleaning pays jieba's cut, over a pass of ``clean_html``
    (the second; the cut cache emptied before it):
    pages that computed it, characters it read, CPU s in it and in the whole pass; then the
    CPU s of tokenizing what it read with jieba (``content_tokens``, as now) and with
    character bigrams (``overlap_tokens``, as before), each from a cold cut cache."""
    from scrapy_webclean.cleaning import clean_html
    from scrapy_webclean.extraction import recovery
    from scrapy_webclean.extraction.tfidf import prune_scores
    from scrapy_webclean.text.tokenize import _cut, content_tokens, overlap_tokens

    calls: list[tuple[list[str], float]] = []

    def timed(texts: Sequence[str]) -> tuple[int, list[float]]:
        started = time.process_time()
        result = prune_scores(texts)
        calls.append((list(texts), time.process_time() - started))
        return result

    for number, page in enumerate(pages):  # (a first pass loads what cleaning loads)
        clean_html(page, f"https://zh.example/{number}.html")
    _cut.cache_clear()
    recovery.prune_scores = timed
    try:
        started = time.process_time()
        for number, page in enumerate(pages):
            clean_html(page, f"https://zh.example/{number}.html")
        total = time.process_time() - started
    finally:
        recovery.prune_scores = prune_scores
    read = [text for texts, _ in calls for text in texts]
    costs = []
    for tokens in (content_tokens, overlap_tokens):
        _cut.cache_clear()
        started = time.process_time()
        for text in read:
            tokens(text)
        costs.append(time.process_time() - started)
    chars = sum(map(len, read))
    return len(calls), chars, sum(t for _, t in calls), total, costs[0], costs[1]


def revision_tree(revision: str, into: Path) -> Path:
    """The package at ``revision``, exported into ``into`` (git archive, no checkout)."""
    archive = subprocess.run(
        ["git", "archive", revision, "scrapy_webclean"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def cleaning_cost(tree: Path, paths: list[Path], repeat: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tree), json.dumps([str(p) for p in paths]), str(repeat)],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
    )
    if done.returncode:
        raise RuntimeError(f"the cleaning of {tree} failed:\n{done.stderr}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _total(values: object) -> float:
    assert isinstance(values, list)
    return float(sum(values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=Path, default=DEFAULT_PAGES)
    parser.add_argument("--before", default="f8a0ba9", help="revision without jieba's use")
    parser.add_argument("--after", default="HEAD", help="revision with jieba in use")
    parser.add_argument("--repeat", type=int, default=3, help="passes per child process")
    parser.add_argument("--rounds", type=int, default=2, help="child processes per revision")
    args = parser.parse_args()

    paths = page_paths(args.pages)
    pages = [read(p) for p in paths]
    texts = chinese_text(pages)
    chinese = sum(len(run) for text in texts for run in _CJK_RUN_RE.findall(text))
    print(f"# jieba's cost: {len(pages)} pages of {args.pages.name}, {chinese:,} Chinese chars\n")
    print(f"Dictionary load (first cut in a fresh process): {load_cost():.2f} s\n")
    print("| tokenizer (on the pages' whole text) | Chinese chars per CPU second |")
    print("|---|---|")
    for name, rate in chars_per_second(texts):
        print(f"| {name} | {rate:,.0f} |")

    called, chars, seconds, total, words, bigrams = tfidf_share(pages)
    print(
        f"\nIn-page TF-IDF in one pass of clean_html: computed on {called} of {len(pages)} "
        f"pages, {chars:,} characters, {seconds:.3f} CPU s of the pass's {total:.3f} "
        f"({100 * seconds / total:.1f}%); tokenizing what it read takes {words:.3f} s with "
        f"jieba, {bigrams:.3f} s as character bigrams: jieba adds about "
        f"{100 * (words - bigrams) / total:.1f}% to the pass."
    )

    with tempfile.TemporaryDirectory() as temp:
        revisions = {"before": args.before, "after": args.after}
        trees = {label: revision_tree(rev, Path(temp) / label) for label, rev in revisions.items()}
        results: dict[str, dict[str, object]] = {}
        # The two take turns (other processes' load varies): the best pass of all rounds.
        for _ in range(args.rounds):
            for label, tree in trees.items():
                measured = cleaning_cost(tree, paths, args.repeat)
                best = results.get(label)
                if best is None or _total(measured["clean"]) < _total(best["clean"]):
                    results[label] = measured
                results[label]["revision"] = revisions[label]
    print(
        f"\nPage cleaning (clean_html) and ad-image observation (AdImageModel.observe_page), "
        f"CPU, the best of {args.rounds} x {args.repeat} passes (the revisions taking turns), "
        "each process warmed up first:\n"
    )
    print(
        "| revision | clean median ms | clean s per pass | observe median ms | "
        "observe s per pass | warm-up s |"
    )
    print("|---|---|---|---|---|---|")
    for label in ("before", "after"):
        row = results[label]
        clean, observe = row["clean"], row["observe"]
        assert isinstance(clean, list) and isinstance(observe, list)
        print(
            f"| {label} ({row['revision']}) | {statistics.median(clean) * 1e3:.2f} | "
            f"{sum(clean):.3f} | {statistics.median(observe) * 1e3:.2f} | {sum(observe):.3f} | "
            f"{row['warm_up']:.2f} |"
        )
    before, after = results["before"], results["after"]
    assert isinstance(before["clean"], list) and isinstance(after["clean"], list)
    print(
        f"\nCleaning after / before: {sum(after['clean']) / sum(before['clean']):.3f} (per pass)."
    )


if __name__ == "__main__":
    main()
