"""The page's catalogs (web/i18n/*.json) against English and the glossary (docs/glossary.md).

The glossary's format is described at its top: under "## Terms", one "### term"
section per game word with an `English:` pattern and a row per language whose
"checked as" column holds the stems every use of the word must contain; under
"## Stays", one line per value that is deliberately the same as English.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "web" / "i18n").glob("*.json"))}
ENGLISH = CATALOGS["en"]
LANGUAGES = [lang for lang in CATALOGS if lang != "en"]
GLOSSARY = ROOT / "docs" / "glossary.md"
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


@dataclass(frozen=True)
class Term:
    name: str
    english: re.Pattern[str]
    forms: dict[str, tuple[str, ...]]  # language -> the stems checked


def read_glossary(text: str) -> tuple[list[Term], set[tuple[str, str]]]:
    """The terms and the (language, key) pairs that stay as in English."""
    terms_part = text.split("\n## Terms\n", 1)[1].split("\n## Stays\n", 1)[0]
    stays_part = text.split("\n## Stays\n", 1)[1]
    terms = []
    for section in terms_part.split("\n### ")[1:]:
        name = section.splitlines()[0].strip()
        english = re.search(r"^English: `([^`]+)`$", section, re.M)
        assert english, f"{name}: no English pattern"
        forms = {}
        for row in re.findall(r"^\| ([a-z]{2}) \|[^|]*\|([^|]*)\|", section, re.M):
            forms[row[0]] = tuple(re.findall(r"`([^`]+)`", row[1]))
        terms.append(Term(name, re.compile(english.group(1), re.I), forms))
    stays = set(re.findall(r"^- ([a-z]{2}) `([^`]+)`:", stays_part, re.M))
    return terms, stays


TERMS, STAYS = read_glossary(GLOSSARY.read_text(encoding="utf-8"))


def test_the_five_catalogs_are_there() -> None:
    assert sorted(CATALOGS) == ["en", "ko", "mn", "sk", "vi"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_has_exactly_the_english_keys_in_the_english_order(lang: str) -> None:
    assert list(CATALOGS[lang]) == list(ENGLISH)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_keeps_the_placeholders_of_each_english_value(lang: str) -> None:
    catalog = CATALOGS[lang]
    differ = {
        key: (sorted(PLACEHOLDER.findall(value)), sorted(PLACEHOLDER.findall(catalog[key])))
        for key, value in ENGLISH.items()
        if sorted(PLACEHOLDER.findall(value)) != sorted(PLACEHOLDER.findall(catalog[key]))
    }
    assert differ == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_value_equals_its_english_text_only_where_the_glossary_says_it_stays(lang: str) -> None:
    same = {key for key, value in CATALOGS[lang].items() if value == ENGLISH[key]}
    assert same == {key for stays_lang, key in STAYS if stays_lang == lang}


def test_every_term_of_the_glossary_has_a_checked_form_in_every_language() -> None:
    assert [t.name for t in TERMS] == [
        "deadwood",
        "knock",
        "gin",
        "undercut",
        "meld",
        "set",
        "run",
        "layoff",
        "box",
        "captain",
        "sitter",
        "cut",
        "draw",
        "dealer",
        "up-card",
        "boxes",
        "game bonus",
        "shutout",
        "big gin",
        "cutthroat",
    ]
    assert {t.name: sorted(t.forms) for t in TERMS if sorted(t.forms) != sorted(LANGUAGES)} == {}
    assert [(t.name, lang) for t in TERMS for lang, forms in t.forms.items() if not forms] == []


@pytest.mark.parametrize("term", TERMS, ids=[t.name for t in TERMS])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_says_the_glossary_word_wherever_english_says_the_term(lang: str, term: Term) -> None:
    uses = [key for key, value in ENGLISH.items() if term.english.search(value)]
    assert uses, f"no English value says {term.name}"
    forms = [form.casefold() for form in term.forms[lang]]
    missing = {
        key: CATALOGS[lang][key] for key in uses if not any(form in CATALOGS[lang][key].casefold() for form in forms)
    }
    assert missing == {}


def test_the_glossary_reader_finds_the_terms_the_stays_and_each_stem() -> None:
    terms, stays = read_glossary(
        "intro\n## Terms\n\n### deadwood\n\nEnglish: `deadwood`\n\n| language | word | checked as | source |\n"
        "|---|---|---|---|\n| vi | bài rác | `bài rác` or `rác` | a page |\n\n## Stays\n\n- sk `outcome.gin`: why\n"
    )
    found = [(t.name, t.english.pattern, t.forms) for t in terms]
    assert found == [("deadwood", "deadwood", {"vi": ("bài rác", "rác")})]
    assert stays == {("sk", "outcome.gin")}


def test_r7_the_seeds_vietnamese_for_deadwood_is_not_taken() -> None:
    # The seed's "thẻ chưa từng có" means "a card that never existed": the catalog said it before.
    deadwood = next(t for t in TERMS if t.name == "deadwood")
    assert deadwood.forms["vi"] == ("bài rác",)
    assert "thẻ chưa từng có" not in " ".join(CATALOGS["vi"].values()).casefold()
