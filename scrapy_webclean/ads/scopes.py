"""Where an image's redundancy is counted besides its site's pages: the shared platform a
site is a blog of (``blogspot.com`` for ``alice.blogspot.com``) and the page's own host
for a site of several hosts, each under its own key of the statistics store."""

from __future__ import annotations

from scrapy_webclean.urls import host_of, organization_domain

#: Where a platform's statistics are kept in the store (apart from any site's).
_PLATFORM_PREFIX = "platform:"
#: Where a host's statistics are kept (a host of a site of several hosts).
_HOST_PREFIX = "host:"


def wider_scopes(page_url: str, site: str) -> list[tuple[str, str]]:
    """The store keys, besides the site's, whose pages an image's redundancy is also
    counted over, with the reason each gives: the shared platform the site is a blog of,
    and the page's host when it is not the site itself."""
    scopes = []
    platform = platform_key(page_url, site)
    if platform:
        scopes.append((platform, "redundant_on_platform"))
    host = host_of(page_url)
    if host and host != site and host != "www." + site:
        scopes.append((_HOST_PREFIX + host, "redundant_on_host"))
    return scopes


def platform_key(page_url: str, site: str) -> str:
    """The store key of the shared platform a site is a part of (``platform:blogspot.com``
    for ``alice.blogspot.com``), or '' when the site is its own organisation."""
    organization = organization_domain(host_of(page_url))
    if not organization or organization == site:
        return ""
    return _PLATFORM_PREFIX + organization
