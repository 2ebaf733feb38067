"""The page set every demo content site has; subclasses supply the templates.

Keeping the page inventory (home, sections with pagination, archive, info
pages, articles) in one place guarantees every site links every article from
its home page, while each subclass is free to look completely different.
"""

from __future__ import annotations

from typing import ClassVar

from ._core import Builder, PageCtx, Story, attr, esc, rng
from .content import Article


class ContentSite:
    """Base class: page inventory, URL hooks and truth recording."""

    host: str = ""
    name: str = ""
    lang: str = "en"
    #: Sections shown in the navigation even when they have no articles yet.
    nav_preference: tuple[str, ...] = ()
    #: Articles per section page (small, so pagination exists).
    per_page: int = 3
    #: Articles on the home page.
    home_count: int = 8
    #: ``key -> (path, label)`` for about/contact/privacy-style pages.
    info_pages: ClassVar[dict[str, tuple[str, str]]] = {}
    archive_path: str = "/archive/"
    #: ``(path, css)`` of an external stylesheet, for sites that link one.
    stylesheet: tuple[str, str] | None = None

    def __init__(self, builder: Builder, articles: list[Article]) -> None:
        self.b = builder
        stories = [self.make_story(article) for article in articles]
        self.stories: list[Story] = sorted(
            stories, key=lambda s: (s.article.date, s.time, s.article.id), reverse=True
        )
        self.by_id: dict[str, Story] = {s.article.id: s for s in self.stories}
        used = {s.article.category for s in self.stories}
        self.categories: list[str] = list(self.nav_preference) + sorted(
            used - set(self.nav_preference)
        )
        picker = rng("most-read", self.host)
        self.most_read: list[Story] = picker.sample(self.stories, min(5, len(self.stories)))

    # -- hooks for subclasses ----------------------------------------------------

    def article_path(self, article: Article) -> str:
        """URL path of an article on this site."""
        raise NotImplementedError

    def category_path(self, category: str, page: int = 1) -> str:
        """URL path of a section page."""
        raise NotImplementedError

    def template_strings(self) -> list[str]:
        """Boilerplate strings present on every page and never in main text."""
        raise NotImplementedError

    def render_article(self, ctx: PageCtx, story: Story) -> tuple[str, str, list[str]]:
        """Return ``(markup, byline, comments)`` of an article page."""
        raise NotImplementedError

    def render_home(self, ctx: PageCtx) -> tuple[str, str]:
        """Return ``(title, markup)`` of the home page."""
        raise NotImplementedError

    def render_category(
        self, ctx: PageCtx, category: str, stories: list[Story], page: int, pages: int
    ) -> tuple[str, str]:
        """Return ``(title, markup)`` of one section page."""
        raise NotImplementedError

    def render_archive(self, ctx: PageCtx) -> tuple[str, str]:
        """Return ``(title, markup)`` of the archive page."""
        raise NotImplementedError

    def render_info(self, ctx: PageCtx, key: str) -> tuple[str, str, list[str], str]:
        """Return ``(title, markup, paragraphs, page_type)`` of an info page."""
        raise NotImplementedError

    def new_ctx(self, path: str) -> PageCtx:
        """Page context; subclasses override to pick a page encoding."""
        return self.b.ctx(self.host, path)

    # -- helpers ---------------------------------------------------------------------

    def make_story(self, article: Article) -> Story:
        """Place an article on this site with a stable publication time."""
        picker = rng("time", article.id)
        time = f"{picker.randint(6, 22):02d}:{picker.randrange(0, 60, 5):02d}"
        return Story(article, self.article_path(article), article.paragraphs, time)

    def href(self, path: str) -> str:
        """Link target for a path of this site (the mirror rewrites some)."""
        return path

    def in_category(self, category: str) -> list[Story]:
        """Stories of one section, newest first."""
        return [s for s in self.stories if s.article.category == category]

    def related(self, story: Story) -> list[Story]:
        """3-5 related stories: same section first, topped up from the site."""
        same = [s for s in self.in_category(story.article.category) if s is not story]
        picker = rng("related", self.host, story.article.id)
        wanted = picker.randint(3, 5)
        chosen = same[:wanted]
        others = [s for s in self.stories if s is not story and s not in chosen]
        while len(chosen) < 3 and others:
            chosen.append(others.pop(picker.randrange(len(others))))
        return chosen

    def article_image(self, ctx: PageCtx, story: Story, path: str, width: int, height: int) -> str:
        """Register a picture of ``story`` (content image) at ``path`` and return its ``src``.

        Photo and thumbnail share one seed: the same picture at two sizes.
        """
        return self.b.image(
            ctx,
            ctx.host,
            path,
            kind="content",
            width=width,
            height=height,
            seed=f"photo:{story.article.id}",
        )

    def photo(self, ctx: PageCtx, story: Story) -> str:
        """Register the article photo and return its ``src``."""
        return self.article_image(ctx, story, f"/photos/{story.article.id}.png", 640, 360)

    def thumb(self, ctx: PageCtx, story: Story) -> str:
        """Register a hub thumbnail (same picture as the photo, scaled)."""
        return self.article_image(ctx, story, f"/thumbs/{story.article.id}.png", 120, 80)

    def static(self, ctx: PageCtx, path: str, width: int, height: int, fmt: str = "png") -> str:
        """Register a template image of this site (logo, icon, spacer)."""
        return self.b.image(
            ctx,
            ctx.host,
            path,
            kind="template",
            width=width,
            height=height,
            seed=f"static:{self.name}:{path}",
            fmt=fmt,
        )

    def story_link(self, story: Story, cls: str | None = None) -> str:
        """``<a>`` to an article, by its headline."""
        extra = f' class="{cls}"' if cls else ""
        return f'<a href="{attr(self.href(story.path))}"{extra}>{esc(story.title)}</a>'

    def should_inline_ad(self, story: Story) -> bool:
        """About half the articles carry an ad between paragraphs."""
        return (
            len(story.paragraphs) >= 3
            and rng("inline-ad", self.host, story.article.id).random() < 0.5
        )

    def pages_of(self, stories: list[Story]) -> list[list[Story]]:
        """Split a section into pages (an empty section still has page 1)."""
        size = self.per_page
        return [stories[i : i + size] for i in range(0, len(stories), size)] or [[]]

    # -- building ----------------------------------------------------------------------

    def build(self) -> None:
        """Render every page of the site into the builder."""
        self.b.add_site(self.host, self.name, self.lang, self.template_strings())
        if self.stylesheet:
            path, css = self.stylesheet
            self.b.add_asset(self.host, path, css.encode("ascii"), "text/css")
        ctx = self.new_ctx("/")
        title, markup = self.render_home(ctx)
        self.b.add_page(ctx, markup, page_type="hub", lang=self.lang, title=title)
        for category in self.categories:
            chunks = self.pages_of(self.in_category(category))
            for number, chunk in enumerate(chunks, start=1):
                ctx = self.new_ctx(self.category_path(category, number))
                title, markup = self.render_category(ctx, category, chunk, number, len(chunks))
                self.b.add_page(ctx, markup, page_type="hub", lang=self.lang, title=title)
        ctx = self.new_ctx(self.archive_path)
        title, markup = self.render_archive(ctx)
        self.b.add_page(ctx, markup, page_type="hub", lang=self.lang, title=title)
        for key, (path, _label) in self.info_pages.items():
            ctx = self.new_ctx(path)
            title, markup, paragraphs, page_type = self.render_info(ctx, key)
            self.b.add_page(
                ctx, markup, page_type=page_type, lang=self.lang, title=title, paragraphs=paragraphs
            )
        for story in self.stories:
            self.build_article(story)

    def build_article(self, story: Story) -> None:
        """Render one article page and record its truth."""
        ctx = self.new_ctx(story.path)
        markup, byline, comments = self.render_article(ctx, story)
        self.b.add_page(
            ctx,
            markup,
            page_type="article",
            lang=story.lang,
            title=story.title,
            article_id=story.article.id,
            byline=byline,
            paragraphs=story.paragraphs,
            comments=comments,
            copy_of=story.copy_of,
            copy_kind=story.copy_kind,
        )
