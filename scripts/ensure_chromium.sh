#!/usr/bin/env bash
# Debian's Chromium for the Playwright browser tests (never `playwright install`).
set -euo pipefail
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# fonts-noto-color-emoji: the reactions are emoji; without it screenshots show empty boxes.
if ! command -v chromium >/dev/null || ! dpkg -s fonts-noto-color-emoji >/dev/null 2>&1; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
fi
