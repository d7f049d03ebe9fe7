import os

import pytest

# Servers and workers the tests start (Daphne, Celery) run in production mode
# (DATABASE_URL and REDIS_URL), which wants a real SECRET_KEY and HTTPS: hand
# them the suite's test key and plain HTTP on loopback, unless the caller set
# either one.
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-never-used-by-a-running-site-0123456789")
os.environ.setdefault("SITE_HTTPS", "false")
# The suite's own process keeps CPython's collector as it is (infra/memory.py;
# tests/site/test_memory.py checks the server's tuning in a process of its own).
os.environ.setdefault("GC_TUNING", "off")

# `make test` runs the suite in three pytest-xdist workers. pytest-django gives
# each worker a test database of its own (test_<name>_gw0, ...); give each its
# own cache and channel-layer prefixes on the shared Redis too, for this
# process and for the servers and workers its tests start (they inherit the
# environment). Django's settings are already loaded here: set both.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER:
    for _variable in ("CACHE_PREFIX", "CHANNEL_PREFIX"):
        os.environ[_variable] = f"{os.environ.get(_variable, 'takhteh')}-{XDIST_WORKER}"
    from django.conf import settings as _settings

    if _settings.configured:
        _settings.CHANNEL_PREFIX = os.environ["CHANNEL_PREFIX"]
        _layer = _settings.CHANNEL_LAYERS.get("default", {}).get("CONFIG", {})
        if "prefix" in _layer:
            _layer["prefix"] = os.environ["CHANNEL_PREFIX"]
        _cache = _settings.CACHES.get("default", {})
        if "KEY_PREFIX" in _cache:
            _cache["KEY_PREFIX"] = os.environ["CACHE_PREFIX"]


# The longest work units (the profile of 7 December, three workers; docs/testing.md), handed out
# first so that no worker is left with one of them at the end while the others idle.
LONG_FIRST = (
    "tests/browser/test_events_day.py",
    "tests/browser/test_table_hokm_points.py",
    "tests/browser/test_events.py",
    "tests/browser/test_a11y_pages.py",
    "tests/bench",
    "tests/browser/test_playnow.py",
    "tests/browser/test_hints_and_calls.py",
    "tests/browser/test_presence_cut_off.py",
    "tests/browser/test_a11y_table.py",
    "tests/events/test_challenge.py",
    "tests/browser/test_table_shelem_points.py",
    "tests/browser/test_fair_table.py",
    "tests/browser/test_bridge_sheet_place.py",
    "tests/rooms/test_room_lifecycle.py",
    "tests/browser/test_table2_bridge.py",
    "tests/engine/test_bridge_properties.py",
)


