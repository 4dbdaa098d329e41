"""The package's layers keep their arrows pointing one way: web -> services -> rules.

A newcomer can trust the folders: a rules module can be read and tested without Flask or a
database, the service layer runs without Flask, storage knows nothing of the rest, and the
photo reader stands alone. The imports are read from the source, so a lazy import inside a
function counts as much as one at the top.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "referee"

WEB_LIBRARIES = {"flask", "flask_babel", "flask_wtf", "werkzeug", "jinja2", "markupsafe", "qrcode", "gunicorn"}
DATABASE_LIBRARIES = {"sqlalchemy", "sqlmodel", "alembic", "psycopg"}

#: What each layer may not import: third-party libraries by their top-level name, and the
#: package's own layers by their dotted prefix.
FORBIDDEN = {
    "rules": WEB_LIBRARIES | DATABASE_LIBRARIES | {"vision", "referee.services", "referee.storage", "referee.web",
                                                   "referee.app", "referee.cli", "referee.config"},
    "services": WEB_LIBRARIES | {"referee.web", "referee.app", "referee.cli"},
    "storage": WEB_LIBRARIES | {"referee.rules", "referee.services", "referee.web", "referee.app"},
}


def imports_of(path: Path, root: Path = ROOT) -> set:
    """Every module a file imports, as dotted names (relative imports made absolute)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def breaks(name: str, forbidden: set) -> bool:
    return any(name == f or name.startswith(f + ".") for f in forbidden)


def layer_files(layer: str) -> list:
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer):
    files = layer_files(layer)
    assert files, f"referee/{layer}/ holds no modules"
    wrong = {f"{path.relative_to(ROOT)} imports {name}" for path in files for name in imports_of(path)
             if breaks(name, FORBIDDEN[layer])}
    assert not wrong, sorted(wrong)


def test_the_rules_read_and_write_no_files():
    """No I/O in the rules: they open nothing, and import no module that reaches the disk or network."""
    io_modules = {"os", "pathlib", "io", "socket", "subprocess", "shutil", "sqlite3", "urllib", "http", "tempfile"}
    wrong = set()
    for path in layer_files("rules"):
        for name in imports_of(path):
            if breaks(name, io_modules):
                wrong.add(f"{path.relative_to(ROOT)} imports {name}")
        tree = ast.parse(path.read_text())
        if any(isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open" for node in ast.walk(tree)):
            wrong.add(f"{path.relative_to(ROOT)} calls open()")
    assert not wrong, sorted(wrong)


def test_the_web_reaches_storage_only_through_its_request_session():
    """Views hand the request's session to services; they never query tables themselves."""
    wrong = {f"{path.relative_to(ROOT)} imports {name}" for path in layer_files("web") for name in imports_of(path)
             if breaks(name, {"referee.storage"}) or (breaks(name, {"sqlalchemy"}) and not breaks(name, {"sqlalchemy.exc"}))
             or (breaks(name, {"sqlmodel"}) and path.name != "db.py")}
    assert not wrong, sorted(wrong)


def test_vision_stands_alone():
    wrong = {f"{path.relative_to(ROOT)} imports {name}" for path in sorted((ROOT / "vision").rglob("*.py"))
             for name in imports_of(path) if breaks(name, WEB_LIBRARIES | DATABASE_LIBRARIES | {"referee"})}
    assert not wrong, sorted(wrong)


def test_the_walk_sees_an_import_inside_a_function(tmp_path):
    """A rules module that imported Flask lazily, inside a function, would be caught."""
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def later():\n    from flask import request\n    return request\n")
    assert any(breaks(name, FORBIDDEN["rules"]) for name in imports_of(sneaky, root=tmp_path))


def test_no_module_is_over_600_lines():
    modules = sorted(PACKAGE.rglob("*.py")) + sorted((ROOT / "vision").rglob("*.py"))
    long = {f"{path.relative_to(ROOT)}: {n}" for path in modules if (n := len(path.read_text().splitlines())) > 600}
    assert not long, sorted(long)
