"""How the value of a ``WEBCLEAN_*`` setting is read and checked: a :class:`Rule` per kind
of value (a boolean, a number in a range, one of some words, a string, a list of strings
checked one by one, a dict of results to field names or of words or labels to weights, a
line model file) and :class:`SettingError`, which names the setting, the value and what is
allowed. ``settings`` gives every setting its rule.
"""

from __future__ import annotations

import codecs
import difflib
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scrapy.settings import BaseSettings

from scrapy_webclean.redact import redact_value


class SettingError(ValueError):
    """A ``WEBCLEAN_*`` setting holds a value that is not allowed (stops the crawl)."""

    def __init__(self, name: str, value: Any, allowed: str, detail: str = "") -> None:
        self.name = name
        self.value = value
        self.allowed = allowed
        why = f" ({detail})" if detail else ""
        super().__init__(f"{name} = {redact_value(value)!r} is not allowed{why}: {allowed}")


#: Reads one setting from Scrapy settings and returns the checked value; raises
#: :class:`SettingError`.
Reader = Callable[[BaseSettings, str], Any]


@dataclass(frozen=True, slots=True)
class Rule:
    """How a setting is read (one of Scrapy's typed getters plus a check) and, in words,
    what it allows."""

    read: Reader
    allowed: str


def _typed(getter: Callable[[BaseSettings, str], Any], allowed: str) -> Reader:
    def read(settings: BaseSettings, name: str) -> Any:
        try:
            return getter(settings, name)
        except (ValueError, TypeError) as exc:
            raise SettingError(name, settings.get(name), allowed, str(exc)) from None

    return read


def boolean() -> Rule:
    allowed = "True or False (also 1/0, 'true'/'false')"
    return Rule(_typed(lambda s, n: s.getbool(n), allowed), allowed)


def integer(minimum: int | None = None, maximum: int | None = None) -> Rule:
    return _ranged("an integer", _strict_int, minimum, maximum)


def number(minimum: float | None = None, maximum: float | None = None) -> Rule:
    return _ranged("a number", _strict_float, minimum, maximum)


def _ranged(
    kind: str, parse: Callable[[Any], Any], minimum: float | None, maximum: float | None
) -> Rule:
    """A rule for a value ``parse`` reads strictly, within ``minimum`` .. ``maximum``."""
    allowed = _range(kind, minimum, maximum)
    typed = _typed(lambda s, n: parse(s.get(n)), allowed)

    def read(settings: BaseSettings, name: str) -> Any:
        value = typed(settings, name)
        _check_range(name, value, minimum, maximum, allowed)
        return value

    return Rule(read, allowed)


def choice(*values: str) -> Rule:
    allowed = "one of " + ", ".join(repr(v) for v in values)

    def read(settings: BaseSettings, name: str) -> str:
        raw = settings.get(name)
        value = raw.strip().lower() if isinstance(raw, str) else raw
        if value not in values:
            raise SettingError(name, raw, allowed)
        return str(value)

    return Rule(read, allowed)


def line_model_choice() -> Rule:
    """``WEBCLEAN_LINE_MODEL``: 'default', 'none' or a model file, which is read and
    checked at start-up (a wrong path or an old file stops the crawl); the value comes
    back as given ('default' and 'none' lower-cased), ``linemodel.line_model_named``
    turns it into the model."""
    allowed = "'default', 'none' or the path of a line model file (JSON)"

    def read(settings: BaseSettings, name: str) -> str:
        from scrapy_webclean.extraction.linemodel import line_model_named

        raw = settings.get(name)
        if not isinstance(raw, str) or not raw.strip():
            raise SettingError(name, raw, allowed)
        value = raw.strip()
        if value.lower() in ("default", "none"):
            value = value.lower()
        try:
            line_model_named(value)
        except (OSError, ValueError, KeyError) as exc:
            raise SettingError(name, raw, allowed, str(exc)) from None
        return value

    return Rule(read, allowed)


def text(optional: bool = False) -> Rule:
    allowed = "a non-empty string" + (" or None" if optional else "")

    def read(settings: BaseSettings, name: str) -> str | None:
        value = settings.get(name)
        if optional and value in (None, ""):
            return None
        if not isinstance(value, str) or not value.strip():
            raise SettingError(name, value, allowed)
        return value

    return Rule(read, allowed)


def text_list(check: Callable[[str], str | None] | None = None, what: str = "strings") -> Rule:
    allowed = f"a list of {what} (or one comma-separated string)"

    def read(settings: BaseSettings, name: str) -> list[str]:
        raw = settings.get(name)
        try:
            if isinstance(raw, str) and raw.lstrip().startswith("["):
                values = json.loads(raw)  # a JSON list given on the command line
                if not isinstance(values, list):
                    raise ValueError("not a JSON list")
            else:
                values = settings.getlist(name)
        except (ValueError, TypeError) as exc:
            raise SettingError(name, raw, allowed, str(exc)) from None
        values = [v.strip() if isinstance(v, str) else v for v in values]
        for value in values:
            if not isinstance(value, str) or not value:
                raise SettingError(name, raw, allowed, f"{value!r} is not a non-empty string")
            problem = check(value) if check is not None else None
            if problem:
                raise SettingError(name, raw, allowed, problem)
        return values

    return Rule(read, allowed)


