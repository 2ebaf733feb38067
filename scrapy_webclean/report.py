"""A picture of the segmentation: one self-contained HTML file per page.

The page as it looked (its own ``<style>`` and ``style`` attributes kept, without what
fetches; scripts, frames, inline SVG and MathML, external references and event handlers
removed; images and SVG drawings replaced by grey boxes of their size, so opening the
report makes no request), with every block outlined and tinted by its label (content
green, related blue, noise red), each line of the extracted text barred green on its
left, dropped images crossed out with their reason on hover, images kept to a sensible
size and noise lists (menus) laid out in runs (a page shown without its style sheets
stays readable), a legend, and a side panel with the title, date, page type and
extracted text. What the Quark thesis's demo showed, for any page.

A page cannot hurt the person who opens its report. The file starts with
:data:`PROLOGUE`, written as text before any of the page's markup: the doctype, ``<html>``
and a ``<head>`` whose first child is the Content-Security-Policy (no script, no request
but ``data:`` images), so no markup of the page can come before the policy. The page's
markup goes under a new ``<body>``, through an allowlist sanitizer that parses as a
browser does (``nh3``, see :mod:`scrapy_webclean.report_sanitize`); its style sheets,
inline or fetched (http(s) only, at most :data:`MAX_STYLESHEETS` of at most
:data:`MAX_STYLESHEET_BYTES` each), are carried apart through the report's CSS sanitizer
and written as ``<style>`` elements of the head, after the policy.

``render_report(result, verdicts)`` needs a result cleaned with
``CleanOptions(keep_page=True)`` (``scrapy webclean --report`` does it).
"""

from __future__ import annotations

import copy
import html
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from lxml import etree

from scrapy_webclean.html.pagemodel import image_src
from scrapy_webclean.report_sanitize import (
    CONTENT_SECURITY_POLICY,
    MAX_STYLESHEET_BYTES,
    MAX_STYLESHEETS,
    OWN_ID_PREFIX,
    STYLESHEET_SCHEMES,
    image_placeholder,
    is_stylesheet_link,
    sanitize_css,
    sanitize_markup,
    stylesheet_urls,
    url_scheme,
)
from scrapy_webclean.urls import UrlResolver, resolve_base

if TYPE_CHECKING:
    from scrapy_webclean.ads import Verdict
    from scrapy_webclean.result import CleanResult

__all__ = [
    "COLOURS",
    "CONTENT_SECURITY_POLICY",
    "MAX_STYLESHEETS",
    "MAX_STYLESHEET_BYTES",
    "PROLOGUE",
    "STYLESHEET_SCHEMES",
    "render_report",
    "stylesheet_urls",
]

COLOURS = {"content": "42,157,58", "related": "37,99,235", "noise": "220,38,38"}

# The base the ad filter resolves a page's image URLs against when it has no URL
# (``judge_images``), so the verdicts of such a page are found by the same keys.
_NO_URL_BASE = "http://localhost/"
# The URLs kept as text in data-wc-href / data-wc-src: http(s) and relative ones.
_READABLE_SCHEMES = frozenset({"", *STYLESHEET_SCHEMES})
_OWN_ATTRIBUTE_RE = re.compile(r"data-wc[a-z0-9-]*+")
#: The page ``<body>`` attributes our ``<body>`` takes over, so the page's ``body.x`` rules
#: still apply (``style`` through the CSS sanitizer, ``data-wc*`` being ours).
_BODY_ATTRIBUTES = frozenset({"class", "id", "lang", "dir", "title", "style"})

