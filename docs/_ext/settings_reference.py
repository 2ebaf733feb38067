"""The settings reference, generated from the ``SETTINGS`` registry at build time.

``docs/settings.md`` holds the line :data:`MARKER`; when Sphinx reads that page, the marker
is replaced by one entry per setting of
:data:`scrapy_webclean.integration.setting_table.SETTINGS`, in the registry's order: its type,
its default in full, what its rule allows, its one-line meaning and an example line for
``settings.py``. Each example is checked against the setting's own rule while the page is
built, so an example the code would refuse fails the build. A summary table links the
entries.

``reference_markdown()`` returns the generated Markdown (the tests read it too).
"""

from __future__ import annotations

from typing import Any

from scrapy_webclean.integration.setting_table import SETTINGS, Setting
from scrapy_webclean.integration.settings import SettingError, get_setting

#: The line of docs/settings.md that the entries replace.
MARKER = "<!-- webclean-settings-reference -->"
#: The page that holds the marker.
DOCNAME = "settings"

#: An example value for the settings.py line of each setting, where its default is not a
#: useful example. A setting without one shows its default.
EXAMPLES: dict[str, Any] = {
    "WEBCLEAN_ENABLED": False,
    "WEBCLEAN_HTML_FIELD": "body",
    "WEBCLEAN_URL_FIELD": "page_url",
    "WEBCLEAN_CONTENT_TYPE_FIELD": "mime",
    "WEBCLEAN_KEEP_HTML": True,
    "WEBCLEAN_INCLUDE_BLOCKS": True,
    "WEBCLEAN_OUTPUT_GROUPS": ["content", "related"],
    "WEBCLEAN_OUTPUT_FIELDS": {"text": "body_text", "blocks": None},
    "WEBCLEAN_ON_ERROR": "drop",
    "WEBCLEAN_ERROR_FIELD": "clean_error",
    "WEBCLEAN_CUSTOM_TAGS": ["h1", "h2"],
    "WEBCLEAN_CUSTOM_PATTERNS": [r"^来源[：:]"],
    "WEBCLEAN_EXTRA_NOISE_WORDS": ["责任编辑", "相关阅读"],
    "WEBCLEAN_LINE_MODEL": "none",
    "WEBCLEAN_LINE_MODEL_MIN_SITE_PAGES": 3,
    "WEBCLEAN_FAVOR": "recall",
    "WEBCLEAN_MIN_BLOCK_CHARS": 80,
    "WEBCLEAN_FALLBACK_ENCODINGS": ["utf-8", "big5", "gb18030", "cp1252"],
    "WEBCLEAN_ADS_ENABLED": False,
    "WEBCLEAN_DROP_TEMPLATE_IMAGES": False,
    "WEBCLEAN_ADS_NOISE_WORDS": {"promo": 1.0, "推广": 1.0},
    "WEBCLEAN_ADS_ALLOW": ["images.example.com", r"/uploads/\d+/"],
    "WEBCLEAN_ADS_MIN_PAGES": 8,
    "WEBCLEAN_ADS_MAX_DEFERS": 0,
    "WEBCLEAN_ADS_FILTER_LIST": "https://easylist.to/easylist/easylist.txt",
    "WEBCLEAN_ADS_FILTER_LIST_CACHE": "/var/cache/webclean",
    "WEBCLEAN_DEDUP_ENABLED": False,
    "WEBCLEAN_DEDUP_POLICY": "mark",
    "WEBCLEAN_DEDUP_FIELD": "copy_of",
    "WEBCLEAN_QUERY_KEYWORDS": ["election", "选举"],
    "WEBCLEAN_IMAGE_URLS_FIELD": "photo_urls",
    "WEBCLEAN_OUTPUT_FORMAT": "markdown",
    "WEBCLEAN_WORKERS": 0,
    "WEBCLEAN_WORKER_QUEUE": 16,
    "WEBCLEAN_REJECTS_FEED": "rejects-%(spider)s.jsonl",
    "WEBCLEAN_MAX_HTML_BYTES": 5_000_000,
    "WEBCLEAN_MAX_DEPTH": 2000,
    "WEBCLEAN_MAX_NODES": 1_000_000,
    "WEBCLEAN_MAX_TEXT_CHARS": 2_000_000,
    "WEBCLEAN_STATE": "jobdir",
    "WEBCLEAN_STATE_FILE": "learned.sqlite3",
    "WEBCLEAN_REDIS_PREFIX": "news:webclean:",
    "WEBCLEAN_STATE_RETRY_SECONDS": 60.0,
    "WEBCLEAN_REDIS_REQUIRED": False,
    "WEBCLEAN_DEDUP_BATCH": 128,
    "WEBCLEAN_LINK_GRAPH": "links.tsv.gz",
    "WEBCLEAN_PRIORITY_ENABLED": True,
    "WEBCLEAN_PRIORITY_WEIGHTS": {"content": 2.0, "noise": 0.0},
}

