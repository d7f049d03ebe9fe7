#!/usr/bin/env bash
# Debian's Chromium for the Playwright browser tests (never `playwright install`):
# the full browser (chromium) and its old headless shell (chromium-headless-shell,
# the same version without the window machinery; the tests launch it when it is
# there: tests/browser/__init__.py).
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# fonts-noto-color-emoji: the reactions are emoji; without it screenshots show empty boxes.
if ! command -v chromium >/dev/null || ! command -v chromium-headless-shell >/dev/null \
  || ! dpkg -s fonts-noto-color-emoji >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
  # An older release without the package: the tests fall back to the full browser.
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null \
    || echo "chromium-headless-shell is not available: the browser tests use chromium" >&2
fi
