"""In a real browser (headless Chromium driven by Selenium with the system chromedriver): the
replay viewer steps through a game, and a whole game of every game is played against the random
bot through the play server by clicking. Screenshots go to build/screenshots (CI artifacts).
Without the browser these tests skip and say why; .ci/run installs it (and sets
TILECRAFT_REQUIRE_BROWSER=1 so that they cannot skip there)."""
from __future__ import annotations

import random
import re

import pytest

import tilecraft
from tilecraft.cli import main
from web_helpers import Server, body_data, browser, screenshot, server, wait_for  # noqa: F401  (fixtures)


def _by(kind: str):
    from selenium.webdriver.common.by import By

    return getattr(By, kind)


def test_replay_viewer_steps(browser, tmp_path) -> None:  # noqa: F811
    replay = str(tmp_path / "g.jsonl")
    assert main(["play", "azul", "--bots", "mcts:iterations=50,random", "--seed", "3", "--replay", replay]) == 0
    page = tmp_path / "viewer.html"
    assert main(["replay", replay, "--html", str(page)]) == 0
    text = page.read_text()
    urls = set(re.findall(r"(?:https?:)?//[\w.-]+\.\w+[^\s\"'\\]*", text)) - {"http://www.w3.org/2000/svg"}
    assert not urls, urls  # self-contained: nothing loaded from the network
    browser.get(page.as_uri())
    css = _by("CSS_SELECTOR")
    wait_for(browser, lambda d: d.find_element(css, "#counter").text.startswith("move 0 /"), what="the viewer")
    total = int(browser.find_element(css, "#counter").text.split("/")[1])
    first = browser.find_element(css, "#picture").get_attribute("innerHTML")
    assert "not recorded" in browser.find_element(css, "#top").text  # the start: no search
    for k in range(5):
        browser.find_element(css, "#next").click()
        if k == 0:  # move 1 was the MCTS seat's: its top moves and visit shares are shown
            wait_for(browser, lambda d: d.find_element(css, "#counter").text == f"move 1 / {total}", what="move 1")
            assert browser.find_elements(css, "#top table tr")
            assert "%" in browser.find_element(css, "#top").text
    wait_for(browser, lambda d: d.find_element(css, "#counter").text == f"move 5 / {total}", what="move 5")
    assert browser.find_element(css, "#picture").get_attribute("innerHTML") != first
    assert browser.find_element(css, "#move").text.startswith("seat ")
    screenshot(browser, "viewer-azul-move5.png")
    # arrow keys and the slider
    body = browser.find_element(css, "body")
    from selenium.webdriver.common.keys import Keys

    body.send_keys(Keys.ARROW_LEFT)
    wait_for(browser, lambda d: d.find_element(css, "#counter").text == f"move 4 / {total}", what="move 4")
    browser.find_element(css, "#last").click()
    wait_for(browser, lambda d: d.find_element(css, "#counter").text == f"move {total} / {total}", what="the end")
    assert "game over" in browser.find_element(css, "#picture").get_attribute("innerHTML")
    assert browser.find_elements(css, "#chart polyline")  # the score chart
    screenshot(browser, "viewer-azul-end.png")


def _start(browser, server: Server, game: str, players: int = 2) -> None:  # noqa: F811
    from selenium.webdriver.support.ui import Select

    css = _by("CSS_SELECTOR")
    browser.get(server.url + "/")
    wait_for(browser, lambda d: body_data(d).get("ready") == "1", what="the play page")
    Select(browser.find_element(css, "#game")).select_by_value(game)
    Select(browser.find_element(css, "#players")).select_by_visible_text(str(players))
    Select(browser.find_element(css, "#seat")).select_by_value("0")
    for p in range(1, players):
        Select(browser.find_element(css, f"#bot{p}")).select_by_visible_text("random")
    browser.find_element(css, "#seed").send_keys("11")
    browser.find_element(css, "#start").click()


def _azul_by_picture(browser, rng: random.Random) -> bool:  # noqa: F811
    """One Azul move clicked on the picture: a tile on a factory or the centre, then the floor
    (always a legal destination), which leaves exactly one move, played at once."""
    css = _by("CSS_SELECTOR")
    tiles = browser.find_elements(css, "#picture [data-pick^='factory'], #picture [data-pick^='centre']")
    if not tiles:
        return False
    version = body_data(browser)["version"]
    rng.choice(tiles).click()
    # the last floor element is drawn on top of the others (the 7th space or a tile on it)
    browser.find_elements(css, "#picture [data-pick='-> floor'][data-pick-seat='0']")[-1].click()
    wait_for(browser, lambda d: body_data(d).get("version") != version, what="the move clicked on the picture")
    return True


@pytest.mark.parametrize("game", ["azul", "castle", "warsaw", "gaudi"])
def test_play_a_whole_game_by_clicking(browser, server: Server, game: str) -> None:  # noqa: F811
    if game not in tilecraft.list_games():
        pytest.skip(f"{game} is not in this build")
    css = _by("CSS_SELECTOR")
    _start(browser, server, game)
    rng = random.Random(5)
    clicks = picture_moves = 0
    while True:
        wait_for(browser, lambda d: body_data(d).get("state") in ("yours", "over"), timeout=60, what="my turn")
        data = body_data(browser)
        assert not browser.find_element(css, "#error").text, browser.find_element(css, "#error").text
        if data["state"] == "over":
            break
        if clicks == 2:
            screenshot(browser, f"play-{game}-start.png")
        if game == "azul" and clicks % 2 == 0 and _azul_by_picture(browser, rng):
            picture_moves += 1
        else:
            buttons = browser.find_elements(css, "#moves .move")
            assert buttons, "my turn but no legal move offered"
            version = data["version"]
            rng.choice(buttons).click()
            wait_for(browser, lambda d: body_data(d).get("version") != version, what="the clicked move")
        clicks += 1
        assert clicks < 2000
    status = browser.find_element(css, "#status").text
    assert "game over" in status
    assert browser.find_element(css, "#save").is_displayed()
    if game == "azul":
        assert picture_moves > 0
    screenshot(browser, f"play-{game}-end.png")
    # the saved replay checks out
    href = browser.find_element(css, "#save").get_attribute("href")
    path = href.split(server.url, 1)[1]
    code, text = server.call("GET", path)
    assert code == 200 and text.startswith('{"type": "header"')
