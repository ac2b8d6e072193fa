// Drives a catalog page in headless Chromium through playwright-core, as a
// user would: Tab through the controls, choose with the keyboard (type-ahead,
// arrow keys) and the mouse (clicks), read the answer, filter the table, take
// a screenshot, then look at it on a phone and in the dark theme. Prints what
// it saw as one JSON object; the C++ test judges it.
// usage: node catalog_page.cjs PLAYWRIGHT_CORE_DIR PAGE.html SCREENSHOT.png [#FRAGMENT]
// FRAGMENT: the fragment of a link tailor wrote (recommend --link); the page opened on it is read too.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const [playwrightDir, pagePath, screenshot, tailorFragment] = process.argv.slice(2);
const { chromium } = require(playwrightDir);

(async () => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "tailor-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
  const out = { errors: [], requests: [] };
  try {
    const page = context.pages()[0] || (await context.newPage());
    page.on("pageerror", (e) => out.errors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") out.errors.push(m.text()); });
    page.on("request", (r) => { if (!r.url().startsWith("file:")) out.requests.push(r.url()); });
    await page.goto("file://" + path.resolve(pagePath));
    await page.waitForSelector("html[data-ready='1']", { timeout: 10000 });
    const active = () => page.evaluate(() => document.activeElement.id || document.activeElement.tagName);

    // Keyboard: the order Tab visits the controls in.
    out.tabOrder = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      out.tabOrder.push(await active());
    }
    // Keyboard: type-ahead picks the package and the GPU by name, arrows the driver.
    await page.focus("#product");
    await page.keyboard.type("vllm");
    await page.focus("#gpu");
    await page.keyboard.type("H100");
    await page.focus("#driver");
    await page.keyboard.press("ArrowDown");
    // Mouse: the CPU by clicking its label.
    await page.locator("#cpu-options label").filter({ hasText: /^ AVX2 —/ }).click();

    const text = (sel) => page.$eval(sel, (e) => e.textContent);
    const texts = (sel) => page.$$eval(sel, (es) => es.map((e) => e.textContent));
    out.choice = await page.evaluate(() => ({
      product: document.getElementById("product").value,
      python: document.getElementById("python").value,
      platform: document.getElementById("platform").value,
      gpu: document.getElementById("gpu").value,
      driver: document.getElementById("driver").value,
      cpu: document.querySelector("#cpu-options input:checked").value,
      gpuText: document.getElementById("gpu").selectedOptions[0].textContent,
      driverText: document.getElementById("driver").selectedOptions[0].textContent,
    }));
    out.variant = await text("#variant");
    out.install = await text("#install");
    out.build = await text("#build");
    out.floor = await text("#floor");
    out.reasons = await texts("#reasons li");
    out.warnings = await texts("#warnings li");
    out.alternatives = await texts("#alternatives tbody tr");
    out.cpuCheck = await text("#cpu-check");

    // Mouse into the filter, keyboard to type it.
    await page.click("#filter");
    await page.keyboard.type("sm90 avx2");
    out.count = await text("#count");
    out.shownRows = await page.$$eval("#variants tbody tr", (rs) => rs.filter((r) => !r.hidden).length);
    await page.evaluate(() => window.scrollTo(0, 0));  // the selector and the answer
    await page.screenshot({ path: screenshot, fullPage: false });

    // The selection is in the URL: a fresh page opened on that link shows the same answer.
    out.hash = await page.evaluate(() => location.hash);
    out.linkHref = await page.$eval("#link", (a) => a.getAttribute("href"));
    const linked = await context.newPage();
    linked.on("pageerror", (e) => out.errors.push(String(e)));
    await linked.goto("file://" + path.resolve(pagePath) + out.hash);
    await linked.waitForSelector("html[data-ready='1']", { timeout: 10000 });
    out.linked = {
      variant: await linked.$eval("#variant", (e) => e.textContent),
      reasons: await linked.$$eval("#reasons li", (es) => es.map((e) => e.textContent)),
      gpuText: await linked.$eval("#gpu", (e) => e.selectedOptions[0].textContent),
      cpu: await linked.$eval("#cpu-options input:checked", (e) => e.value),
      hash: await linked.evaluate(() => location.hash),
    };
    await linked.close();
    if (tailorFragment) {
      const opened = await context.newPage();
      opened.on("pageerror", (e) => out.errors.push(String(e)));
      await opened.goto("file://" + path.resolve(pagePath) + tailorFragment);
      await opened.waitForSelector("html[data-ready='1']", { timeout: 10000 });
      out.tailorLink = {
        variant: await opened.$eval("#variant", (e) => e.textContent),
        gpuText: await opened.$eval("#gpu", (e) => e.selectedOptions[0].textContent),
        hash: await opened.evaluate(() => location.hash),
      };
      await opened.close();
    }

    // A GPU that is a whole machine brings its platform and CPU.
    await page.selectOption("#gpu", { label: "DGX Spark" });
    out.spark = await page.evaluate(() => ({
      platform: document.getElementById("platform").selectedOptions[0].textContent,
      cpu: document.querySelector("#cpu-options input:checked").parentElement.textContent,
      variant: document.getElementById("variant").textContent,
    }));

    // Fits the screen, measured in the page: no element past its right edge, no
    // select whose option text is wider than the select can show.
    const fit = () => page.evaluate(() => {
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
    });
    await page.fill("#filter", "");  // every row of the table
    out.desktopFit = await fit();
    await page.setViewportSize({ width: 390, height: 844 });
    out.phoneFit = await fit();
    out.phoneOverflow = out.phoneFit.scroll;
    await page.emulateMedia({ colorScheme: "light" });
    out.lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: "dark" });
    out.darkBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(out) + "\n");
})().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
