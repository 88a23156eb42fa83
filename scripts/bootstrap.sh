#!/usr/bin/env bash
# Create .venv (if missing) and install the project into it; "dev" adds the test tools.
# Idempotent: a second run installs nothing new.
#
# The interpreter of a new .venv: $PYTHON if set; else the distribution's
# /usr/bin/python3 when it is 3.11 or newer and can make a venv; else python3 on PATH.
# Distributions (Debian, Ubuntu, Fedora) compile their Python with profile-guided
# optimisation and link-time optimisation, as the python:3.11 image of the Dockerfile
# is; a source build (pyenv's default) is not, and runs this project 10-25% slower
# (docs/api.md, "Performance").
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"

usable() {  # a Python 3.11+ that can make a virtual environment with pip
    command -v "$1" >/dev/null 2>&1 \
        && "$1" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

if [ ! -x .venv/bin/python ]; then
    if [ -n "${PYTHON:-}" ]; then
        python="$PYTHON"
    elif usable /usr/bin/python3; then
        python=/usr/bin/python3
    else
        python=python3
    fi
    "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is required")'
    "$python" -m venv .venv
    .venv/bin/python -m pip install --quiet --upgrade pip
fi
# pip resolves every requirement again even when nothing changed (seconds, and CI calls
# this twice), so the install is skipped when .venv already holds this pyproject.toml's
# requirements with this extra: the project itself is installed editable, so code changes
# never need a reinstall.
stamp=".venv/.installed${extra:+-$extra}"
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
# In CI (a fresh .venv each run) pip compiles nothing: scripts/test.sh's first collection
# writes the bytecode of what the tests import, a part of the ~100 packages pip would
# compile whole (5 of the install's 15 s).
compile=()
[ "${CI:-}" = true ] && compile=(--no-compile)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    if [ -n "$extra" ]; then
        .venv/bin/python -m pip install --quiet --disable-pip-version-check "${compile[@]}" -e ".[$extra]"
    else
        .venv/bin/python -m pip install --quiet --disable-pip-version-check "${compile[@]}" -e .
    fi
    echo "$wanted" >"$stamp"
fi
# The translations the pages read (locale/*/LC_MESSAGES/django.mo): built, never committed.
bash scripts/i18n.sh compilemessages >/dev/null
