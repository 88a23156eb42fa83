"""French, and any language after it (issue 28 §4): the catalogue is complete and up to
date with the sources, the install's pure-Python compiler writes what gettext reads, and
a page asked for in French (by the browser's Accept-Language or the footer's switch) is
in French, numbers and words included."""

from __future__ import annotations

import gettext
import importlib.util
import re
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from league.figures import rounded
from tests.support.catalogue import placeholders, read_po
from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup
from web.refusals import refusal
from web.templatetags.numbers import figure
from web.templatetags.site import card_label
from web.words import describe, game_status_text

ROOT = Path(settings.BASE_DIR)
# What makemessages reads (scripts/i18n.sh ignores the rest: .venv, var, docs, tests, …).
SOURCES = ("api", "config", "core", "engine", "games", "league", "web", "templates")
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


@pytest.fixture(autouse=True)
def english_around() -> Iterator[None]:
    """Each test starts and leaves in the default language: a French request or a
    management command leaves its language active in the thread."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


def catalogue(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


def msgfmt_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("msgfmt", ROOT / "scripts" / "msgfmt.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the catalogue ---------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_has_a_translation_neither_empty_nor_fuzzy(language: str) -> None:
    entries = read_po(catalogue(language))
    assert len(entries) > 900  # the whole site, not a sample
    untranslated = [str(e) for e in entries if not all(e.msgstr)]
    fuzzy = [str(e) for e in entries if e.fuzzy]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders_of_its_message(language: str) -> None:
    wrong = []
    for entry in read_po(catalogue(language)):
        wanted = placeholders(entry.msgid) | placeholders(entry.msgid_plural or "")
        for form, text in enumerate(entry.msgstr):
            # a plural's singular may say "a day" where the plural says "%(days)s days"
            needed = placeholders(entry.msgid if form == 0 else entry.msgid_plural or "")
            if not needed <= placeholders(text) <= wanted:
                wrong.append(f"{entry}: {text!r}")
    assert wrong == []


def test_the_catalogue_is_up_to_date_with_the_sources(tmp_path: Path, monkeypatch: Any) -> None:
    """makemessages, run into a scratch folder, finds no message the committed catalogue
    lacks, and the catalogue keeps none the sources no longer have (refresh it with
    ``bash scripts/i18n.sh makemessages``)."""
    if shutil.which("xgettext") is None:
        pytest.fail("makemessages needs GNU gettext's xgettext: apt-get install gettext")
    # The sources, linked into a scratch folder with a locale folder of its own: the
    # committed catalogue is never written.
    for source in SOURCES:
        (tmp_path / source).symlink_to(ROOT / source)
    (tmp_path / "locale").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(settings, "LOCALE_PATHS", [tmp_path / "locale"])
    call_command("makemessages", locale=["fr"], symlinks=True, no_location=True, verbosity=0)
    fresh = {e.key for e in read_po(tmp_path / "locale" / "fr" / "LC_MESSAGES" / "django.po")}
    for language in LANGUAGES:
        committed = {e.key for e in read_po(catalogue(language))}
        assert sorted(map(str, fresh - committed)) == [], f"{language}: messages not in the catalogue"
        assert sorted(map(str, committed - fresh)) == [], f"{language}: messages no source has"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pure_python_compiler_writes_what_gettext_reads(language: str, tmp_path: Path) -> None:
    msgfmt = msgfmt_script()
    po = tmp_path / "django.po"
    po.write_bytes(catalogue(language).read_bytes())
    compiled = gettext.GNUTranslations(msgfmt.compile_catalogue(po).open("rb"))
    assert compiled.info()["plural-forms"] == "nplurals=2; plural=(n > 1);"
    for entry in read_po(catalogue(language)):
        if entry.msgid_plural is not None:
            assert [
                compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
                if entry.msgctxt
                else compiled.ngettext(entry.msgid, entry.msgid_plural, n)
                for n in (1, 2)
            ] == entry.msgstr
        elif entry.msgctxt:
            assert compiled.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr[0]
        else:
            assert compiled.gettext(entry.msgid) == entry.msgstr[0]


def test_the_compiler_leaves_out_fuzzy_and_empty_entries(tmp_path: Path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr "Language: fr\\n"\n\n#, fuzzy\nmsgid "Hand"\nmsgstr "Main"\n\n'
        'msgid "Table"\nmsgstr ""\n\nmsgctxt "pile"\nmsgid "empty"\nmsgstr "vide"\n',
        encoding="utf-8",
    )
    compiled = gettext.GNUTranslations(msgfmt_script().compile_catalogue(po).open("rb"))
    assert (compiled.gettext("Hand"), compiled.gettext("Table")) == ("Hand", "Table")
    assert compiled.pgettext("pile", "empty") == "vide"


# --- the words -------------------------------------------------------------------------


def test_moves_cards_and_refusals_in_french() -> None:
    names = ["Ann", "Bo"]
    with translation.override("fr"):
        assert describe({"type": "CardDiscarded", "data": {"seat": 1, "card": "QS"}}, names) == (
            "Bo a défaussé Q♠."
        )
        assert describe({"type": "Knocked", "data": {"seat": 0, "card": "5C", "lay_down": False}}, names) == (
            "Ann a frappé en défaussant 5♣ face cachée."
        )
        assert describe(
            {"type": "CardDrawn", "data": {"seat": 0, "source": "stock", "card": None}}, names
        ) == ("Ann a pioché.")
        assert card_label("QH") == "dame de cœur"
        assert card_label("X1") == "joker"
        assert game_status_text("awaiting_deal") == "entre deux donnes"
        from core import DomainError

        said = refusal(DomainError("not_your_turn", "english", params={"seat": 1, "to_move": 0}), names)
        assert said.title == "C'est au tour d'un autre joueur."
    # and English is untouched
    with translation.override("en"):
        assert describe({"type": "CardDiscarded", "data": {"seat": 1, "card": "QS"}}, names) == (
            "Bo discarded Q♠."
        )


def test_a_decimal_is_written_with_the_readers_separator() -> None:
    with translation.override("fr"):
        assert str(figure(rounded(Fraction(249, 5)))) == "49,8"
    with translation.override("en"):
        assert str(figure(rounded(Fraction(249, 5)))) == "49.8"


# --- the pages -------------------------------------------------------------------------


@pytest.fixture
def cup(owner: Any, django_capture_on_commit_callbacks: Any) -> Iterator[Cup]:
    # The outbox's tasks (the standings refresh that lists the corrections) run after each
    # commit, eagerly: with a broker (CI) they would wait for a worker
    with eager_tasks():
        with django_capture_on_commit_callbacks(execute=True):
            made = autumn_cup(owner)
        yield made


def test_a_page_asked_for_in_french_by_the_browser_is_in_french(cup: Cup) -> None:
    page = Client().get(f"/tournaments/{cup.tournament.pk}/", HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    html = page.content.decode()
    assert page.status_code == 200
    assert page["Content-Language"] == "fr"
    assert '<html lang="fr">' in html
    for french in ("Classement", "Rondes et tables", "Corrections", "Ronde 2", "Table 1", "Exempt\u00a0: Bo"):
        assert french in html, french
    for english in (">Standings<", "Rounds and tables", ">Seat<", "No round has been published"):
        assert english not in html, english
    assert "selected>Français</option>" in html  # the footer's switch says which
    # the correction's time, day first (config/formats/fr)
    assert re.search(r'<time datetime="[^"]+">\d\d/\d\d/\d{4} \d\d:\d\d</time>', html)


def test_english_stays_the_default(cup: Cup) -> None:
    html = Client().get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    assert '<html lang="en">' in html
    assert "Rounds and tables" in html and "Rondes et tables" not in html
    assert re.search(r'<time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d</time>', html)


def test_the_footer_switch_chooses_french_and_it_is_remembered(cup: Cup) -> None:
    client = Client()
    home = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in home and 'name="language"' in home
    switched = client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert (switched.status_code, switched["Location"]) == (302, "/")
    assert switched.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    # no Accept-Language: the cookie alone says French, page after page
    for path in ("/", f"/tournaments/{cup.tournament.pk}/", f"/players/{cup.ann.pk}/"):
        html = client.get(path).content.decode()
        assert '<html lang="fr">' in html, path
    assert "Tournois en cours" in client.get("/").content.decode()
    # and back
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Running tournaments" in client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()


def test_an_unknown_language_changes_nothing(cup: Cup) -> None:
    client = Client()
    answer = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert answer.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies
    assert '<html lang="en">' in client.get("/").content.decode()


def test_the_error_pages_speak_french(db: None) -> None:
    missing = Client().get("/tournaments/999999/", HTTP_ACCEPT_LANGUAGE="fr")
    assert missing.status_code == 404
    assert "Introuvable" in missing.content.decode()


def test_a_poll_in_another_language_is_another_version(cup: Cup) -> None:
    """The live part's ETag names its language: after the switch, a poll carrying the
    English part's ETag gets the French part, never a 304 that keeps the English."""
    url = f"/tournaments/{cup.tournament.pk}/live/"
    english = Client().get(url, headers={"HX-Request": "true"})
    french = Client().get(url, headers={"HX-Request": "true", "Accept-Language": "fr"})
    assert english["ETag"] != french["ETag"]
    again = Client().get(
        url, headers={"HX-Request": "true", "Accept-Language": "fr", "If-None-Match": english["ETag"]}
    )
    assert again.status_code == 200
    assert "Rondes et tables" in again.content.decode()
    unchanged = Client().get(
        url, headers={"HX-Request": "true", "Accept-Language": "fr", "If-None-Match": french["ETag"]}
    )
    assert unchanged.status_code == 304
