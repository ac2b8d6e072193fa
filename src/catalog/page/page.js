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

  // Products grouped by the spec's branch, so the closed select shows only "pytorch 2.9.1".
  function fillProducts() {
    const groups = new Map();
    data.products.forEach((p, i) => {
      if (!groups.has(p.branch)) { const g = el("optgroup"); g.label = p.branch; groups.set(p.branch, g); }
      const o = option(i, p.version ? p.package + " " + p.version : p.package);
      o.title = p.spec;
      groups.get(p.branch).append(o);
    });
    fill($("product"), [...groups.values()]);
  }
  function fillPythons() {
    const p = data.products[+$("product").value];
    fill($("python"), p.pythons.map((y, i) => option(i, y === "" ? "not a Python package" : "Python " + y)), true);
    $("python").disabled = p.pythons.length < 2;
  }
  // The platforms; those without the chosen GPU cannot be picked.
  function fillPlatforms() {
    const g = gpuIndex();
    fill($("platform"), data.platforms.map((p, i) => {
      const o = option(i, p.label);
      o.title = p.id;
      o.disabled = g >= 0 && !p.gpus.includes(g);
      return o;
    }), true);
  }
  // Every GPU of every platform: the GPU is chosen first, the platform follows.
  function fillGpus() {
    const opts = [option(-1, "No NVIDIA GPU")];
    data.gpus.forEach((gpu, g) => {
      const group = el("optgroup");
      group.label = gpu.family + " (SM " + gpu.sm + ")";
      for (const name of gpu.products) group.append(option(g + ":" + name, name));
      opts.push(group);
    });
    fill($("gpu"), opts, true);
  }
  // A GPU that is a whole machine (DGX Spark, GH200, Jetson) sets its platform
  // and CPU; another GPU moves the platform only where the current one lacks it.
  function followGpu() {
    const g = gpuIndex();
    if (g < 0) { fillPlatforms(); return; }
    const name = $("gpu").value.slice($("gpu").value.indexOf(":") + 1);
    const machine = data.gpus[g].machines[name];
    let platform = +$("platform").value, cpu = null;
    if (machine) { [platform, cpu] = machine; }
    else if (!data.platforms[platform].gpus.includes(g)) platform = data.platforms.findIndex((p) => p.gpus.includes(g));
    fillPlatforms();
    $("platform").value = String(platform);
    fillCpus(cpu);
  }
  function fillDrivers() {
    fill($("driver"), data.drivers.map((d, i) => option(i, d.label)), true);
  }
  function fillCpus(chosen) {
    const p = data.platforms[+$("platform").value];
    const box = $("cpu-options");
    const old = box.querySelector("input:checked");
    const keep = chosen !== undefined && chosen !== null ? chosen : old ? +old.value : 0;
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

  // The selection in the URL's fragment, so that an answer can be linked.
  const fields = ["gpu", "driver", "platform", "product", "python"];
  function selection() {
    const q = new URLSearchParams();
    for (const f of fields) q.set(f, $(f).value);
    q.set("cpu", String(cpuIndex()));
    return "#" + q.toString();
  }
  function applySelection(hash) {
    if (!hash.includes("=")) return false;
    const q = new URLSearchParams(hash.slice(1));
    const has = (id, v) => v !== null && [...$(id).options].some((o) => o.value === v && !o.disabled);
    if (has("gpu", q.get("gpu"))) { $("gpu").value = q.get("gpu"); followGpu(); }
    if (has("platform", q.get("platform"))) { $("platform").value = q.get("platform"); fillCpus(); }
    const cpu = +q.get("cpu");
    if (Number.isInteger(cpu) && cpu >= 0 && cpu < data.platforms[+$("platform").value].cpus.length) fillCpus(cpu);
    if (has("driver", q.get("driver"))) $("driver").value = q.get("driver");
    if (has("product", q.get("product"))) { $("product").value = q.get("product"); fillPythons(); }
    if (has("python", q.get("python"))) $("python").value = q.get("python");
    return true;
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
    const link = selection();
    $("link").href = link;
    if (location.hash !== link) history.replaceState(null, "", link);
  }

  function fillVariants() {
    const body = $("variants").tBodies[0];
    const heads = [...$("variants").tHead.rows[0].cells].map((c) => c.textContent);
    for (const v of data.variants) {
      const tr = el("tr");
      const cells = [v[0], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[1]];
      cells.forEach((c, i) => { const td = el("td", S[c]); td.dataset.label = heads[i]; tr.append(td); });
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

  fillGpus(); fillDrivers(); fillPlatforms(); fillCpus(); fillProducts(); fillPythons();
  applySelection(location.hash);
  $("product").addEventListener("change", () => { fillPythons(); show(); });
  $("gpu").addEventListener("change", () => { followGpu(); show(); });
  $("platform").addEventListener("change", () => { fillCpus(); show(); });
  for (const id of ["python", "driver"]) $(id).addEventListener("change", show);
  $("cpu-options").addEventListener("change", show);
  $("selector").addEventListener("submit", (e) => e.preventDefault());
  $("filter").addEventListener("input", filterVariants);
  window.addEventListener("hashchange", () => { if (location.hash !== selection() && applySelection(location.hash)) show(); });
  fillVariants(); filterVariants(); show();
  document.documentElement.dataset.ready = "1";
}
if (typeof DecompressionStream === "undefined") {
  document.getElementById("variant").textContent =
    "This browser cannot unpack the page's data (it needs DecompressionStream: Chrome 80, Firefox 113, Safari 16.4 or newer).";
} else {
  catalogData().then(start, (e) => { document.getElementById("variant").textContent = "Cannot read the page's data: " + e; });
}
