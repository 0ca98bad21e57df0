"""Open a local HTML file in headless Chromium with the network cut off, and collect what
happened: the screenshot, the DOM after loading, console messages and the network requests
the page made (from Chromium's own network log).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

# Background services (updates, sync, account checks) would otherwise make requests of
# their own; the host resolver rule makes any request the page makes fail offline.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--enable-logging=stderr",
    "--v=0",
]
CONSOLE = re.compile(r":CONSOLE(?::|\()\d+\)?\] (.*)$")


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Rendered:
    screenshot: Path
    dom: str
    console: list[str]
    page_requests: list[str]


def _page_requests(net_log: Path) -> list[str]:
    """URLs the page itself asked for (its network isolation key is the file:// origin)."""
    log = json.loads(net_log.read_text())
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    urls = []
    for e in log["events"]:
        p = e.get("params", {})
        if names.get(e["type"]) == "URL_REQUEST_START_JOB" and "file://" in str(p.get("network_isolation_key", "")):
            if not p.get("url", "").startswith(("file:", "data:")):
                urls.append(p["url"])
    return urls


def render(page: Path, work: Path, width: int = 1280, height: int = 2400) -> Rendered:
    exe = chromium()
    assert exe, "chromium is not installed (scripts/test.sh installs it)"
    work.mkdir(parents=True, exist_ok=True)
    url = page.resolve().as_uri()
    env = {**os.environ, "HOME": str(work)}  # a fresh profile, nothing from the user's
    shot, net = work / "screenshot.png", work / "net.json"
    common = [exe, *FLAGS, f"--user-data-dir={work / 'profile'}"]
    a = subprocess.run(
        [*common, f"--screenshot={shot}", f"--window-size={width},{height}", f"--log-net-log={net}", url],
        capture_output=True, text=True, timeout=120, env=env,
    )
    b = subprocess.run([*common, "--dump-dom", url], capture_output=True, text=True, timeout=120, env=env)
    assert a.returncode == 0 and b.returncode == 0, (a.stderr[-2000:], b.stderr[-2000:])
    console = [m.group(1) for line in (a.stderr + b.stderr).splitlines() if (m := CONSOLE.search(line))]
    return Rendered(shot, b.stdout, console, _page_requests(net))


class Page:
    """A page in headless Chromium driven over the DevTools protocol (``--remote-debugging-pipe``:
    messages are JSON ended by a NUL byte on file descriptors 3 and 4; no port, no extra
    package). Requests other than file: and data: URLs are recorded in ``requests``."""

    def __init__(self, page: Path, work: Path, width: int = 1400, height: int = 1000, scripts: bool = True):
        exe = chromium()
        assert exe, "chromium is not installed (scripts/test.sh installs it)"
        work.mkdir(parents=True, exist_ok=True)
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        env = {**os.environ, "HOME": str(work)}
        self._log = open(work / "chromium.log", "wb")
        # The child sees the pipes as descriptors 3 (commands) and 4 (replies); the other
        # descriptors Python opened are not inheritable (PEP 446), so nothing else leaks.
        self._proc = subprocess.Popen(
            [exe, *FLAGS, f"--user-data-dir={work / 'profile'}", "--remote-debugging-pipe", f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log, env=env,
            close_fds=False, preexec_fn=_pipes_as_3_and_4(to_browser_r, from_browser_w),
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        self.requests: list[str] = []
        target = self._send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self._send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Network"):
            self.send(f"{domain}.enable")
        self.resize(width, height)
        if not scripts:  # as a reader with JavaScript switched off sees the page
            self.send("Emulation.setScriptExecutionDisabled", {"value": True})
        self.send("Page.navigate", {"url": page.resolve().as_uri()})
        self._wait_event("Page.loadEventFired")

    # -- protocol ----------------------------------------------------------------------
    def _read_message(self, deadline: float) -> dict:
        import select
        import time

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(left, 0))
            assert ready, "chromium did not answer in time"
            chunk = os.read(self._from_browser, 1 << 20)
            assert chunk, "chromium closed the DevTools pipe"
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message = json.loads(raw)
        if message.get("method") == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if not url.startswith(("file:", "data:", "about:")):
                self.requests.append(url)
        return message

    def _send(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 60) -> dict:
        import time

        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                assert "error" not in reply, (method, reply["error"])
                return reply.get("result", {})
            self.events.append(reply)

    def send(self, method: str, params: dict | None = None) -> dict:
        return self._send(method, params, self._session)

    def _wait_event(self, method: str, timeout: float = 60) -> dict:
        import time

        deadline = time.monotonic() + timeout
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self._read_message(deadline)
            if e.get("method") == method:
                return e
            self.events.append(e)

    # -- what tests use ------------------------------------------------------------------
    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (JSON-serialisable)."""
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def click(self, selector: str) -> None:
        """A real mouse click (pressed and released) in the middle of the element."""
        box = self.evaluate(
            f"(function(){{var e=document.querySelector({json.dumps(selector)});e.scrollIntoView({{block:'center'}});"
            "var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2];})()"
        )
        assert box is not None, f"nothing matches {selector}"
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1})

    def type(self, selector: str, text: str) -> None:
        """Focus the element and type ``text`` as keyboard input."""
        self.click(selector)
        for ch in text:
            self.send("Input.dispatchKeyEvent", {"type": "keyDown", "text": ch, "key": ch, "unmodifiedText": ch})
            self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": ch})

    def resize(self, width: int, height: int) -> None:
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def console_messages(self) -> list[str]:
        out = []
        for e in self.events:
            if e.get("method") == "Runtime.consoleAPICalled":
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in e["params"]["args"]))
            elif e.get("method") == "Runtime.exceptionThrown":
                out.append(e["params"]["exceptionDetails"].get("exception", {}).get("description", "exception"))
        return out

    def screenshot(self, path: Path, clip: dict | None = None) -> Path:
        """A PNG of the viewport, or of ``clip`` (x, y, width, height in page pixels)."""
        import base64

        params: dict = {"format": "png"}
        if clip is not None:
            params.update(clip={**clip, "scale": 1}, captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(self.send("Page.captureScreenshot", params)["data"]))
        return path

    def close(self) -> None:
        try:
            self._send("Browser.close", timeout=10)
        except (AssertionError, OSError):
            pass
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        self._log.close()

    def __enter__(self) -> "Page":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _pipes_as_3_and_4(read_end: int, write_end: int):
    def setup() -> None:
        # dup to high numbers first so that the two dup2 calls cannot clobber each other
        r, w = os.dup(read_end), os.dup(write_end)
        os.dup2(r, 3)
        os.dup2(w, 4)

    return setup


def screenshot_of(page: "Page", path: Path, selector: str | None = None, height: int = 1200, above: int = 12) -> Path:
    """A screenshot of the page's top, or of the region starting at ``selector``, at the
    page's current width (the docs' pictures are made this way)."""
    width = page.evaluate("document.documentElement.clientWidth")
    top = 0.0
    if selector is not None:
        top = page.evaluate(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().top + window.scrollY") - above
    page.evaluate("window.scrollTo(0, 0)")
    return page.screenshot(path, {"x": 0, "y": max(top, 0), "width": width, "height": height})
