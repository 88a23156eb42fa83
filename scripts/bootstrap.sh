#!/usr/bin/env bash
# Create .venv (if missing) and install the project into it; "dev" adds the test tools.
# Idempotent: a second run installs nothing new.
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is required")'
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
if [ -n "$extra" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[$extra]"
else
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e .
fi
