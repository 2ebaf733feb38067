"""The package's configuration (setup.cfg) against its sources: every third-party module
imported is a declared dependency, and every data file ships."""

from __future__ import annotations

import ast
import configparser
import re
import sys
from fnmatch import fnmatch
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scrapy_webclean"

#: Import names whose distribution is named otherwise, for modules not installed here.
DISTRIBUTIONS = {"yaml": "PyYAML", "PIL": "Pillow", "sklearn": "scikit-learn"}


def _config() -> configparser.ConfigParser:
    config = configparser.ConfigParser(interpolation=None)
    config.read(ROOT / "setup.cfg", encoding="utf-8")
    return config


def _lines(value: str) -> list[str]:
    return [line.strip() for line in value.splitlines() if line.strip()]


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(line: str) -> str:
    found = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", line)
    assert found, line
    return _normalise(found.group(0))


def _imported_modules() -> dict[str, set[str]]:
    """Each top-level module imported by the package (absolute imports, TYPE_CHECKING ones
    too), with the files that import it; the standard library and the package left out."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top == PACKAGE.name:
                    continue
                found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_imported_module_is_a_declared_dependency() -> None:
    config = _config()
    declared = {_requirement_name(line) for line in _lines(config["options"]["install_requires"])}
    for extra in config["options.extras_require"].values():
        declared |= {_requirement_name(line) for line in _lines(extra)}
    installed = packages_distributions()
    modules = _imported_modules()
    assert {"numpy", "scrapy", "lxml"} <= set(modules)  # the parse finds imports
    missing = {}
    for module, files in modules.items():
        names = installed.get(module) or [DISTRIBUTIONS.get(module, module)]
        if not {_normalise(name) for name in names} & declared:
            missing[module] = sorted(files)
    assert not missing, f"imported but not declared in setup.cfg: {missing}"


def test_the_core_dependencies_are_not_extras() -> None:
    """numpy and the rest of what the cleaner imports unconditionally are install_requires."""
    config = _config()
    required = {_requirement_name(line) for line in _lines(config["options"]["install_requires"])}
    assert {"numpy", "scrapy", "twisted", "tldextract", "w3lib", "itemadapter"} <= required


def _package_dir(package: str) -> Path:
    return ROOT.joinpath(*package.split("."))


def test_every_data_file_ships() -> None:
    """Each file under the package that is not Python is package data of a package found by
    ``[options.packages.find]`` (a data folder is a namespace package of its own, so
    setuptools does not warn that it is absent from the packages configuration)."""
    from setuptools import find_namespace_packages

    config = _config()
    assert config["options"]["packages"].strip() == "find_namespace:"
    find = config["options.packages.find"]
    packages = set(
        find_namespace_packages(
            str(ROOT),
            include=_lines(find.get("include", "*")),
            exclude=_lines(find.get("exclude", "")),
        )
    )
    patterns = {package: _lines(value) for package, value in config["options.package_data"].items()}
    data_files = [
        path
        for path in sorted(PACKAGE.rglob("*"))
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    ]
    assert any(path.parent.name == "data" for path in data_files)
    unshipped = []
    for path in data_files:
        package = ".".join(path.parent.relative_to(ROOT).parts)
        if package not in packages or not any(
            fnmatch(path.name, pattern) for pattern in patterns.get(package, [])
        ):
            unshipped.append(str(path.relative_to(ROOT)))
    assert not unshipped, f"not package data in setup.cfg: {unshipped}"
    assert not any("__pycache__" in package for package in packages)
    for package in packages:
        assert _package_dir(package).is_dir()
