"""Daily Digest 每日文摘: an aggregator reprinting articles with small edits.

The reprints are the near-duplicate test set: each records in the truth which
original it copies and which kind of edit it applied.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import ClassVar

from ._base import ContentSite
from ._core import (
    HOST_DIGEST,
    Builder,
    PageCtx,
    Story,
    attr,
    esc,
    first_sentence,
    partner_sites,
    rng,
    split_sentences,
)

#: Edit kinds used for reprints, as recorded in ``copy_kind``.
COPY_KINDS: tuple[str, ...] = (
    "identical",
    "sentence-changed",
    "paragraph-dropped",
    "note-appended",
    "paragraphs-merged",
)

_LANG_LABELS = {"en": "English 英文", "zh": "中文 Chinese"}


def _note(lang: str, source: str) -> str:
    if lang == "zh":
        return f"本文转载自{source}。"
    return f"This article first appeared in {source}."


def _alter_sentence(sentence: str, lang: str, picker: random.Random) -> str | None:
    """Change one number in *sentence* (not a year); ``None`` if it has none."""
    numbers = [m for m in re.finditer(r"\d+", sentence) if not 1900 <= int(m.group()) <= 2100]
    if not numbers:
        return None
    match = numbers[picker.randrange(len(numbers))]
    value = int(match.group())
    new = value + (1 if value < 10 else max(2, value // 10))
    return sentence[: match.start()] + str(new) + sentence[match.end() :]


def _change_one_sentence(paragraphs: list[str], lang: str, picker: random.Random) -> list[str]:
    """Edit exactly one sentence: bump a figure, or else add an attribution."""
    order = [*range(1, len(paragraphs)), 0]  # prefer the body over the lede
    for index in order:
        sentences = split_sentences(paragraphs[index], lang)
        for position in range(len(sentences)):
            changed = _alter_sentence(sentences[position], lang, picker)
            if changed is not None:
                result = list(paragraphs)
                result[index] = paragraphs[index].replace(sentences[position], changed, 1)
                return result
    index = order[0] if len(paragraphs) > 1 else 0
    sentence = split_sentences(paragraphs[index], lang)[0]
    if lang == "zh":
        changed = "据悉，" + sentence
    else:
        changed = sentence.rstrip(".") + ", according to the original report."
    result = list(paragraphs)
    result[index] = paragraphs[index].replace(sentence, changed, 1)
    return result


def reprint_paragraphs(
    paragraphs: tuple[str, ...], kind: str, lang: str, source: str, seed: str
) -> tuple[str, ...]:
    """Apply one reprint edit of *kind* to an article's paragraphs."""
    picker = rng("reprint", seed)
    result = list(paragraphs)
    joiner = "" if lang == "zh" else " "
    if kind == "sentence-changed":
        result = _change_one_sentence(result, lang, picker)
    elif kind == "paragraph-dropped" and len(result) > 1:
        result.pop()
    elif kind == "note-appended":
        result.append(_note(lang, source))
    elif kind == "paragraphs-merged" and len(result) > 1:
        index = picker.randrange(len(result) - 1)
        result[index : index + 2] = [result[index] + joiner + result[index + 1]]
    elif kind != "identical":
        raise ValueError(f"unknown or inapplicable reprint kind {kind!r}")
    return tuple(result)


_DD_STYLE = (
    "body{margin:0;font-family:Georgia,'Songti SC',serif;background:#faf7f0}"
    ".dd-body{display:flex;max-width:1080px;margin:auto}.dd-main{flex:1}.dd-side{width:320px}"
)


