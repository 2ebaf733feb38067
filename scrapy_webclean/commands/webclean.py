"""``scrapy webclean``: clean one page and show what came out.

    scrapy webclean https://example.com/news/1      # fetched with Scrapy (project settings)
    scrapy webclean page.html --url https://example.com/news/1
    curl -s https://example.com/ | scrapy webclean - --url https://example.com/
    scrapy webclean page.html -o result.json        # the CleanResult as JSON
    scrapy webclean page.html --explain              # every block, its label and signals
    scrapy webclean page.html --images               # every image's verdict and reasons
    scrapy webclean page.html --markdown             # the main content as Markdown
    scrapy webclean page.html --report report.html   # a picture of the blocks

Registered through the ``scrapy.commands`` entry point, so it works inside and outside a
project; inside one, the page is fetched with the project's settings (user agent,
middlewares, proxies) and cleaned with its ``WEBCLEAN_*`` settings.
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser, Namespace
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from w3lib.url import is_url

from scrapy_webclean.ads import AdImageModel, Verdict
from scrapy_webclean.cleaning import Cleaner
from scrapy_webclean.errors import CleanError
from scrapy_webclean.integration.pipelines import clean_options_from_settings

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from scrapy import Spider
    from scrapy.http import Response

    from scrapy_webclean.result import CleanResult


class Command(ScrapyCommand):
    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "[options] <url | file | ->"

    def short_desc(self) -> str:
        return "Clean one page (URL, file or stdin) and show its main content"

    def long_desc(self) -> str:
        return (
            "Clean one page and print its title, date, page type and main text. The page is "
            "a URL (fetched with Scrapy and the project's settings), a local file, or - for "
            "standard input. -o writes the whole CleanResult as JSON; --explain lists every "
            "block with its label and signals; --images every image's verdict; --report "
            "writes a self-contained HTML picture of the blocks."
        )

    def add_options(self, parser: ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--url", help="the page's URL (for a file or stdin)")
        parser.add_argument("--content-type", help="the page's Content-Type (for a file or stdin)")
        parser.add_argument("-o", "--output", help="write the CleanResult as JSON to this file")
        parser.add_argument("--explain", action="store_true", help="list every block")
        parser.add_argument("--images", action="store_true", help="every image's verdict")
        parser.add_argument("--markdown", action="store_true", help="print Markdown")
        parser.add_argument("--report", help="write an HTML picture of the blocks to this file")

    def run(self, args: list[str], opts: Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give one URL, file or -")
        source = args[0]
        self.styles: dict[str, str] = {}
        if is_url(source):
            body, url, content_type = self._fetch(source, want_styles=bool(opts.report))
            if body is None:
                print(f"webclean: could not fetch {source}", file=sys.stderr)
                self.exitcode = 1
                return
        elif source == "-":
            body, url, content_type = sys.stdin.buffer.read(), opts.url, opts.content_type
        else:
            path = Path(source)
            if not path.is_file():
                raise UsageError(f"{source} is neither a URL nor a file")
            body, url, content_type = path.read_bytes(), opts.url, opts.content_type
        assert self.settings is not None
        options = replace(clean_options_from_settings(self.settings), keep_page=bool(opts.report))
        cleaner = Cleaner(options)
        try:
            result = cleaner.clean(body, url, content_type=content_type)
        except CleanError as exc:
            print(f"webclean: cannot clean the page: {exc} ({exc.reason})", file=sys.stderr)
            self.exitcode = 1
            return
        verdicts = judge_images(body, url) if (opts.images or opts.report) else {}
        if opts.output:
            data = result.to_dict(include_blocks=True, include_markdown=True)
            if verdicts:
                groups = image_groups(result)
                data["image_verdicts"] = {
                    src: {**_verdict_dict(v), "page_images": groups.get(src)}
                    for src, v in verdicts.items()
                }
            Path(opts.output).write_text(
                json.dumps(data, ensure_ascii=False, indent=2), encoding="utf-8"
            )
        if opts.report:
            from scrapy_webclean.report import render_report

            page = render_report(result, verdicts, self.styles)
            Path(opts.report).write_text(page, encoding="utf-8")
        out = sys.stdout
        print(f"Title:     {result.title}", file=out)
        print(f"Date:      {result.date or '-'}", file=out)
        print(f"Page type: {result.page_type}", file=out)
        print(f"Language:  {result.lang}    Encoding: {result.encoding}", file=out)
        print("", file=out)
        print(result.markdown if opts.markdown else result.text, file=out)
        if opts.explain:
            print("\nBlocks:", file=out)
            for line in explain_blocks(result):
                print(line, file=out)
        if opts.images:
            groups = image_groups(result)
            print(
                "\nImages (the ad filter on this one page: template needs several pages of a "
                "site; kept images under the output's page_images group):",
                file=out,
            )
            for src, verdict in verdicts.items():
                action, word = image_words(verdict, groups.get(src))
                reasons = ", ".join(verdict.reasons) or "-"
                print(f"  {action:4}  {word:8}  {src}  ({reasons})", file=out)

    def _fetch(self, url: str, want_styles: bool = False) -> tuple[bytes | None, str, str | None]:
        """Fetch ``url`` with Scrapy (the project's settings and middlewares); with
        ``want_styles`` its style sheets too (in ``self.styles``)."""
        from scrapy import Request
        from scrapy.utils.spider import DefaultSpider

        got: dict[str, Any] = {}

        styles: dict[str, str] = {}
        got["styles"] = styles

        def keep_style(response: Response) -> None:
            styles[response.url] = response.body.decode("utf-8", "replace")

        def keep(response: Response) -> Any:
            got["body"] = response.body
            got["url"] = response.url
            header = response.headers.get(b"Content-Type") or b""
            got["content_type"] = header.decode("latin-1")
            if want_styles and hasattr(response, "xpath"):
                # The page's style sheets too, so the report looks as the page did.
                for href in response.xpath("//link[contains(@rel, 'stylesheet')]/@href").getall():
                    yield Request(response.urljoin(href), callback=keep_style, dont_filter=True)

        request = Request(url, callback=keep, dont_filter=True)

        class _Fetch(DefaultSpider):
            async def start(self: Spider) -> AsyncIterator[Any]:
                yield request

        assert self.crawler_process is not None
        self.crawler_process.crawl(_Fetch)
        self.crawler_process.start()
        self.styles = styles
        return got.get("body"), got.get("url", url), got.get("content_type") or None


def judge_images(body: bytes | str, url: str | None) -> dict[str, Verdict]:
    """Each image of the page with the ad filter's verdict from this one page (the
    statistics that need several pages of a site, redundancy and entropy, cannot fire)."""
    model = AdImageModel()
    page_url = url or "http://localhost/"
    links = model.observe_page(page_url, body)
    return {link.src: model.judge(link.src, page_url) for link in links}


def image_groups(result: CleanResult) -> dict[str, str]:
    """The output's ``page_images`` group (content, related, noise) of each image."""
    return {
        image.src: group for group, images in result.images_by_label().items() for image in images
    }


