"""Pickling engines/ objects alike in the pure and the compiled (mypyc) build.

The parallel search sends games, policies and positions to its workers
pickled.  Compiled, two of pickle's defaults fail, so engines/ avoids them:
- a frozen dataclass is rebuilt field by field, which mypyc's ``__setstate__``
  does by assignment and the frozen class refuses: the frozen dataclasses that
  games and search results hold have ``__reduce__`` return ``by_fields(self)``,
  so they come back through their constructors (derived fields computed again
  by ``__post_init__``);
- a compiled class's ``__new__`` runs ``__init__``, which pickle calls without
  arguments: the pickled classes (``Game``, ``Policy`` and their subclasses,
  ``BoardMasks``) are ``serializable``, and each also allows interpreted
  subclasses: mypyc (2.x, mypyc/mypyc#979) skips the ``__init__`` of a
  serializable class that does not, whenever Python makes one.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

D = TypeVar("D", bound="DataclassInstance")


def by_fields(obj: D) -> tuple[type[D], tuple[object, ...]]:
    """``obj``'s class and the values of its constructor's fields, as ``__reduce__`` returns them."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj) if f.init)
