"""Every Python block of README.md and docs/**/*.md runs as written (issue 45: the first example of
docs/learning.md, now docs/search.md, had broken unnoticed), so a docs example cannot break without a test failing.

How the blocks run: each page's ```python blocks run in order in one namespace, as a reader runs
the page top to bottom, in a fresh interpreter whose working folder is an empty temporary folder
(files an example writes land there). Each block is its own test, named ``page:line`` (the line of
its opening fence).

Marking a block: an HTML comment on the line just before its fence (invisible on the rendered page)

- ``<!-- skip-example: reason -->``: not run (it needs the reader's own files, a cluster, ...);
  reported as skipped with the reason.
- ``<!-- slow-example: reason -->``: run only by ``pytest -m slow`` (CI runs both); the page's other
  blocks run without it in plain ``pytest``, so a block that uses its results is marked slow too.

To keep plain ``pytest`` quick, a few budgets are made smaller in the text that runs (SMALLER below:
each call still runs as written, with fewer games or iterations); each replacement must match its
block's text, so that a changed example cannot quietly escape it.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import textwrap
from typing import Dict, List, NamedTuple, Optional, Tuple

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = ([ROOT / "README.md"] if (ROOT / "README.md").exists() else []) + sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^```python[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
MARK = re.compile(r"^<!--\s*(skip|slow)-example:\s*(.+?)\s*-->\s*$")

# page -> (text in a block, what runs instead): the budgets plain `pytest` shrinks.
SMALLER: Dict[str, List[Tuple[str, str]]] = {
    "README.md": [("iterations=1000", "iterations=100"), ("games_per_pairing=20", "games_per_pairing=2"),
                  ("mcts:iterations=400", "mcts:iterations=40")],
    "docs/engine.md": [("100_000", "2_000")],
    "docs/bots.md": [("mcts:iterations=400", "mcts:iterations=40")],
    "docs/search.md": [("mcts:iterations=1000", "mcts:iterations=50"), ("MCTSBot(iterations=1000", "MCTSBot(iterations=100")],
    "docs/training.md": [("n_games=1000", "n_games=8"), ("mcts:iterations=400", "mcts:iterations=40"),
                         ("n_games=512", "n_games=8"), ("concurrent_games=256", "concurrent_games=8")],
    "docs/tournaments.md": [("games_per_pairing=100", "games_per_pairing=2"), ("mcts:iterations=1000", "mcts:iterations=50")],
    "docs/testing.md": [("steps=300", "steps=30")],
}
# page -> (text its blocks print together, files they write), beyond running without an error.
RESULTS: Dict[str, Tuple[List[str], List[str]]] = {
    "README.md": ([], ["game.jsonl", "results.jsonl"]),
    # the illegal-action example is made on a live state: the reason that action is illegal there
    "docs/engine.md": (["action 299 (factory 9 white -> floor) is illegal: factory 9 is not in play"], ["game.jsonl"]),
    "docs/vector.md": (["steps/s"], []),
    "docs/pictures.md": ([], ["everything.svg", "seat0.svg"]),
}


class Block(NamedTuple):
    page: str    # relative to the repository
    line: int    # of the opening fence
    code: str
    mark: Optional[str]     # "skip", "slow" or None
    reason: Optional[str]

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def blocks_of(path: pathlib.Path, page: Optional[str] = None) -> List[Block]:
    text = path.read_text(encoding="utf-8")
    page = page or path.relative_to(ROOT).as_posix()
    out = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[:m.start()].rstrip("\n").rpartition("\n")[2]
        mark = MARK.match(before.strip())
        out.append(Block(page, line, m.group(1), *(mark.groups() if mark else (None, None))))
    return out


BLOCKS = [b for p in PAGES for b in blocks_of(p)]

# The runner, in a fresh interpreter: blocks in order, one namespace, each block's output and error.
RUNNER = textwrap.dedent("""
    import contextlib, io, json, sys, traceback
    blocks = json.load(open(sys.argv[1]))
    ns, results, failed = {"__name__": "__main__"}, {}, None
    for name, code in blocks:
        if failed:
            results[name] = dict(ok=False, out="", error=f"not run: {failed} failed before it")
            continue
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, name, "exec"), ns)
            results[name] = dict(ok=True, out=out.getvalue(), error="")
        except BaseException:
            failed = name
            results[name] = dict(ok=False, out=out.getvalue(), error=traceback.format_exc())
    json.dump(results, open(sys.argv[2], "w"))
