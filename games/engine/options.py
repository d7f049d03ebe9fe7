"""Table rules (room options) of every game, checked one way."""

from __future__ import annotations

from .errors import IllegalAction


def validate(options: dict, rules) -> dict:
    """``rules`` with every option of ``options`` filled in (defaults for the
    missing ones); an unknown option or a value outside its choices is
    refused with ``IllegalAction("bad_rules")``."""
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise IllegalAction("bad_rules", "Table rules must be a dict.")
    unknown = sorted(set(rules) - set(options))
    if unknown:
        raise IllegalAction("bad_rules", f"Unknown table rules: {unknown}.")
    out = {}
    for key, spec in options.items():
        value = rules.get(key, spec["default"])
        # `1 == True` in Python: compare the types too.
        if not any(type(value) is type(choice) and value == choice for choice in spec["choices"]):
            raise IllegalAction("bad_rules", f"Table rule {key!r} cannot be {value!r}.")
        out[key] = value
    return out
