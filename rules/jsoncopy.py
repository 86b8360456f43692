"""A copy of plain JSON data (dicts, lists, strings, numbers, booleans, None), for states and
events: ``copy.deepcopy`` walks the same trees several times slower, keeping a memo for shared
and cyclic references that JSON data never has. A game's ``play`` copies its state at every step,
and the AI's search plays thousands of steps a decision, so the copy is much of their time."""

from __future__ import annotations

import copy
from typing import Any, TypeVar

T = TypeVar("T")

#: Values that cannot change: shared by the copy as they are.
_IMMUTABLE = frozenset({str, int, float, bool, type(None)})


def json_copy(value: T) -> T:
    """A copy of ``value`` sharing nothing mutable with it. Dicts, lists and tuples are copied
    level by level; anything else that is not an immutable scalar (a set, an object) goes to
    ``copy.deepcopy``, so no data is shared by mistake."""
    return _copy(value)


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {
            key: item if type(item) in _IMMUTABLE else _copy(item) for key, item in value.items()
        }
    if kind is list:
        return [item if type(item) in _IMMUTABLE else _copy(item) for item in value]
    if kind in _IMMUTABLE:
        return value
    if kind is tuple:
        return tuple(item if type(item) in _IMMUTABLE else _copy(item) for item in value)
    return copy.deepcopy(value)
