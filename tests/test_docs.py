"""The README documents what the code does: settings table, stats keys, two commands."""

from __future__ import annotations

from pathlib import Path

from scrapy_webclean.integration.settings import SETTINGS, settings_table

README = (Path(__file__).resolve().parent.parent / "README.md").read_text("utf-8")


def test_settings_table_is_current() -> None:
    assert settings_table() in README


def test_every_setting_is_documented() -> None:
    for setting in SETTINGS:
        assert f"`{setting.name}`" in README


def test_two_commands_and_ci() -> None:
    assert "make demo" in README and "make test" in README
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text("utf-8")
    assert "make test" in ci


def test_the_code_cites_documents_of_the_repository() -> None:
    # Docstrings point at the methods' page in docs/, never at a file outside the
    # repository; every section they name exists there.
    import re

    root = Path(__file__).resolve().parent.parent
    methods = (root / "docs" / "algorithms.md").read_text("utf-8")
    sections = set(re.findall(r"^## (\d)\.", methods, re.M))
    for path in (root / "scrapy_webclean").rglob("*.py"):
        source = path.read_text("utf-8")
        assert "ALGORITHMS.md" not in source, path
        for cited in re.findall(r"docs/algorithms\.md,? section (\d)", source):
            assert cited in sections, (path, cited)
