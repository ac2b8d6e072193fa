// The catalog page: fills the selector from the embedded data and looks the
// answer up. Every answer was computed by tailor (recommend's own code); the
// page only indexes into the tables. Text is set with textContent, never as HTML.
"use strict";
// The data: zlib-deflated JSON in base64, unpacked by the browser's own DecompressionStream.
async function catalogData() {
  const text = document.getElementById("catalog-data").textContent.replace(/\s+/g, "");
  const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}
function start(data) {
  const S = data.strings;
  const $ = (id) => document.getElementById(id);
  const el = (tag, text) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = text; return e; };
  const option = (value, text) => { const o = el("option", text); o.value = String(value); return o; };

  function fill(select, options, keep) {
    const old = select.value;
    select.replaceChildren(...options);
    if (keep && [...select.options].some((o) => o.value === old)) select.value = old;
  }

  function fillProducts() {
    fill($("product"), data.products.map((p, i) =>
      option(i, (p.version ? p.package + " " + p.version : p.package) + " (" + p.branch + ", " + p.spec + ")")));
  }
  function fillPythons() {
    const p = data.products[+$("product").value];
    fill($("python"), p.pythons.map((y, i) => option(i, y === "" ? "not a Python package" : "Python " + y)), true);
    $("python").disabled = p.pythons.length < 2;
  }
  function fillPlatforms() {
    fill($("platform"), data.platforms.map((p, i) => option(i, p.label + " (" + p.id + ")")));
  }
  function fillGpus() {
    const p = data.platforms[+$("platform").value];
    const opts = [option(-1, p.gpus.length ? "No NVIDIA GPU" : "No NVIDIA GPU on this platform")];
    for (const g of p.gpus) {
      const gpu = data.gpus[g];
      const group = el("optgroup");
      group.label = gpu.family + " (SM " + gpu.sm + ")";
      for (const name of gpu.products) group.append(option(g + ":" + name, name));
      opts.push(group);
    }
    const old = $("gpu").value;
    $("gpu").replaceChildren(...opts);
    if ([...$("gpu").options].some((o) => o.value === old)) $("gpu").value = old;
    $("gpu").disabled = p.gpus.length === 0;
  }
  function fillDrivers() {
    fill($("driver"), data.drivers.map((d, i) => option(i, d.label)), true);
  }
  function fillCpus() {
    const p = data.platforms[+$("platform").value];
    const box = $("cpu-options");
    const old = box.querySelector("input:checked");
    const keep = old ? +old.value : 0;
    box.replaceChildren();
    p.cpus.forEach((c, i) => {
      const label = el("label");
      const input = el("input");
      input.type = "radio"; input.name = "cpu"; input.value = String(i); input.id = "cpu-" + i;
      input.checked = i === (keep < p.cpus.length ? keep : 0);
      label.append(input, " " + c.label);
      if (c.examples.length) {
        const examples = el("span", "— " + c.examples.join("; "));
        examples.className = "examples";
        label.append(" ", examples);
      }
      box.append(label);
    });
  }
  function showCheck() {
    const p = data.platforms[+$("platform").value];
    const c = p.cpus[cpuIndex()];
    const box = $("cpu-check");
    box.replaceChildren();
    if (!c.features.length) { box.append(el("p", "Pick this when the CPU has none of the features above.")); return; }
    box.append(el("p", "Has " + c.label + " when it lists all of: " + c.features.join(" ")));
    for (const [os, cmd] of [["Linux", c.linux], ["macOS", c.macos]]) {
      if (!cmd) continue;
      const line = el("p", "Check on " + os + ": ");
      line.append(el("code", cmd));
      box.append(line);
    }
  }
  function cpuIndex() { const c = $("cpu-options").querySelector("input:checked"); return c ? +c.value : 0; }
  function gpuIndex() { return parseInt($("gpu").value, 10); }

  // The answer: index -> row of driver runs -> answer.
  function lookup() {
    const pi = +$("product").value, yi = +$("python").value, ki = +$("platform").value;
    const p = data.platforms[ki];
    const g = gpuIndex();
    const slot = (g < 0 ? 0 : p.gpus.indexOf(g) + 1) * p.cpus.length + cpuIndex();
    const row = data.rows[data.products[pi].index[yi][ki][slot]];
    let d = row.length === 2 && row[1] === 1 ? 0 : +$("driver").value;
    for (let i = 0; i < row.length; i += 2) {
      if (d < row[i + 1]) return data.answers[row[i]];
      d -= row[i + 1];
    }
    return data.answers[row[row.length - 2]];
  }

  function list(ul, ids) { ul.replaceChildren(...ids.map((i) => el("li", S[i]))); }

  function show() {
    const a = lookup();
    const none = a[0] < 0;
    $("variant").textContent = none ? "Nothing in this matrix runs on this machine" : S[a[0]];
    $("variant").className = none ? "variant none" : "variant";
    $("install").textContent = none ? "—" : S[a[1]];
    $("build").textContent = none ? "—" : S[a[2]];
    $("floor").textContent = none ? "—" : S[a[3]];
    list($("reasons"), a[4]);
    list($("warnings"), a[5]);
    $("warnings-box").hidden = a[5].length === 0;
    const rows = [];
    for (let i = 0; i < a[6].length; i += 2) {
      const tr = el("tr");
      tr.append(el("td", S[a[6][i]]), el("td", S[a[6][i + 1]]));
      rows.push(tr);
    }
    $("alternatives").tBodies[0].replaceChildren(...rows);
    $("alternatives-box").hidden = rows.length === 0;
    $("driver").disabled = gpuIndex() < 0;
    showCheck();
  }

  function fillVariants() {
    const body = $("variants").tBodies[0];
    for (const v of data.variants) {
      const tr = el("tr");
      const cells = [v[0], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[1]];
      for (const c of cells) tr.append(el("td", S[c]));
      tr.dataset.text = cells.map((c) => S[c]).join(" ").toLowerCase();
      body.append(tr);
    }
  }
  function filterVariants() {
    const words = $("filter").value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const tr of $("variants").tBodies[0].rows) {
      const ok = words.every((w) => tr.dataset.text.includes(w));
      tr.hidden = !ok;
      if (ok) shown++;
    }
    $("count").textContent = shown + " of " + data.variants.length + " variants";
  }

  fillProducts(); fillPythons(); fillPlatforms(); fillGpus(); fillDrivers(); fillCpus();
  $("product").addEventListener("change", () => { fillPythons(); show(); });
  $("platform").addEventListener("change", () => { fillGpus(); fillCpus(); show(); });
  for (const id of ["python", "gpu", "driver"]) $(id).addEventListener("change", show);
  $("cpu-options").addEventListener("change", show);
  $("selector").addEventListener("submit", (e) => e.preventDefault());
  $("filter").addEventListener("input", filterVariants);
  fillVariants(); filterVariants(); show();
  document.documentElement.dataset.ready = "1";
}
if (typeof DecompressionStream === "undefined") {
  document.getElementById("variant").textContent =
    "This browser cannot unpack the page's data (it needs DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or newer).";
} else {
  catalogData().then(start, (e) => { document.getElementById("variant").textContent = "Cannot read the page's data: " + e; });
}
