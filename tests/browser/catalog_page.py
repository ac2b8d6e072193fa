"""Drives a catalog page in headless Chromium through Playwright for Python, as
a user would: Tab through the controls, choose with the keyboard (type-ahead,
arrow keys) and the mouse (clicks), read the answer, filter the table, take a
screenshot, then look at it on a phone and in the dark theme. Prints what it
saw as one JSON object; the C++ test judges it.

usage: python catalog_page.py PAGE.html SCREENSHOT.png [#FRAGMENT]
FRAGMENT: the fragment of a link tailor wrote (recommend --link); the page
opened on it is read too. The browser is Debian's Chromium ($CHROMIUM or
/usr/bin/chromium): Playwright downloads none.
"""
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

FIT = """() => {
  const wide = [...document.querySelectorAll("body *")]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : ""));
  const ctx = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const s of document.querySelectorAll("select")) {
    const st = getComputedStyle(s);
    ctx.font = st.font;
    // The closed select shows the option's text beside its arrow (about 1.5em).
    const room = s.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - 1.5 * parseFloat(st.fontSize);
    for (const o of s.options) if (ctx.measureText(o.textContent).width > room) cut.push(s.id + ": " + o.textContent);
  }
  return { wide: wide.slice(0, 8), cut: cut.slice(0, 8), scroll: document.documentElement.scrollWidth - window.innerWidth };
}"""

CHOICE = """() => ({
  product: document.getElementById("product").value,
  python: document.getElementById("python").value,
  platform: document.getElementById("platform").value,
  gpu: document.getElementById("gpu").value,
  driver: document.getElementById("driver").value,
  cpu: document.querySelector("#cpu-options input:checked").value,
  gpuText: document.getElementById("gpu").selectedOptions[0].textContent,
  driverText: document.getElementById("driver").selectedOptions[0].textContent,
})"""


def main():
    page_path, screenshot = sys.argv[1], sys.argv[2]
    tailor_fragment = sys.argv[3] if len(sys.argv) > 3 else ""
    url = Path(page_path).resolve().as_uri()
    out = {"errors": [], "requests": []}
    profile = tempfile.mkdtemp(prefix="tailor-chromium-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile,
                executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                headless=True,
                viewport={"width": 1280, "height": 900},
                args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            )
            try:
                run(context, url, screenshot, tailor_fragment, out)
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    sys.stdout.write(json.dumps(out) + "\n")


def watch(page, out):
    page.on("pageerror", lambda e: out["errors"].append(str(e)))


def run(context, url, screenshot, tailor_fragment, out):
    page = context.pages[0] if context.pages else context.new_page()
    watch(page, out)
    page.on("console", lambda m: out["errors"].append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: None if r.url.startswith("file:") else out["requests"].append(r.url))
    page.goto(url)
    page.wait_for_selector("html[data-ready='1']", timeout=10000)

    def active():
        return page.evaluate("() => document.activeElement.id || document.activeElement.tagName")

    # Keyboard: the order Tab visits the controls in.
    out["tabOrder"] = []
    for _ in range(8):
        page.keyboard.press("Tab")
        out["tabOrder"].append(active())
    # Keyboard: type-ahead picks the package and the GPU by name, arrows the driver.
    page.focus("#product")
    page.keyboard.type("vllm")
    page.focus("#gpu")
    page.keyboard.type("H100")
    page.focus("#driver")
    page.keyboard.press("ArrowDown")
    # Mouse: the CPU by clicking its label.
    page.locator("#cpu-options label").filter(has_text=re.compile(r"^ AVX2 —")).click()

    def text(sel):
        return page.eval_on_selector(sel, "(e) => e.textContent")

    def texts(sel):
        return page.eval_on_selector_all(sel, "(es) => es.map((e) => e.textContent)")

    out["choice"] = page.evaluate(CHOICE)
    out["variant"] = text("#variant")
    out["install"] = text("#install")
    out["build"] = text("#build")
    out["floor"] = text("#floor")
    out["reasons"] = texts("#reasons li")
    out["warnings"] = texts("#warnings li")
    out["alternatives"] = texts("#alternatives tbody tr")
    out["cpuCheck"] = text("#cpu-check")

    # Mouse into the filter, keyboard to type it.
    page.click("#filter")
    page.keyboard.type("sm90 avx2")
    out["count"] = text("#count")
    out["shownRows"] = page.eval_on_selector_all("#variants tbody tr", "(rs) => rs.filter((r) => !r.hidden).length")
    page.evaluate("() => window.scrollTo(0, 0)")  # the selector and the answer
    page.screenshot(path=screenshot, full_page=False)

    # The selection is in the URL: a fresh page opened on that link shows the same answer.
    out["hash"] = page.evaluate("() => location.hash")
    out["linkHref"] = page.eval_on_selector("#link", "(a) => a.getAttribute('href')")
    linked = context.new_page()
    watch(linked, out)
    linked.goto(url + out["hash"])
    linked.wait_for_selector("html[data-ready='1']", timeout=10000)
    out["linked"] = {
        "variant": linked.eval_on_selector("#variant", "(e) => e.textContent"),
        "reasons": linked.eval_on_selector_all("#reasons li", "(es) => es.map((e) => e.textContent)"),
        "gpuText": linked.eval_on_selector("#gpu", "(e) => e.selectedOptions[0].textContent"),
        "cpu": linked.eval_on_selector("#cpu-options input:checked", "(e) => e.value"),
        "hash": linked.evaluate("() => location.hash"),
    }
    linked.close()
    if tailor_fragment:
        opened = context.new_page()
        watch(opened, out)
        opened.goto(url + tailor_fragment)
        opened.wait_for_selector("html[data-ready='1']", timeout=10000)
        out["tailorLink"] = {
            "variant": opened.eval_on_selector("#variant", "(e) => e.textContent"),
            "gpuText": opened.eval_on_selector("#gpu", "(e) => e.selectedOptions[0].textContent"),
            "hash": opened.evaluate("() => location.hash"),
        }
        opened.close()

    # A GPU that is a whole machine brings its platform and CPU.
    page.select_option("#gpu", label="DGX Spark")
    out["spark"] = page.evaluate("""() => ({
      platform: document.getElementById("platform").selectedOptions[0].textContent,
      cpu: document.querySelector("#cpu-options input:checked").parentElement.textContent,
      variant: document.getElementById("variant").textContent,
    })""")

    # Fits the screen, measured in the page: no element past its right edge, no
    # select whose option text is wider than the select can show.
    page.fill("#filter", "")  # every row of the table
    out["desktopFit"] = page.evaluate(FIT)
    page.set_viewport_size({"width": 390, "height": 844})
    out["phoneFit"] = page.evaluate(FIT)
    out["phoneOverflow"] = out["phoneFit"]["scroll"]
    page.emulate_media(color_scheme="light")
    out["lightBackground"] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    page.emulate_media(color_scheme="dark")
    out["darkBackground"] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")


if __name__ == "__main__":
    main()
