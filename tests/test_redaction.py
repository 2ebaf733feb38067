"""Secrets never reach a log line, an error, a stat or a ``repr``.

:func:`scrapy_webclean.redact.redact_url` on its own, then the Redis state against a real
``redis-server`` that asks for a password (``requirepass``), reached with the right
password, the wrong one, none, and on a port where nothing listens: the password is in
no log record, no exception (nor its chain), no ``repr``, no stat and no crawl log.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from demo_site.server import DemoServer
from scrapy_webclean.redact import (
    MASK,
    SECRET_NAMES,
    is_secret_name,
    redact_text,
    redact_url,
    redact_value,
    secret_values,
)
from tests.conftest import RedisServer, free_port
from tests.test_faults_interrupt import (  # noqa: F401 (no_process_left: the clean-up)
    WORKERS,
    Crawl,
    no_process_left,
)

#: The password of the test server, and the wrong one tried (both must never be shown).
PASSWORD = "S3cret-Pa55word"
WRONG_PASSWORD = "Wr0ng-Pa55word"
SECRETS = (PASSWORD, WRONG_PASSWORD)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:hunter22@127.0.0.1:6379/0", "redis://***@127.0.0.1:6379/0"),
        ("rediss://bob:hunter22@cache.example:6380/1", "rediss://***@cache.example:6380/1"),
        ("unix://:hunter22@/run/redis.sock?db=0", "unix://***@/run/redis.sock?db=0"),
        ("redis://h:6379/0?password=hunter22&db=2", "redis://h:6379/0?password=***&db=2"),
        ("http://proxy.example:3128/?user=u&Token=hunter22", "http://proxy.example:3128/?user=u&Token=***"),
        ("https://e.com/l.txt?X-Amz-Signature=hunter22&X-Amz-Date=1", "https://e.com/l.txt?X-Amz-Signature=***&X-Amz-Date=1"),
        ("https://e.com/cb#access_token=hunter22&state=1", "https://e.com/cb#access_token=***&state=1"),
        ("https://e.com/l.txt?client_secret=hunter22;api_key=hunter22", "https://e.com/l.txt?client_secret=***;api_key=***"),
        # a password with an unescaped '/', '?' or '#' (the authority ends early)
        ("redis://:hun/ter22@h:6379/0", "redis://***@h:6379/0"),
        ("redis://user:hun?ter22@h:6379/0", "redis://***@h:6379/0"),
        ("redis://:1234/hunter22@h:6379", "redis://***@h:6379"),
        ("redis://user:hunter22", "redis://user:***"),
        ("https://u:hunter22@[::1]:8080/x", "https://***@[::1]:8080/x"),
    ],
)  # fmt: skip
def test_redact_url_masks_user_info_and_secret_parameters(url: str, shown: str) -> None:
    assert redact_url(url) == shown
    assert "hunter22" not in redact_url(url)


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:6379/0",
        "redis://cache.example",
        "https://easylist.to/easylist/easylist.txt",
        "https://medium.com/@someone/list.txt",
        "https://e.com/search?q=key+words&keyword=x&monkey=1",
        "/home/user/lists/easylist.txt",
        "http://[::1]:8080/",
        "",
    ],
)
def test_a_url_without_secrets_is_shown_as_it_is(url: str) -> None:
    assert redact_url(url) == url


def test_secret_names_and_values() -> None:
    assert all(is_secret_name(name) for name in SECRET_NAMES)
    assert all(is_secret_name(n) for n in ("Password", "X-Amz-Signature", "ssl_password"))
    assert not any(is_secret_name(n) for n in ("keyword", "monkey", "passage", "db", "q"))
    params = {"password": "p1", "ssl_password": b"p2", "socket_timeout": 5, "username": "u"}
    assert set(secret_values(params)) == {"p1", "p2"}
    text = "Redis at 'redis://:p1@h:1/0' refused p1; see rediss://u:p3@h/ too"
    assert (
        redact_text(text, ("p1",))
        == f"Redis at 'redis://{MASK}@h:1/0' refused {MASK}; see rediss://{MASK}@h/ too"
    )


# -- a real Redis that asks for a password ---------------------------------------------


@pytest.fixture(scope="module")
def locked_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A private ``redis-server`` with ``requirepass`` :data:`PASSWORD`."""
    pytest.importorskip("redis")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    import redis

    server = RedisServer(tmp_path_factory.mktemp("locked-redis"))
    server.start()
    client = redis.Redis.from_url(server.url)
    client.config_set("requirepass", PASSWORD)
    client.close()
    try:
        yield server
    finally:
        server.stop()