_CSS = """
[data-wc] {{ outline: 3px solid rgba(var(--wc), .9) !important; outline-offset: -3px;
  background-color: rgba(var(--wc), .16) !important; }}
[data-wc="content"] {{ --wc: {content}; }}
[data-wc="related"] {{ --wc: {related}; }}
[data-wc="noise"] {{ --wc: {noise}; }}
[data-wc][data-wc-outer] {{ background-color: transparent !important; outline-style: dashed
  !important; }}
img.wc-img {{ background: repeating-linear-gradient(45deg, #ccc 0 6px, #e5e5e5 6px 12px); }}
img.wc-dropped {{ outline: 3px solid rgb(220,38,38) !important; background:
  linear-gradient(to top right, transparent 48%, rgb(220,38,38) 48%, rgb(220,38,38) 52%,
  transparent 52%), linear-gradient(to top left, transparent 48%, rgb(220,38,38) 48%,
  rgb(220,38,38) 52%, transparent 52%), #f3d1d1 !important; }}
[data-wc-kept] {{ box-shadow: inset 4px 0 0 rgb({content}) !important; }}
img, canvas {{ max-width: 100% !important; height: auto; }}
img.wc-svg {{ max-height: 40vh !important; }}
img.wc-svg:not([width]):not([style]) {{ width: 3em !important; height: 3em !important; }}
[data-wc="noise"] li {{ display: inline-block !important; margin: 0 .9em 0 0 !important; }}
html {{ margin-right: 34vw !important; }}
#wc-panel {{ all: initial; position: fixed; top: 0; right: 0; width: 33vw; height: 100vh;
  overflow: auto; background: #fff; border-left: 2px solid #333; z-index: 2147483647;
  font: 13px/1.45 system-ui, sans-serif; color: #111; box-sizing: border-box; padding: 12px; }}
#wc-panel h2 {{ font-size: 15px; margin: 0 0 6px; }}
#wc-panel .wc-legend span {{ display: inline-block; padding: 1px 8px; margin: 0 6px 4px 0;
  border: 2px solid; }}
#wc-panel pre {{ white-space: pre-wrap; font: inherit; margin: 8px 0 0; }}
#wc-panel dl {{ margin: 6px 0; }} #wc-panel dt {{ font-weight: bold; float: left; width: 6em; }}
""".format(**COLOURS)

#: The first bytes of every report, before any of the page's markup: no page can put
#: anything before the policy, nor move it out of the head.
PROLOGUE = (
    "<!DOCTYPE html>\n<html>\n<head>\n"
    f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">\n'
    '<meta charset="utf-8">\n'
    f"<style>{_CSS}</style>\n"
)


def render_report(
    result: CleanResult,
    verdicts: Mapping[str, Verdict] | None = None,
    stylesheets: Mapping[str, str] | None = None,
) -> str:
    """The report page for ``result`` (cleaned with ``keep_page=True``; its page tree is
    left as it was); ``verdicts`` are the ad filter's verdicts by image URL (the
    dropped ones are crossed out); ``stylesheets`` the page's external style sheets by
    absolute URL, inlined (sanitized) where the page links them, the first
    :data:`MAX_STYLESHEETS` http(s) ones of at most :data:`MAX_STYLESHEET_BYTES` each.
    The text starts with :data:`PROLOGUE`."""
    model = result.page_model
    if model is None:
        raise ValueError("render_report needs a result cleaned with CleanOptions(keep_page=True)")
    verdicts = verdicts or {}
    page = model.elements[0].getroottree().getroot()
    root = copy.deepcopy(page)  # the result's tree stays as it was
    twin = dict(zip(page.iter(), root.iter(), strict=True))
    _drop_own_markers(root)  # a page's own data-wc* would fake the report's tints
    marked: list[etree._Element] = []
    for block in result.blocks:
        if 0 <= block.node < len(model.elements):
            element = twin[model.elements[block.node]]
            element.set("data-wc", block.label.value)
            element.set("data-wc-block", str(block.index))
            element.set(
                "title",
                f"block {block.index}: {block.label.value} ({block.chars} chars, "
                f"p(content) {block.content_probability:.2f})",
            )
            marked.append(element)
    for node in result.kept_nodes:
        if 0 <= node < len(model.elements):
            twin[model.elements[node]].set("data-wc-kept", "1")  # a line of the extracted text
    _mark_outer_blocks(marked)
    base = resolve_base(result.url or _NO_URL_BASE, _base_href(root))
    sheets = _take_style_sheets(root, base, stylesheets or {})
    _replace_foreign_content(root)
    _rewrite_links_and_images(root, UrlResolver(base), verdicts)
    body_attributes, markup = _page_markup(root)
    return "".join(
        [
            PROLOGUE,
            *(_style_element(css, media) for css, media in sheets),
            "</head>\n",
            f"<body{body_attributes}>\n",
            '<div id="wc-page">',
            sanitize_markup(markup),
            "</div>\n",
            _panel(result, verdicts),
            "\n</body>\n</html>\n",
        ]
    )


