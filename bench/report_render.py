#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""report_render.py PAGE [RUNS]: the first render of a page of `mfprio
report --html` in headless chromium at 1400x900, RUNS times (a new
browser tab each): the page's own measure (window.mfReportRenderMs: from
its script's start to the tree and the queue drawn) and the browser's
(navigation start to the load event's end), in milliseconds; then the
median of each."""
import statistics
import sys

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def main():
    page = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    o = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 1400, "height": 900, "deviceScaleFactor": 1,
        "mobile": False})
    own, load = [], []
    try:
        for _ in range(runs):
            d.get("about:blank")
            d.get("file://" + page)
            own.append(d.execute_script("return window.mfReportRenderMs"))
            load.append(d.execute_script(
                "var t = performance.getEntriesByType('navigation')[0];"
                "return t.loadEventEnd - t.startTime;"))
            print("render: script %.0f ms, load event %.0f ms"
                  % (own[-1], load[-1]))
    finally:
        d.quit()
    print("render median: script %.0f ms, load event %.0f ms (bound 1000)"
          % (statistics.median(own), statistics.median(load)))


if __name__ == "__main__":
    main()
