"""The collector paused while a page is cleaned (``gcpause``)."""

from __future__ import annotations

import gc
import threading

import pytest

from scrapy_webclean import clean_html
from scrapy_webclean.errors import CleanError
from scrapy_webclean.gcpause import gc_paused


def test_the_collector_is_paused_inside_and_running_after() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # a nested pause does not restart it early
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_the_program_turned_off_stays_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_cleaning_restarts_the_collector_even_when_it_fails() -> None:
    page = "<html><body><article><p>" + "A sentence of the article. " * 40 + "</p></article>"
    assert "sentence" in clean_html(page).text
    assert gc.isenabled()
    with pytest.raises(CleanError):  # not a page: the error is tested elsewhere
        clean_html(b"%PDF-1.7 not a page")
    assert gc.isenabled()


def test_threads_cleaning_at_once_leave_the_collector_running() -> None:
    page = "<html><body><article><p>" + "Words of a page for a thread. " * 60 + "</p></article>"
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                clean_html(page)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert gc.isenabled()


def test_the_crawl_keeps_the_collector_paused_while_it_builds_the_item(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The item's blocks read the page model: the collector must not walk it meanwhile."""
    from scrapy_webclean import Cleaner
    from scrapy_webclean.integration.workers import clean_page
    from scrapy_webclean.result import CleanResult

    seen: list[bool] = []
    to_dict = CleanResult.to_dict

    def watched(self: CleanResult, *args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return to_dict(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(CleanResult, "to_dict", watched)
    page = "<html><body><article><p>" + "A sentence of the article. " * 40 + "</p></article>"
    cleaned = clean_page(Cleaner(), page, "http://example.com/a", None, include_blocks=True)
    assert "sentence" in cleaned.data["text"]
    assert seen == [False]
    assert gc.isenabled()
