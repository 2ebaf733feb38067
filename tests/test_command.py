"""``scrapy webclean``: a real ``scrapy`` subprocess, outside a project, on a file, standard
input, and a URL served by the demo site."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from contextlib import AbstractContextManager
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urljoin

from demo_site.server import DemoServer, serve_handler

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def scrapy(
    args: list[str], cwd: Path, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "scrapy", "webclean", *args],
        cwd=cwd, env=env, input=stdin, capture_output=True, timeout=300,
    )  # fmt: skip


def test_a_file_outside_a_project(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    done = scrapy(
        [str(FIXTURES / "news_zh.html"), "--url", "http://example.com/a", "-o", str(out),
         "--explain", "--images"],
        tmp_path,
    )  # fmt: skip
    text = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "Page type:   article" in text and "Blocks:" in text and "\nImages (" in text
    assert "content" in text.split("Blocks:")[1] and "drop  ad" in text
    data = json.loads(out.read_text("utf-8"))
    assert data["text"] and data["markdown"].startswith("# ") and data["blocks"]
    assert {"drop", "kind", "reasons"} <= set(next(iter(data["image_verdicts"].values())))


def test_standard_input_and_markdown(tmp_path: Path) -> None:
    html = (FIXTURES / "news_en.html").read_bytes()
    done = scrapy(["-", "--url", "http://example.com/n", "--markdown"], tmp_path, stdin=html)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "\n# Council votes" in done.stdout.decode("utf-8")


def test_a_url_fetched_with_scrapy(tmp_path: Path) -> None:
    with DemoServer() as server:
        page = next(
            p for p in server.truth["pages"] if p["type"] == "article" and p["charset"] == "gbk"
        )
        done = scrapy([page["url"]], tmp_path)
        assert page["url"] in server.served
    text = done.stdout.decode("utf-8")
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert f"Title:       {page['title']}" in text and "Encoding: gb18030" in text
    assert page["paragraphs"][0].split()[0] in text


def test_a_bad_page_is_a_clear_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    bad.write_bytes(bytes(range(256)) * 4)
    done = scrapy([str(bad)], tmp_path)
    assert done.returncode == 1 and b"cannot clean the page" in done.stderr


def test_the_report_option_writes_a_self_contained_page(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    done = scrapy([str(FIXTURES / "news_en.html"), "--report", str(report)], tmp_path)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    page = report.read_text("utf-8")
    assert 'data-wc="content"' in page and 'id="wc-panel"' in page and "<script" not in page


def test_inside_a_project_a_url_report_inlines_its_style_sheets(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    with DemoServer() as server:
        site = server.site
        url, css_url = next(
            (page_url, urljoin(page_url, found.group(1)))
            for page_url, resource in site.resources.items()
            if resource.content_type.startswith("text/html")
            and (found := re.search(r'href="([^"]+\.css)"', resource.body.decode("latin-1")))
        )
        done = scrapy([url, "--report", str(report)], ROOT / "example_project")
        assert css_url in server.served
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    css = site.resources[css_url].body.decode("utf-8")
    page = report.read_text("utf-8")
    first_rule = css.strip().split("}")[0]
    assert first_rule.split("{")[0].strip() in page and 'rel="stylesheet"' not in page


def test_image_words_are_the_crawl_outputs() -> None:
    from scrapy_webclean import Cleaner
    from scrapy_webclean.commands.page_view import image_groups, image_words, judge_images

    html = (FIXTURES / "news_en.html").read_bytes()
    result = Cleaner().clean(html, "http://example.com/n")
    groups = image_groups(result)
    verdicts = judge_images(html, "http://example.com/n")
    assert verdicts
    for src, verdict in verdicts.items():
        action, word = image_words(verdict, groups.get(src))
        if verdict.drop:
            assert (action, word) == ("drop", verdict.kind)
        else:
            # kept: the group the output's page_images files it under
            assert action == "keep" and word == (groups.get(src) or verdict.kind)
            assert src not in groups or word in ("content", "related", "noise")


def test_output_dash_is_the_json_alone_on_standard_output(tmp_path: Path) -> None:
    """-o - writes the JSON to stdout (no file named -, no summary); a file without --url
    takes its URL from its <link rel=canonical>, so its links are absolute."""
    canonical = "https://news.example.org/2026/council-votes"
    html = (FIXTURES / "news_en.html").read_text("utf-8")
    page = tmp_path / "page.html"
    page.write_text(html.replace("<head>", f'<head><link rel="canonical" href="{canonical}">', 1))
    done = scrapy([str(page), "-o", "-", "--explain"], tmp_path)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    data = json.loads(done.stdout.decode("utf-8"))
    assert not (tmp_path / "-").exists()
    assert data["url"] == canonical and data["text"]
    hrefs = [link["url"] for links in data["links"].values() for link in links]
    assert "https://news.example.org/a/1" in hrefs
    assert not any(href.startswith("/") for href in hrefs)


def test_a_page_gives_its_own_url() -> None:
    from scrapy_webclean.commands.page_view import page_own_url

    base = b'<base href="http://example.com/dir/">'
    canonical = b'<link rel="Canonical" href=" https://example.com/a ">'
    assert page_own_url(b"<html><head>" + base + canonical + b"</head></html>") == (
        "https://example.com/a"
    )
    assert page_own_url(b"<html><head>" + base + b"</head><p>x</p></html>") == (
        "http://example.com/dir/"
    )
    relative = b'<html><head><link rel="canonical" href="/a"><base href="../"></head></html>'
    assert page_own_url(relative) is None
    assert page_own_url(b'<link rel="canonical" href="javascript:x">') is None
    assert page_own_url(b"") is None and page_own_url(b"<p>no head</p>") is None


_PAGE = (
    (FIXTURES / "news_en.html")
    .read_text("utf-8")
    .replace(
        "<head>",
        '<head><link rel="stylesheet" href="/missing.css">'
        '<link rel="stylesheet" href="http://127.0.0.1:1/refused.css">'
        '<link rel="stylesheet" href="/ok.css">',
        1,
    )
)


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = {"/page.html": _PAGE, "/ok.css": "body { color: #123456 }"}.get(self.path)
        if body is None:
            self.send_error(404)
            return
        data = body.encode("utf-8")
        kind = "text/css" if self.path.endswith(".css") else "text/html; charset=utf-8"
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


def _serve() -> AbstractContextManager[str]:
    return serve_handler(_Handler)


def test_a_style_sheet_that_cannot_be_fetched_is_one_line(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    with _serve() as root:
        done = scrapy([f"{root}/page.html", "--report", str(report)], tmp_path)
    stderr = done.stderr.decode("utf-8")
    assert done.returncode == 0, stderr[-2000:]
    assert "Traceback" not in stderr, stderr[-2000:]
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 2, stderr
    assert f"{root}/missing.css (HTTP 404 Not Found)" in lines[0] + lines[1]
    assert "http://127.0.0.1:1/refused.css (" in lines[0] + lines[1]
    assert "color: #123456" in report.read_text("utf-8")
    assert done.stdout.decode("utf-8").startswith("Title:")


def test_a_page_that_cannot_be_fetched_says_its_status(tmp_path: Path) -> None:
    with _serve() as root:
        done = scrapy([f"{root}/nowhere.html"], tmp_path)
    stderr = done.stderr.decode("utf-8")
    assert done.returncode == 1
    assert f"could not fetch {root}/nowhere.html: HTTP 404 Not Found" in stderr, stderr
    assert "Traceback" not in stderr and not done.stdout


def test_the_new_fields_and_formats(tmp_path: Path) -> None:
    from tests.test_output_formats import PAGE, URL

    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    shown = scrapy([str(page), "--url", URL, "--format", "html", "--comments"], tmp_path)
    assert shown.returncode == 0, shown.stderr.decode()[-2000:]
    text = shown.stdout.decode("utf-8")
    assert "Author:      Jane Doe" in text and "Site:        Harbour Gazette" in text
    assert "\n<h1>Council turns Harbour Exchange" in text
    assert "Comments (2):\n  - Mary Smith (2026-03-03)" in text
    dumped = scrapy([str(page), "--url", URL, "--format", "json"], tmp_path)
    assert dumped.returncode == 0, dumped.stderr.decode()[-2000:]
    data = json.loads(dumped.stdout)
    assert data["author"] == ["Jane Doe"] and data["html"].startswith("<h1>")
    assert data["markdown"].startswith("# Council") and data["text_source"] == "html"
