"""Texts with a number in them take the form that goes with the number in each language (``ngettext``): French
says "1 instance", "2 instances" (its singular covers 0 and 1), Chinese has one form; the catalogue check counts a
plural entry missing one of its forms as untranslated."""

from __future__ import annotations

from babel.messages.catalog import Catalog

from bot.i18n import ngettext, speaking, tools

ONE = "Players: {count}. Each is compared with the players of the same instance of the boards ({instances} instance)."
MANY = "Players: {count}. Each is compared with the players of the same instance of the boards ({instances} instances)."


def said(lang: str, n: int) -> str:
    with speaking(lang):
        return ngettext(ONE, MANY, n, count=4, instances=n)


def test_each_language_takes_the_form_for_the_number():
    assert said("en", 1).endswith("(1 instance).") and said("en", 2).endswith("(2 instances).")
    assert said("fr", 1).endswith("(1 instance).") and said("fr", 0).endswith("(0 instance).")
    assert said("fr", 3).endswith("(3 instances).") and said("fr", 1).startswith("Joueurs : 4.")
    assert "共 1 个副本" in said("zh", 1)
    assert "共 5 个副本" in said("zh", 5)
    assert said("pseudo", 2).startswith("⟦") and "2" in said("pseudo", 2)


def test_a_plural_entry_missing_a_form_is_not_translated(tmp_path, monkeypatch):
    template = Catalog(domain="cardtable")
    template.add((ONE, MANY))
    french = Catalog(locale="fr", domain="cardtable")
    french.add((ONE, MANY), string=("Joueurs : {count} ({instances} instance).", ""))
    monkeypatch.setattr(tools, "translated_languages", lambda: ["fr"])
    monkeypatch.setattr(tools, "po_path", lambda lang: tmp_path / "fr.po")
    monkeypatch.setattr(tools, "ROOT", tmp_path)
    tools._write_po(french, tmp_path / "fr.po")
    assert any("is not translated" in line for line in tools.problems(template))
