"""Every WEBCLEAN_* value is checked: a bad one raises SettingError naming the setting, the
value and what is allowed; good values come back typed; unknown names are found."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

from scrapy_webclean.extraction.linemodel import DEFAULT_MODEL_PATH
from scrapy_webclean.integration.setting_table import DEFAULT_OUTPUT_FIELDS, SETTINGS
from scrapy_webclean.integration.settings import (
    SettingError,
    check_settings,
    get_setting,
    unknown_settings,
)


def test_defaults_pass_their_own_rules() -> None:
    values = check_settings(Settings({s.name: s.default for s in SETTINGS}))
    assert values == {s.name: s.default for s in SETTINGS}
    assert check_settings(Settings()) == values  # unset: the defaults


@pytest.mark.parametrize(
    ("name", "given", "expected"),
    [
        ("WEBCLEAN_ENABLED", "false", False),
        ("WEBCLEAN_ENABLED", "1", True),
        ("WEBCLEAN_WORKERS", "2", 2),
        ("WEBCLEAN_WORKERS", 3.0, 3),
        ("WEBCLEAN_STATE_RETRY_SECONDS", "2.5", 2.5),
        ("WEBCLEAN_PAGE_TIMEOUT", "0.5", 0.5),
        ("WEBCLEAN_PAGE_TIMEOUT", 0, 0.0),
        ("WEBCLEAN_STATE", " Redis ", "redis"),
        ("WEBCLEAN_QUERY_KEYWORDS", "a, b", ["a", "b"]),
        ("WEBCLEAN_QUERY_KEYWORDS", '["a", "b"]', ["a", "b"]),
        ("WEBCLEAN_ADS_NOISE_WORDS", '{"Promo": 2}', {"promo": 2.0}),
        (
            "WEBCLEAN_OUTPUT_FIELDS",
            '{"links": null}',
            {**DEFAULT_OUTPUT_FIELDS, "links": None},
        ),
        ("WEBCLEAN_ADS_FILTER_LIST", "", None),
        ("WEBCLEAN_LINE_MODEL", " None ", "none"),
        ("WEBCLEAN_LINE_MODEL", "DEFAULT", "default"),
    ],
)
def test_values_come_back_typed(name: str, given: object, expected: object) -> None:
    assert get_setting(Settings({name: given}), name) == expected


@pytest.mark.parametrize(
    ("name", "given", "allowed"),
    [
        ("WEBCLEAN_ENABLED", "nope", "True or False"),
        ("WEBCLEAN_WORKERS", "two", "an integer of at least -1"),
        ("WEBCLEAN_WORKERS", -5, "an integer of at least -1"),
        ("WEBCLEAN_WORKERS", 1.5, "an integer"),
        ("WEBCLEAN_WORKERS", True, "an integer"),
        ("WEBCLEAN_WORKER_QUEUE", 0, "at least 1"),
        ("WEBCLEAN_STATE_RETRY_SECONDS", "soon", "a number"),
        ("WEBCLEAN_PAGE_TIMEOUT", -1, "a number of at least 0"),
        ("WEBCLEAN_PAGE_TIMEOUT", "nan", "a number of at least 0"),
        ("WEBCLEAN_PAGE_TIMEOUT", "10s", "a number"),
        ("WEBCLEAN_STATE", "redsi", "one of 'memory', 'jobdir', 'redis'"),
        ("WEBCLEAN_OUTPUT_FORMAT", "md", "one of 'text', 'markdown'"),
        ("WEBCLEAN_DEDUP_POLICY", "keep", "one of 'drop', 'mark'"),
        ("WEBCLEAN_ON_ERROR", "skip", "one of 'pass', 'drop'"),
        ("WEBCLEAN_HTML_FIELD", "", "a non-empty string"),
        ("WEBCLEAN_CUSTOM_PATTERNS", ["("], "regular expressions"),
        ("WEBCLEAN_FALLBACK_ENCODINGS", ["utf-9"], "encoding names"),
        ("WEBCLEAN_OUTPUT_FIELDS", {"imgs": "x"}, "did you mean 'images'"),
        ("WEBCLEAN_OUTPUT_FIELDS", {"text": 3}, "to field names or None"),
        ("WEBCLEAN_ADS_NOISE_WORDS", {"promo": "high"}, "weights"),
        ("WEBCLEAN_ADS_NOISE_WORDS", "[1, 2", "weights"),
        ("WEBCLEAN_LINE_MODEL", "/no/such/model.json", "No such file"),
        ("WEBCLEAN_LINE_MODEL", "", "'default', 'none' or the path"),
    ],
)
def test_a_bad_value_names_setting_value_and_what_is_allowed(
    name: str, given: object, allowed: str
) -> None:
    with pytest.raises(SettingError) as error:
        check_settings(Settings({name: given}))
    message = str(error.value)
    assert message.startswith(f"{name} = {given!r} is not allowed") or name in message
    assert allowed in message
    assert error.value.name == name


def test_settings_that_need_each_other() -> None:
    with pytest.raises(SettingError, match="'jobdir' needs JOBDIR"):
        check_settings(Settings({"WEBCLEAN_STATE": "jobdir"}))
    check_settings(Settings({"WEBCLEAN_STATE": "jobdir", "JOBDIR": "crawls/x"}))
    check_settings(Settings({"WEBCLEAN_STATE": "jobdir", "WEBCLEAN_ENABLED": False}))
    images = {"ITEM_PIPELINES": {"scrapy.pipelines.images.ImagesPipeline": 1}}
    with pytest.raises(SettingError, match="IMAGES_RESULT_FIELD = 'images'"):
        check_settings(Settings({**images, "WEBCLEAN_OUTPUT_FIELDS": {"images": "images"}}))
    check_settings(Settings(images))  # page_images and images do not collide
    with pytest.raises(SettingError, match="FILES_RESULT_FIELD = 'media'"):
        check_settings(
            Settings(
                {
                    "ITEM_PIPELINES": {"scrapy.pipelines.files.FilesPipeline": 1},
                    "FILES_RESULT_FIELD": "media",
                    "WEBCLEAN_OUTPUT_FIELDS": {"links": "media"},
                }
            )
        )


def test_unknown_names_get_the_nearest_known_one() -> None:
    found = unknown_settings(
        {"WEBCLEAN_ENABLE": False, "WEBCLEAN_SIMILARITY_THRESHOLD": 3, "WEBCLEAN_XYZZY": 1}
    )
    assert found == [
        "WEBCLEAN_ENABLE is not a webclean setting and is ignored; did you mean WEBCLEAN_ENABLED?",
        "WEBCLEAN_SIMILARITY_THRESHOLD is ignored: removed in 0.2: a crawl labels blocks by "
        "the naive Bayes probability alone; the threshold only applied with "
        "CleanOptions(explain=True)",
        "WEBCLEAN_XYZZY is not a webclean setting and is ignored",
    ]
    assert unknown_settings({s.name: s.default for s in SETTINGS}) == []


def test_a_line_model_file_is_read_at_start_up(tmp_path: Path) -> None:
    """A model file of an older format stops the crawl before it starts, naming the
    setting and how to mend it; a good file comes back as its path."""
    old = tmp_path / "old.json"
    old.write_text('{"format": "webclean-line-trees-1"}', encoding="utf-8")
    with pytest.raises(SettingError, match=r"WEBCLEAN_LINE_MODEL = .*retrain it") as error:
        check_settings(Settings({"WEBCLEAN_LINE_MODEL": str(old)}))
    assert error.value.name == "WEBCLEAN_LINE_MODEL"
    good = tmp_path / "good.json"
    good.write_bytes(DEFAULT_MODEL_PATH.read_bytes())
    assert get_setting(Settings({"WEBCLEAN_LINE_MODEL": str(good)}), "WEBCLEAN_LINE_MODEL") == (
        str(good)
    )
