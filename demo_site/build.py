"""Write the demo web to disk (``host/path`` files plus ``truth.json``) for inspection.

Usage: ``python -m demo_site.build --port 8800 --out DIR [--content DIR]``.
Paths ending in ``/`` are written as ``index.html``; a query string becomes
part of the file name with ``?`` replaced by ``@`` (``story.php@id=1001``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

from .site import Site, build_site


def resource_path(out: Path, url: str) -> Path:
    """Where the resource for *url* is written below *out*."""
    parts = urlsplit(url)
    path = parts.path
    if path.endswith("/"):
        path += "index.html"
    name = path.lstrip("/")
    if parts.query:
        name += "@" + parts.query
    relative = Path(parts.hostname or "unknown") / name
    if ".." in relative.parts:
        raise ValueError(f"refusing to write outside the output folder: {url}")
    return out / relative


def write_site(site: Site, out: Path) -> int:
    """Write every resource and ``truth.json``; return the number of files."""
    out.mkdir(parents=True, exist_ok=True)
    for url, resource in site.resources.items():
        target = resource_path(out, url)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(resource.body)
    site.write_truth(out / "truth.json")
    return len(site.resources) + 1


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m demo_site.build", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--port", type=int, default=8800, help="port the URLs should carry (default 8800)"
    )
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument(
        "--content", type=Path, default=None, help="article folder (default: demo_site/content)"
    )
    args = parser.parse_args(argv)
    site = build_site(args.port, content_dir=args.content)
    count = write_site(site, args.out)
    pages = site.truth["pages"]
    articles = sum(1 for page in pages if page["type"] == "article")
    print(
        f"wrote {count} files to {args.out} ({len(pages)} pages, {articles} articles, {len(site.truth['images'])} images)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
