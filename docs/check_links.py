"""Check the links of the README and the documentation offline (``make docs`` runs it).

No link is fetched: the machines that build the documentation may have no internet.
Checked instead:

- a relative link (``page.md``, ``../benchmarks/x.py``, ``page.md#a-heading``,
  ``#a-heading``) points at a file of the repository, and its anchor at a heading of the
  target Markdown file (GitHub's and MyST's heading slugs, and MyST ``(label)=`` targets;
  the settings page with its generated entries);
- a link into this repository on GitHub (``https://github.com/<owner>/<name>/blob/main/...``,
  ``.../tree/main/...``, from setup.cfg's ``Source`` URL) points at a file or folder that
  exists here, and at a heading of it;
- the README has no relative link at all: PyPI shows it away from the repository, so its
  links must be absolute.

Other http(s) and mailto links are left alone. Usage: ``python docs/check_links.py``
(from anywhere); exit status 1 and one line per broken link when any is broken.
"""

from __future__ import annotations

import configparser
import re
import sys
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: An inline Markdown link or image: [text](target) or [text](target "title").
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LABEL = re.compile(r"^\(([^()\s]+)\)=\s*$")


def repository_url() -> str:
    """The repository's URL, as setup.cfg's project URLs give it (no trailing slash)."""
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    for line in config["metadata"]["project_urls"].splitlines():
        name, _, url = line.partition("=")
        if name.strip() == "Source":
            return url.strip().rstrip("/")
    raise SystemExit("setup.cfg has no Source project URL")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1, with inline code removed."""
    lines = []
    fence = ""
    for number, line in enumerate(text.splitlines(), 1):
        found = _FENCE.match(line)
        if found:
            mark = found.group(2)
            if not fence:
                fence = mark
                continue
            if mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark) :]:
                fence = ""
                continue
        if not fence:
            lines.append((number, re.sub(r"`[^`]*`", "``", line)))
    return lines


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MyST make it: lower case, markup and punctuation
    out (letters of any script, digits, ``-`` and ``_`` kept), spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors a Markdown file has: its headings' slugs (repeated ones numbered as
    GitHub numbers them) and its MyST labels."""
    text = path.read_text("utf-8")
    if path == DOCS / "settings.md":
        sys.path.insert(0, str(DOCS / "_ext"))
        from settings_reference import MARKER, reference_markdown

        text = text.replace(MARKER, reference_markdown())
    found: set[str] = set()
    seen: dict[str, int] = {}
    fence = ""
    for line in text.splitlines():
        mark = _FENCE.match(line)
        if mark:
            fence = "" if fence and mark.group(2)[0] == fence[0] else (fence or mark.group(2))
            continue
        if fence:
            continue
        heading = _HEADING.match(line)
        if heading:
            base = slug(heading.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        label = _LABEL.match(line)
        if label:
            found.add(label.group(1))
    return frozenset(found)


def check_target(source: Path, target: Path, anchor: str) -> str | None:
    """Why a link to ``target`` (a path) and ``anchor`` is broken, or None."""
    try:
        target.resolve().relative_to(ROOT)
    except ValueError:
        return "points outside the repository"
    if not target.exists():
        return "no such file"
    if anchor:
        if target.is_dir() or target.suffix != ".md":
            return "an anchor into a file that is not Markdown"
        if anchor not in anchors(target.resolve()):
            return f"no heading or label #{anchor} in {target.resolve().relative_to(ROOT)}"
    return None


def check_file(path: Path, repo: str) -> list[str]:
    """One message per broken link of a Markdown file."""
    problems = []
    is_readme = path.parent == ROOT
    prefix = re.compile(re.escape(repo) + r"/(?:blob|tree)/main/([^#?]*)(?:#(.*))?$")
    for number, line in prose_lines(path.read_text("utf-8")):
        for match in _LINK.finditer(line):
            link = match.group(1)
            where = f"{path.relative_to(ROOT)}:{number}: {link}"
            if link.startswith(repo):
                inside = prefix.match(link)
                if inside is None:
                    if link.rstrip("/") not in (repo, f"{repo}/issues"):
                        problems.append(f"{where}: not a blob/main or tree/main link")
                    continue
                why = check_target(path, ROOT / inside.group(1), inside.group(2) or "")
            elif re.match(r"[a-z][a-z0-9+.-]*:", link):
                continue  # another site, or mailto: never fetched
            elif is_readme:
                why = f"relative in the README (PyPI shows it away from the repository): use {repo}/blob/main/..."
            else:
                file, _, anchor = link.partition("#")
                target = path if not file else path.parent / file
                why = check_target(path, target, anchor)
            if why:
                problems.append(f"{where}: {why}")
    return problems


def markdown_files() -> list[Path]:
    files = [ROOT / "README.md"]
    files += sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)
    return files


def main() -> int:
    repo = repository_url()
    problems = [problem for path in markdown_files() for problem in check_file(path, repo)]
    for problem in problems:
        print(problem, file=sys.stderr)
    checked = len(markdown_files())
    if problems:
        print(f"check_links: {len(problems)} broken links in {checked} files", file=sys.stderr)
        return 1
    print(f"check_links: the links of {checked} Markdown files point where they should")
    return 0


if __name__ == "__main__":
    sys.exit(main())