def _drop_own_markers(root: etree._Element) -> None:
    for element in root.iter():
        if isinstance(element.tag, str):
            for name in [n for n in element.attrib if n.lower().startswith("data-wc")]:
                del element.attrib[name]


def _mark_outer_blocks(marked: list[etree._Element]) -> None:
    """Mark each block that holds other blocks (outlined, not tinted). Each ancestor is
    walked once: linear in the size of the page, however deep the blocks nest."""
    walked: set[etree._Element] = set()
    for element in marked:
        for ancestor in element.iterancestors():
            if ancestor in walked:
                break
            walked.add(ancestor)
            if ancestor.get("data-wc") is not None:
                ancestor.set("data-wc-outer", "1")


def _base_href(root: etree._Element) -> str | None:
    base = root.find(".//base[@href]")
    return base.get("href") if base is not None else None


def _take_style_sheets(
    root: etree._Element, base: str, stylesheets: Mapping[str, str]
) -> list[tuple[str, str | None]]:
    """Take the page's ``<style>`` elements out of the tree and resolve its
    ``<link rel=stylesheet>`` to the fetched sheets: ``(sanitized CSS, media)`` in page
    order. Only the links :func:`stylesheet_urls` would fetch count (http(s), the first
    :data:`MAX_STYLESHEETS`), and a sheet over :data:`MAX_STYLESHEET_BYTES` is left out."""
    elements = list(root.iter("style", "link"))
    links = [element for element in elements if element.tag == "link"]
    hrefs = (link.get("href") or "" for link in links if is_stylesheet_link(link))
    wanted = set(stylesheet_urls(base, hrefs)[0])
    resolve = UrlResolver(base)
    sheets: list[tuple[str, str | None]] = []
    for element in elements:
        css: str | None = None
        if element.tag == "style":
            # A template's content is inert in a browser: its styles apply nowhere.
            inert = next(element.iterancestors("template"), None) is not None
            css = None if inert else element.text or ""
            _drop(element)
        elif is_stylesheet_link(element):
            url = resolve((element.get("href") or "").strip())
            css = stylesheets.get(url) if url in wanted else None
            if css is not None and len(css.encode("utf-8", "replace")) > MAX_STYLESHEET_BYTES:
                css = None
        if css:
            sheets.append((sanitize_css(css), element.get("media")))
    return sheets


def _style_element(css: str, media: str | None) -> str:
    if not css.strip():
        return ""
    media_attribute = f' media="{html.escape(media)}"' if media and media.strip() else ""
    return f"<style{media_attribute}>{css}</style>\n"


def _replace_foreign_content(root: etree._Element) -> None:
    """Replace each inline SVG drawing by a grey box of its size and each MathML formula
    by its text: the sanitizer drops both, as the parsers of foreign content differ."""
    for element in list(root.iter("svg", "math")):
        if element.getparent() is None:
            continue
        if element.tag == "svg":
            new = etree.Element("img")
            for name in ("width", "height"):
                value = (element.get(name) or "").strip()
                if value.isascii() and value.isdigit():
                    new.set(name, value)
            new.set("src", image_placeholder(new.get("width"), new.get("height")))
            new.set("class", " ".join(["wc-img wc-svg", element.get("class") or ""]).strip())
            for name in ("style", "title", *(n for n in element.attrib if n.startswith("data-wc"))):
                if element.get(name):
                    new.set(name, element.get(name) or "")
        else:
            new = etree.Element("span")
            new.set("class", "wc-math")
            new.text = element.get("alttext") or element.xpath("string()")
        new.tail = element.tail
        parent = element.getparent()
        assert parent is not None
        parent.replace(element, new)


