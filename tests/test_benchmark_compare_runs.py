"""benchmarks/compare_runs.py: two per-page runs compared, set by set, fold by fold."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import compare_runs


def _record(set_name: str, page_id: str, fold: int, page_type: str, **ours: Any) -> str:
    return json.dumps(
        {
            "set": set_name,
            "id": page_id,
            "site": "a.example",
            "domain": "a.example",
            "fold": fold,
            "page_type": page_type,
            "url": f"http://a.example/{page_id}",
            "scored": True,
            "extractors": {"ours": ours},
        }
    )


def _write(path: Path, records: list[str]) -> Path:
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    return path


def test_a_change_is_shown_per_set_fold_and_page_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _write(
        tmp_path / "before.jsonl",
        [
            _record("wcxb-dev", "1", 0, "article", wcxb_f1=0.5),
            _record("wcxb-dev", "2", 1, "product", wcxb_f1=1.0),
            _record("scrapinghub", "a", 0, "", token_p=1.0, token_r=0.5, token_f1=2 / 3),
            _record("scrapinghub", "b", 1, "", token_p=None, token_r=0.0, token_f1=0.0),
        ],
    )
    after = _write(
        tmp_path / "after.jsonl",
        [
            _record("wcxb-dev", "1", 0, "article", wcxb_f1=0.9),
            _record("wcxb-dev", "2", 1, "product", wcxb_f1=0.8),
            _record("scrapinghub", "a", 0, "", token_p=1.0, token_r=1.0, token_f1=1.0),
            _record("scrapinghub", "b", 1, "", token_p=None, token_r=0.0, token_f1=0.0),
        ],
    )
    assert compare_runs.main([str(before), str(after), "--show", "0.1"]) == 0
    out = capsys.readouterr().out
    # WCXB: the mean of the per-page figures, 0.75 -> 0.85; one page up, one down
    assert "| 0.75000 | 0.85000 | +0.10000 | [" in out
    assert "] | 1 | 1 |" in out
    assert "| 0 | 1 | 0.50000 | 0.90000 | +0.40000 |" in out  # fold 0
    assert "| product | 1 | 1.00000 | 0.80000 | -0.20000 |" in out
    assert "- 2 (product) -0.2000 http://a.example/2" in out
    # token F1 of the averaged P and R: P over the pages with text (1.0), R over all pages
    # (0.25 -> 0.5): F1 0.4 -> 0.66667
    assert "| 0.40000 | 0.66667 | +0.26667 | [" in out
    assert "] | 1 | 0 |" in out
    assert "page type" not in out.split("## scrapinghub")[1].split("## wcxb-dev")[0]


def test_only_pages_both_runs_scored_are_compared(tmp_path: Path) -> None:
    before = compare_runs.load_runs(
        _write(tmp_path / "b.jsonl", [_record("wcxb-dev", "1", 0, "article", wcxb_f1=0.5)]),
        "ours",
    )
    after = compare_runs.load_runs(
        _write(tmp_path / "a.jsonl", [_record("wcxb-dev", "2", 0, "article", wcxb_f1=0.5)]),
        "ours",
    )
    assert "No set has pages scored" in compare_runs.compare(before, after, "ours")