""")

_runs: Dict[Tuple[str, bool], Dict[str, dict]] = {}


def _code(block: Block) -> str:
    code = block.code
    for big, small in SMALLER.get(block.page, []):
        if big in code:
            code = code.replace(big, small)
    return code


def run_page(page: str, with_slow: bool, tmp_path_factory) -> Dict[str, dict]:
    """Each block's result (ok, out, error) for one run of the page (cached per page and mode)."""
    key = (page, with_slow)
    if key not in _runs:
        chosen = [b for b in BLOCKS if b.page == page and b.mark != "skip" and (with_slow or b.mark != "slow")]
        work = tmp_path_factory.mktemp("doc-example")
        (work / ".blocks.json").write_text(json.dumps([(b.name, _code(b)) for b in chosen]))
        env = dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=os.pathsep.join(  # the tilecraft the tests import
            p for p in (_package_parent(), os.environ.get("PYTHONPATH")) if p))
        proc = subprocess.run([sys.executable, "-c", RUNNER, ".blocks.json", ".results.json"], cwd=work,
                              env=env, capture_output=True, text=True)
        if proc.returncode != 0 or not (work / ".results.json").exists():  # the interpreter died
            results = {b.name: dict(ok=False, out=proc.stdout, error=f"exit {proc.returncode}: {proc.stderr}")
                       for b in chosen}
        else:
            results = json.loads((work / ".results.json").read_text())
        results[".files"] = sorted(p.name for p in work.iterdir() if not p.name.startswith("."))
        _runs[key] = results
    return _runs[key]


def _package_parent() -> str:
    import tilecraft

    return str(pathlib.Path(tilecraft.__file__).resolve().parent.parent)


def _params():
    for b in BLOCKS:
        marks = [pytest.mark.slow] if b.mark == "slow" else []
        yield pytest.param(b, id=b.name, marks=marks)


def test_there_are_examples_and_every_mark_is_on_a_fence():
    assert any(b.page == "README.md" for b in BLOCKS) and len(BLOCKS) > 10
    for path in PAGES:  # a mark that is not on the line before a ```python fence is a typo
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if "-example" in line and line.strip().startswith("<!--"):
                assert MARK.match(line.strip()), f"{path.name}:{i + 1}: a mark reads <!-- skip-example: reason -->"
                assert i + 1 < len(lines) and lines[i + 1].startswith("```python"), \
                    f"{path.name}:{i + 1}: the mark must be on the line just before a ```python fence"
    for page, pairs in SMALLER.items():  # every replacement still matches its page
        text = "\n".join(b.code for b in BLOCKS if b.page == page)
        for big, _ in pairs:
            assert big in text, f"{page} no longer has {big!r}: update SMALLER in {__file__}"


def test_the_marks_are_read(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```python\na = 1\n```\n<!-- skip-example: needs your files -->\n```python\nb\n```\n"
                    "<!--  slow-example:  a long run  -->\n```python\nc = a\n```\n```\nnot python\n```\n")
    assert blocks_of(page, "page.md") == [Block("page.md", 3, "a = 1\n", None, None),
                                          Block("page.md", 7, "b\n", "skip", "needs your files"),
                                          Block("page.md", 11, "c = a\n", "slow", "a long run")]


@pytest.mark.parametrize("block", list(_params()))
def test_doc_example_runs(block, tmp_path_factory):
    if block.mark == "skip":
        pytest.skip(f"{block.name}: {block.reason}")
    r = run_page(block.page, block.mark == "slow", tmp_path_factory)[block.name]
    assert r["ok"], f"{block.name} failed:\n{r['error']}\n--- its block ---\n{_code(block)}"


@pytest.mark.parametrize("page", sorted(RESULTS))
def test_doc_examples_print_and_write_what_they_say(page, tmp_path_factory):
    results = run_page(page, False, tmp_path_factory)
    files = results[".files"]
    printed = "".join(r["out"] for name, r in results.items() if name != ".files")
    texts, written = RESULTS[page]
    for text in texts:
        assert text in printed, f"{page}'s examples did not print {text!r}:\n{printed}"
    for name in written:
        assert name in files, f"{page}'s examples did not write {name} (they wrote {files})"
