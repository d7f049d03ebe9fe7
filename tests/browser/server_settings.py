"""The browser suite's Daphne: the site's own settings, with a cheap password
hasher (tests only). Every test signs people up through the real form; with
PBKDF2's 1,000,000 iterations each sign-up cost the server about a second of
CPU on a busy 2-core machine."""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
