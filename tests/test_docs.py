"""The documentation says what the code does: the settings reference lists every setting,
the reference every output field and stats key, the README stays short with links that
work on PyPI, and the demo run the docs quote adds up and agrees with the demo site."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from scrapy_webclean.integration.setting_table import DEFAULT_OUTPUT_FIELDS, SETTINGS
from scrapy_webclean.integration.settings import settings_table

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text("utf-8")


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


reference = _load("settings_reference", DOCS / "_ext" / "settings_reference.py")
check_links = _load("check_links", DOCS / "check_links.py")


def _doc(name: str) -> str:
    return (DOCS / name).read_text("utf-8")


# -- settings ------------------------------------------------------------------------------


def test_the_generated_reference_lists_every_setting() -> None:
    generated = reference.reference_markdown()
    assert reference.MARKER in _doc("settings.md")
    for setting in SETTINGS:
        assert f"\n## `{setting.name}`\n" in generated, setting.name
        assert f"[`{setting.name}`](#{setting.name.lower()})" in generated  # summary table
        entry = generated.split(f"## `{setting.name}`\n", 1)[1].split("\n## ", 1)[0]
        assert setting.allowed in entry and reference.type_of(setting) in entry
        assert f"  {setting.name} = " in entry  # the example line


def test_defaults_are_shown_in_full_and_examples_are_allowed() -> None:
    generated = reference.reference_markdown()
    for setting in SETTINGS:
        entry = generated.split(f"## `{setting.name}`\n", 1)[1].split("\n## ", 1)[0]
        default = entry.split("**Default:**", 1)[1].split("```python\n", 1)[1].split("```")[0]
        shown = "".join(line.strip() for line in default.splitlines())
        assert eval(shown) == setting.default, setting.name
        reference.example_of(setting)  # raises if the setting's rule refuses it


def test_settings_table_still_prints() -> None:
    # python -m scrapy_webclean.integration.settings: one table, every setting, nothing cut
    table = settings_table()
    assert all(f"`{setting.name}`" in table for setting in SETTINGS)


# -- output fields, stats ------------------------------------------------------------------


def test_every_output_field_is_documented() -> None:
    text = _doc("reference.md")
    fields = [name for name in DEFAULT_OUTPUT_FIELDS.values() if name]
    for name in [*fields, "webclean_error", "webclean_dropped_images", "duplicate_of"]:
        assert f"| `{name}` |" in text, name


def _stats_patterns() -> list[re.Pattern[str]]:
    section = _doc("reference.md").split("## Stats", 1)[1].split("\n## ", 1)[0]
    keys = re.findall(r"`((?:webclean|\.\.\.)/[^`]+)`", section)
    patterns = []
    for key in keys:
        key = key.replace(".../", "").lstrip("/")
        pattern = re.sub(
            r"<[a-z_]+>", "[^/]+", re.escape(key).replace(r"\<", "<").replace(r"\>", ">")
        )
        patterns.append(re.compile(rf"(?:^|/){pattern}$"))
    return patterns


def _documented(key: str, patterns: list[re.Pattern[str]]) -> bool:
    return any(pattern.search(key) for pattern in patterns)


def test_every_stats_key_of_the_code_and_the_demo_is_documented() -> None:
    patterns = _stats_patterns()
    quoted = re.findall(r"^\s+(webclean/\S+): \d", _doc("getting-started.md"), re.M)
    assert len(quoted) > 30
    in_code = set()
    for path in (ROOT / "scrapy_webclean").rglob("*.py"):
        in_code |= set(re.findall(r"[\"'](webclean/[a-z_/]+[a-z_])[\"']", path.read_text("utf-8")))
    assert len(in_code) > 5
    section = _doc("reference.md").split("## Stats", 1)[1].split("\n## ", 1)[0]
    prefixes = {k for k in in_code if f"`{k}/" in section}  # a family's prefix in the code
    missing = sorted(k for k in {*quoted, *in_code} - prefixes if not _documented(k, patterns))
    assert not missing


# -- README and links ----------------------------------------------------------------------


def test_readme_is_short_and_keeps_the_two_commands() -> None:
    assert len(README.splitlines()) < 150
    assert (
        "make demo   # install into .venv, serve the bundled demo site on loopback, crawl it with\n"
        "            # cleaning on, write cleaned.jsonl, stop the site, print a summary\n"
        "make test   # install into .venv and run the whole test suite (ruff, mypy, the docs, pytest)"
    ) in README
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert "make test" in ci


def test_links_of_the_readme_and_docs_point_where_they_should() -> None:
    repo = check_links.repository_url()
    assert repo.startswith("https://github.com/")
    problems = [
        p for path in check_links.markdown_files() for p in check_links.check_file(path, repo)
    ]
    assert not problems
    assert "](docs/" not in README and "](CHANGELOG.md)" not in README


def test_the_link_checker_finds_broken_links(tmp_path: Path) -> None:
    repo = check_links.repository_url()
    page = DOCS / "_broken_for_test.md"
    page.write_text(
        "# A\n\n[ok](algorithms.md#2-ad-and-template-images-judged-before-they-are-fetched)\n"
        "[gone](nowhere.md) [bad anchor](settings.md#webclean_nothing)\n"
        f"[remote]({repo}/blob/main/benchmarks/results/missing.md)\n"
        "```\n[in code](nowhere.md)\n```\n",
        "utf-8",
    )
    try:
        problems = check_links.check_file(page, repo)
    finally:
        page.unlink()
    assert len(problems) == 3, problems


# -- the demo run the docs quote -------------------------------------------------------------


@pytest.fixture(scope="module")
def truth() -> dict:
    from demo_site import build_site

    return build_site(8800).truth


def _demo_run() -> tuple[dict[str, int], str]:
    page = _doc("getting-started.md")
    block = page.split("## The demo crawl", 1)[1].split("```\n", 2)[1]
    numbers = {
        key: int(value)
        for key, value in re.findall(r"^\s*([A-Za-z][\w/ ]*?):\s+(\d+)\b", block, re.M)
    }
    return numbers, page.split("## The demo crawl", 1)[1]


def test_the_quoted_demo_run_adds_up_and_matches_the_demo_site(truth: dict) -> None:
    run, prose = _demo_run()
    pages, images = truth["pages"], truth["images"]
    articles = [p for p in pages if p["type"] == "article"]
    copies = [p for p in articles if p.get("copy_of")]
    mirrors = [p for p in copies if p.get("copy_kind") == "mirror"]
    assert run["Pages fetched"] == run["webclean/items/in"] == len(pages)
    assert run["Items written"] == run["webclean/items/exported"]
    assert run["Items dropped"] == run["webclean/dedup/dropped"]
    assert run["Items written"] + run["Items dropped"] == len(pages)
    assert run["webclean/dedup/exact"] + run["webclean/dedup/near"] == run["Items dropped"]
    assert run["Items dropped"] >= len(copies)  # every copy, and a digest page or two
    assert run["webclean/dedup/unique"] + run["Items dropped"] + run[
        "webclean/dedup/skipped/no_text"
    ] == len(pages)
    # The images: every ad and pixel saved, every content image fetched.
    kinds = [i["kind"] for i in images]
    pixels = {i["url"] for i in images if min(i["width"], i["height"]) <= 2}
    ads = {i["url"] for i in images if i["kind"] == "ad"}
    templates = {i["url"] for i in images if i["kind"] == "template"} - pixels
    saved = run["webclean/images/saved/ad"] + run["webclean/images/saved/pixel"]
    assert saved == len(ads | pixels)
    assert run["Images downloaded"] == kinds.count("content") + len(templates) - run.get(
        "webclean/images/saved/template", 0
    )
    # The prose under the run says the same.
    expected = [
        f"{len(pages)} pages are the demo site's {len(articles)} article pages",
        f"({len(articles) - len(copies)} originals, {len(copies) - len(mirrors)} reprints, "
        f"{len(mirrors)} mirror\ncopies)",
        f"and its {len(pages) - len(articles)} hub, list and service pages",
        f"{run['Items written']} items are written in this run: the {run['Items dropped']}\ndropped",
        f"the {len(copies)} reprints and mirror copies",
        f"the {run['webclean/dedup/skipped/no_text']} pages without main\ntext",
        f"Of the {len(images)}\ndistinct images",
        f"{run['Images downloaded']} were downloaded: all {kinds.count('content')} content images",
        f"of the\n{len(templates)} template images",
        f"none of the {len(ads)} ad images and tracking pixels",
    ]
    for phrase in expected:
        assert phrase in prose, phrase


def test_the_log_lines_quote_the_same_run() -> None:
    run, _ = _demo_run()
    text = _doc("reference.md")
    table = text.split("webclean at the end of the crawl:", 1)[1].split("```", 1)[0]
    assert re.search(rf"cleaned\s+{run['webclean/items/cleaned']}\n", table)
    assert re.search(rf"exported\s+{run['Items written']}\n", table)
    assert re.search(rf"duplicates\s+{run['Items dropped']}\n", table)
    assert re.search(rf"images saved\s+{run['webclean/images/saved']}\n", table)
    assert f"webclean items: {run['Pages fetched']} in, {run['Items written']} exported " in text
    assert f"{run['Items dropped']} dropped (duplicate {run['Items dropped']})" in text
    exact, near = run["webclean/dedup/exact"], run["webclean/dedup/near"]
    assert f"{exact} exact and {near} near duplicates (dropped)" in text


# -- the methods page ------------------------------------------------------------------------


def test_the_code_cites_documents_of_the_repository() -> None:
    # Docstrings point at the methods' page in docs/, never at a file outside the
    # repository; every section they name exists there.
    methods = (ROOT / "docs" / "algorithms.md").read_text("utf-8")
    sections = set(re.findall(r"^## (\d)\.", methods, re.M))
    for path in (ROOT / "scrapy_webclean").rglob("*.py"):
        source = path.read_text("utf-8")
        assert "ALGORITHMS.md" not in source, path
        for cited in re.findall(r"docs/algorithms\.md,? section (\d)", source):
            assert cited in sections, (path, cited)
