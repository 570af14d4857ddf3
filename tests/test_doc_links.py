"""The docs work from a clone: every relative link in README.md and docs/ names a file of the
repository, and no page sends the reader to the development workspace's shared/ folder (issue 19:
docs/azul.md and others linked shared/rules/*.md and ../shared/tools/..., which are not shipped)."""
import glob
import os
import re

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PAGES = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
LINK = re.compile(r"\]\(([^)\s]+)\)")

if not os.path.exists(os.path.join(ROOT, "README.md")):
    pytest.skip("the docs are not next to the tests (installed-package test run)", allow_module_level=True)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: os.path.relpath(p, ROOT))
def test_relative_links_name_files_of_the_repository(page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue  # a web address or an anchor on the same page
        path = os.path.normpath(os.path.join(os.path.dirname(page), target.split("#")[0]))
        if not os.path.exists(path):
            broken.append(target)
    assert not broken, f"{os.path.relpath(page, ROOT)} links to missing files: {broken}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: os.path.relpath(p, ROOT))
def test_no_page_points_outside_the_repository(page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    outside = re.findall(r"(?<![\w/.])(?:\.\./)*shared/(?:rules|tools)/[\w./-]*", text)
    assert not outside, f"{os.path.relpath(page, ROOT)} names files outside the repository: {outside}"


def test_every_rule_spec_is_shipped():
    games = {"azul", "castle", "warsaw", "gaudi"}
    assert games <= {os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(ROOT, "docs", "rules", "*.md"))}