class Digest(ContentSite):
    """Aggregator: its own template, home, per-language lists and reprints."""

    host = HOST_DIGEST
    name = "Daily Digest 每日文摘"
    lang = "mixed"
    per_page = 4
    home_count = 8
    info_pages: ClassVar[dict[str, tuple[str, str]]] = {
        "about": ("/about.html", "About us 关于我们"),
        "contact": ("/contact.html", "Contact 联系我们"),
        "privacy": ("/privacy.html", "Privacy 隐私政策"),
        "terms": ("/terms.html", "Terms 使用条款"),
    }

    def __init__(self, builder: Builder, sources: list[ContentSite], per_language: int = 6) -> None:
        # Deliberately not calling ContentSite.__init__: stories here are
        # reprints of other sites' stories, not fresh articles.
        self.b = builder
        picked: list[tuple[ContentSite, Story, str]] = []
        for lang in ("en", "zh"):
            pool = [site for site in sources if site.lang == lang]
            share = per_language // max(1, len(pool))
            chosen: list[tuple[ContentSite, Story]] = []
            leftovers: list[tuple[ContentSite, Story]] = []
            for site in pool:
                ordered = rng("digest-pick", site.host).sample(site.stories, len(site.stories))
                chosen += [(site, s) for s in ordered[:share]]
                leftovers += [(site, s) for s in ordered[share:]]
            chosen += leftovers[: per_language - len(chosen)]
            kinds = [*COPY_KINDS, "identical" if lang == "en" else "note-appended"]
            rng("digest-kinds", lang).shuffle(kinds)
            picked += [
                (site, story, kinds[i % len(kinds)]) for i, (site, story) in enumerate(chosen)
            ]
        stories = []
        for number, (site, story, kind) in enumerate(picked, start=1001):
            paragraphs = reprint_paragraphs(
                story.paragraphs, kind, story.lang, site.name, story.article.id
            )
            stories.append(
                replace(
                    story,
                    path=f"/story.php?id={number}",
                    paragraphs=paragraphs,
                    copy_of=builder.url(site.host, story.path),
                    copy_kind=kind,
                    source_name=site.name,
                )
            )
        self.stories = sorted(stories, key=lambda s: (s.article.date, s.time, s.path), reverse=True)
        self.by_id = {s.article.id: s for s in self.stories}
        self.categories = [
            lang for lang in ("en", "zh") if any(s.lang == lang for s in self.stories)
        ]
        self.most_read = rng("digest-picks").sample(self.stories, min(5, len(self.stories)))

    def in_category(self, category: str) -> list[Story]:
        return [s for s in self.stories if s.lang == category]

    def category_path(self, category: str, page: int = 1) -> str:
        return f"/list/{category}/" if page == 1 else f"/list/{category}/page/{page}/"

    def template_strings(self) -> list[str]:
        return [
            "The best of the web, every day · 每天精选好文",
            "Editor's picks 编辑推荐",
            "We reprint great journalism with permission. 我们经授权转载优质文章。",
            "© 2026 Daily Digest 每日文摘. Reprinted content remains the copyright of its original publishers.",
            "转载内容版权归原作者所有。",
        ]

    def related(self, story: Story) -> list[Story]:
        same = [s for s in self.stories if s.lang == story.lang and s is not story]
        return same[: rng("digest-more", story.path).randint(3, 5)]

    def layout(self, ctx: PageCtx, *, title: str, main: str, lang: str = "en") -> str:
        """Wrap *main* in the digest chrome."""
        picks = "".join(f"<li>{self.story_link(s)}</li>" for s in self.most_read)
        info = " | ".join(
            f'<a href="{attr(p)}">{esc(label)}</a>' for p, label in self.info_pages.values()
        )
        partners = " · ".join(
            f'<a href="{attr(u)}">{esc(n)}</a>' for u, n in partner_sites(self.b, self.host)
        )
        social = " ".join(
            f'<a href="https://social.example/dailydigest/{net}"><img src="{attr(self.static(ctx, f"/static/icons/{net}.png", 32, 32))}" width="32" height="32" alt="{label}"></a>'
            for net, label in (("rss", "RSS"), ("weibo", "Weibo 微博"), ("x", "X"))
        )
        logo = self.static(ctx, "/static/logo.png", 200, 50)
        nav = "".join(
            f'<li><a href="{self.category_path(c)}">{esc(_LANG_LABELS[c])}</a></li>'
            for c in self.categories
        )
        html_lang = "zh-CN" if lang == "zh" else "en"
        return f"""<!DOCTYPE html>
<html lang="{html_lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<style>{_DD_STYLE}</style>
</head>
<body class="dd">
<div class="dd-topbar">Daily Digest 每日文摘 — The best of the web, every day · 每天精选好文</div>
<div class="dd-header">
  <a class="dd-logo" href="/"><img src="{attr(logo)}" width="200" height="50" alt="Daily Digest 每日文摘"></a>
  <ul class="dd-nav"><li><a href="/">Home 首页</a></li>{nav}<li><a href="/about.html">About 关于</a></li><li><a href="/contact.html">Contact 联系</a></li></ul>
  <form class="dd-search" action="/search.php" method="get"><input type="text" name="q" placeholder="Search 搜索"><button type="submit">Go</button></form>
</div>
<div class="dd-ad-top">{self.b.adnet_leaderboard(ctx)}</div>
<div class="dd-body">
<div class="dd-main">
{main}
</div>
<div class="dd-side">
  <div class="dd-box"><h4>Editor's picks 编辑推荐</h4><ul>{picks}</ul></div>
  <div class="dd-box dd-ad">{self.b.cdn_rotating(ctx, 300, 250)}</div>
  <div class="dd-box"><h4>About the Digest</h4><p>We reprint great journalism with permission. 我们经授权转载优质文章。</p></div>
</div>
</div>
<div class="dd-footer">
  <div class="dd-links">{info}</div>
  <div class="dd-partners">Partner sites 友情链接: {partners}</div>
  <div class="dd-social">{social}</div>
  <p>© 2026 Daily Digest 每日文摘. Reprinted content remains the copyright of its original publishers. 转载内容版权归原作者所有。</p>
</div>
{self.b.tracking_pixel(ctx)}
</body>
</html>
"""

    def photo(self, ctx: PageCtx, story: Story) -> str:
        year, month, _ = story.article.date.split("-")
        path = f"/uploads/{year}/{month}/{story.article.id}.png"
        return self.article_image(ctx, story, path, 640, 360)

    def thumb(self, ctx: PageCtx, story: Story) -> str:
        year, month, _ = story.article.date.split("-")
        path = f"/uploads/{year}/{month}/{story.article.id}-120x80.png"
        return self.article_image(ctx, story, path, 120, 80)

    def render_article(self, ctx: PageCtx, story: Story) -> tuple[str, str, list[str]]:
        a = story.article
        source = story.source_name or ""
        if story.lang == "zh":
            byline = f"来源：{source} | {a.date}"
            origin_label, share_label, more_label = "原文链接：", "分享：", "更多文章"
        else:
            byline = f"Source: {source} | {a.date}"
            origin_label, share_label, more_label = (
                "Original article: ",
                "Share: ",
                "More from the Digest",
            )
        figure = ""
        if a.image_caption:
            figure = (
                f'<figure class="dd-photo"><img src="{attr(self.photo(ctx, story))}" width="640" height="360" '
                f'alt="{attr(a.image_caption)}"><figcaption>{esc(a.image_caption)}</figcaption></figure>'
            )
        body = "\n".join(f"<p>{esc(p)}</p>" for p in story.paragraphs)
        share = " ".join(
            f'<a href="https://share.example/{net}?u={attr(ctx.url)}"><img src="{attr(self.static(ctx, f"/static/share/{net}.png", 24, 24))}" width="24" height="24" alt="{net}"></a>'
            for net in ("weibo", "x", "email")
        )
        more = "".join(f"<li>{self.story_link(s)}</li>" for s in self.related(story))
        main = f"""<div class="dd-crumbs"><a href="/">Home 首页</a> / <a href="{self.category_path(story.lang)}">{esc(_LANG_LABELS[story.lang])}</a></div>
<article class="dd-article">
  <h1 class="dd-title">{esc(a.title)}</h1>
  <div class="dd-source">{esc(byline)}</div>
  {figure}
  <div class="dd-text">
{body}
  </div>
  <div class="dd-origin">{origin_label}<a href="{attr(story.copy_of or "")}">{esc(source)}</a></div>
  <div class="dd-share">{share_label}{share}</div>
</article>
<div class="dd-more"><h3>{more_label}</h3><ul>{more}</ul></div>"""
        page = self.layout(
            ctx, title=f"{a.title} | Daily Digest 每日文摘", main=main, lang=story.lang
        )
        return page, byline, []

    def item(self, ctx: PageCtx, story: Story) -> str:
        """One reprint in a list."""
        return f"""<div class="dd-item">
  <a href="{attr(story.path)}"><img src="{attr(self.thumb(ctx, story))}" width="120" height="80" alt=""></a>
  <h2>{self.story_link(story)}</h2>
  <p>{esc(first_sentence(story.paragraphs[0], story.lang))}</p>
  <span class="dd-meta">{esc(story.source_name or "")} · {story.article.date}</span>
</div>"""

    def render_home(self, ctx: PageCtx) -> tuple[str, str]:
        items = "\n".join(self.item(ctx, s) for s in self.stories[: self.home_count])
        main = f'<h1 class="dd-heading">Today\'s reading 今日好文</h1>\n{items}'
        title = "Daily Digest 每日文摘 - The best of the web, every day"
        return title, self.layout(ctx, title=title, main=main)

    def render_category(
        self, ctx: PageCtx, category: str, stories: list[Story], page: int, pages: int
    ) -> tuple[str, str]:
        label = _LANG_LABELS[category]
        items = "\n".join(self.item(ctx, s) for s in stories)
        pager = []
        if page > 1:
            pager.append(f'<a href="{self.category_path(category, page - 1)}">‹ Prev 上一页</a>')
        pager.append(f"<span>{page} / {pages}</span>")
        if page < pages:
            pager.append(f'<a href="{self.category_path(category, page + 1)}">Next 下一页 ›</a>')
        main = f'<h1 class="dd-heading">{esc(label)}</h1>\n{items}\n<div class="dd-pager">{" ".join(pager)}</div>'
        title = (
            f"{label} | Daily Digest 每日文摘"
            if page == 1
            else f"{label} ({page}) | Daily Digest 每日文摘"
        )
        return title, self.layout(ctx, title=title, main=main, lang=category)

    def render_info(self, ctx: PageCtx, key: str) -> tuple[str, str, list[str], str]:
        heading, paragraphs = _DD_INFO[key]
        body = "".join(f"<p>{esc(p)}</p>" for p in paragraphs)
        main = f'<div class="dd-page"><h1>{esc(heading)}</h1>{body}</div>'
        title = f"{heading} | Daily Digest 每日文摘"
        return title, self.layout(ctx, title=title, main=main), list(paragraphs), "other"

    def build(self) -> None:
        self.b.add_site(self.host, self.name, self.lang, self.template_strings())
        ctx = self.new_ctx("/")
        title, markup = self.render_home(ctx)
        self.b.add_page(ctx, markup, page_type="hub", lang=self.lang, title=title)
        for category in self.categories:
            chunks = self.pages_of(self.in_category(category))
            for number, chunk in enumerate(chunks, start=1):
                ctx = self.new_ctx(self.category_path(category, number))
                title, markup = self.render_category(ctx, category, chunk, number, len(chunks))
                self.b.add_page(ctx, markup, page_type="hub", lang=category, title=title)
        for key, (path, _label) in self.info_pages.items():
            ctx = self.new_ctx(path)
            title, markup, paragraphs, page_type = self.render_info(ctx, key)
            self.b.add_page(
                ctx, markup, page_type=page_type, lang=self.lang, title=title, paragraphs=paragraphs
            )
        for story in self.stories:
            self.build_article(story)


_DD_INFO: dict[str, tuple[str, tuple[str, ...]]] = {
    "about": (
        "About us 关于我们",
        (
            "Daily Digest collects the most interesting local and technology stories of the day.",
            "每日文摘精选本地新闻与科技资讯，所有转载内容均注明出处。",
        ),
    ),
    "contact": ("Contact 联系我们", ("editors@digest.example", "如需删除转载内容，请来信说明。")),
    "privacy": (
        "Privacy 隐私政策",
        ("We do not sell personal data.", "我们不会出售您的个人信息。"),
    ),
    "terms": (
        "Terms 使用条款",
        ("Reprints are used with permission.", "转载文章的著作权属于原作者及原发布媒体。"),
    ),
}