def _rewrite_links_and_images(
    root: etree._Element, resolve: UrlResolver, verdicts: Mapping[str, Verdict]
) -> None:
    """Links go nowhere (``href="#"``) and images are placeholders of their size; the
    original http(s) or relative URLs are kept in ``data-wc-href`` / ``data-wc-src`` (text
    to read, never loaded). A dropped image is crossed out, its reason in its title."""
    for element in root.iter("a", "img"):
        if element.tag == "a":
            href = element.get("href")
            if href is not None:
                if url_scheme(href) in _READABLE_SCHEMES:
                    element.set("data-wc-href", href)
                element.set("href", "#")
            continue
        src = element.get("src") or ""
        verdict = None
        for candidate in (image_src(element), src):
            if candidate and verdict is None:
                verdict = verdicts.get(candidate)
                if verdict is None:
                    verdict = verdicts.get(resolve(candidate.strip()))
        classes = ["wc-img"]
        if verdict is not None and verdict.drop:
            classes.append("wc-dropped")
            element.set(
                "title",
                f"dropped: {verdict.kind} ({', '.join(verdict.reasons) or verdict.reason})",
            )
        element.set("class", " ".join([element.get("class") or "", *classes]).strip())
        if src and url_scheme(src) in _READABLE_SCHEMES:
            element.set("data-wc-src", src)
        element.set("src", image_placeholder(element.get("width"), element.get("height")))


def _page_markup(root: etree._Element) -> tuple[str, str]:
    """``(attributes for our <body>, the page's markup)``: everything of the page but its
    ``<body>`` tag (its content in place, its class, id, lang, dir, title and style
    moved to ours), for the sanitizer."""
    parts: list[str] = []
    attributes: str | None = None
    children = list(root) if root.tag == "html" else [root]
    if root.tag == "html" and root.text:
        parts.append(html.escape(root.text, quote=False))
    for child in children:
        if child.tag == "body" and attributes is None:
            attributes = _body_attributes(child)
            if child.text:
                parts.append(html.escape(child.text, quote=False))
            parts.extend(etree.tostring(c, method="html", encoding="unicode") for c in child)
            if child.tail:
                parts.append(html.escape(child.tail, quote=False))
        else:
            parts.append(etree.tostring(child, method="html", encoding="unicode"))
    return attributes or "", "".join(parts)


def _body_attributes(body: etree._Element) -> str:
    kept: list[str] = []
    for name, value in body.attrib.items():
        name = str(name).lower()
        value = str(value)
        own = name == "id" and value.startswith(OWN_ID_PREFIX)
        if own or (name not in _BODY_ATTRIBUTES and not _OWN_ATTRIBUTE_RE.fullmatch(name)):
            continue
        if name == "style":
            value = sanitize_css(value)
        kept.append(f' {name}="{html.escape(value, quote=True)}"')
    return "".join(kept)


def _drop(element: etree._Element) -> None:
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    previous = element.getprevious()
    parent.remove(element)
    if tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


def _panel(result: CleanResult, verdicts: Mapping[str, Verdict]) -> str:
    """The side panel: legend with the block counts, title, date, type, language, URL
    and the extracted text, all of it escaped text."""
    counts = {label: 0 for label in COLOURS}
    for block in result.blocks:
        counts[block.label.value] = counts.get(block.label.value, 0) + 1
    dropped = sum(1 for v in verdicts.values() if v.drop)
    legend = "".join(
        f'<span style="border-color: rgb({rgb}); background: rgba({rgb}, .16)">'
        f"{label} ({counts.get(label, 0)})</span>"
        for label, rgb in COLOURS.items()
    )
    return (
        f'<aside id="wc-panel"><h2>{html.escape(result.title)}</h2>'
        f'<div class="wc-legend">{legend}<span style="border-color: rgb(220,38,38)">'
        f"dropped image ({dropped})</span></div>"
        f"<dl><dt>Date</dt><dd>{html.escape(result.date or '-')}</dd>"
        f"<dt>Type</dt><dd>{html.escape(result.page_type)}</dd>"
        f"<dt>Language</dt><dd>{html.escape(result.lang)}</dd>"
        f"<dt>URL</dt><dd>{html.escape(result.url or '-')}</dd></dl>"
        f"<h2>Main text</h2><pre>{html.escape(result.text)}</pre></aside>"
    )
