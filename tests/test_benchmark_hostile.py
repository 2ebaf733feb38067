"""benchmarks/hostile.py: each size of a class measured in a process of its own, the
checkout's package imported, a work over its CPU time or a missing name reported in the
table, not raised.

Tiny sizes of one class on the installed package (each process imports the package: a
second or two), and a checkout made in the test; no data outside the repository.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import hostile

import scrapy_webclean

#: split_sentences on "." * n + "x": n = 200 at this scale (a few milliseconds a size).
SCALE = 0.01


def test_each_size_is_measured_in_its_own_process_and_tabled() -> None:
    case = hostile.CASES["sentences"]
    row = hostile.run_case(case, None, "after", timeout=60, scale=SCALE)
    assert [p.n for p in row.points] == [200, 400, 800, 1600]
    assert all(p.status == "ok" and p.cpu is not None and p.peak is not None for p in row.points)
    assert row.points[-1].note == "1 sentences"
    assert Path(row.module) == Path(scrapy_webclean.__file__).resolve().parent
    table = hostile.side_table([row], timeout=60)
    lines = table.splitlines()
    assert lines[0].startswith(
        "| class | n | CPU s at n | CPU s at 2n | CPU s at 4n | CPU s at 8n |"
    )
    (line,) = (line for line in lines if line.startswith(f"| {case.label} |"))
    cells = [cell.strip() for cell in line.strip("|").split("|")]
    assert cells[1] == "200 chars"
    assert all(float(cell) >= 0 for cell in cells[2:6])
    both = hostile.compare_table([row], [row], timeout=60)
    assert f"| {case.label} | " in both and "s at 8n (8n/n" in both


@pytest.fixture()
def checkout(tmp_path: Path) -> Path:
    """A checkout whose ``split_sentences`` never returns and that has no ``extraction``."""
    package = tmp_path / "scrapy_webclean"
    (package / "text").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "text" / "__init__.py").write_text("")
    (package / "text" / "sentences.py").write_text(
        "def split_sentences(text):\n    while True:\n        pass\n"
    )
    return tmp_path


def test_a_class_over_its_cpu_time_is_ended_and_its_larger_sizes_skipped(
    checkout: Path,
) -> None:
    case = hostile.CASES["sentences"]
    row = hostile.run_case(case, str(checkout), "before", timeout=1, scale=SCALE)
    assert [p.status for p in row.points] == ["timeout", "skipped", "skipped", "skipped"]
    (line,) = hostile.side_table([row], timeout=1).splitlines()[2:]
    assert "| > 1 s | - | - | - |" in line
    assert "> 1 s at 1n" in hostile.summary(case, row, 1)


def test_a_checkout_without_the_code_path_reports_an_error(checkout: Path) -> None:
    case = hostile.CASES["forum-url"]
    row = hostile.run_case(case, str(checkout), "before", timeout=60, scale=SCALE)
    assert [p.status for p in row.points] == ["error", "skipped", "skipped", "skipped"]
    assert "ModuleNotFoundError" in row.points[0].note
    assert hostile.outcome(case, row).startswith("error: ModuleNotFoundError")


def test_the_dedup_texts_are_distinct_and_of_the_issue_length() -> None:
    texts = hostile.realistic_texts(20)
    assert len(set(texts)) == 20
    assert all(len(text) == hostile.DOC_CHARS and text.count(". ") >= 5 for text in texts)
