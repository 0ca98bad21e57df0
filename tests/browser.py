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