def _with_password(server: RedisServer, password: str | None, port: int | None = None) -> str:
    auth = f":{password}@" if password is not None else ""
    return f"redis://{auth}127.0.0.1:{port or server.port}/0"


def _everything_shown(exc: BaseException | None, *objects: Any) -> str:
    """The text a person could read: an exception with its whole chain, and reprs."""
    shown = "".join(traceback.format_exception(exc)) if exc is not None else ""
    return shown + "".join(f"{obj!r}\n{obj}\n" for obj in objects)


def _assert_hidden(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"{secret!r} shown in:\n{text}"


@pytest.mark.parametrize(
    ("password", "dead_port", "params"),
    [
        (PASSWORD, False, {}),  # the right password: it works, and is shown nowhere
        (WRONG_PASSWORD, False, {}),  # the wrong one
        (None, False, {}),  # none, to a server that asks for one
        (PASSWORD, True, {}),  # nothing listens on the port
        (None, False, {"password": WRONG_PASSWORD}),  # the wrong one, in REDIS_PARAMS
        (None, True, {"password": PASSWORD}),  # REDIS_PARAMS, nothing listening
    ],
)
def test_the_redis_backend_shows_no_password(
    locked_redis: RedisServer,
    caplog: pytest.LogCaptureFixture,
    password: str | None,
    dead_port: bool,
    params: dict[str, Any],
) -> None:
    from scrapy_webclean.state import Lenient, Retrying, StateUnavailable
    from scrapy_webclean.state.redis import RedisBackend

    url = _with_password(locked_redis, password, free_port() if dead_port else None)
    works = password == PASSWORD and not dead_port
    caplog.set_level(logging.DEBUG)
    quick = {"socket_timeout": 1.0, "socket_connect_timeout": 1.0, **params}
    backend = RedisBackend(url, prefix="redact:", **quick)
    raised: BaseException | None = None
    try:
        backend.run([("add_counts", "t", [("k", 1.0)])])
    except StateUnavailable as exc:
        raised = exc
    assert (raised is None) == works
    retrying = Retrying(RedisBackend(url, **quick), give_up_after=0.0, sleep=lambda s: None)
    gave_up: BaseException | None = None
    try:
        retrying.count_records("dd:docs")
    except StateUnavailable as exc:
        gave_up = exc
    lenient = Lenient(RedisBackend(url, **quick))
    lenient.add_counts("t", [("k", 1.0)])  # kept while down
    lenient.close()  # one last try: lost, and logged
    if not works:
        assert "is unavailable" in str(raised) and "is unavailable" in str(gave_up)
        assert any("learning paused" in r.getMessage() for r in caplog.records)
    shown = _everything_shown(raised, backend, retrying.backend, lenient.backend)
    shown += _everything_shown(gave_up)
    shown += "\n".join(r.getMessage() for r in caplog.records)
    _assert_hidden(shown)
    assert backend.url == redact_url(url) and repr(backend).startswith("RedisBackend('redis://")
    backend.close()


def test_the_crawl_state_shows_no_password(
    locked_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """The start-up line, the error that stops a crawl whose Redis refuses it (the wrong
    password, or nothing on the port), the log of a crawl allowed to start without it,
    and the stats."""
    pytest.importorskip("redis")
    from scrapy.utils.test import get_crawler

    from scrapy_webclean.integration.state import CrawlState, RedisUnreachable

    caplog.set_level(logging.DEBUG)
    shown = ""
    good = {"WEBCLEAN_STATE": "redis", "REDIS_URL": _with_password(locked_redis, PASSWORD)}
    crawler = get_crawler(settings_dict=good)
    state = CrawlState(crawler)
    assert f"Redis redis://{MASK}@127.0.0.1:{locked_redis.port}/0" in state.description
    assert state.count_documents() == 0
    state.close()
    assert crawler.stats is not None
    shown += repr(crawler.stats.get_stats()) + _everything_shown(None, state)
    for url in (
        _with_password(locked_redis, WRONG_PASSWORD),
        _with_password(locked_redis, PASSWORD, free_port()),
    ):
        settings = {"WEBCLEAN_STATE": "redis", "REDIS_URL": url}
        with pytest.raises(RedisUnreachable) as stopped:
            CrawlState(get_crawler(settings_dict=settings))
        assert f"REDIS_URL = 'redis://{MASK}@127.0.0.1:" in str(stopped.value)
        shown += _everything_shown(stopped.value)
        allowed = get_crawler(settings_dict={**settings, "WEBCLEAN_REDIS_REQUIRED": False})
        state = CrawlState(allowed)
        assert state.count_documents() is None
        state.close()
        assert allowed.stats is not None
        shown += repr(allowed.stats.get_stats())
    shown += "\n".join(r.getMessage() for r in caplog.records)
    assert "starting without it" in shown
    _assert_hidden(shown)


def test_the_worker_s_state_spec_shows_no_password(locked_redis: RedisServer) -> None:
    """What a cleaning worker is sent to reach Redis: its ``repr`` holds neither the
    password of ``REDIS_URL`` nor one in ``REDIS_PARAMS``."""
    pytest.importorskip("redis")
    from scrapy.utils.test import get_crawler

    from scrapy_webclean.integration.state import CrawlState

    settings = {
        "WEBCLEAN_STATE": "redis",
        "REDIS_URL": _with_password(locked_redis, PASSWORD),
        "REDIS_PARAMS": {"password": PASSWORD},
    }
    state = CrawlState(get_crawler(settings_dict=settings))
    spec = state.worker_spec()
    assert spec.url is not None and PASSWORD in spec.url  # (the worker needs it)
    _assert_hidden(_everything_shown(None, spec))
    state.close()


@pytest.mark.e2e
def test_a_crawl_with_a_password_in_redis_url_logs_no_password(
    locked_redis: RedisServer, tmp_path: Path
) -> None:
    """A real ``scrapy crawl demo`` (cleaning workers, the Redis state) with the password
    in ``REDIS_URL`` and ``LOG_LEVEL = DEBUG``: the log, stderr, the stats and the items
    hold no password; then the same crawl with the wrong password stops at start-up, and
    says so without it."""
    with DemoServer() as site:
        url = _with_password(locked_redis, PASSWORD)
        crawl = Crawl(
            site, tmp_path, "locked", WORKERS, "WEBCLEAN_STATE=redis", f"REDIS_URL={url}",
            "LOG_LEVEL=DEBUG", "CLOSESPIDER_ITEMCOUNT=5",
        )  # fmt: skip
        part = crawl.finish(300)
        assert f"webclean state: Redis redis://{MASK}@127.0.0.1:" in part["log"]
        assert part["items"]
        _assert_hidden(part["log"] + part["stderr"] + repr(part["stats"]) + repr(part["items"]))
        wrong = _with_password(locked_redis, WRONG_PASSWORD)
        refused = Crawl(
            site, tmp_path, "refused", WORKERS, "WEBCLEAN_STATE=redis", f"REDIS_URL={wrong}"
        )
        try:
            _, stderr = refused.process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            refused.process.kill()
            refused.process.communicate()
            pytest.fail("the crawl with the wrong password did not stop by itself")
        log = (tmp_path / "refused.log").read_text("utf-8") + stderr.decode("utf-8", "replace")
        assert refused.process.returncode != 0
        assert "invalid username-password pair" in log  # redis-py's reason, and no more
        _assert_hidden(log)


def test_a_setting_value_is_shown_redacted() -> None:
    assert redact_value("https://u:hunter22@lists.example/easylist.txt") == (
        f"https://{MASK}@lists.example/easylist.txt"
    )
    assert redact_value({"password": "hunter22", "socket_timeout": 5, "db": 0}) == {
        "password": MASK,
        "socket_timeout": 5,
        "db": 0,
    }
    assert redact_value(["redis://:hunter22@h/0", 3]) == [f"redis://{MASK}@h/0", 3]
    assert redact_value(("plain", None)) == ("plain", None)


def test_a_malformed_redis_url_is_refused_without_its_password() -> None:
    """A password with an unescaped '/' (redis-py would quote its tail as a bad port)."""
    pytest.importorskip("redis")
    from scrapy_webclean.state.redis import RedisBackend

    head, tail = PASSWORD[:5], PASSWORD[5:]
    with pytest.raises(ValueError, match="not a Redis URL") as refused:
        RedisBackend(f"redis://:{head}/{tail}@127.0.0.1:6379/0")
    shown = _everything_shown(refused.value)
    assert head not in shown and tail not in shown, shown


def test_redacting_a_long_query_is_linear() -> None:
    from tests.linear import assert_linear

    assert_linear(
        redact_url, lambda n: "https://example.com/?" + "a" * n, 20_000, "query with no '='"
    )
    assert_linear(
        redact_url, lambda n: "https://example.com/?" + "a=b&" * (n // 4), 20_000, "pairs"
    )
    assert redact_url("https://h/?a=b;token=x&c") == "https://h/?a=b;token=***&c"
