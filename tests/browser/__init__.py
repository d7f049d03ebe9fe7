import os

# Every browser-test person's password: typed into the sign-up and sign-in forms
# (conftest.py) and given by the suite's own sign-in door (urls.py).
PASSWORD = "Card-table-2026!"

# Debian's Chromium, in the form Playwright itself runs headless: the package
# chromium-headless-shell (the same Blink and version as /usr/bin/chromium,
# without the full browser's window and GPU machinery; scripts/ensure_chromium.sh
# installs both). It costs the suite about a fifth less CPU and a quarter less
# time (docs/testing.md). CHROMIUM=/usr/bin/chromium runs the full browser.
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"


def chromium_path() -> str:
    """The Chromium executable the browser tests launch."""
    chosen = os.environ.get("CHROMIUM")
    if chosen:
        return chosen
    return HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else FULL_CHROMIUM


def launch(browser_type, executable: str | None = None):
    """Chromium (``executable``, else ``chromium_path()``) with the suite's switches."""
    return browser_type.launch(
        executable_path=executable or chromium_path(),
        # BROWSER_ARGS: more switches for one run (measuring Chromium's cost, docs/testing.md).
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        + os.environ.get("BROWSER_ARGS", "").split(),
    )
