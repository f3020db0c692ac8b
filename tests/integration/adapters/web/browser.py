"""Debian's Chromium and chromedriver, driven by Selenium; never a downloaded browser."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver", "/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver")
MISSING = (
    "headless Chromium not found: install Debian's chromium and chromium-driver "
    "(apt-get install chromium chromium-driver); the browser tests are skipped"
)


def _found(names: tuple[str, ...]) -> str | None:
    for name in names:
        path = shutil.which(name) or (name if Path(name).is_file() else None)
        if path:
            return path
    return None


def chromium() -> object:
    """A headless Chromium session, or skip the test saying why."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[dev]'); browser tests skipped")
    browser, driver = _found(BROWSERS), _found(DRIVERS)
    if browser is None or driver is None:
        pytest.skip(MISSING)
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=430,1000"):  # fmt: skip
        options.add_argument(argument)
    try:
        return webdriver.Chrome(options=options, service=Service(executable_path=driver))
    except Exception as error:  # a browser that cannot start is as good as none here
        pytest.skip(f"headless Chromium did not start ({type(error).__name__}: {error})")
