"""Warsaw's C++ members carry the names they are saved under (issue 20, item 4): in every
`visit`, `v.field("NAME", MEMBER)` has MEMBER == NAME + "_" in the State class (private members) and
MEMBER == NAME in the Config struct (public members); a member's own part (`rng_.s`, the words of
the generator `rng_`) counts as the member. The saved names themselves are the format and
are read back from a real saved state, so the check also fails if a field is saved but not parsed."""
from __future__ import annotations

import json
import pathlib
import re
from typing import Dict, List, Tuple

import tilecraft

HEADERS = pathlib.Path(__file__).resolve().parents[2] / "cpp" / "warsaw"
FIELD = re.compile(r'\bv\.field\(\s*"(\w+)"\s*,\s*([\w.]+)\s*\)')
TYPE = re.compile(r"\b(class|struct)\s+(\w+)\s*(?::[^{;]*)?\{")


def _bodies(text: str) -> List[Tuple[str, int, int]]:
    """(name, start, end) of each class or struct body: from its '{' to the matching '}'."""
    out = []
    for t in TYPE.finditer(text):
        depth, i = 0, t.end() - 1
        while True:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        out.append((t.group(2), t.end() - 1, i))
    return out


def _fields() -> Dict[str, List[Tuple[str, str, str]]]:
    """{type name: [(saved name, member, file)]} for every field() call, by its innermost enclosing type."""
    found: Dict[str, List[Tuple[str, str, str]]] = {}
    for path in sorted(HEADERS.glob("*.hpp")):
        text = path.read_text()
        bodies = _bodies(text)
        for m in FIELD.finditer(text):
            owners = [(start, name) for name, start, end in bodies if start < m.start() < end]
            assert owners, f"{path.name}: field({m.group(1)!r}) outside any class or struct"
            found.setdefault(max(owners)[1], []).append((m.group(1), m.group(2), path.name))
    return found


def test_field_calls_are_found_for_state_and_config():
    found = _fields()
    assert sorted(found) == ["Config", "State"], f"visit() found in {sorted(found)}"
    saved = json.loads(tilecraft.make("warsaw").to_json())
    # every saved key is one parsed field() call, in order: the parser sees all of them
    assert [name for name, _, _ in found["State"]] == list(saved["state"])
    assert [name for name, _, _ in found["Config"]] == list(saved["config"])


def test_state_members_are_the_saved_names_with_a_trailing_underscore():
    wrong = [f"{f}: field({name!r}, {member}) should use member {name}_"
             for name, member, f in _fields()["State"] if member.split(".")[0] != name + "_"]
    assert not wrong, "\n".join(wrong)


def test_config_members_are_the_saved_names():
    wrong = [f"{f}: field({name!r}, {member}) should use member {name}"
             for name, member, f in _fields()["Config"] if member.split(".")[0] != name]
    assert not wrong, "\n".join(wrong)
