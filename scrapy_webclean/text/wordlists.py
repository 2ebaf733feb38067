"""Word lists kept as data files, read by one loader.

A list is a UTF-8 text file inside the package (``extraction/data/share_verbs.txt``): one
entry a line, its edge spaces stripped (inner spaces kept: "all rights reserved" is one
entry); blank lines and comment lines (``#`` first) are skipped. A list of regular
expressions is read the same way (``dedup/data/furniture_openers.txt``): an entry cannot
start with ``#`` or a space, nor end with a space.

Lists that several stages use live in ``text/data/`` (the noise words; the stop words
there have a reader of their own, ``text.stopwords``), a single stage's in its own
``data/`` folder (``extraction/data/``, ``dedup/data/``).
"""

from __future__ import annotations

from importlib import resources


def read_word_list(path: str) -> tuple[str, ...]:
    """The entries of the list at ``path`` (relative to the package root, ``/``-separated),
    in file order.

    Files are found from the root package, which is always loaded, so a module may read a
    list while its own package is still being imported."""
    resource = resources.files("scrapy_webclean")
    for part in path.split("/"):
        resource = resource.joinpath(part)
    entries = (line.strip() for line in resource.read_text("utf-8").splitlines())
    return tuple(entry for entry in entries if entry and not entry.startswith("#"))
