#!/usr/bin/env bash
# `npm test` runs this first: the end-to-end tests drive Debian's Chromium (never a downloaded browser).
# Installs it with apt when missing and this user may (root, or sudo without a password); otherwise
# stops at once with one line saying exactly what to run. CHROMIUM_PATH overrides the browser's path;
# CHROMIUM_INSTALL=never only checks.
set -euo pipefail
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$browser" ] && exit 0

if [ "${CHROMIUM_PATH:-}" = "" ] && [ "${CHROMIUM_INSTALL:-auto}" != "never" ] && command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then sudo=(); elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n); else sudo=(none); fi
  if [ "${sudo[0]:-}" != none ]; then
    echo "Installing Debian's chromium for the end-to-end tests (apt-get, about 30 s)…"
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
    [ -x "$browser" ] && exit 0
  fi
fi

echo "Chromium is missing at $browser: run 'sudo apt-get install -y chromium' (Debian's package; no browser is downloaded), or set CHROMIUM_PATH, then run npm test again." >&2
exit 1
