"""Submodules reached as attributes on first use (``import tilecraft; tilecraft.baselines.load(...)``)
without importing them with the package: ``import tilecraft`` stays as fast as its eager imports."""
import importlib
import pkgutil
import sys
from types import ModuleType
from typing import Callable, Iterable, List, Tuple


def lazy_submodules(package: str, path: Iterable[str]) -> Tuple[Callable[[str], ModuleType], Callable[[], List[str]]]:
    """A package's module-level ``__getattr__`` and ``__dir__``: a public submodule of ``package``
    (one ``pkgutil`` finds on ``path``, its ``__path__``) is imported when first read as an attribute;
    anything else is the usual AttributeError."""
    def public() -> List[str]:
        return [m.name for m in pkgutil.iter_modules(list(path)) if not m.name.startswith("_")]

    def __getattr__(name: str) -> ModuleType:
        if not name.startswith("_") and name in public():
            return importlib.import_module(f"{package}.{name}")  # binds it on the package too
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> List[str]:
        return sorted(set(vars(sys.modules[package])) | set(public()))

    return __getattr__, __dir__
