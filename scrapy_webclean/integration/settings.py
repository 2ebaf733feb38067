"""Reading and checking the ``WEBCLEAN_*`` settings of the table in ``setting_table``
(:data:`~scrapy_webclean.integration.setting_table.SETTINGS`: every setting's name,
default, meaning and rule, in one place).

Components read settings through :func:`get_setting`, which reads the value with Scrapy's
typed getters (``getbool``, ``getint``, ``getfloat``, ``getlist``, ``getdict``) and checks it
against the setting's rule (``setting_rules``: how each kind of value is read); a bad value
raises :class:`SettingError`, naming the setting, the value and what is allowed, so the
crawl stops at start-up instead of running with a component switched off.
:func:`check_settings` checks them all at once (the add-on calls it before the crawl
starts) and :func:`unknown_settings` finds misspelt ``WEBCLEAN_*`` names. The
documentation's settings reference (``docs/settings.md``) is generated from that table
when the docs are built (``docs/_ext/settings_reference.py``); ``python -m
scrapy_webclean.integration.settings`` prints a short table of them.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from scrapy.settings import BaseSettings

from scrapy_webclean.integration.setting_rules import SettingError as SettingError  # (re-exported)
from scrapy_webclean.integration.setting_table import SETTINGS

_BY_NAME = {s.name: s for s in SETTINGS}
PREFIX = "WEBCLEAN_"
#: Settings of earlier versions that nothing reads any more, and why.
REMOVED = {
    "WEBCLEAN_SIMILARITY_THRESHOLD": "removed in 0.2: a crawl labels blocks by the naive "
    "Bayes probability alone; the threshold only applied with CleanOptions(explain=True)",
}


def get_setting(settings: BaseSettings | Mapping[str, Any], name: str) -> Any:
    """The checked value of a ``WEBCLEAN_*`` setting, or its documented default when unset
    (``None``). Raises :class:`SettingError` for a value its rule does not allow."""
    setting = _BY_NAME[name]
    if not isinstance(settings, BaseSettings):
        settings = BaseSettings(dict(settings))
    if settings.get(name) is None:
        return setting.default
    return setting.rule.read(settings, name)


def check_settings(settings: BaseSettings | Mapping[str, Any]) -> dict[str, Any]:
    """Check every ``WEBCLEAN_*`` setting, and the settings they need together; returns the
    checked values by name. Raises :class:`SettingError` on the first bad one."""
    if not isinstance(settings, BaseSettings):
        settings = BaseSettings(dict(settings))
    values = {s.name: get_setting(settings, s.name) for s in SETTINGS}
    state = values["WEBCLEAN_STATE"] if values["WEBCLEAN_ENABLED"] else "memory"
    if state == "jobdir" and not settings.get("JOBDIR"):
        raise SettingError(
            "WEBCLEAN_STATE",
            "jobdir",
            "'jobdir' needs JOBDIR set (scrapy crawl ... -s JOBDIR=crawls/NAME); use "
            "'memory' for a crawl without one",
        )
    if state == "redis":
        try:
            import redis  # noqa: F401
        except ImportError:
            raise SettingError(
                "WEBCLEAN_STATE",
                "redis",
                "'redis' needs the redis package: pip install 'scrapy-webclean[redis]'",
            ) from None
    _check_media_fields(settings, values["WEBCLEAN_OUTPUT_FIELDS"])
    return values


def _check_media_fields(settings: BaseSettings, fields: dict[str, str | None]) -> None:
    """Refuse output field names that Scrapy's media pipelines in ``ITEM_PIPELINES`` write
    their download results into (they would overwrite each other without a word)."""
    from scrapy.utils.conf import build_component_list
    from scrapy.utils.misc import load_object

    taken: dict[str, str] = {}
    for path in build_component_list(settings.getwithbase("ITEM_PIPELINES")):
        try:
            cls = load_object(path) if isinstance(path, str) else path
        except (ImportError, NameError, ValueError):
            continue  # Scrapy itself reports a pipeline it cannot load
        for base, setting in _MEDIA_RESULT_SETTINGS:
            if _is_subclass(cls, base):
                taken[str(settings.get(setting) or _MEDIA_DEFAULTS[setting])] = setting
                break
    for result, field in fields.items():
        if field is not None and field in taken:
            raise SettingError(
                "WEBCLEAN_OUTPUT_FIELDS",
                {result: field},
                f"a field name no media pipeline writes: {taken[field]} = {field!r} already "
                f"holds the downloads; rename the result (e.g. {{{result!r}: 'page_{result}'}}) "
                f"or {taken[field]}",
            )


#: Media pipelines and the setting naming the field they write their results into.
_MEDIA_RESULT_SETTINGS = (
    ("scrapy.pipelines.images.ImagesPipeline", "IMAGES_RESULT_FIELD"),
    ("scrapy.pipelines.files.FilesPipeline", "FILES_RESULT_FIELD"),
)
_MEDIA_DEFAULTS = {"IMAGES_RESULT_FIELD": "images", "FILES_RESULT_FIELD": "files"}


def _is_subclass(cls: Any, path: str) -> bool:
    return isinstance(cls, type) and any(
        f"{base.__module__}.{base.__qualname__}" == path for base in cls.__mro__
    )


def unknown_settings(settings: BaseSettings | Mapping[str, Any]) -> list[str]:
    """One warning for each ``WEBCLEAN_*`` name in ``settings`` that no component reads,
    naming the nearest known setting (a typo) or why it was removed."""
    warnings = []
    for name in sorted(n for n in settings if isinstance(n, str) and n.startswith(PREFIX)):
        if name in _BY_NAME:
            continue
        if name in REMOVED:
            warnings.append(f"{name} is ignored: {REMOVED[name]}")
            continue
        near = difflib.get_close_matches(name, _BY_NAME, n=1, cutoff=0.75)
        hint = f"; did you mean {near[0]}?" if near else ""
        warnings.append(f"{name} is not a webclean setting and is ignored{hint}")
    return warnings


def settings_table() -> str:
    """The settings as a Markdown table (for the README)."""
    rows = ["| Setting | Default | Allowed | Meaning |", "|---|---|---|---|"]
    for setting in SETTINGS:
        default = repr(setting.default).replace("|", "\\|")
        allowed = setting.allowed.replace("|", "\\|")
        rows.append(f"| `{setting.name}` | `{default}` | {allowed} | {setting.doc} |")
    return "\n".join(rows)


if __name__ == "__main__":  # pragma: no cover - documentation helper
    print(settings_table())