#: The groups of the ``links`` and ``page_images`` fields: the labels of the blocks.
OUTPUT_GROUPS = ("content", "related", "noise")


def output_group_problem(value: str) -> str | None:
    return None if value in OUTPUT_GROUPS else f"{value!r} is not one of {OUTPUT_GROUPS}"


def regex_problem(value: str) -> str | None:
    try:
        re.compile(value)
    except re.error as exc:
        return f"{value!r} is not a regular expression: {exc}"
    return None


def codec_problem(value: str) -> str | None:
    try:
        codecs.lookup(value)
    except LookupError:
        return f"{value!r} is not an encoding Python knows"
    return None


def output_fields(defaults: Mapping[str, str | None]) -> Rule:
    """A dict mapping some of the results named in ``defaults`` to field names (or None:
    not written); the value read is ``defaults`` updated with it."""
    allowed = "a dict mapping results (" + ", ".join(defaults) + ") to field names or None"

    def read(settings: BaseSettings, name: str) -> dict[str, str | None]:
        given = _dict(settings, name, allowed)
        for key, field in given.items():
            if key not in defaults:
                near = difflib.get_close_matches(str(key), list(defaults), n=1)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                raise SettingError(name, given, allowed, f"unknown result {key!r}{hint}")
            if field is not None and (not isinstance(field, str) or not field.strip()):
                raise SettingError(name, given, allowed, f"{key!r} maps to {field!r}")
        return {**defaults, **given}

    return Rule(read, allowed)


def word_weights() -> Rule:
    allowed = "a dict of words to weights, e.g. {'promo': 1.0}"

    def read(settings: BaseSettings, name: str) -> dict[str, float]:
        given = _dict(settings, name, allowed)
        weights: dict[str, float] = {}
        for word, weight in given.items():
            try:
                weights[str(word).lower()] = _strict_float(weight)
            except (TypeError, ValueError):
                raise SettingError(name, given, allowed, f"{word!r}: {weight!r}") from None
        return weights

    return Rule(read, allowed)


def label_weights(defaults: Mapping[str, float]) -> Rule:
    """A dict of block labels to numbers; the value read is ``defaults`` updated with it."""
    allowed = "a dict of block labels ('content', 'related', 'noise') to numbers"

    def read(settings: BaseSettings, name: str) -> dict[str, float]:
        given = _dict(settings, name, allowed)
        weights = dict(defaults)
        for label, weight in given.items():
            problem = output_group_problem(str(label))
            if problem:
                raise SettingError(name, given, allowed, problem)
            try:
                weights[str(label)] = _strict_float(weight)
            except (TypeError, ValueError):
                raise SettingError(name, given, allowed, f"{label!r}: {weight!r}") from None
        return weights

    return Rule(read, allowed)


def rank_weights(defaults: Mapping[str, float]) -> Rule:
    """:func:`label_weights`, each weight at least 0 (0 drops the label's links)."""
    labels = label_weights(defaults)
    allowed = "a dict of block labels ('content', 'related', 'noise') to numbers >= 0"

    def read(settings: BaseSettings, name: str) -> dict[str, float]:
        weights: dict[str, float] = labels.read(settings, name)
        negative = [label for label, weight in weights.items() if not weight >= 0]
        if negative:
            raise SettingError(name, weights, allowed, f"{negative[0]!r} is below 0")
        return weights

    return Rule(read, allowed)


def _dict(settings: BaseSettings, name: str, allowed: str) -> dict[Any, Any]:
    raw = settings.get(name)
    if raw is None:
        return {}
    try:
        value = settings.getdict(name)
    except (ValueError, TypeError) as exc:
        raise SettingError(name, raw, allowed, str(exc)) from None
    return dict(value)


def _strict_int(value: Any) -> int:
    """``int`` of a setting value; refuses floats with a fraction and booleans."""
    if isinstance(value, bool):
        raise ValueError("a boolean is not an integer")
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(f"{value} has a fraction")
        return int(value)
    return int(value)


def _strict_float(value: Any) -> float:
    """``float`` of a setting value; refuses booleans and NaN (no range holds it)."""
    if isinstance(value, bool):
        raise ValueError("a boolean is not a number")
    number = float(value)
    if math.isnan(number):
        raise ValueError("NaN is not a number here")
    return number


def _range(kind: str, minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f"{kind} from {minimum} to {maximum}"
    if minimum is not None:
        return f"{kind} of at least {minimum}"
    if maximum is not None:
        return f"{kind} of at most {maximum}"
    return kind


def _check_range(
    name: str, value: float, minimum: float | None, maximum: float | None, allowed: str
) -> None:
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise SettingError(name, value, allowed)
