"""The stage timer of ``benchmarks/stage_times.py``: every stage it names exists, is timed
where the cleaner calls it, and is put back afterwards."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import stage_times

from scrapy_webclean import Cleaner, CleanOptions
from scrapy_webclean.extraction import extract
from scrapy_webclean.extraction.linemodel import default_line_model

_PAGE = (
    "<html><head><title>Stages</title></head><body><nav><a href='/'>Home</a></nav>"
    "<article><h1>Stages</h1><p>Every stage of the cleaning runs on this page, once, and "
    "the timer adds up the time spent in each of them.</p><p>A second paragraph gives the "
    "region some more prose to hold, as a real article would.</p></article></body></html>"
)


def test_every_stage_is_timed_where_the_cleaner_calls_it_and_put_back() -> None:
    before = {stage.label: _resolve(stage.target) for stage in stage_times.STAGES}
    build_lines_in_cleaning = importlib.import_module("scrapy_webclean.cleaning").build_lines
    spent: dict[str, float] = {}
    cleaner = Cleaner(CleanOptions(line_model=default_line_model()))
    with stage_times.timed_stages(spent):
        assert extract.node_hints is not before["container hints"]
        result = cleaner.clean(_PAGE, "http://stages.example/a")
    assert "A second paragraph" in result.text
    # (the line model decides only on some page types; every other stage runs on any page)
    asked = {s.label for s in stage_times.STAGES} - {"line model", "line features", "line trees"}
    assert asked <= set(spent), asked - set(spent)
    assert spent["clean"] >= spent["extraction"] >= spent["container hints"] > 0
    assert {stage.label: _resolve(stage.target) for stage in stage_times.STAGES} == before
    assert importlib.import_module("scrapy_webclean.cleaning").build_lines is (
        build_lines_in_cleaning
    )


def _resolve(target: str) -> object:
    module_name, _, name = target.partition(":")
    owner: object = importlib.import_module(f"scrapy_webclean.{module_name}")
    for part in name.split("."):
        owner = getattr(owner, part)
    return owner
