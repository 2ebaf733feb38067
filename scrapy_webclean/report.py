"""A picture of the segmentation: one self-contained HTML file per page.

The page as it looked (its own ``<style>`` and ``style`` attributes kept; scripts, frames,
external style sheets, fonts and every other external reference removed, images replaced by
grey boxes of their size, so opening the report makes no request), with every block
outlined and tinted by its label (content green, related blue, noise red), each line of the
extracted text barred green on its left, dropped images crossed out with their reason on
hover, images and unsized SVG drawings kept to a sensible size and noise lists (menus) laid
out in runs (a page shown without its style sheets stays readable), a legend, and a side
panel with the title, date, page type and extracted text. What the Quark thesis's demo
showed, for any page.

``render_report(result, verdicts)`` needs a result cleaned with
``CleanOptions(keep_page=True)`` (``scrapy webclean --report`` does it).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from lxml import etree

if TYPE_CHECKING:
    from scrapy_webclean.ads import Verdict
    from scrapy_webclean.result import CleanResult

COLOURS = {"content": "42,157,58", "related": "37,99,235", "noise": "220,38,38"}

_REMOVE = ("script", "noscript", "iframe", "frame", "frameset", "object", "embed", "applet",
           "base", "audio", "video", "source", "track", "portal")  # fmt: skip
_URL_RE = re.compile(r"url\(\s*(['\"]?)(?!data:)[^)]*\1\s*\)", re.I)
_IMPORT_RE = re.compile(r"@import[^;]*;", re.I)
_URL_ATTRS = ("src", "srcset", "data-src", "data-srcset", "poster", "background", "lowsrc")

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
img, video, canvas, picture {{ max-width: 100% !important; height: auto; }}
svg {{ max-width: 100% !important; max-height: 40vh !important; }}
svg:not([width]):not([style]) {{ width: 3em !important; height: 3em !important; }}
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


def _placeholder(width: str | None, height: str | None) -> str:
    w = width if width and width.isdigit() else "120"
    h = height if height and height.isdigit() else "80"
    svg = f"<svg xmlns='http://www.w3.org/2000/svg' width='{w}' height='{h}'></svg>"
    return "data:image/svg+xml," + svg.replace("<", "%3C").replace(">", "%3E").replace("#", "%23")


def render_report(
    result: CleanResult,
    verdicts: Mapping[str, Verdict] | None = None,
    stylesheets: Mapping[str, str] | None = None,
) -> str:
    """The report page for ``result`` (cleaned with ``keep_page=True``); ``verdicts`` are
    the ad filter's verdicts by image URL (the dropped ones are crossed out);
    ``stylesheets`` the page's external style sheets by absolute URL, inlined (without
    their ``url()`` references) so the page looks as it did."""
    model = result.page_model
    if model is None:
        raise ValueError("render_report needs a result cleaned with CleanOptions(keep_page=True)")
    verdicts = verdicts or {}
    for block in result.blocks:
        if 0 <= block.node < len(model.elements):
            element = model.elements[block.node]
            element.set("data-wc", block.label.value)
            element.set("data-wc-block", str(block.index))
            element.set(
                "title",
                f"block {block.index}: {block.label.value} ({block.chars} chars, "
                f"p(content) {block.content_probability:.2f})",
            )
    for node in result.kept_nodes:
        if 0 <= node < len(model.elements):
            model.elements[node].set("data-wc-kept", "1")  # a line of the extracted text
    root = model.elements[0].getroottree().getroot()
    for element in root.xpath("//*[@data-wc][descendant::*[@data-wc]]"):
        element.set("data-wc-outer", "1")  # a block around blocks: outlined, not tinted
    _inline_styles(root, result.url, stylesheets or {})
    _strip(root, verdicts)
    head = root.find("head")
    if head is None:
        head = etree.Element("head")
        root.insert(0, head)
    meta = etree.SubElement(head, "meta")
    meta.set("charset", "utf-8")
    head.insert(0, meta)
    policy = etree.SubElement(head, "meta")
    policy.set("http-equiv", "Content-Security-Policy")
    policy.set("content", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
    head.insert(1, policy)
    style = etree.SubElement(head, "style")
    style.text = _CSS
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    body.append(_panel(result, verdicts))
    page: str = etree.tostring(root, method="html", encoding="unicode")
    return "<!DOCTYPE html>\n" + page


def _strip(root: etree._Element, verdicts: Mapping[str, Verdict]) -> None:
    """Remove everything that would run or fetch; keep what draws."""
    for element in list(root.iter()):
        if not isinstance(element.tag, str):
            continue
        tag = element.tag.lower()
        # (A fetched style sheet is a <style> by now: any <link> left would be fetched.)
        if tag in _REMOVE or tag == "link":
            _drop(element)
            continue
        if tag == "meta" and (element.get("http-equiv") or "").lower() in (
            "refresh",
            "content-security-policy",
        ):
            _drop(element)
            continue
        for name in list(element.attrib):
            lower = name.lower()
            if (lower.startswith("on") or lower in _URL_ATTRS) and not (
                tag == "img" and lower == "src"
            ):
                del element.attrib[name]
        style = element.get("style")
        if style:
            element.set("style", _URL_RE.sub("none", style))
        if tag == "style" and element.text:
            element.text = _IMPORT_RE.sub("", _URL_RE.sub("none", element.text))
        if tag == "a" and element.get("href"):
            element.set("data-href", element.get("href") or "")
            element.set("href", "#")
        if tag == "form":
            element.attrib.pop("action", None)
        if tag == "img":
            src = element.get("src") or ""
            verdict = next((v for s, v in verdicts.items() if s.endswith(src) and src), None)
            classes = ["wc-img"]
            if verdict is not None and verdict.drop:
                classes.append("wc-dropped")
                element.set(
                    "title",
                    f"dropped: {verdict.kind} ({', '.join(verdict.reasons) or verdict.reason})",
                )
            element.set("class", " ".join([element.get("class") or "", *classes]).strip())
            element.set("data-src", src)
            element.set("src", _placeholder(element.get("width"), element.get("height")))


def _inline_styles(root: etree._Element, base: str | None, stylesheets: Mapping[str, str]) -> None:
    """Replace each ``<link rel=stylesheet>`` whose sheet was fetched by a ``<style>``."""
    from urllib.parse import urljoin

    for link in root.xpath("//link[contains(@rel, 'stylesheet')][@href]"):
        href = urljoin(base or "", link.get("href") or "")
        css = stylesheets.get(href)
        if css is None:
            continue
        style = etree.Element("style")
        style.text = css
        style.tail = link.tail
        link.getparent().replace(link, style)


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


def _panel(result: CleanResult, verdicts: Mapping[str, Verdict]) -> etree._Element:
    counts = {label: 0 for label in COLOURS}
    for block in result.blocks:
        counts[block.label.value] = counts.get(block.label.value, 0) + 1
    dropped = sum(1 for v in verdicts.values() if v.drop)
    legend = "".join(
        f'<span style="border-color: rgb({rgb}); background: rgba({rgb}, .16)">'
        f"{label} ({counts.get(label, 0)})</span>"
        for label, rgb in COLOURS.items()
    )
    markup = (
        f'<aside id="wc-panel"><h2>{html.escape(result.title)}</h2>'
        f'<div class="wc-legend">{legend}<span style="border-color: rgb(220,38,38)">'
        f"dropped image ({dropped})</span></div>"
        f"<dl><dt>Date</dt><dd>{html.escape(result.date or '-')}</dd>"
        f"<dt>Type</dt><dd>{html.escape(result.page_type)}</dd>"
        f"<dt>Language</dt><dd>{html.escape(result.lang)}</dd>"
        f"<dt>URL</dt><dd>{html.escape(result.url or '-')}</dd></dl>"
        f"<h2>Main text</h2><pre>{html.escape(result.text)}</pre></aside>"
    )
    return etree.fromstring(markup.encode("utf-8"), etree.HTMLParser(encoding="utf-8")).find(
        ".//aside"
    )
