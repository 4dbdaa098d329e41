"""The French and Dutch catalogs: complete, placeholder-safe, and actually served.

When someone adds a string, `referee translate update` puts the new msgid in messages.pot and in
both catalogs with an empty msgstr; the first test then lists exactly which msgids still need a
translation, per language.
"""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

TRANSLATIONS = Path(__file__).resolve().parents[2] / "referee" / "web" / "translations"
LANGUAGES = ("fr", "nl")

# A printf-style conversion with an optional mapping key: %(name)s, %(n)d, %(percent).1f, %%.
PLACEHOLDER = re.compile(r"%(?:\((?P<name>[^)]*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[diouxXeEfFgGcrsa%]")
# A str.format field such as {name} or {0!r:>4}; JSON examples like {"pips": N} are not fields.
BRACES = re.compile(r"\{\w*(?:![rsa])?(?::[^{}]*)?\}")


def _read(path):
    with open(path, "rb") as f:
        return read_po(f)


def _key(message):
    return message.id[0] if message.pluralizable else message.id


def _forms(message):
    if message.pluralizable:
        return list(message.string or ())
    return [message.string]


def _placeholders(text):
    return {m.group(0) for m in PLACEHOLDER.finditer(text or "") if m.group(0) != "%%"}


def _dummy_args(text):
    """Arguments that make a %-format of `text` succeed, built from its placeholders."""
    args = {}
    for m in PLACEHOLDER.finditer(text):
        if m.group("name") is not None:
            args[m.group("name")] = "x" if m.group(0)[-1] in "rsa" else 1
    return args


@pytest.fixture(scope="module")
def template():
    return _read(TRANSLATIONS / "messages.pot")


@pytest.fixture(scope="module", params=LANGUAGES)
def catalog(request):
    return request.param, _read(TRANSLATIONS / request.param / "LC_MESSAGES" / "messages.po")


def test_every_msgid_is_translated(template, catalog):
    lang, cat = catalog
    assert not cat.fuzzy, f"{lang}: the catalog header is still marked fuzzy"
    wanted = [_key(m) for m in template if m.id]
    by_key = {_key(m): m for m in cat if m.id}
    missing = [k for k in wanted if k not in by_key]
    untranslated = [k for k in wanted if k in by_key
                    and (not all(f and f.strip() for f in _forms(by_key[k]))
                         or (by_key[k].pluralizable and len(_forms(by_key[k])) != cat.num_plurals))]
    fuzzy = [k for k in wanted if k in by_key and by_key[k].fuzzy]
    problems = []
    if missing:
        problems.append(f"{len(missing)} msgid(s) of messages.pot absent from {lang} "
                        "(run `referee translate update`):\n  " + "\n  ".join(map(repr, missing)))
    if untranslated:
        problems.append(f"{len(untranslated)} msgid(s) without a {lang} translation "
                        "(empty msgstr or plural form):\n  " + "\n  ".join(map(repr, untranslated)))
    if fuzzy:
        problems.append(f"{len(fuzzy)} fuzzy {lang} translation(s) to review:\n  " + "\n  ".join(map(repr, fuzzy)))
    assert not problems, "\n".join(problems)


def test_translations_keep_the_placeholders(catalog):
    lang, cat = catalog
    wrong = []
    for m in cat:
        if not m.id:
            continue
        ids = list(m.id) if m.pluralizable else [m.id]
        for i, form in enumerate(_forms(m)):
            if not form:
                continue  # reported by the completeness test
            source = ids[min(i, len(ids) - 1)]
            # a singular form may follow either the singular or the plural msgid
            expected = [_placeholders(s) for s in ids] if i == 0 else [_placeholders(source)]
            if _placeholders(form) not in expected:
                wrong.append(f"{source!r} -> {form!r}: {sorted(_placeholders(form))} "
                             f"instead of {sorted(expected[-1])}")
            if "python-format" in m.flags:
                try:
                    form % _dummy_args(source)
                except (KeyError, ValueError, TypeError) as err:
                    wrong.append(f"{source!r} -> {form!r}: does not format ({err!r})")
            if "python-brace-format" in m.flags and sorted(BRACES.findall(form)) != sorted(BRACES.findall(source)):
                wrong.append(f"{source!r} -> {form!r}: the {{...}} parts differ")
    assert not wrong, f"{lang}: placeholders changed in {len(wrong)} translation(s):\n  " + "\n  ".join(wrong)


@pytest.mark.parametrize("lang, shown, english", [
    ("fr", "Parties en cours", "Games in progress"),
    ("nl", "Lopende partijen", "Games in progress"),
])
def test_home_page_follows_accept_language(client, lang, shown, english):
    page = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
    assert shown in page
    assert english not in page


def test_core_error_comes_back_in_dutch(client):
    response = client.post("/api/games", json={"players": ["Ann"]}, headers={"Accept-Language": "nl"})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert "spelers nodig" in error and "players" not in error, error


#: The one word each language gives a double's toe, on every page alike.
TOE = {"fr": re.compile(r"\bdoigts?\b", re.I), "nl": re.compile(r"\bte(?:en|nen)\b", re.I)}


def test_a_toe_has_one_name_in_each_language(catalog):
    """The caption under a table photo, the desk's steps and the rulings all name a toe
    with the same word, so a player never wonders whether two words mean two things."""
    lang, cat = catalog
    other = []
    for m in cat:
        ids = " ".join(m.id) if m.pluralizable else (m.id or "")
        if re.search(r"\btoes?\b", ids, re.I) and not all(TOE[lang].search(f) for f in _forms(m) if f):
            other.append(f"{ids!r} -> {_forms(m)!r}")
    assert not other, "\n".join(other)
