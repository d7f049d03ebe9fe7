"""The site's own settings plus one bare page, the floor of ``bench/pages.py`` (issue 33).

The floor is served by the same Daphne process, through the same middleware,
with the same base layout, and makes no query: what a page costs beyond it
is the page's own work.
"""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "bench.pages_site.urls"
TEMPLATES[0]["DIRS"] = [*TEMPLATES[0]["DIRS"], BASE_DIR / "bench" / "pages_site" / "templates"]  # noqa: F405
