"""``scrapy webclean URL --report`` fetches a page's style sheets over http(s) only, at most
``MAX_STYLESHEETS`` of them and ``MAX_STYLESHEET_BYTES`` each: a real ``scrapy``
subprocess against a local server whose page links a local file (directly and through a
redirect), ``data:`` and ``ftp:`` sheets, one too big, and more than the count."""

from __future__ import annotations

import secrets
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import ClassVar

from demo_site.server import serve_handler
from scrapy_webclean.report import MAX_STYLESHEET_BYTES, MAX_STYLESHEETS, PROLOGUE
from tests.test_command import FIXTURES, scrapy

#: Sheets linked after the redirect and the big one: three more than the count leaves.
OK_SHEETS = MAX_STYLESHEETS + 1


class _Site(BaseHTTPRequestHandler):
    page: ClassVar[bytes] = b""
    secret_url: ClassVar[str] = ""
    served: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.served.append(self.path)
        if self.path == "/page.html":
            self._send(200, "text/html; charset=utf-8", self.page)
        elif self.path == "/redirect.css":
            self.send_response(302)
            self.send_header("Location", self.secret_url)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/big.css":
            self._send(200, "text/css", b"p { --big: 1 }" + b" " * MAX_STYLESHEET_BYTES)
        elif self.path.startswith("/ok-"):
            number = self.path.removeprefix("/ok-").removesuffix(".css")
            self._send(200, "text/css", f"p {{ --ok-{number}: 1 }}".encode())
        else:
            self.send_error(404)

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_style_sheets_come_over_http_only_and_within_the_caps(tmp_path: Path) -> None:
    secret = f"WEBCLEAN-SECRET-{secrets.token_hex(8)}"
    local = tmp_path / "credentials.css"
    local.write_text(f"p {{ --secret: 1 }}\n{secret}\n", "utf-8")
    links = [
        local.as_uri(),
        "data:text/css,p{--data:1}",
        "ftp://127.0.0.1:1/a.css",
        "/redirect.css",
        "/big.css",
        *(f"/ok-{i}.css" for i in range(OK_SHEETS)),
    ]
    html = (FIXTURES / "news_en.html").read_text("utf-8")
    head = "".join(f'<link rel="stylesheet" href="{href}">' for href in links)
    _Site.page = html.replace("<head>", f"<head>{head}", 1).encode("utf-8")
    _Site.secret_url = local.as_uri()
    _Site.served = []
    report = tmp_path / "report.html"
    with serve_handler(_Site) as root:
        done = scrapy([f"{root}/page.html", "--report", str(report)], tmp_path)
    stderr = done.stderr.decode("utf-8")
    assert done.returncode == 0 and "Traceback" not in stderr, stderr[-2000:]
    page = report.read_text("utf-8")
    assert page.startswith(PROLOGUE)
    assert secret not in page and "--secret" not in page and "--data" not in page
    assert "--big" not in page
    # The redirect and the big sheet took two of the places: ok-0 to ok-27 are in.
    fetched = MAX_STYLESHEETS - 2
    assert "--ok-0:" in page and f"--ok-{fetched - 1}:" in page
    assert f"--ok-{fetched}:" not in page
    assert f"/ok-{fetched}.css" not in _Site.served
    assert _Site.served.count("/redirect.css") == 1
    for href in (local.as_uri(), "data:text/css", "ftp://127.0.0.1:1/a.css"):
        assert any(href in line and "(not http(s))" in line for line in stderr.splitlines())
    over = [line for line in stderr.splitlines() if f"(over {MAX_STYLESHEETS} style" in line]
    assert len(over) == OK_SHEETS - fetched
    assert any("/redirect.css (HTTP 302" in line for line in stderr.splitlines()), stderr
    assert any("/big.css" in line for line in stderr.splitlines()), stderr
