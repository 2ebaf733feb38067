"""``scrapy webclean``: clean one page and show what came out.

    scrapy webclean https://example.com/news/1      # fetched with Scrapy (project settings)
    scrapy webclean page.html --url https://example.com/news/1
    curl -s https://example.com/ | scrapy webclean - --url https://example.com/
    scrapy webclean page.html -o result.json        # the CleanResult as JSON
    scrapy webclean page.html -o - | jq .title      # the JSON on standard output, alone
    scrapy webclean page.html --explain              # every block, its label and signals
    scrapy webclean page.html --images               # every image's verdict and reasons
    scrapy webclean page.html --format markdown      # the main content as Markdown
    scrapy webclean page.html --format html          # ... as minimal, sanitized HTML
    scrapy webclean page.html --format json          # the CleanResult as JSON, alone
    scrapy webclean page.html --comments             # the reader comments too
    scrapy webclean page.html --favor recall         # more of what may be content
    scrapy webclean page.html --report report.html   # a picture of the blocks
    scrapy webclean rank items.jsonl -o ranks.csv    # QuarkRank of the crawl's link graph

Registered through the ``scrapy.commands`` entry point, so it works inside and outside a
project; inside one, the page is fetched with the project's settings (user agent,
middlewares, proxies) and cleaned with its ``WEBCLEAN_*`` settings.

A file or standard input without ``--url`` takes its URL from the page's own
``<link rel="canonical">``, else its ``<base href>`` (an absolute http(s) URL only), so that
its links are absolute; with neither, relative links stay relative.

What it shows of a page is made in ``commands.page_view``; ``rank`` runs
``commands.rank_run``.
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
from w3lib.url import is_url, safe_url_string

from scrapy_webclean.cleaning import FAVOR_CHOICES, Cleaner
from scrapy_webclean.commands.page_view import (
    OUTPUT_FORMATS,
    comment_lines,
    explain_blocks,
    fetch_failure,
    image_groups,
    image_words,
    judge_images,
    page_own_url,
    summary_lines,
    verdict_dict,
)
from scrapy_webclean.commands.rank_run import run_rank
from scrapy_webclean.commands.state_run import run_state
from scrapy_webclean.errors import CleanError
from scrapy_webclean.integration.pipelines import clean_options_from_settings
from scrapy_webclean.integration.settings import SettingError, get_setting

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from scrapy import Spider
    from scrapy.http import Response
    from twisted.python.failure import Failure


class Command(ScrapyCommand):
    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return (
            "[options] <url | file | ->  |  rank [options] <items.jsonl | edges.tsv | ->...  |  "
            "state migrate --spider NAME"
        )

    def short_desc(self) -> str:
        return "Clean one page (URL, file or stdin) and show its main content"

    def long_desc(self) -> str:
        from scrapy_webclean.report import MAX_STYLESHEET_BYTES, MAX_STYLESHEETS

        return (
            "Clean one page and print its title, date, page type and main text. The page is "
            "a URL (fetched with Scrapy and the project's settings), a local file, or - for "
            "standard input. -o writes the whole CleanResult as JSON (-o - to standard output, "
            "and nothing else there); --explain lists every block with its label and signals; "
            "--images every image's verdict; --report writes a self-contained HTML picture of "
            "the blocks, sanitized and behind a policy that lets it run nothing and fetch "
            "nothing (with a URL, the page's style sheets are fetched and inlined: over "
            f"http(s) only, the first {MAX_STYLESHEETS} of at most {MAX_STYLESHEET_BYTES >> 20} "
            "MiB each; one left out or that cannot be fetched is reported in one line on "
            "standard error). A file or standard input "
            "without --url takes its URL from the page's <link rel=canonical>, else its "
            "<base href> (absolute http(s) URLs only); with neither, links stay relative. "
            "'rank' computes QuarkRank over a crawl's link graph instead: its exported items "
            "(JSON lines, the links grouped by label) or edge files (source<TAB>target<TAB>"
            "label lines), - for standard input; it writes url,rank,in_links as CSV sorted by "
            "rank (-o, else standard output) and each iteration's L1 change on standard error. "
            "'state migrate' copies a Redis store of the layout before buckets (one hash a "
            "table) into the sharded layout at REDIS_URL (WEBCLEAN_REDIS_BUCKETS, "
            "WEBCLEAN_REDIS_CLUSTER), so a running project's learning is not lost."
        )

    def add_options(self, parser: ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument(
            "--url",
            help="the page's URL, for a file or stdin (default: the page's "
            "<link rel=canonical>, else its <base href>, if absolute; else none and "
            "links stay relative)",
        )
        parser.add_argument("--content-type", help="the page's Content-Type (for a file or stdin)")
        parser.add_argument(
            "-o",
            "--output",
            help="write the CleanResult as JSON to this file (- for standard output, "
            "instead of the summary)",
        )
        parser.add_argument("--explain", action="store_true", help="list every block")
        parser.add_argument("--images", action="store_true", help="every image's verdict")
        parser.add_argument(
            "--format",
            choices=OUTPUT_FORMATS,
            help="how the main content is printed: text (default), markdown, html, or json "
            "(the whole CleanResult as JSON on standard output, alone)",
        )
        parser.add_argument(
            "--markdown", action="store_true", help="print Markdown (--format markdown)"
        )
        parser.add_argument(
            "--comments",
            action="store_true",
            help="find the reader comments too (WEBCLEAN_INCLUDE_COMMENTS) and print them",
        )
        parser.add_argument(
            "--favor",
            choices=FAVOR_CHOICES,
            help="precision or recall first (WEBCLEAN_FAVOR): balanced (default), precision, "
            "recall",
        )
        parser.add_argument("--report", help="write an HTML picture of the blocks to this file")
        group = parser.add_argument_group("rank (scrapy webclean rank <files>)")
        group.add_argument(
            "--weight",
            action="append",
            metavar="LABEL=WEIGHT",
            help="a link label's weight (default content=1.5, related=0.5, noise=0.5; 0 drops "
            "the label's links); repeat for several labels",
        )
        group.add_argument("--damping", type=float, help="damping factor (default 0.85)")
        group.add_argument("--tol", type=float, help="L1 tolerance (default 1e-10)")
        group.add_argument("--max-iter", type=int, help="iterations at most (default 200)")
        group.add_argument(
            "--engine",
            choices=("scipy", "spark"),
            help="scipy: one machine, in memory (default); spark: a PySpark job that reads "
            "the files itself (the spark extra and a Java runtime)",
        )
        group.add_argument(
            "--spark-master", help="the Spark master of --engine spark (default local[*])"
        )
        group = parser.add_argument_group(
            "state (scrapy webclean state migrate: a Redis store of the old layout, one hash "
            "a table, copied into the sharded one at REDIS_URL)"
        )
        group.add_argument("--spider", help="the spider whose keys to migrate (its prefix)")
        group.add_argument("--prefix", help="the keys' prefix (instead of --spider)")
        group.add_argument(
            "--from", dest="from_url", help="the old single node (default: REDIS_URL)"
        )
        group.add_argument(
            "--delete-old", action="store_true", help="delete the old keys once copied"
        )

    def run(self, args: list[str], opts: Namespace) -> None:
        if args and args[0] == "state" and (len(args) > 1 or not Path("state").exists()):
            assert self.settings is not None
            self.exitcode = run_state(args[1:], opts, self.settings)
            return
        if args and args[0] == "rank" and (len(args) > 1 or not Path("rank").exists()):
            assert self.settings is not None
            try:
                base = get_setting(self.settings, "WEBCLEAN_RANK_WEIGHTS")
            except SettingError as exc:
                raise UsageError(str(exc)) from None
            self.exitcode = run_rank(args[1:], opts, base)
            return
        rank_options = (
            opts.weight, opts.damping, opts.tol, opts.max_iter, opts.engine, opts.spark_master
        )  # fmt: skip
        if any(option is not None for option in rank_options):
            raise UsageError(
                "--weight, --damping, --tol, --max-iter, --engine and --spark-master are "
                "options of rank"
            )
        if len(args) != 1:
            raise UsageError("give one URL, file or -")
        source = args[0]
        self.styles: dict[str, str] = {}
        self.fetch_error: str | None = None
        url: str | None
        if is_url(source):
            fetched, url, content_type = self._fetch(source, want_styles=bool(opts.report))
            if fetched is None:
                why = f": {self.fetch_error}" if self.fetch_error else ""
                print(f"webclean: could not fetch {source}{why}", file=sys.stderr)
                self.exitcode = 1
                return
            body = fetched
        else:
            if source == "-":
                body = sys.stdin.buffer.read()
            else:
                path = Path(source)
                if not path.is_file():
                    raise UsageError(f"{source} is neither a URL nor a file")
                body = path.read_bytes()
            url, content_type = opts.url or page_own_url(body), opts.content_type
        assert self.settings is not None
        options = clean_options_from_settings(self.settings)
        options = replace(
            options,
            keep_page=bool(opts.report),
            include_comments=options.include_comments or bool(opts.comments),
            favor=opts.favor or options.favor,
        )
        output = opts.format or ("markdown" if opts.markdown else "text")
        if output == "json" and opts.output:
            raise UsageError("--format json prints the JSON; -o writes it to a file: give one")
        cleaner = Cleaner(options)
        try:
            result = cleaner.clean(body, url, content_type=content_type)
        except CleanError as exc:
            print(f"webclean: cannot clean the page: {exc} ({exc.reason})", file=sys.stderr)
            self.exitcode = 1
            return
        verdicts = judge_images(body, url) if (opts.images or opts.report) else {}
        if opts.report:
            from scrapy_webclean.report import render_report

            page = render_report(result, verdicts, self.styles)
            Path(opts.report).write_text(page, encoding="utf-8")
        if opts.output or output == "json":
            data = result.to_dict(include_blocks=True, include_markdown=True, include_html=True)
            if verdicts:
                groups = image_groups(result)
                data["image_verdicts"] = {
                    src: {**verdict_dict(v), "page_images": groups.get(src)}
                    for src, v in verdicts.items()
                }
            dumped = json.dumps(data, ensure_ascii=False, indent=2)
            if output == "json" or opts.output == "-":
                # The JSON alone on standard output (for a pipe), UTF-8 whatever the locale.
                sys.stdout.flush()
                sys.stdout.buffer.write(dumped.encode("utf-8") + b"\n")
                sys.stdout.buffer.flush()
                return
            Path(opts.output).write_text(dumped, encoding="utf-8")
        out = sys.stdout
        for line in summary_lines(result):
            print(line, file=out)
        print("", file=out)
        shown = {"markdown": result.markdown, "html": result.html}.get(output, result.text)
        print(shown, file=out)
        if result.comments is not None:
            print(f"\nComments ({len(result.comments)}):", file=out)
            for line in comment_lines(result):
                print(line, file=out)
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
        ``want_styles`` its style sheets too (in ``self.styles``, by the absolute URL the
        page links): over http(s) only, at most ``MAX_STYLESHEETS`` of them and
        ``MAX_STYLESHEET_BYTES`` each (``scrapy_webclean.report``). When the page cannot
        be fetched, ``self.fetch_error`` says why (the HTTP status and reason, or the
        error). A style sheet left out or that cannot be fetched is one line on standard
        error, not retried."""
        from scrapy import Request
        from scrapy.utils.spider import DefaultSpider

        from scrapy_webclean.report import (
            MAX_STYLESHEET_BYTES,
            MAX_STYLESHEETS,
            STYLESHEET_SCHEMES,
            stylesheet_urls,
        )
        from scrapy_webclean.report_sanitize import is_stylesheet_link, url_scheme
        from scrapy_webclean.urls import resolve_base

        got: dict[str, Any] = {}

        styles: dict[str, str] = {}
        got["styles"] = styles

        def left_out(sheet_url: str, why: str) -> None:
            print(
                f"webclean: style sheet not fetched, the report goes without it: "
                f"{safe_url_string(sheet_url)} ({why})",
                file=sys.stderr,
            )

        def keep_style(response: Response, href: str) -> None:
            # A redirect can only lead to http(s) (Scrapy's RedirectMiddleware), and a
            # download over the cap is cancelled; checked again here all the same.
            if url_scheme(response.url) not in STYLESHEET_SCHEMES:
                left_out(response.url, "not http(s)")
            elif len(response.body) > MAX_STYLESHEET_BYTES:
                left_out(href, f"over {MAX_STYLESHEET_BYTES} bytes")
            else:
                styles[href] = response.body.decode("utf-8", "replace")

        def style_failed(failure: Failure) -> None:
            request_url = getattr(getattr(failure, "request", None), "url", "")
            left_out(request_url, fetch_failure(failure))

        def page_failed(failure: Failure) -> None:
            got["error"] = fetch_failure(failure)

        def keep(response: Response) -> Any:
            got["body"] = response.body
            got["url"] = response.url
            header = response.headers.get(b"Content-Type") or b""
            got["content_type"] = header.decode("latin-1")
            if want_styles and hasattr(response, "xpath"):
                # The page's style sheets too, so the report looks as the page did.
                base = resolve_base(response.url, response.xpath("//base/@href").get())
                links = response.xpath("//link[@href]")
                hrefs = [link.attrib["href"] for link in links if is_stylesheet_link(link.root)]
                wanted, skipped = stylesheet_urls(base, hrefs)
                for sheet_url in skipped:
                    if url_scheme(sheet_url) in STYLESHEET_SCHEMES:
                        left_out(sheet_url, f"over {MAX_STYLESHEETS} style sheets")
                    else:
                        left_out(sheet_url, "not http(s)")
                for sheet_url in wanted:
                    try:
                        sheet = Request(
                            sheet_url,
                            callback=keep_style,
                            errback=style_failed,
                            cb_kwargs={"href": sheet_url},
                            dont_filter=True,
                            meta={"dont_retry": True, "download_maxsize": MAX_STYLESHEET_BYTES},
                        )
                    except ValueError as exc:
                        left_out(sheet_url, str(exc))
                        continue
                    yield sheet

        request = Request(url, callback=keep, errback=page_failed, dont_filter=True)

        class _Fetch(DefaultSpider):
            async def start(self: Spider) -> AsyncIterator[Any]:
                yield request

        assert self.crawler_process is not None
        self.crawler_process.crawl(_Fetch)
        self.crawler_process.start()
        self.styles = styles
        self.fetch_error = got.get("error")
        return got.get("body"), got.get("url", url), got.get("content_type") or None
