"""The browser suite's Daphne: the site's own settings, with a cheap password
hasher (tests only). Every test signs people up through the real form; with
PBKDF2's 1,000,000 iterations each sign-up cost the server about a second of
CPU on a busy 2-core machine."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Issue 37: the daily challenge's bots at the quick level, so a whole day of
# eight deals is played in the browser in reasonable time (the site's: strong).
EVENTS_CHALLENGE_BOT_LEVEL = "easy"

# The site's URLs and the suite's own sign-in door (tests/browser/urls.py); the
# site's settings never name it, and a test checks that the site answers 404 there.
ROOT_URLCONF = "tests.browser.urls"

# E-3: the arena's wait before a finished table's page moves on (5 s on the site),
# long enough here that a test's click on "stay" comes first on a loaded machine.
TABLE = {**TABLE, "ARENA_GO_SECONDS": 12.0}  # noqa: F405