def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` (`make test`): every test module is one work unit,
    so its module-scoped fixtures are made once; the browser modules too, on
    every worker: each worker starts its own Daphne, database and prefixes the
    first time it runs one (tests/browser/conftest.py's session fixture, named
    after the worker) and its own Chromium per run of browser modules (the
    directory's package fixture, closed before another directory's tests).
    The units are handed out longest first: the ones named in ``LONG_FIRST``,
    then the other browser modules (seconds each), then the rest by their
    number of tests, xdist's own order. ``tests/bench`` is one unit: each of
    its modules runs a benchmark with servers of its own (a Daphne's pool of
    connections and more), and two of them beside each other and three
    workers' browser servers took more than PostgreSQL's 100 connections."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    def rank(scope: str) -> int:
        if scope in LONG_FIRST:
            return LONG_FIRST.index(scope)
        return len(LONG_FIRST) if scope.startswith("tests/browser/") else len(LONG_FIRST) + 1

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "tests/bench" if nodeid.startswith("tests/bench/") else super()._split_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            first = min(self.workqueue, key=rank)  # min() keeps xdist's order among equals
            self.workqueue.move_to_end(first, last=False)
            super()._assign_work_unit(node)

    return Scheduling(config, log)


# What a failure that earned a rerun was (tests/browser/conftest.py gives each browser test
# one): without it a rerun that passed leaves only its name in the log, and the cause of a flaky
# test is never seen. Printed by the process that writes the log (xdist's controller).
RERUN_TRACE_LINES = 30


def rerun_cause(report) -> list[str]:
    """Where the test failed, in the test's own module and in the suite's helper it called
    (the deepest frames in ``tests/``, not a library's), and the error's ``E`` lines; the
    text's last lines when the report has no entries to read."""
    entries = getattr(getattr(report.longrepr, "reprtraceback", None), "reprentries", None) or []

    def path(entry) -> str:
        return str(getattr(getattr(entry, "reprfileloc", None), "path", ""))

    ours = [e for e in entries if path(e).startswith("tests/")]
    tests = [e for e in ours if path(e).rsplit("/", 1)[-1].startswith("test_")]
    lines = []
    for where in dict.fromkeys([*tests[-1:], *ours[-1:]]):
        lines.append(f"{where.reprfileloc.path}:{where.reprfileloc.lineno}")
        lines += [line for line in where.lines if line.startswith(">")]
    if entries:
        lines += [line for line in getattr(entries[-1], "lines", []) if line.startswith("E ")]
    if not lines:
        lines = str(report.longreprtext).rstrip().splitlines()
    return lines[-RERUN_TRACE_LINES:]


def pytest_runtest_logreport(report):
    if getattr(report, "outcome", None) != "rerun" or not report.longrepr:
        return
    worker = getattr(getattr(report, "node", None), "gateway", None)
    where = f" on {worker.id}" if worker is not None else ""
    print(
        f"\nRERUN {report.nodeid} ({report.when}{where}), its failure:\n"
        + "\n".join("    " + line for line in rerun_cause(report)),
        flush=True,
    )


@pytest.fixture(scope="session", autouse=True)
def _deleting_flush():
    """A transactional test (``django_db(transaction=True)``) empties every
    table when it ends. PostgreSQL's TRUNCATE of the 40 tables makes new files
    for each and costs 0.4-0.8 s on this machine; a DELETE of their few rows,
    with the foreign keys checked at the commit (Django makes them all
    deferrable), costs a few milliseconds and leaves the same empty tables.
    Sequences and cascades keep Django's own statement."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [
            "SET CONSTRAINTS ALL DEFERRED",
            *(f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(t))};" for t in tables),
        ]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = truncate


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hasher():
    """Users by the dozen in this process: a cheap hasher (tests only; the
    servers the tests start keep the site's own). PBKDF2's 1,000,000
    iterations cost about a second of CPU per user on a busy 2-core machine."""
    from django.test.utils import override_settings

    cheap = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    cheap.enable()
    yield
    cheap.disable()


@pytest.fixture
def make_user(db, django_user_model):
    def make(username, password="correct-horse-battery", **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def charlie(make_user):
    return make_user("charlie")


@pytest.fixture
def dave(make_user):
    return make_user("dave")


@pytest.fixture(scope="session", autouse=True)
def _close_stray_connections(request):
    """Worker threads (sync_to_async) and killed subprocesses may leave sessions
    on the test database; end them so that it can be dropped at the end."""
    if request.config.pluginmanager.hasplugin("django") and not request.config.getoption("collectonly"):
        # Set the test database up first, so that this teardown runs before its own.
        request.getfixturevalue("django_db_setup")
    yield
    if not request.config.pluginmanager.hasplugin("django"):
        return
    from django.db import connection

    if connection.vendor != "postgresql" or not str(connection.settings_dict["NAME"]).startswith("test_"):
        return  # the test database was never set up in this run
    with request.getfixturevalue("django_db_blocker").unblock():
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture(autouse=True)
def _no_kept_matches():
    """Each test starts with no match kept by the loop's plain path (games/plain.py)."""
    from games import plain

    plain.forget()
    yield
    plain.forget()


@pytest.fixture(autouse=True)
def _fresh_content_types():
    """The workers (make test's -n 3, --dist loadfile) run transactional tests
    among the others: their flush gives the content types new ids, so a
    process's cached ones (the admin log, permissions) must be read again."""
    from django.contrib.contenttypes.models import ContentType

    ContentType.objects.clear_cache()
    yield


@pytest.fixture(autouse=True)
def _no_fair_deal_wait(settings):
    """F-4: no browser sends values in most tests, so every human seat's value
    is its substitute at once; the fair deal's own tests set a wait."""
    settings.FAIR_WAIT_SECONDS = 0


@pytest.fixture(autouse=True)
def _quick_bots(settings):
    """Bots think at the easy level unless a test chooses one (issue 21: the
    search's time budget would slow every practice match of the suite)."""
    settings.TABLE = {**settings.TABLE, "BOT_LEVEL": "easy"}


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module. Playwright's sync API keeps an event loop
    running in this thread while it is open, so it is opened per module (a
    module's fixtures are closed before another module's tests run): the
    other tests never see that loop, and two are never open at once. Meanwhile
    Django's ORM calls of the module's own tests are allowed in this thread."""
    from playwright.sync_api import sync_playwright

    from tests.browser import launch

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = launch(p.chromium)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def _fresh_shared_copies(request):
    """Copies made for everyone (``infra.cache.shared``: the rankings, the count
    of open tables) live in the cache, which a test's rollback does not undo:
    each test that uses the database starts with none of the last test's."""
    if "django_db_setup" not in request.fixturenames and "client" not in request.fixturenames:
        return
    from infra.cache import touch

    for topic in ("ledger", "home", "events"):
        touch(topic)
