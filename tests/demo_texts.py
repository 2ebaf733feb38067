"""The demo site's article texts, for the near-duplicate tests."""

from __future__ import annotations

from pathlib import Path

CONTENT = Path(__file__).resolve().parent.parent / "demo_site" / "content"


def article(lang: str, number: int) -> str:
    """The body of a demo article (the demo site's own texts)."""
    text = (CONTENT / lang / f"{lang}-{number:02d}.txt").read_text("utf-8")
    return text.split("\n\n", 1)[1].strip()


def paragraphs(text: str) -> list[str]:
    return [p for p in text.split("\n") if p.strip()]
