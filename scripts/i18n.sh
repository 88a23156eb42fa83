#!/usr/bin/env bash
# The message catalogues (docs/translating.md).
#
#   bash scripts/i18n.sh makemessages [LANG...]   # refresh locale/LANG/LC_MESSAGES/django.po
#                                                 # from the sources (default: every language
#                                                 # under locale/); needs GNU gettext (xgettext)
#   bash scripts/i18n.sh compilemessages          # build the .mo files the site reads (the
#                                                 # install does it): Django's compilemessages
#                                                 # with GNU msgfmt, scripts/msgfmt.py without
#
# Only the project's own sources are read: not .venv, var/, the docs or the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-.venv/bin/python}"
[ -x "$python" ] || python=python3

ignored=(--ignore=.venv --ignore=var --ignore=docs --ignore=tests --ignore=staticfiles
         --ignore=build --ignore=scripts --ignore="*.egg-info" --ignore=node_modules)

case "${1:-}" in
    makemessages)
        shift
        languages=("$@")
        if [ ${#languages[@]} -eq 0 ]; then
            for dir in locale/*/; do languages+=("$(basename "$dir")"); done
        fi
        command -v xgettext >/dev/null || { echo "makemessages needs GNU gettext: apt-get install gettext" >&2; exit 1; }
        for lang in "${languages[@]}"; do
            mkdir -p "locale/$lang/LC_MESSAGES"
            # --no-location: a moved line changes nothing in the catalogue (smaller diffs);
            # --no-obsolete: a string gone from the sources leaves the catalogue.
            "$python" manage.py makemessages --locale="$lang" --domain=django \
                --no-location --no-obsolete "${ignored[@]}"
        done
        ;;
    compilemessages)
        if command -v msgfmt >/dev/null; then
            "$python" manage.py compilemessages "${ignored[@]}"
        else
            "$python" scripts/msgfmt.py
        fi
        ;;
    *)
        echo "usage: bash scripts/i18n.sh makemessages [LANG...] | compilemessages" >&2
        exit 2
        ;;
esac
