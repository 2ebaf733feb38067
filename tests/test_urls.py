"""URLs (issue 19): one meaning of site (the registrable domain by the Public Suffix List with
its private section, from tldextract's bundled snapshot, never fetched), the link resolver,
image-URL keys and the front-page test."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scrapy_webclean.ads import AdImageModel
from scrapy_webclean.cleaning import Cleaner
from scrapy_webclean.urls import (
    UrlResolver,
    absolute_url,
    document_url,
    host_of,
    is_site_root,
    normalize_image_url,
    organization_domain,
    registrable_domain,
    resolve_base,
    same_party,
    site_key,
    site_of,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://www.Example.com:8080/a", "example.com"),
        ("https://news.bbc.co.uk/world", "bbc.co.uk"),
        ("https://www.bbc.co.uk/", "bbc.co.uk"),
        ("https://uk.reuters.com/x", "reuters.com"),
        ("https://a.b.example.co.jp/", "example.co.jp"),
        ("https://news.sina.com.cn/c/2026.shtml", "sina.com.cn"),
        ("https://example.com./", "example.com"),
        ("http://127.0.0.2:8800/x", "127.0.0.2"),
        ("http://[::1]:8080/", "::1"),
        ("http://localhost:8000/page", "localhost"),
        ("http://例子.中国/", "例子.中国"),
        # the private section: each tenant of a shared host is its own site
        ("https://alice.github.io/post", "alice.github.io"),
        ("https://bob.github.io/", "bob.github.io"),
        ("https://www.alice.github.io/", "alice.github.io"),
        ("https://foo.blogspot.com/2026/01/x.html", "foo.blogspot.com"),
        ("https://bucket-a.s3.amazonaws.com/key.png", "bucket-a.s3.amazonaws.com"),
        ("https://b.s3.us-east-1.amazonaws.com/k", "b.s3.us-east-1.amazonaws.com"),
        ("https://shop.myshopify.com/", "shop.myshopify.com"),
        # blog platforms the list lacks
        ("https://alice.wordpress.com/2026/01/01/hello/", "alice.wordpress.com"),
        ("https://writer.substack.com/p/essay", "writer.substack.com"),
        # a shared host itself is one site
        ("https://github.io/", "github.io"),
        ("https://wordpress.com/read", "wordpress.com"),
    ],
)
def test_site_of(url: str, site: str) -> None:
    assert site_of(url) == site
    assert site_key(url) == site


@pytest.mark.parametrize("url", [None, "", "not a url", "mailto:someone@example.com", "http://["])
def test_no_site_without_a_host(url: str | None) -> None:
    assert site_of(url) is None
    assert site_key(url) == ""


def test_neighbours_on_a_shared_host_are_different_sites() -> None:
    for first, second in [
        ("https://alice.github.io/", "https://bob.github.io/"),
        ("https://a.blogspot.com/", "https://b.blogspot.com/"),
        ("https://a.wordpress.com/", "https://b.wordpress.com/"),
        ("https://a.substack.com/", "https://b.substack.com/"),
        ("https://one.s3.amazonaws.com/x", "https://two.s3.amazonaws.com/x"),
    ]:
        assert site_of(first) != site_of(second)
        # (two tenants of one platform: two sites, one organisation)
        assert organization_domain(host_of(first)) == organization_domain(host_of(second))
    # while subdomains of one registered name are one site
    assert site_of("https://news.example.co.uk/") == site_of("https://img.example.co.uk/")


def test_first_and_third_parties() -> None:
    assert same_party("graphics8.nytimes.com", "nytimes.com")
    assert same_party("img.example.co.uk", "news.example.co.uk")
    # a blog's images on its platform's image host are its own, not a third party's
    assert same_party("1.bp.blogspot.com", "alice.blogspot.com")
    assert same_party("alice.files.wordpress.com", "alice.wordpress.com")
    assert not same_party("cdn.partner-media.net", "example.com")
    assert not same_party("ad.doubleclick.net", "alice.blogspot.com")
    assert not same_party("", "example.com") and not same_party("example.com", "")
    assert organization_domain("alice.blogspot.com") == "blogspot.com"
    assert organization_domain("bucket.s3.amazonaws.com") == "amazonaws.com"


def test_registrable_domain_of_hosts() -> None:
    assert registrable_domain("News.BBC.co.uk.") == "bbc.co.uk"
    assert registrable_domain("github.io") == "github.io"  # a shared host itself
    assert registrable_domain("co.uk") == "co.uk"
    assert registrable_domain("192.168.0.1") == "192.168.0.1"
    assert registrable_domain("") == ""
    assert host_of("HTTPS://WWW.Example.COM./x") == "www.example.com"


def test_the_suffix_list_is_read_from_the_package_never_fetched(tmp_path: Path) -> None:
    # A fresh interpreter in which any socket use raises (a Python audit hook), with HOME
    # and the XDG cache pointing at an empty folder: the sites come out right, nothing
    # reaches the network and no cache file is written.
    script = textwrap.dedent(
        """
        import sys

        def no_network(event, args):
            if event.startswith(("socket.", "urllib.Request")):
                raise RuntimeError(f"network use: {event}")

        sys.addaudithook(no_network)
        from scrapy_webclean.urls import site_of

        print(site_of("https://alice.github.io/"), site_of("https://news.bbc.co.uk/"))
        """
    )
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "TLDEXTRACT_CACHE": str(tmp_path / "tldextract"),
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["alice.github.io", "bbc.co.uk"]
    assert "network use" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_template_learned_on_one_tenant_stays_with_it() -> None:
    # Two unrelated blogs on github.io: what one repeats on every page is not the other's
    # template.
    footer = "Subscribe to the newsletter of Alice's garden diary for weekly notes."
    cleaner = Cleaner()
    for number in range(4):
        html = (
            f"<html><body><article><h1>Post {number}</h1><p>{'Gardening notes. ' * 20}"
            f"number {number}.</p></article><p>{footer}</p></body></html>"
        )
        cleaner.clean(html, f"https://alice.github.io/post/{number}")
    store = cleaner.template_model.store
    assert store.pages("alice.github.io") == 4
    assert store.pages("bob.github.io") == 0
    assert store.pages("github.io") == 0


def test_image_statistics_are_kept_per_tenant() -> None:
    model = AdImageModel()
    html = '<html><body><img src="/logo.png" width="120" height="40"><p>text</p></body></html>'
    for number in range(3):
        model.observe_page(f"https://alice.github.io/p/{number}", html)
    assert model.pages_seen("https://alice.github.io/other") == 3
    assert model.pages_seen("https://bob.github.io/") == 0


def test_url_resolver_matches_urljoin_on_common_hrefs() -> None:
    resolve = UrlResolver("https://example.com/news/2026/story.html?x=1")
    assert resolve("https://other.org/a") == "https://other.org/a"
    assert resolve("//cdn.example.com/i.png") == "https://cdn.example.com/i.png"
    assert resolve("/about") == "https://example.com/about"
    assert resolve("photo.jpg") == "https://example.com/news/2026/photo.jpg"
    assert resolve("../index.html") == "https://example.com/news/index.html"
    assert resolve(" /a\n/b ") == "https://example.com/a/b"
    assert UrlResolver(None)("photo.jpg") == "photo.jpg"
    assert absolute_url("https://example.com/a/b", "c") == "https://example.com/a/c"
    assert absolute_url(None, " c ") == "c"


def test_resolve_base() -> None:
    assert resolve_base("https://example.com/a/b.html", None) == "https://example.com/a/b.html"
    assert resolve_base("https://example.com/a/b.html", "/static/") == (
        "https://example.com/static/"
    )


def test_url_normalisation_keeps_images_apart_but_merges_rotations() -> None:
    assert normalize_image_url("http://ad.x.net/ad/s;sz=300x250;ord=123456789?") == (
        normalize_image_url("http://ad.x.net/ad/s;sz=300x250;ord=987654321")
    )
    assert normalize_image_url("http://x.com/a.gif?cb=1&id=7") == normalize_image_url(
        "https://X.com/a.gif?id=7&cb=2"
    )
    assert normalize_image_url("http://x.com/img?id=7") != normalize_image_url(
        "http://x.com/img?id=8"
    )
    # A stable path keeps its numbers (news sites name every photo by one) ...
    photos = (
        "http://news.example.co.uk/media/images/70815000/jpg/_70815172_70815171.jpg",
        "http://news.example.co.uk/media/images/70816000/jpg/_70816093_70816092.jpg",
    )
    assert normalize_image_url(photos[0]) != normalize_image_url(photos[1])
    assert normalize_image_url("http://x.com/img?id=2797846") != normalize_image_url(
        "http://x.com/img?id=2797847"
    )
    # ... an ad server's per-request numbers go (each page view asks for a new creative).
    assert normalize_image_url("http://x.com/b/2026010112345/a.png", rotating=True) == (
        "x.com/b/#/a.png"
    )
    assert normalize_image_url("http://ad.x.net/i?n=2797846", rotating=True) == (
        normalize_image_url("http://ad.x.net/i?n=9911223", rotating=True)
    )


def test_site_root_detection() -> None:
    for url in (
        "https://example.com",
        "https://example.com/",
        "http://example.com/index.html",
        "https://shop.example.com/?utm_source=x&srsltid=abc",
    ):
        assert is_site_root(url), url
    for other in (
        None,
        "https://example.com/news/story.html",
        "https://example.com/?page=2",
        "ftp://example.com/",
    ):
        assert not is_site_root(other), other


@pytest.mark.parametrize(
    ("url", "document"),
    [
        ("https://news.example/2024/story/amp/", "https://news.example/2024/story/"),
        ("https://news.example/2024/story/print", "https://news.example/2024/story/"),
        ("https://news.example/story/AMP/?page=2", "https://news.example/story/?page=2"),
        ("https://news.example/amp/", "https://news.example/"),
        ("https://news.example/story/", "https://news.example/story/"),
        ("https://news.example/print-shop", "https://news.example/print-shop"),
        ("https://news.example/amp-guide/intro", "https://news.example/amp-guide/intro"),
        (None, None),
    ],
)
def test_a_renditions_document_url(url: str | None, document: str | None) -> None:
    assert document_url(url) == document
