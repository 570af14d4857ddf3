"""In a real browser (headless Chromium driven by Selenium with the system chromedriver): the
replay viewer steps through a game, and a whole game of every game is played against the random
bot through the play server by clicking; every game's play page at 1024x768 and 1920x1080 shows
the picture and the moves without scrolling; the Castle page frames the legal spaces and the
clicked one and offers the rotations as pictures. Screenshots go to build/screenshots (CI artifacts).
Without the browser these tests skip and say why; .ci/run installs it (and sets
TILECRAFT_REQUIRE_BROWSER=1 so that they cannot skip there)."""
from __future__ import annotations

import json
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


def _viewport(browser, width: int, height: int) -> None:  # noqa: F811
    """The page's viewport exactly ``width`` x ``height`` CSS pixels (as a screen of that size shows it)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


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


@pytest.mark.slow  # about a minute a game
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
    assert browser.find_element(css, "#save").is_displayed()
    assert not browser.find_element(css, "#moves-heading").is_displayed()  # no empty "Your legal moves"
    assert not browser.find_elements(css, "#moves .move")
    if game == "azul":
        assert picture_moves > 0
    screenshot(browser, f"play-{game}-end.png")
    # the saved replay checks out
    href = browser.find_element(css, "#save").get_attribute("href")
    path = href.split(server.url, 1)[1]
    code, text = server.call("GET", path)
    assert code == 200 and text.startswith('{"type": "header"')
    # the status names the winners as the saved result records them, in plain English
    winners = [line for line in map(json.loads, text.splitlines()) if line["type"] == "result"][0]["winners"]
    if winners == [0]:
        expected = "Game over. You win."
    elif len(winners) == 1:
        expected = f"Game over. Seat {winners[0]} wins."
    else:
        names = ["you" if p == 0 else f"seat {p}" for p in winners]
        expected = "Game over. " + (", ".join(names[:-1]) + " and " + names[-1]).capitalize() + " share the win."
    assert expected in status, status
    assert "seat(s)" not in status


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
@pytest.mark.parametrize("game", ["azul", "castle", "warsaw", "gaudi"])
def test_play_page_fits_the_screen(browser, server: Server, game: str, size) -> None:  # noqa: F811
    """The picture is whole on the screen and the moves are beside it, above the fold."""
    if game not in tilecraft.list_games():
        pytest.skip(f"{game} is not in this build")
    css = _by("CSS_SELECTOR")
    _viewport(browser, *size)
    try:
        _start(browser, server, game)
        wait_for(browser, lambda d: body_data(d).get("state") == "yours", timeout=60, what="my turn")
        screenshot(browser, f"play-{game}-{size[0]}x{size[1]}.png")
        box = browser.execute_script("""
            const r = (el) => el.getBoundingClientRect();
            const p = r(document.querySelector('#picture svg')), m = r(document.querySelector('#moves .move'));
            return {w: innerWidth, h: innerHeight, pr: p.right, pb: p.bottom, pw: p.width,
                    mt: m.top, mb: m.bottom, ml: m.left, mr: m.right, sx: document.documentElement.scrollWidth};""")
        assert box["w"] == size[0] and box["h"] == size[1]
        assert box["pr"] <= box["w"] and box["pb"] <= box["h"], box  # the whole picture on the screen
        assert box["pw"] >= 0.5 * box["w"], box  # and not shrunk to a stamp
        assert 0 <= box["mt"] and box["mb"] <= box["h"] and box["mr"] <= box["w"], box  # a move, above the fold
        assert box["ml"] >= box["pr"], box  # beside the picture, not below it
        assert box["sx"] <= box["w"], box  # no sideways scrolling
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_castle_page_frames_legal_spaces_and_shows_rotations(browser, server: Server) -> None:  # noqa: F811
    css = _by("CSS_SELECTOR")
    _viewport(browser, 1024, 768)
    try:
        _start(browser, server, "castle")
        wait_for(browser, lambda d: body_data(d).get("state") == "yours", timeout=60, what="my turn")
        game = re.search(r"game=([0-9a-f]+)", browser.current_url).group(1)
        code, view = server.call("GET", f"/api/game/{game}")
        assert code == 200
        legal = [m["name"] for m in view["legal"]]  # "place (r,c) rot D"
        cells = {re.match(r"(place \(\d+,\d+\) )rot", n).group(1) for n in legal}
        framed = {e.get_attribute("data-pick") for e in browser.find_elements(css, "#picture .pick.legal")}
        spaces = {p for p in framed if p.startswith("place")}
        assert spaces == cells  # exactly the spaces where the tile in hand fits
        empty = {e.get_attribute("data-pick") for e in browser.find_elements(css, "#picture [data-pick^='place']")}
        assert empty - cells, "some empty spaces are not legal, and stay unframed"
        # the rotations, drawn as tiles: the ones legal somewhere are framed
        rotations = browser.find_elements(css, "#picture [data-pick^=' rot']")
        assert len(rotations) == 4
        # a space where more than one rotation fits: clicking it frames it and narrows to its rotations
        cell = next(c for c in sorted(cells) if sum(n.startswith(c) for n in legal) > 1)
        fits = {n[len(cell):] for n in legal if n.startswith(cell)}  # "rot 90", ...
        browser.find_element(css, f"#picture [data-pick='{cell}']").click()
        wait_for(browser, lambda d: d.find_elements(css, "#picture .pick.picked"), what="the clicked space")
        assert [e.get_attribute("data-pick") for e in browser.find_elements(css, "#picture .pick.picked")] == [cell]
        assert {b.text for b in browser.find_elements(css, "#moves .move")} == {cell + r for r in fits}
        framed = {e.get_attribute("data-pick").strip() for e in browser.find_elements(css, "#picture .pick.legal")}
        assert framed == fits, (framed, fits)  # only this space's rotations stay framed
        # the tile in hand is drawn on the space in a rotation that fits there
        previews = browser.find_elements(css, "#picture .preview")
        assert len(previews) == 1
        shown = previews[0].get_attribute("innerHTML")
        drawn = {g.get_attribute("data-rotation").strip(): g.get_attribute("innerHTML")
                 for g in browser.find_elements(css, "#picture [data-rotation]")}
        assert any(r in fits for r in drawn if drawn[r] == shown)
        screenshot(browser, "play-castle-space-picked.png")
        version = body_data(browser)["version"]
        choice = sorted(fits)[-1]
        browser.find_element(css, f"#picture [data-pick=' {choice} ']").click()
        wait_for(browser, lambda d: body_data(d).get("version") != version, what="the move made by the rotation")
        code, after = server.call("GET", f"/api/game/{game}")
        assert f"seat 0: {cell}{choice}" in after["log"]
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_gaudi_move_buttons_say_what_each_space_does(browser, server: Server) -> None:  # noqa: F811
    css = _by("CSS_SELECTOR")
    _start(browser, server, "gaudi")
    wait_for(browser, lambda d: body_data(d).get("state") == "yours", timeout=60, what="my turn")
    labels = [b.text for b in browser.find_elements(css, "#moves .move")]
    moves = [t for t in labels if re.match(r"move \d+", t)]
    assert moves and all(re.fullmatch(r"move \d+: .*(tile|card|chimney|action).*", t) for t in moves), moves
