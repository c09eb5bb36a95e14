"""Every text meant for users is marked for translation (issue 17, docs/I18N.md).

Three readers, one per kind of source, each flagging English words a user would read
that do not pass through the catalogue:

- templates: text between tags and the title/alt/placeholder/aria-label attributes,
  outside {% translate %}/{% blocktranslate %};
- Python: string literals where the site hands words to users (ValidationError,
  the messages framework, form and model labels, choice labels, refusals);
- page scripts: string literals written into the page (textContent, title,
  aria-label, placeholder, notifications, document.title).

Names and notation are allowed (ALLOWED). A line that really is not for users (a
selector, a key, a log) is not flagged by these readers in the first place; where one
is, mark it with the comment ``i18n: not for users`` on that line.
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.base import Lexer, TokenType

from tests.support.i18n import ALLOWED, WORD

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "analysis", "api", "chat", "games", "learn", "puzzles", "ratings")
APPS += ("tournaments", "topiary_site", "kit")
EXEMPT = "i18n: not for users"
CHECKED_ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description"}


def english_words(text: str) -> list[str]:
    """Words in the text that a translation would have to change."""
    text = re.sub(r"&[a-z]+;|&#\d+;", " ", text)
    return [
        word
        for word in WORD.findall(text)
        if word not in ALLOWED and not re.fullmatch(r"[a-h]?[A-Z]?[a-z]?\d*", word)
    ]


# --------------------------------------------------------------------------- templates


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.found: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in CHECKED_ATTRIBUTES and value and english_words(value):
                self.found.append(f'{name}="{value.strip()}"')
        if tag == "input" and dict(attrs).get("type") in ("submit", "button"):
            value = dict(attrs).get("value") or ""
            if english_words(value):
                self.found.append(f'value="{value}"')

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)

    def handle_data(self, data):
        if not self.skip and english_words(data):
            self.found.append(" ".join(data.replace("\x01", " ").split()))


def template_untranslated(source: str) -> list[str]:
    """Text of a template that reaches the page without passing through a translation."""
    pieces: list[str] = []
    hidden = 0  # inside {% blocktranslate %} or {% comment %}
    for token in Lexer(source).tokenize():
        words = token.contents.split()
        command = words[0] if words and token.token_type == TokenType.BLOCK else ""
        if command in ("blocktranslate", "blocktrans", "comment"):
            hidden += 1
        elif command in ("endblocktranslate", "endblocktrans", "endcomment"):
            hidden -= 1
        elif token.token_type == TokenType.TEXT and not hidden:
            pieces.append(token.contents)
        elif token.token_type in (TokenType.VAR, TokenType.BLOCK):
            # Stands in for the tag's output: no letters, and it keeps HTML well formed.
            pieces.append("\x01")
    parser = _Text()
    parser.feed("".join(pieces))
    parser.close()
    return [text for text in parser.found if EXEMPT not in text]


def templates() -> list[Path]:
    return sorted(
        path
        for path in (ROOT / "templates").rglob("*")
        if path.suffix in (".html", ".txt") and path.is_file()
    )


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_template_text_is_marked(path):
    assert not template_untranslated(path.read_text(encoding="utf-8")), (
        "wrap in {% translate %} / {% blocktranslate %}"
    )


def test_the_template_reader_finds_unmarked_text():
    found = template_untranslated(
        '{% load i18n %}<p title="Your move">{% translate "Fine" %} Not fine</p>'
        '{% blocktranslate %}Also fine{% endblocktranslate %}<script>const a = "x y";</script>'
        "<option{% if x %} selected{% endif %}>{{ name }}</option>"
    )
    assert found == ['title="Your move"', "Not fine"]


# --------------------------------------------------------------------------- Python

#: Keyword arguments whose string a user reads.
LABEL_KEYWORDS = {"label", "help_text", "verbose_name", "verbose_name_plural", "empty_label"}
#: Calls whose first argument a user reads.
USER_CALLS = {
    "ValidationError",
    "HttpResponseBadRequest",
    "HttpResponseForbidden",
    "PermissionDenied",
}
MESSAGE_LEVELS = {"debug", "info", "success", "warning", "error", "add_message"}
TRANSLATORS = {
    "_",
    "gettext",
    "gettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "gettext_noop",
    "format_lazy",
}


def _literal_words(node: ast.AST) -> str | None:
    """The English text of a bare string literal (or f-string), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(part.value for part in node.values if isinstance(part, ast.Constant))
    else:
        return None
    sentence = " " in text.strip() or text[:1].isupper()
    return text if sentence and english_words(text) else None


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def python_untranslated(source: str) -> list[str]:
    tree = ast.parse(source)
    lines = source.splitlines()
    found = []

    def flag(node, text):
        line = lines[node.lineno - 1] if node.lineno <= len(lines) else ""
        if EXEMPT not in line:
            found.append(f"{node.lineno}: {text!r}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in TRANSLATORS:
                continue
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            user_call = name in USER_CALLS or (
                name in MESSAGE_LEVELS and _name(owner) == "messages"
            )
            if user_call:
                for arg in node.args[: 2 if name in MESSAGE_LEVELS else 1]:
                    candidates = [arg]
                    if isinstance(arg, ast.Dict):
                        candidates = list(arg.values)
                    for candidate in candidates:
                        if isinstance(candidate, ast.List):
                            candidates += candidate.elts
                            continue
                        text = _literal_words(candidate)
                        if text:
                            flag(candidate, text)
            for keyword in node.keywords:
                if keyword.arg in LABEL_KEYWORDS:
                    text = _literal_words(keyword.value)
                    if text:
                        flag(keyword.value, text)
        elif isinstance(node, ast.ClassDef) and any(
            _name(base) in ("TextChoices", "IntegerChoices", "Choices") for base in node.bases
        ):
            for statement in node.body:
                if isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Tuple):
                    label = statement.value.elts[-1]
                    text = _literal_words(label)
                    if text and len(statement.value.elts) > 1:
                        flag(label, text)
    return sorted(found, key=lambda item: int(item.split(":")[0]))


