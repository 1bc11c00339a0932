"""The opt-in compiled build stays opt-in, and its module list follows the code."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_setup(monkeypatch, compile_flag: str | None):
    if compile_flag is None:
        monkeypatch.delenv("CONTENTEX_COMPILE", raising=False)
    else:
        monkeypatch.setenv("CONTENTEX_COMPILE", compile_flag)
    spec = importlib.util.spec_from_file_location("contentex_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_default_build_is_pure_python(monkeypatch):
    for flag in (None, "0", ""):
        assert load_setup(monkeypatch, flag).ext_modules() == []


def test_compiled_modules_exist_and_are_core(monkeypatch):
    setup = load_setup(monkeypatch, None)
    assert setup.COMPILED
    for path in setup.COMPILED:
        assert (ROOT / path).is_file(), path
        # the core has no Scrapy import; compiled code must not pull Scrapy in either
        assert path.startswith("scrapy_contentex/core/"), path
    assert set(setup.MYPYC_SKIPS) <= set(setup.COMPILED)


def test_unknown_compiler_is_a_clear_error(monkeypatch):
    setup = load_setup(monkeypatch, "1")
    with pytest.raises(SystemExit, match="mypyc, cython or 0"):
        setup.ext_modules()
