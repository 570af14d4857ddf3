"""Shared helpers of the picture and web tests: random positions of every game, a server on a
free loopback port, and a headless Chromium (Debian's chromium + chromedriver, via Selenium).
Browser tests skip with the reason when the browser is missing; .ci/run installs it."""
from __future__ import annotations

import json
import os
import random
import shutil
import threading
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, Iterator, Optional, Sequence, Tuple

import pytest

import tilecraft

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(ROOT, "build", "screenshots")
PLAYERS = {"azul": 2, "castle": 2, "warsaw": 2, "gaudi": 2}


def random_state(game: str, players: int, seed: int, steps: Optional[int] = None) -> Any:
    """A state after ``steps`` random actions (None: to the end)."""
    s = tilecraft.make(game, players=players, seed=seed)
    rng = random.Random(seed)
    k = 0
    while not s.is_terminal() and (steps is None or k < steps):
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            s.apply(outcomes[rng.randrange(len(outcomes))][0])
        else:
            s.apply(rng.choice(list(s.legal_actions())))
        k += 1
    return s


class Server:
    """A play server on a free loopback port, serving in a thread. ``bots``, ``clock`` and the other
    keywords (``max_games``, ``idle_limit``): as for make_server (the bot specs requests may name;
    the time source of eviction; how many games are held, and how long one must be left alone
    before it makes room)."""

    def __init__(self, bots: Optional[Sequence[str]] = None, clock: Optional[Callable[[], float]] = None,
                 **limits: Any) -> None:
        from tilecraft.web.server import make_server

        extra: Dict[str, Any] = {} if clock is None else {"clock": clock}
        self.httpd = make_server("127.0.0.1", 0, bots=bots, **extra, **limits)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def call(self, method: str, path: str, body: Any = None, raw: Optional[bytes] = None) -> Tuple[int, Any]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, method=method, data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                text = r.read().decode()
                ctype = r.headers.get("Content-Type", "")
                return r.status, (json.loads(text) if ctype.startswith("application/json") else text)
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            return e.code, json.loads(text)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.close()


def _browser_problem() -> Optional[str]:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium; .ci/run installs it)"
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        return "no chromium on PATH (apt-get install chromium chromium-driver; .ci/run installs it)"
    if not shutil.which("chromedriver"):
        return "no chromedriver on PATH (apt-get install chromium-driver; .ci/run installs it)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    problem = _browser_problem()
    if problem:
        if os.environ.get("TILECRAFT_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests must run here: {problem}")
        pytest.skip(f"browser tests skipped: {problem}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1100"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, condition: Any, timeout: float = 30.0, what: str = "condition") -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition, message=f"waiting for {what}")


def screenshot(driver: Any, name: str) -> str:
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, name)
    driver.save_screenshot(path)
    return path


def body_data(driver: Any) -> Dict[str, str]:
    return driver.execute_script("return Object.assign({}, document.body.dataset);")