def python_modules() -> list[Path]:
    modules = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or path.name in ("settings.py", "admin.py"):
                continue
            if "management" in path.parts:  # commands speak to operators, in English
                continue
            modules.append(path)
    return modules


@pytest.mark.parametrize("path", python_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_python_texts_for_users_are_marked(path):
    assert not python_untranslated(path.read_text(encoding="utf-8")), (
        "wrap in gettext / gettext_lazy / ngettext"
    )


def test_the_python_reader_finds_unmarked_text():
    found = python_untranslated(
        "from django.utils.translation import gettext as _\n"
        "raise ValidationError('That name is taken.')\n"
        "raise ValidationError(_('That name is fine.'))\n"
        "messages.success(request, 'Saved.')\n"
        "name = forms.CharField(label='Your name')\n"
        "class Theme(models.TextChoices):\n"
        "    DARK = 'dark', 'Dark'\n"
    )
    assert [line.split(":")[0] for line in found] == ["2", "4", "5", "7"]


# --------------------------------------------------------------------------- scripts

#: A string literal being written into the page: the assignment or call that takes it.
WRITES = re.compile(
    r"""(?:\.(?:textContent|innerText|title|placeholder|ariaLabel)\s*=|"""
    r"""setAttribute\(\s*["'](?:title|aria-label|placeholder|alt)["']\s*,|"""
    r"""document\.title\s*=|new\s+Notification\(|\b(?:alert|confirm)\()"""
    r"""\s*(?P<rest>[^;\n]*)"""
)
LITERAL = re.compile(r"""(?P<q>["'`])(?P<text>(?:\\.|(?!(?P=q)).)*)(?P=q)""")


def script_untranslated(source: str) -> list[str]:
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        if EXEMPT in line or line.strip().startswith("//"):
            continue
        for write in WRITES.finditer(line):
            rest = write.group("rest")
            # Literals inside gettext(...) calls are translated: drop those calls first.
            rest = re.sub(r"\b(?:n|p)?gettext\((?:[^()]|\([^()]*\))*\)", "", rest)
            # A call that goes on past the line: what follows is its arguments.
            rest = re.split(r"\b(?:n|p)?gettext\(", rest)[0]
            for literal in LITERAL.finditer(rest):
                text = re.sub(r"\$\{[^}]*(?:\}|$)", " ", literal.group("text")).strip()
                # A sentence has a space or a capital; a lone lowercase word is a key.
                sentence = " " in text or text[:1].isupper()
                if sentence and english_words(text):
                    found.append(f"{number}: {literal.group(0)}")
    return found


def scripts() -> list[Path]:
    return sorted((ROOT / "static").rglob("*.js"))


@pytest.mark.parametrize("path", scripts(), ids=lambda p: str(p.relative_to(ROOT / "static")))
def test_script_texts_for_users_are_marked(path):
    assert not script_untranslated(path.read_text(encoding="utf-8")), (
        "wrap in gettext / ngettext / interpolate"
    )


def test_the_script_reader_finds_unmarked_text():
    found = script_untranslated(
        'status.textContent = "Your turn";\n'
        'status.textContent = gettext("Your turn");\n'
        "el.setAttribute('aria-label', `Tile ${name}`);\n"
        'button.title = ok ? gettext("Take") : "Wait";\n'
        "el.textContent = `${a} ${b}`;\n"
    )
    assert [line.split(":")[0] for line in found] == ["1", "3", "4"]