def image_words(verdict: Verdict, group: str | None) -> tuple[str, str]:
    """What the crawl's output says of an image: ``drop`` and the filter's kind (ad,
    pixel, template: the words of the ``webclean/images/dropped_kind/...`` stats), or
    ``keep`` and the ``page_images`` group the cleaner files it under (a logo in a noise
    block is ``noise``, not content)."""
    if verdict.drop:
        return "drop", verdict.kind
    return "keep", group or verdict.kind


def _verdict_dict(verdict: Verdict) -> dict[str, Any]:
    return {
        "drop": verdict.drop,
        "kind": verdict.kind,
        "score": verdict.score,
        "reasons": list(verdict.reasons),
    }


def explain_blocks(result: CleanResult) -> list[str]:
    """One line per block: index, label, size, the classifier's signals, a text preview."""
    lines = []
    for block in result.blocks:
        fired = ",".join(name for name, on in block.features.items() if on) or "-"
        preview = " ".join(block.text.split())[:70]
        lines.append(
            f"  #{block.index:<3} {block.label.value:8} chars={block.chars:<5} "
            f"links={block.link_count:<3} link-density="
            f"{block.anchor_chars / block.chars if block.chars else 0:.2f} "
            f"p(content)={block.content_probability:.2f} features={fired}  {block.path}\n"
            f"        {preview}"
        )
    return lines
