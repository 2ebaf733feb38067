"""Serve the demo web on 127.0.0.2-.7, .10 and .11, all on one port.

Each loopback address gets its own ``ThreadingHTTPServer`` so the crawler sees
distinct hosts (offsite rules, per-host robots.txt, ad hosts) without DNS or
internet access.  Linux routes all of 127.0.0.0/8 to loopback out of the box;
macOS needs ``ifconfig lo0 alias 127.0.0.N`` for each address first.

CLI: ``python -m demo_site.server [--port 8800] [--write-truth FILE] [--verbose]``
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any
from urllib.parse import urlsplit

from .site import ALL_HOSTS, Resource, Site, build_site

__all__ = ["DemoServer", "main"]

_NOT_FOUND = Resource(
    body=(
        b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>404 Not Found</title></head>'
        b"<body><h1>404 Not Found</h1><p>The requested page does not exist on this demo site.</p></body></html>"
    ),
    content_type="text/html; charset=utf-8",
    status=404,
)

_PORT_RANGE = (20000, 45000)
_BIND_ATTEMPTS = 50


class _HostServer(ThreadingHTTPServer):
    """One listening address; knows the site it serves and whether to log."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], verbose: bool) -> None:
        super().__init__(address, _Handler)
        self.host, self.port = address
        self.verbose = verbose
        self.site: Site | None = None
        self.served: list[str] | None = None

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Crawlers drop connections all the time; only show tracebacks when asked.
        if self.verbose:
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    """Looks up (local address, path+query) in the prebuilt resource table."""

    server: _HostServer
    server_version = "DemoSite/1.0"

    def version_string(self) -> str:
        """``Server`` header without the Python version."""
        return self.server_version

    def do_GET(self) -> None:
        """Serve a resource with its body."""
        self._respond(send_body=True)

    def do_HEAD(self) -> None:
        """Serve the headers a GET would send."""
        self._respond(send_body=False)

    def _respond(self, *, send_body: bool) -> None:
        target = self.path
        if "://" in target.split("?", 1)[0]:  # absolute-form request target
            parts = urlsplit(target)
            target = parts.path + (f"?{parts.query}" if parts.query else "")
        host, port = self.connection.getsockname()[:2]
        site = self.server.site
        url = f"http://{host}:{port}{target}"
        if self.server.served is not None and send_body:
            self.server.served.append(url)  # list.append is atomic under the GIL
        resource = site.get(url) if site is not None else None
        if resource is None:
            resource = _NOT_FOUND
        self.send_response(resource.status)
        self.send_header("Content-Type", resource.content_type)
        self.send_header("Content-Length", str(len(resource.body)))
        for name, value in resource.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(resource.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Per-request logging only in verbose mode."""
        if self.server.verbose:
            super().log_message(format, *args)


@contextmanager
def serve_handler(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on a free loopback port in a thread; yields the root URL (for
    tests and benchmarks that need a small site of their own)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


class DemoServer:
    """The demo web served in background threads; usable as a context manager.

    ``port=None`` picks a random free port in 20000-45000 (retrying until every
    address binds), so parallel test runs do not collide.
    """

    def __init__(
        self,
        port: int | None = None,
        *,
        content_dir: str | Path | None = None,
        verbose: bool = False,
    ) -> None:
        self._requested_port = port
        self._content_dir = content_dir
        self._verbose = verbose
        self._servers: list[_HostServer] = []
        self._threads: list[threading.Thread] = []
        self._site: Site | None = None
        self._port: int | None = port
        #: Every URL served with a body, in order (tests check what a crawl fetched).
        self.served: list[str] = []

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> DemoServer:
        """Bind every address, build the site for the bound port and serve."""
        if self._servers:
            return self
        servers = self._bind()
        try:
            site = build_site(servers[0].port, content_dir=self._content_dir)
        except BaseException:
            for server in servers:
                server.server_close()
            raise
        self._site = site
        self._port = site.port
        self._servers = servers
        for server in servers:
            server.site = site
            server.served = self.served
            thread = threading.Thread(
                target=server.serve_forever,
                kwargs={"poll_interval": 0.2},
                name=f"demo-site-{server.host}",
                daemon=True,
            )
            thread.start()
            self._threads.append(thread)
        return self

    def stop(self) -> None:
        """Stop serving and release every socket (safe to call twice)."""
        servers, self._servers = self._servers, []
        threads, self._threads = self._threads, []
        # shutdown() blocks until the serve loop notices; do all at once.
        stoppers = [threading.Thread(target=server.shutdown) for server in servers]
        for stopper in stoppers:
            stopper.start()
        for stopper in stoppers:
            stopper.join()
        for server in servers:
            server.server_close()
        for thread in threads:
            thread.join(timeout=5)

    def _bind(self) -> list[_HostServer]:
        if self._requested_port is not None:
            return self._bind_all(self._requested_port)
        chooser = random.SystemRandom()
        last_error: OSError | None = None
        for _ in range(_BIND_ATTEMPTS):
            try:
                return self._bind_all(chooser.randint(*_PORT_RANGE))
            except OSError as exc:
                last_error = exc
        raise OSError(f"no port in {_PORT_RANGE} was free on every demo address") from last_error

    def _bind_all(self, port: int) -> list[_HostServer]:
        bound: list[_HostServer] = []
        try:
            for host in ALL_HOSTS:
                bound.append(_HostServer((host, port), self._verbose))
        except OSError:
            for server in bound:
                server.server_close()
            raise
        return bound

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    # -- information ------------------------------------------------------------------

    @property
    def site(self) -> Site:
        """The served site (only after :meth:`start`)."""
        if self._site is None:
            raise RuntimeError("DemoServer is not started")
        return self._site

    @property
    def port(self) -> int:
        """The port every address listens on (only after :meth:`start` if random)."""
        if self._port is None:
            raise RuntimeError("DemoServer is not started")
        return self._port

    @property
    def home_urls(self) -> list[str]:
        """Home pages of the content sites, mirror and digest included."""
        return self.site.home_urls

    @property
    def truth(self) -> dict[str, Any]:
        """The ground truth of the served site."""
        return self.site.truth

    def url(self, host: str, path: str = "/") -> str:
        """Absolute URL of *path* on *host* at the served port."""
        return f"http://{host}:{self.port}{path}"


def main(argv: list[str] | None = None) -> int:
    """Serve until SIGINT/SIGTERM."""
    parser = argparse.ArgumentParser(
        prog="python -m demo_site.server", description="Serve the offline demo web."
    )
    parser.add_argument(
        "--port", type=int, default=8800, help="port for every address (0 = random free port)"
    )
    parser.add_argument(
        "--write-truth", type=Path, metavar="FILE", help="write the ground truth JSON here"
    )
    parser.add_argument(
        "--content", type=Path, default=None, help="article folder (default: demo_site/content)"
    )
    parser.add_argument("--verbose", action="store_true", help="log every request")
    args = parser.parse_args(argv)

    stop = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    server = DemoServer(args.port or None, content_dir=args.content, verbose=args.verbose)
    try:
        server.start()
    except OSError as exc:
        print(f"cannot serve the demo site: {exc}", file=sys.stderr)
        return 1
    try:
        if args.write_truth:
            server.site.write_truth(args.write_truth)
            print(f"truth written to {args.write_truth}")
        print(f"Demo site on port {server.port}; home pages:")
        for url in server.home_urls:
            print(f"  {url}")
        print("Press Ctrl+C to stop.", flush=True)
        while not stop.wait(0.5):
            pass
    finally:
        server.stop()
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