#: The type shown for a rule, by how its "allowed" text begins (most specific first).
_TYPES = (
    ("True or False", "bool"),
    ("an integer", "int"),
    ("a number", "float"),
    ("one of ", "str"),
    ("a non-empty string or None", "str or None"),
    ("'default', 'none' or the path", "str"),
    ("a non-empty string", "str"),
    ("a list of ", "list of str (or one comma-separated str)"),
    ("a dict of words to weights", "dict of str to float"),
    ("a dict of block labels", "dict of str to float"),
    ("a dict mapping results", "dict of str to str or None"),
)


class ReferenceError(Exception):
    """The registry cannot be documented (an unknown kind of rule, a bad example)."""


def type_of(setting: Setting) -> str:
    """The Python type a setting takes, read from its rule's description."""
    for start, name in _TYPES:
        if setting.allowed.startswith(start):
            return name
    raise ReferenceError(
        f"{setting.name}: no type known for a rule that allows {setting.allowed!r}; "
        "add one to docs/_ext/settings_reference.py"
    )


def example_of(setting: Setting) -> Any:
    """The example value of a setting, checked against the setting's rule."""
    value = EXAMPLES.get(setting.name, setting.default)
    if value is None:
        return None
    try:
        get_setting({setting.name: value}, setting.name)
    except SettingError as exc:
        raise ReferenceError(f"the example of {setting.name} is not allowed: {exc}") from None
    return value


def _python(value: Any, indent: int = 0) -> str:
    """``value`` as Python source, in full: one line when it fits, else one element a line
    (strings are never split)."""
    short = repr(value)
    if indent + len(short) <= 72 or not isinstance(value, (list, dict)) or not value:
        return short
    if isinstance(value, list):
        inner = [f"    {item!r}," for item in value]
        return "\n".join(["[", *inner, "]"])
    inner = [f"    {key!r}: {item!r}," for key, item in value.items()]
    return "\n".join(["{", *inner, "}"])


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _entry(setting: Setting) -> list[str]:
    example = example_of(setting)
    lines = [
        f"## `{setting.name}`",
        "",
        _cell(setting.doc),
        "",
        f"- **Type:** {type_of(setting)}",
        f"- **Allowed:** {setting.allowed}",
        "- **Default:**",
        "",
        "  ```python",
        *(f"  {line}" for line in _python(setting.default).splitlines()),
        "  ```",
        "",
        "- **Example** (`settings.py`):",
        "",
        "  ```python",
    ]
    assignment = f"{setting.name} = {_python(example, len(setting.name) + 3)}".splitlines()
    lines += [f"  {line}" for line in assignment]
    lines += ["  ```", ""]
    return lines


def reference_markdown() -> str:
    """The settings reference in MyST Markdown: a summary table, then one entry each."""
    lines = ["| Setting | Type | Meaning |", "|---|---|---|"]
    for setting in SETTINGS:
        anchor = setting.name.lower()
        lines.append(
            f"| [`{setting.name}`](#{anchor}) | {_cell(type_of(setting))} | {_cell(setting.doc)} |"
        )
    lines.append("")
    for setting in SETTINGS:
        lines += _entry(setting)
    return "\n".join(lines)


def _source_read(app: Any, docname: str, source: list[str]) -> None:
    if docname != DOCNAME:
        return
    if MARKER not in source[0]:
        raise ReferenceError(f"docs/{DOCNAME}.md has lost its marker line {MARKER}")
    source[0] = source[0].replace(MARKER, reference_markdown())


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _source_read)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
