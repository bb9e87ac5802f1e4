// The live view: draws the graph from /api/graph, updates its numbers from the counters'
// WebSocket, plots the probes with Chart.js, and sends parameters and messages.
"use strict";

const query = new URLSearchParams(location.search);
const token = query.get("token");
// Requests carry the token in a header (out of addresses and logs); only the WebSocket, whose
// handshake a page cannot add headers to, carries it in its address.
const withToken = (path) => token ? path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : path;
const api = (path, options = {}) => fetch(path, {
  ...options,
  headers: { ...(options.headers || {}), ...(token ? { Authorization: "Bearer " + token } : {}) },
}).then(async (r) => {
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
});
const fmt = (x) => x >= 1e9 ? (x / 1e9).toFixed(2) + " G" : x >= 1e6 ? (x / 1e6).toFixed(2) + " M"
  : x >= 1e3 ? (x / 1e3).toFixed(1) + " k" : x.toFixed(0);
// The smallest and largest of `xs` (a loop: spreading a long frame into Math.min's arguments
// overflows the stack).
const extent = (xs) => {
  let lo = Infinity, hi = -Infinity;
  for (const x of xs) { if (x < lo) lo = x; if (x > hi) hi = x; }
  return [lo, hi];
};
// A frequency with its unit (Hz, kHz, MHz, GHz).
const hz = (f) => {
  const a = Math.abs(f);
  return a >= 1e9 ? `${(f / 1e9).toFixed(4)} GHz` : a >= 1e6 ? `${(f / 1e6).toFixed(4)} MHz`
    : a >= 1e3 ? `${(f / 1e3).toFixed(3)} kHz` : `${f.toFixed(1)} Hz`;
};
const el = (tag, attrs = {}, text) => {
  const svg = ["svg", "g", "rect", "text", "path", "marker", "defs"].includes(tag);
  const e = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

let graph = null;

// Columns by longest path from a source (stream and message edges), rows in order.
function layout(g) {
  const depth = new Map(g.blocks.map((b) => [b.name, 0]));
  const edges = g.edges.concat(g.message_edges);
  for (let i = 0; i < g.blocks.length; i++) {
    for (const e of edges) {
      if (e.src !== e.dst) depth.set(e.dst, Math.max(depth.get(e.dst), depth.get(e.src) + 1));
    }
  }
  const rows = new Map();
  const pos = new Map();
  for (const b of g.blocks) {
    const c = Math.min(depth.get(b.name), g.blocks.length);
    const r = rows.get(c) || 0;
    rows.set(c, r + 1);
    pos.set(b.name, { x: 10 + c * 190, y: 10 + r * 90 });
  }
  return pos;
}

function drawGraph(g) {
  const svg = document.getElementById("graph");
  svg.innerHTML = "";
  const defs = el("defs");
  const marker = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "6", markerHeight: "6", orient: "auto" });
  marker.appendChild(el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#457b9d" }));
  defs.appendChild(marker);
  svg.appendChild(defs);
  const pos = layout(g);
  let width = 0, height = 0;
  for (const p of pos.values()) { width = Math.max(width, p.x + 170); height = Math.max(height, p.y + 70); }
  svg.setAttribute("viewBox", `0 0 ${width + 10} ${height + 10}`);
  const drawEdge = (e, message) => {
    const a = pos.get(e.src), b = pos.get(e.dst);
    const x1 = a.x + 160, y1 = a.y + 30, x2 = b.x, y2 = b.y + 30;
    const mx = (x1 + x2) / 2;
    svg.appendChild(el("path", { class: "edge" + (message ? " message" : ""), d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}` }));
    if (!message) {
      svg.appendChild(el("text", { class: "edge-label", x: mx - 20, y: (y1 + y2) / 2 - 4, "data-edge": `${e.src}.${e.src_port}` }, ""));
    }
  };
  g.edges.forEach((e) => drawEdge(e, false));
  g.message_edges.forEach((e) => drawEdge(e, true));
  for (const b of g.blocks) {
    const p = pos.get(b.name);
    const grp = el("g", { class: "block", id: "block-" + b.name, transform: `translate(${p.x},${p.y})` });
    grp.appendChild(el("rect", { width: 160, height: 60 }));
    grp.appendChild(el("text", { class: "name", x: 6, y: 15 }, b.name));
    grp.appendChild(el("text", { x: 6, y: 31, "data-rate": b.name }, "–"));
    grp.appendChild(el("text", { x: 6, y: 47, "data-share": b.name }, b.type));
    svg.appendChild(grp);
  }
}

function drawControls(g) {
  const box = document.getElementById("controls");
  box.innerHTML = "";
  const result = document.getElementById("control-result");
  const say = (text) => { result.textContent = text; };
  for (const b of g.blocks) {
    for (const [i, p] of b.message_inputs.entries()) {
      const takes = (b.message_input_takes || [])[i];
      const row = el("div", { class: "control" });
      row.appendChild(el("b", {}, `${b.name}.${p} `));
      const current = el("span", { id: `value-${b.name}-${p}`, class: "muted" }, "");
      const input = el("input", { id: `param-${b.name}-${p}`, placeholder: takes || "value", title: takes ? `takes ${takes}` : "any message" });
      const set = el("button", { id: `set-${b.name}-${p}` }, "Set");
      set.onclick = () => {
        const raw = input.value.trim();
        const value = raw !== "" && !isNaN(Number(raw)) ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
        api(`/api/blocks/${encodeURIComponent(b.name)}/params/${encodeURIComponent(p)}`,
          { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ value }) })
          .then((r) => { current.textContent = ` = ${JSON.stringify(r.value)}`; say(`set ${b.name}.${p} = ${JSON.stringify(r.value)}`); })
          .catch((e) => say("error: " + e.message));
      };
      const msg = el("textarea", { id: `msg-${b.name}-${p}`, placeholder: 'PMT as JSON, e.g. {"pair": ["freq", 1e3]}' });
      const post = el("button", { id: `post-${b.name}-${p}` }, "Post");
      post.onclick = () => {
        api(`/api/blocks/${encodeURIComponent(b.name)}/messages/${encodeURIComponent(p)}`,
          { method: "POST", headers: { "content-type": "application/json" }, body: msg.value })
          .then(() => say(`posted to ${b.name}.${p}`)).catch((e) => say("error: " + e.message));
      };
      row.append(current, " ", input, set, " ", msg, post);
      box.appendChild(row);
      api(`/api/blocks/${encodeURIComponent(b.name)}/params/${encodeURIComponent(p)}`)
        .then((r) => { if (r.value !== null) current.textContent = ` = ${JSON.stringify(r.value)}`; }).catch(() => {});
    }
  }
  if (!box.children.length) box.appendChild(el("p", { class: "muted" }, "No block has a message input."));
}

const charts = new Map();
function setupProbes(g) {
  const box = document.getElementById("probes");
  // Probes a display shows are drawn there.
  const shown = new Set((g.views || []).flatMap((v) => v.probes));
  const own = g.probes.filter((p) => !shown.has(p.id));
  if (!own.length) {
    if (shown.size) box.innerHTML = '<p class="muted">Every probe is drawn by a display above.</p>';
    return;
  }
  box.innerHTML = "";
  for (const p of own) {
    const div = el("div", { class: "probe", id: "probe-" + p.id });
    const select = el("select", { id: "view-" + p.id });
    for (const v of ["spectrum", "time", "constellation"]) select.appendChild(el("option", { value: v }, v));
    const canvas = el("canvas");
    div.append(el("b", {}, `${p.id} (${p.item}) `), select, canvas);
    box.appendChild(div);
    const chart = new Chart(canvas, {
      type: "scatter",
      data: { datasets: [] },
      options: { animation: false, responsive: true, parsing: false, normalized: true,
        plugins: { legend: { display: false } }, elements: { point: { radius: 0 } } },
    });
    charts.set(p.id, { chart, select });
  }
}

async function refreshProbes() {
  for (const [id, { chart, select }] of charts) {
    try {
      const view = select.value;
      const d = await api(`/api/probes/${encodeURIComponent(id)}?view=${view}`);
      const points = (ys) => d.x.map((x, i) => ({ x, y: ys[i] }));
      const line = view !== "constellation";
      chart.data.datasets = [{ data: points(d.y), showLine: line, borderColor: "#1d3557", borderWidth: 1, pointRadius: line ? 0 : 1.5, backgroundColor: "#1d3557" }];
      if (view === "time") chart.data.datasets.push({ data: points(d.y2), showLine: true, borderColor: "#e63946", borderWidth: 1, pointRadius: 0 });
      chart.options.scales = { x: { title: { display: true, text: d.x_unit || view } },
        y: { title: { display: true, text: view === "spectrum" ? "dB" : view === "time" ? "I (blue), Q (red)" : "Q" } } };
      chart.update("none");
    } catch (e) { /* the next refresh tries again */ }
  }
}

// The file's variables (a GRC file's QT GUI widgets): each change is sent to the port, which
// re-evaluates the file and sets the running blocks' parameters the variable changes.
const widgets = new Map();
function putVariable(name, value) {
  const say = (text) => { document.getElementById("variable-result").textContent = text; };
  return api(`/api/variables/${encodeURIComponent(name)}`,
    { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ value }) })
    .then((r) => {
      showVariables(r.variables);
      followViews(r.views);
      const set = r.set.map((s) => `${s.block}.${s.param} = ${s.value}`)
        .concat((r.sent || []).map((s) => `sent ${s.message} to ${s.block}.${s.port}`));
      say(`${name} = ${JSON.stringify(r.value)}` + (set.length ? `: set ${set.join(", ")}` : ": no running parameter depends on it")
        + (r.fixed.length ? `; not changed while running: ${r.fixed.join("; ")}` : "")
        + (r.errors.length ? `; errors: ${r.errors.join("; ")}` : ""));
    })
    .catch((e) => { say("error: " + e.message); refreshVariables(); });
}

function widgetControl(w) {
  const box = el("span", { class: "widget", id: "widget-" + w.name });
  box.appendChild(el("b", {}, w.label));
  const value = el("span", { class: "value", id: "widget-value-" + w.name });
  let update = (v) => { value.textContent = JSON.stringify(v); };
  if (w.kind === "range") {
    const slider = el("input", { type: "range", min: w.start, max: w.stop, step: w.step || "any", id: "slider-" + w.name });
    const number = el("input", { type: "number", class: "number", min: w.start, max: w.stop, step: w.step || "any", id: "number-" + w.name });
    const send = (x) => putVariable(w.name, w.integer ? Math.round(Number(x)) : Number(x));
    slider.addEventListener("change", () => send(slider.value));
    slider.addEventListener("input", () => { number.value = slider.value; });
    number.addEventListener("change", () => send(number.value));
    if (w.style !== "counter" && w.style !== "digital") box.appendChild(slider);
    if (w.style !== "slider") box.appendChild(number);
    // QT's digital number control shows whole hertz, and only values in its range.
    update = w.style === "digital"
      ? (v) => { if (v >= w.start && v <= w.stop) number.value = Math.trunc(v); }
      : (v) => { slider.value = v; number.value = v; };
  } else if (w.kind === "chooser") {
    if (w.radio) {
      const inputs = w.options.map((o, i) => {
        const r = el("input", { type: "radio", name: "chooser-" + w.name, id: `chooser-${w.name}-${i}` });
        r.addEventListener("change", () => putVariable(w.name, o));
        box.append(r, el("label", { for: `chooser-${w.name}-${i}` }, w.labels[i]));
        return r;
      });
      update = (v) => inputs.forEach((r, i) => { r.checked = JSON.stringify(w.options[i]) === JSON.stringify(v); });
    } else {
      const select = el("select", { id: "chooser-" + w.name });
      w.options.forEach((o, i) => select.appendChild(el("option", { value: i }, w.labels[i])));
      select.addEventListener("change", () => putVariable(w.name, w.options[Number(select.value)]));
      box.appendChild(select);
      update = (v) => { const i = w.options.findIndex((o) => JSON.stringify(o) === JSON.stringify(v)); if (i >= 0) select.value = i; };
    }
  } else if (w.kind === "entry" || w.kind === "variable") {
    const input = el("input", { id: "entry-" + w.name, title: w.kind === "entry" ? `type ${w.type}; Enter sets it` : "Enter sets it" });
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      const raw = input.value.trim();
      const numeric = raw !== "" && !isNaN(Number(raw));
      const v = w.type === "string" || w.type === "raw" ? raw : numeric ? Number(raw) : raw === "True" || raw === "true" ? true : raw === "False" || raw === "false" ? false : raw;
      putVariable(w.name, v);
    });
    box.append(input, value);
    update = (v) => { if (document.activeElement !== input) input.value = typeof v === "string" ? v : JSON.stringify(v); value.textContent = ""; };
  } else if (w.kind === "check_box") {
    const check = el("input", { type: "checkbox", id: "check-" + w.name });
    check.addEventListener("change", () => putVariable(w.name, check.checked));
    box.append(check, value);
    update = (v) => { check.checked = JSON.stringify(v) === JSON.stringify(w.on); value.textContent = JSON.stringify(v); };
  } else if (w.kind === "message_button") {
    // Sends its message each time it is pressed.
    const button = el("button", { id: "button-" + w.name, title: `sends to ${(w.sends || []).join(", ") || "nothing connected"}` }, w.label);
    button.addEventListener("click", () => putVariable(w.name, true));
    box.replaceChildren(button);
    update = () => {};
  } else if (w.kind === "message_entry") {
    // Sends what is entered (Enter), as a value of its type.
    const input = el("input", { id: "entry-" + w.name, title: `type ${w.type}; Enter sends it to ${(w.sends || []).join(", ") || "nothing connected"}` });
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") putVariable(w.name, input.value); });
    // A pair's key, shown as QT's box shows it (it changes with a pair received when the
    // box's key is not static).
    const key = el("span", { class: "muted", id: "key-" + w.name }, w.key ? `${w.key}: ` : "");
    box.append(key, input);
    // The value shown follows what the box receives (`follows`), unless the user is typing.
    update = (v, now) => {
      key.textContent = now.key ? `${now.key}: ` : "";
      if (document.activeElement !== input) {
        input.value = typeof v === "string" ? v : w.type === "float" || w.type === "double" ? qtNumber(v) : JSON.stringify(v);
      }
    };
  } else if (w.kind === "push_button") {
    const button = el("button", { id: "button-" + w.name }, w.label);
    button.addEventListener("mousedown", () => putVariable(w.name, true));
    button.addEventListener("mouseup", () => putVariable(w.name, false));
    box.replaceChildren(button, value);
  } else {
    box.appendChild(value);
  }
  widgets.set(w.name, update);
  return box;
}

function showVariables(list) {
  if (!widgets.size) {
    for (const w of list) {
      const box = widgetControl(w);
      if (w.kind === "variable") {
        const plain = document.getElementById("plain-variables");
        plain.hidden = false;
        plain.appendChild(el("div", {}, "")).appendChild(box);
      } else {
        place(box, w.gui_hint);
      }
    }
  }
  for (const w of list) { const update = widgets.get(w.name); if (update) update(w.value, w); }
  // Widgets that follow messages: their values change with no one setting them.
  if (!followTimer && list.some((w) => (w.follows || []).length)) followTimer = setInterval(followWidgets, 250);
}

// A number as QT writes a float (`QString::number(x)`: printf's %g, six digits).
function qtNumber(x) {
  x = Number(x);
  if (!Number.isFinite(x)) return String(x);
  const exp = x === 0 ? 0 : Math.floor(Math.log10(Math.abs(Number(x.toPrecision(6)))));
  if (exp < -4 || exp >= 6) {
    const [m, e] = x.toExponential(5).split("e");
    const digits = e.replace(/^[+-]/, "").padStart(2, "0");
    return m.replace(/\.?0+$/, "") + "e" + (e[0] === "-" ? "-" : "+") + digits;
  }
  const t = x.toFixed(Math.max(0, 5 - exp));
  return t.includes(".") ? t.replace(/\.?0+$/, "") : t;
}

// The values of widgets that follow messages (a message edit box, a digital number control),
// redrawn when they took a message, with the last warning of each (a message QT's widget
// would refuse).
let followTimer = null, followed = -1;
function followWidgets() {
  api("/api/variables").then((r) => {
    if (r.received === followed) return;
    followed = r.received;
    for (const w of r.variables) { const update = widgets.get(w.name); if (update) update(w.value, w); }
    for (const w of r.variables.filter((x) => x.follows)) {
      const box = document.getElementById("widget-" + w.name);
      if (!box) continue;
      let warn = box.querySelector(".warning");
      if (!warn) { warn = el("span", { class: "warning muted" }, ""); box.appendChild(warn); }
      warn.textContent = (r.warnings || {})[w.name] || "";
    }
  }).catch(() => {});
}

function refreshVariables() {
  return api("/api/variables").then((r) => { showVariables(r.variables); followViews(r.views); }).catch(() => {});
}

// The displays as the variables are now: a centre, rate or limits may follow a variable.
function followViews(list) {
  for (const nv of list || []) {
    const view = views.find((x) => x.v.name === nv.name);
    if (!view) continue;
    // The centre a message set stays until the file's own centre changes (GNU Radio calls
    // the sink's setter only when its `fc` depends on the variable).
    if (nv.centre !== view.fileCentre) { view.v.centre = nv.centre; view.fileCentre = nv.centre; }
    view.v.title = nv.title; view.o = nv.options || {}; view.avg = null;
    // An LED's state or a gauge's value written as a variable's expression follows it (GNU
    // Radio's set_state/set_value callbacks).
    if (view.show) view.show(view.v.kind === "led" ? view.o.state === 1 : view.o.value || 0);
  }
}

// GRC's layout: `gui_hint` places a display or control in a grid cell ("row, col, rowspan,
// colspan") of the page or of a tab of a tab widget ("tabs@2: 0, 0, 1, 1").
const tabGrids = new Map();
function parseHint(hint) {
  const h = (hint || "").trim();
  const m = h.match(/^([A-Za-z_]\w*)@(\d+)\s*:?\s*(.*)$/);
  const [tab, index, rest] = m ? [m[1], Number(m[2]), m[3]] : [null, 0, h];
  const nums = rest.replace(/[()]/g, "").split(",").map((x) => x.trim()).filter((x) => x !== "").map(Number);
  const pos = nums.length >= 2 && nums.every(Number.isFinite)
    ? { row: nums[0], col: nums[1], rowspan: nums[2] || 1, colspan: nums[3] || 1 } : null;
  return { tab, index, pos };
}
function place(elem, hint) {
  const { tab, index, pos } = parseHint(hint);
  const grids = tab && tabGrids.get(tab);
  const container = grids ? grids[Math.min(index, grids.length - 1)] : document.getElementById("gui");
  if (pos) {
    elem.style.gridRow = `${pos.row + 1} / span ${pos.rowspan}`;
    elem.style.gridColumn = `${pos.col + 1} / span ${pos.colspan}`;
  }
  container.appendChild(elem);
  document.getElementById("gui-section").hidden = false;
}
function tabWidget(v) {
  const div = el("div", { class: "tabs", id: "tabs-" + v.name });
  const bar = el("div", { class: "tab-bar" });
  const grids = v.labels.map(() => el("div", { class: "gui-grid" }));
  v.labels.forEach((label, i) => {
    const b = el("button", { id: `tab-${v.name}-${i}` }, label);
    b.onclick = () => {
      grids.forEach((g, k) => { g.hidden = k !== i; });
      bar.querySelectorAll("button").forEach((x, k) => x.classList.toggle("active", k === i));
      views.forEach((view) => view.chart && view.chart.resize());
    };
    bar.appendChild(b);
  });
  div.append(bar, ...grids);
  grids.forEach((g, k) => { g.hidden = k !== 0; });
  bar.firstChild && bar.firstChild.classList.add("active");
  tabGrids.set(v.name, grids);
  return div;
}

// The file's displays (a GRC file's QT GUI sinks): each a plot of its probes, overlaid.
const views = [];
const colours = ["#1d3557", "#e63946", "#2a9d8f", "#f4a261", "#6a4c93", "#8d99ae"];
function setupViews(g) {
  if (!g.views || !g.views.length) return;
  // Tab widgets first, each once the tab widget it sits in exists.
  let tabs = g.views.filter((v) => v.kind === "tabs");
  while (tabs.length) {
    const ready = tabs.filter((v) => { const t = parseHint(v.gui_hint).tab; return !t || tabGrids.has(t) || !tabs.some((o) => o.name === t); });
    if (!ready.length) break;
    for (const v of ready) place(tabWidget(v), v.gui_hint);
    tabs = tabs.filter((v) => !ready.includes(v));
  }
  const items = new Map(g.probes.map((p) => [p.id, p.item]));
  const sizes = new Map(g.probes.map((p) => [p.id, p.size]));
  for (const v of g.views.filter((v) => v.kind !== "tabs")) {
    const o = v.options || {};
    const div = el("div", { class: "view", id: "view-" + v.name, "data-kind": v.kind });
    div.appendChild(el("b", {}, `${v.title} `));
    const trigger = ["", " (auto trigger)", " (normal trigger)", ` (tag trigger on '${v.tag_key}')`][o.trigger || 0] || "";
    const sources = v.probes.concat(v.messages || []);
    const shows = sources.length ? `${v.kind} of ${sources.join(", ")}`
      : v.kind === "led" || v.kind === "gauge" ? `${v.kind} following its variables` : `${v.kind} of nothing the page can plot`;
    div.appendChild(el("span", { class: "muted" }, `${shows}${v.kind === "time" || v.kind === "eye" ? trigger : ""}`));
    place(div, v.gui_hint);
    // A sink of PDUs (`o.pdu`: 1 complex, 2 float, 3 byte samples) is drawn from the messages
    // sent to it, each PDU whole; a note says why one is not drawn.
    const real = o.pdu ? o.pdu !== 1 : v.probes.length > 0 && v.probes.every((id) => items.get(id) === "float32");
    const view = { v, o, last: 0, real, fileCentre: v.centre };
    if (o.pdu) {
      view.note = el("span", { class: "muted", id: `note-${v.name}` }, "");
      div.appendChild(view.note);
    }
    if (v.kind === "waterfall") {
      view.canvas = el("canvas", { class: "waterfall", width: 512, height: 200 });
      view.frames = new Map();
      div.appendChild(view.canvas);
    } else if (v.kind === "raster") {
      // One canvas per input: a pixel per sample, a row per `cols` samples, newest row last.
      const rows = o.rows || 1, cols = o.cols || 1;
      if (o.all_rows > rows) div.appendChild(el("span", { class: "muted" }, ` (the latest ${rows} of ${o.all_rows} rows)`));
      view.rasters = v.probes.map((id) => {
        const c = el("canvas", { class: "raster", width: cols, height: rows, "data-probe": id });
        div.appendChild(c);
        return c;
      });
    } else if (v.kind === "led" || v.kind === "gauge") {
      // What the messages sent to it say: an LED on or off, a gauge's value in its range.
      const [on, off] = v.units && v.units.length === 2 ? v.units : ["green", "red"];
      view.display = el("span", { class: v.kind, id: `${v.kind}-${v.name}` });
      view.text = el("span", { class: "number-value", id: `${v.kind}-value-${v.name}` }, "");
      if (v.kind === "led") {
        view.show = (x) => { view.display.style.background = x ? on : off; view.display.dataset.on = x ? "1" : "0"; };
        view.show(o.state === 1);
      } else {
        view.display = el("meter", { min: o.min, max: o.max, value: o.value, id: `gauge-${v.name}`, class: o.vertical ? "vertical" : "" });
        view.show = (x) => { view.display.value = x * (o.scale || 1); view.text.textContent = String(x); };
        view.show(o.value || 0);
      }
      div.append(view.display, view.text);
    } else if (v.kind === "compass") {
      // An angle in degrees on a compass face, as GNU Radio's GrCompass draws it: from the
      // messages sent to it, or the mean of its stream's latest frame.
      view.compass = el("canvas", { class: "compass", width: 240, height: 240, id: `compass-${v.name}` });
      view.text = el("span", { class: "number-value", id: `compass-value-${v.name}` }, "");
      if (o.msg === 1) view.show = (x) => drawCompass(view, x);
      div.append(view.compass, view.text);
      drawCompass(view, 0);
    } else if (v.kind === "number") {
      // A row per input: its label, value with unit, and a bar between min and max.
      view.numbers = v.probes.map((id, i) => {
        const row = el("div", { class: "number-row" + (o.bar === 1 ? " vertical" : "") });
        const value = el("span", { class: "number-value", id: `number-${v.name}-${i}` }, "–");
        const bar = el("meter", { min: o.min, max: o.max, value: o.min });
        row.append(el("b", {}, (v.labels[i] || id) + " "), value);
        if (o.bar !== 2) row.appendChild(bar);
        div.appendChild(row);
        return { value, bar, state: null, lo: Infinity, hi: -Infinity };
      });
    } else {
      const canvas = el("canvas");
      div.appendChild(canvas);
      view.chart = new Chart(canvas, {
        type: "scatter",
        data: { datasets: [] },
        options: { animation: false, responsive: true, parsing: false, normalized: true,
          aspectRatio: v.kind === "constellation" ? 1 : 2,
          plugins: { legend: { display: v.probes.length > 1 || v.kind === "time",
            labels: { filter: (item) => !item.text.endsWith("(earlier)") && !item.text.startsWith("tags ") } } }, elements: { point: { radius: 0 } } },
        plugins: [tagLabels],
      });
      if (v.kind === "constellation") persistenceControl(view, div, canvas);
    }
    if (v.kind === "spectrum" || v.kind === "waterfall") {
      // A PDU's FFT may be of any size up to 8192 (or the sink's own larger one, to the
      // server's bounds: 32768 on a spectrum, 4096 on a waterfall, whose answer is 200 rows).
      const most = o.pdu ? (v.kind === "waterfall" ? 4096 : Math.min(Math.max(v.size || 1024, 8192), 32768))
        : Math.min(...v.probes.map((id) => sizes.get(id) || 0));
      spectrumControls(view, div, most);
    }
    views.push(view);
  }
}

// A colour as the canvas takes it, with alpha `a` (GRC's colour names: its `dark red` is
// CSS's darkred).
const paint = (() => {
  const c = document.createElement("canvas").getContext("2d");
  return (name, a = 1) => {
    c.fillStyle = "#000";
    c.fillStyle = String(name).replace(/\s+/g, "").toLowerCase();
    const hex = c.fillStyle;
    if (!hex.startsWith("#")) return hex;
    const n = parseInt(hex.slice(1), 16);
    return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
  };
})();

// Line `line`'s look in `view` as Chart.js dataset properties, from the sink's GRC settings
// (`colorN`, `widthN`, `styleN`: 1 solid, 2 dash, 3 dots, 4 dash-dot, 5 dash-dot-dot, 0 none;
// `markerN`: -1 none, 0 circle, 1 rectangle, 2 diamond, 3-6 triangles up, down, left, right,
// 7 cross, 8 x-cross, 9-10 lines; `alphaN`), else the page's: lines for a trace, markers
// without a line for a plot of `points` (a constellation). `name` and `alpha` are the
// colour's.
function look(view, line, points = false) {
  const { v, o } = view;
  const name = (v.colours || [])[line] || colours[line % colours.length];
  const alpha = o[`alpha${line}`] === undefined ? 1 : o[`alpha${line}`];
  const colour = paint(name, alpha);
  const style = o[`style${line}`] === undefined ? (points ? 0 : 1) : o[`style${line}`];
  const marker = o[`marker${line}`] === undefined ? (points ? 0 : -1) : o[`marker${line}`];
  const dashes = { 2: [6, 3], 3: [1, 3], 4: [6, 3, 1, 3], 5: [6, 3, 1, 3, 1, 3] };
  const shapes = { 0: "circle", 1: "rect", 2: "rectRot", 3: "triangle", 4: "triangle", 5: "triangle", 6: "triangle", 7: "cross", 8: "crossRot", 9: "line", 10: "line" };
  const rotation = { 4: 180, 5: 270, 6: 90, 10: 90 };
  return { name, alpha, borderColor: colour, backgroundColor: colour, borderWidth: o[`width${line}`] || 1,
    showLine: style !== 0, borderDash: dashes[style] || [], pointStyle: shapes[marker] || "circle",
    rotation: rotation[marker] || 0, pointRadius: marker >= 0 ? (points ? 1.5 : 3) : 0 };
}

// GNU Radio's QT sinks' windows (GRC's `wintype` options, by GNU Radio's numbers).
const WINDOWS = [[5, "Blackman-Harris"], [0, "Hamming"], [1, "Hann"], [2, "Blackman"], [3, "Rectangular"], [4, "Kaiser"], [7, "Flat-top"]];

// What QT's frequency sink offers in its control panel and menus, on a spectrum or waterfall
// view: the FFT size (of the probe's latest samples, up to its frame of `most`) and the
// window; on a spectrum also max and min hold, markers (a click on the plot puts one there,
// up to four) and the peak's readout.
function spectrumControls(view, div, most) {
  const { v, o } = view;
  const bar = el("div", { class: "view-controls" });
  const sizes = new Set([v.size || most]);
  for (let n = 64; n <= most; n *= 2) sizes.add(n);
  view.fft = Math.min(v.size || most, most);
  const fft = el("select", { id: `fft-${v.name}`, title: "FFT size" });
  [...sizes].filter((n) => n > 0 && n <= most).sort((a, b) => a - b)
    .forEach((n) => fft.appendChild(el("option", { value: n }, `${n} points`)));
  fft.value = view.fft;
  const reset = () => { view.hold = { max: new Map(), min: new Map() }; view.avg = null; };
  fft.addEventListener("change", () => { view.fft = Number(fft.value); reset(); });
  bar.appendChild(fft);
  view.window = o.window === undefined ? 5 : o.window;
  const win = el("select", { id: `window-${v.name}`, title: "window" });
  WINDOWS.forEach(([code, name]) => win.appendChild(el("option", { value: code }, name)));
  win.value = view.window;
  win.addEventListener("change", () => { view.window = Number(win.value); reset(); });
  bar.appendChild(win);
  reset();
  if (v.kind === "spectrum") {
    for (const kind of ["max", "min"]) {
      const box = el("input", { type: "checkbox", id: `${kind}hold-${v.name}` });
      box.addEventListener("change", () => { view[`${kind}Hold`] = box.checked; view.hold[kind] = new Map(); });
      const l = el("label", {}, ` ${kind} hold `);
      l.prepend(box);
      bar.appendChild(l);
    }
    view.markers = [];
    const clear = el("button", { id: `clear-markers-${v.name}`, title: "remove the markers" }, "clear markers");
    clear.addEventListener("click", () => { view.markers = []; });
    bar.appendChild(clear);
    view.readout = el("span", { class: "readout", id: `peak-${v.name}` }, "");
    bar.appendChild(view.readout);
    view.chart.options.onClick = (e, _, chart) => {
      const x = chart.scales.x.getValueForPixel(e.x);
      if (!Number.isFinite(x)) return;
      // Shift-click: the sink's `freq` output sends `(freq . hz)`, as QT's on a double click
      // (a float there: `getClickedFreq`); a plain click puts a marker.
      if (e.native && e.native.shiftKey && v.clicks) sendFrequency(view, Math.fround(x));
      else view.markers = view.markers.concat([x]).slice(-4);
    };
    if (v.clicks) {
      view.sent = el("span", { class: "readout", id: `sent-${v.name}` }, "shift-click sends the frequency");
      bar.appendChild(view.sent);
    }
  }
  div.insertBefore(bar, view.canvas || div.querySelector("canvas"));
}

// Posts `(freq . hz)` from a spectrum's `freq` output (its relay's `in`).
function sendFrequency(view, hz) {
  const msg = { pair: ["freq", { double: hz }] };
  api(`/api/blocks/${encodeURIComponent(view.v.clicks)}/messages/in`,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(msg) })
    .then(() => { view.sent.textContent = `sent (freq . ${hz})`; view.sent.dataset.hz = String(hz); })
    .catch((e) => { view.sent.textContent = "error: " + e.message; });
}

// A constellation's persistence: the points of the last few frames, older ones fainter.
function persistenceControl(view, div, canvas) {
  const { v } = view;
  const select = el("select", { id: `persistence-${v.name}`, title: "persistence" });
  [[1, "no persistence"], [5, "5 frames"], [20, "20 frames"], [100, "100 frames"]]
    .forEach(([n, name]) => select.appendChild(el("option", { value: n }, name)));
  view.persistence = 1;
  view.history = new Map();
  select.addEventListener("change", () => { view.persistence = Number(select.value); view.history = new Map(); });
  const bar = el("div", { class: "view-controls" });
  bar.appendChild(select);
  div.insertBefore(bar, canvas);
}

// The strongest point of `pts` ({x, y}).
function peakOf(pts) {
  let best = null;
  for (const p of pts) if (best === null || p.y > best.y) best = p;
  return best;
}

// The point of `pts` (sorted by x) nearest to `x`.
function nearest(pts, x) {
  let lo = 0, hi = pts.length - 1;
  while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (pts[mid].x < x) lo = mid; else hi = mid; }
  return Math.abs(pts[lo].x - x) <= Math.abs(pts[hi].x - x) ? pts[lo] : pts[hi];
}

// Draws `view`'s compass at `deg` degrees (clockwise from north; a negative angle is taken
// from 360): the face with its scale, the needle (o.needle: 1 full, 0 tip only, 2 the tip and
// its mirror, for a -180..180 ambiguity), in the sink's colours (background, needle tip,
// needle body, scale), on the 120-unit square GrCompass draws in.
function drawCompass(view, deg) {
  const { v, o } = view;
  const [bg, tip, body, scale] = (v.colours || []).length === 4 ? v.colours : ["default", "red", "black", "black"];
  const a = deg < 0 ? deg + 360 : deg;
  const c = view.compass.getContext("2d"), w = view.compass.width, h = view.compass.height;
  const polygon = (pts, fill) => {
    c.beginPath();
    pts.forEach(([x, y], k) => (k ? c.lineTo(x, y) : c.moveTo(x, y)));
    c.closePath();
    c.fillStyle = fill;
    c.fill();
  };
  c.clearRect(0, 0, w, h);
  c.save();
  c.translate(w / 2, h / 2);
  const s = Math.min(w, h) / 120;
  c.scale(s, s);
  c.beginPath();
  c.arc(0, 0, 55, 0, 2 * Math.PI);
  c.fillStyle = bg === "default" ? "#f4f4f4" : paint(bg);
  c.fill();
  c.strokeStyle = paint(scale);
  c.lineWidth = 1;
  c.stroke();
  for (let t = 0; t < 360; t += 10) {
    c.save();
    c.rotate(t * Math.PI / 180);
    c.beginPath();
    c.moveTo(0, -55);
    c.lineTo(0, t % 90 === 0 ? -47 : t % 30 === 0 ? -50 : -52);
    c.stroke();
    c.restore();
  }
  c.fillStyle = paint(scale);
  c.font = "8px sans-serif";
  c.textAlign = "center";
  c.textBaseline = "middle";
  for (const [label, t] of [["N", 0], ["E", 90], ["S", 180], ["W", 270]]) {
    c.fillText(label, 38 * Math.sin(t * Math.PI / 180), -38 * Math.cos(t * Math.PI / 180));
  }
  const whole = Math.round(a);
  c.rotate(whole * Math.PI / 180);
  const needle = o.needle === undefined ? 1 : o.needle;
  if (needle === 1) polygon([[-6, 0], [0, -45], [6, 0], [0, 45]], paint(body));
  polygon([[-3, -24], [0, -45], [3, -23], [0, -30], [-3, -23]], paint(tip));
  if (needle === 2) {
    c.rotate((whole === 90 || whole === 270 ? 180 : 180 - 2 * whole) * Math.PI / 180);
    polygon([[-3, -25], [0, -45], [3, -25], [0, -30], [-3, -25]], "gray");
  }
  c.restore();
  view.text.textContent = `${a.toFixed(1)}°`;
  view.compass.dataset.angle = String(a);
}

// A colour for a power in dB between lo and hi (dark blue to yellow).
function heat(db, lo, hi) {
  const t = Math.max(0, Math.min(1, (db - lo) / (hi - lo)));
  return [Math.round(255 * Math.min(1, 2 * t)), Math.round(255 * t), Math.round(255 * Math.max(0, 1 - 2 * t) * 0.6 + 40 * t)];
}

// Where a time view's tag trigger fires in the frames `data`: the first tag of the view's key
// on the trigger channel's input with a whole trace after it (less the delay); null if none.
function tagStart(view, data, size) {
  const { v, o } = view;
  const complex = data.length > 0 && data[0].y2.some((y) => y !== 0);
  const ch = Math.floor(o.channel || 0);
  const input = data[complex ? ch >> 1 : ch] || data[0];
  if (!input || !input.tags) return null;
  const delay = Math.max(0, Math.round((o.delay || 0) * (o.rate || 0)));
  const tag = input.tags.find((t) => t.key === v.tag_key && t.at >= delay && t.at - delay + size <= input.y.length);
  return tag ? tag.at - delay : null;
}

// Draws each point's text of the datasets that have `tagTexts` (the time view's tags).
const tagLabels = {
  id: "tagLabels",
  afterDatasetsDraw(chart) {
    const ctx = chart.ctx;
    chart.data.datasets.forEach((ds, i) => {
      if (!ds.tagTexts) return;
      ctx.save();
      ctx.font = "11px sans-serif";
      ctx.fillStyle = "#333";
      chart.getDatasetMeta(i).data.forEach((pt, k) => ctx.fillText(ds.tagTexts[k], pt.x + 5, pt.y - 6));
      ctx.restore();
    });
  },
};

// Where a time view's trigger fires in the frames `data` (the trigger channel's real part
// crossing the level on the slope), as the first sample to show; null if it does not.
function triggerStart(view, data, size) {
  const { o } = view;
  // GRC's trigger channel counts the plotted lines: a complex input's real then imaginary part.
  const complex = data.length > 0 && data[0].y2.some((y) => y !== 0);
  const ch = Math.floor(o.channel || 0);
  const input = data[complex ? ch >> 1 : ch] || data[0];
  if (!input) return null;
  const d = { y: complex && (ch & 1) ? input.y2 : input.y };
  const delay = Math.max(0, Math.round((o.delay || 0) * (o.rate || 0)));
  const level = o.level || 0, up = (o.slope || 1) > 0;
  for (let i = Math.max(1, delay); i + size - delay <= d.y.length; i++) {
    const a = d.y[i - 1], b = d.y[i];
    if (up ? a < level && b >= level : a > level && b <= level) return i - delay;
  }
  return null;
}

async function refreshViews() {
  const now = performance.now();
  for (const view of views) {
    const { v, o } = view;
    // The sink's own update period (GRC's update_time), at most 10 per second here.
    if (now - view.last < Math.max(100, 1000 * (o.update || 0))) continue;
    view.last = now;
    try {
      if (view.show) {
        // A message display: the latest message any of its sources sent.
        const got = await Promise.all(v.messages.map((id) => api(`/api/messages/${encodeURIComponent(id)}`)));
        // Of its sources, one that sent since the last look (each tap keeps its own latest).
        view.seen = view.seen || new Map();
        const fresh = got.filter((m) => m.count > (view.seen.get(m.id) || 0) && m.value !== null);
        got.forEach((m) => view.seen.set(m.id, m.count));
        if (fresh.length) {
          const m = fresh[fresh.length - 1];
          view.show(v.kind === "led" ? m.value === true || m.value === 1 : Number(m.value));
          if (v.kind === "led") view.text.textContent = m.text;
        }
        continue;
      }
      // A sink's `freq` input: a pair whose second is a double sets the axis' centre (QT's
      // handle_set_freq).
      if ((v.centre_from || []).length) {
        const got = await Promise.all(v.centre_from.map((id) => api(`/api/messages/${encodeURIComponent(id)}`)));
        view.centreSeen = view.centreSeen || new Map();
        const fresh = got.filter((m) => m.count > (view.centreSeen.get(m.id) || 0) && m.real);
        got.forEach((m) => view.centreSeen.set(m.id, m.count));
        if (fresh.length) v.centre = Number(fresh[fresh.length - 1].value);
      }
      const probeView = v.kind === "waterfall" ? "spectrum"
        : ["spectrum", "constellation"].includes(v.kind) ? v.kind : "time";
      // A spectrum on the sink's scale: its window (or the one chosen), FFT size, normalization.
      const spectrumQuery = probeView === "spectrum" && view.window !== undefined
        ? `&window=${view.window}&fft=${view.fft}&norm=${o.norm === 1 ? 1 : 0}` : "";
      const takes = ["", "complex", "float", "byte"][o.pdu || 0];
      const data = o.pdu
        ? await Promise.all(v.messages.map((id) => api(`/api/messages/${encodeURIComponent(id)}?view=${v.kind === "waterfall" ? "waterfall" : probeView}&takes=${takes}${spectrumQuery}`)))
        : await Promise.all(v.probes.map((id) => api(`/api/probes/${encodeURIComponent(id)}?view=${probeView}${spectrumQuery}`)));
      if (view.note) view.note.textContent = data.filter((d) => d.note).map((d) => ` (${d.id}: ${d.note})`).join("");
      if (!data.length || !data[0].y.length) continue;
      if (view.canvas) {
        const d = data[0];
        if (view.frames.get(d.id) === d.frames) continue;
        view.frames.set(d.id, d.frames);
        const c = view.canvas.getContext("2d");
        const w = view.canvas.width, h = view.canvas.height;
        c.drawImage(view.canvas, 0, 0, w, h - 1, 0, 1, w, h - 1);
        if (d.rows) {
          // A PDU's spectrogram replaces the picture: its first row at the bottom, as QT's.
          const n = d.x.length, img = c.createImageData(w, h);
          const [lo0, hi0] = extent(d.y);
          const [lo, hi] = o.int_min !== undefined && o.int_max !== undefined ? [o.int_min, o.int_max] : [Math.max(lo0, hi0 - 80), hi0];
          for (let j = 0; j < d.rows && j < h; j++) {
            const row = d.y.slice(j * n, (j + 1) * n), ys = view.real ? row.slice(n >> 1) : row;
            for (let x = 0; x < w; x++) {
              const [r, g, b] = heat(ys[Math.floor(x * ys.length / w)], lo, hi);
              img.data.set([r, g, b, 255], 4 * ((h - 1 - j) * w + x));
            }
          }
          c.putImageData(img, 0, 0);
          continue;
        }
        const row = c.createImageData(w, 1);
        const ys = view.real ? d.y.slice(d.y.length >> 1) : d.y;
        const max = extent(ys)[1];
        const [lo, hi] = o.int_min !== undefined && o.int_max !== undefined ? [o.int_min, o.int_max] : [max - 80, max];
        for (let x = 0; x < w; x++) {
          const [r, g, b] = heat(ys[Math.floor(x * ys.length / w)], lo, hi);
          row.data.set([r, g, b, 255], 4 * x);
        }
        c.putImageData(row, 0, 0);
        continue;
      }
      if (drawSamples(view, data)) continue;
      // A PDU is shown whole (QT's sinks resize to it).
      const size = (!o.pdu && v.size) || data[0].x.length;
      if (v.kind === "time") {
        let start = 0;
        if (o.trigger === 1 || o.trigger === 2) {
          const at = triggerStart(view, data, size);
          if (at === null && o.trigger === 2) continue; // normal: keep the last triggered trace
          start = at || 0;
        } else if (o.trigger === 3) {
          const at = tagStart(view, data, size);
          if (at === null) continue; // as normal: keep the last triggered trace
          start = at;
        }
        for (const d of data) {
          for (const k of ["y", "y2"]) d[k] = d[k].slice(start, start + size);
          d.x = d.x.slice(0, size);
          d.tags = (d.tags || []).filter((t) => t.at >= start && t.at < start + size).map((t) => ({ ...t, at: t.at - start }));
        }
      } else if (v.kind === "constellation") {
        for (const d of data) { for (const k of ["x", "y"]) d[k] = d[k].slice(0, size); }
      }
      const label = (k, fallback) => (v.labels && v.labels[k]) || fallback;
      const datasets = [];
      // Tag marks, drawn over the traces (after them, so the first dataset stays a trace).
      const marks = [];
      let line = 0;
      data.forEach((d, i) => {
        const lk = look(view, line, v.kind === "constellation");
        const { name, alpha, ...style } = lk;
        const colour = lk.borderColor;
        if (v.kind === "spectrum") {
          // Averaging as the sink's `average`: each bin's power, exponentially.
          const a = o.average && o.average < 1 ? o.average : 1;
          const power = d.y.map((db) => Math.pow(10, db / 10));
          view.avg = view.avg || new Map();
          const prev = view.avg.get(d.id);
          const avg = prev && prev.length === power.length ? power.map((p, k) => a * p + (1 - a) * prev[k]) : power;
          view.avg.set(d.id, avg);
          // The axis from the display's rate as it is now (it may follow a variable), else the probe's.
          const n = d.x.length;
          const x = o.rate ? d.x.map((_, k) => (k - n / 2) * o.rate / n + v.centre)
            : d.x_unit === "Hz" ? d.x.map((f) => f + v.centre) : d.x;
          let pts = x.map((f, k) => ({ x: f, y: 10 * Math.log10(Math.max(avg[k], 1e-30)) }));
          if (view.real && o.half !== 0) pts = pts.slice(pts.length >> 1);
          datasets.push({ ...style, label: label(i, d.id), data: pts });
          line++;
          // Max and min hold: each bin's highest (lowest) level since the box was ticked.
          for (const [kind, pick] of [["max", Math.max], ["min", Math.min]]) {
            if (!view[`${kind}Hold`]) continue;
            const prev = view.hold[kind].get(d.id);
            const held = prev && prev.length === pts.length ? pts.map((p, k) => pick(p.y, prev[k])) : pts.map((p) => p.y);
            view.hold[kind].set(d.id, held);
            datasets.push({ label: `${kind} hold ${label(i, d.id)}`, data: pts.map((p, k) => ({ x: p.x, y: held[k] })),
              showLine: true, borderColor: colour, borderDash: kind === "max" ? [4, 2] : [1, 2], borderWidth: 1, pointRadius: 0 });
          }
          if (i === 0) view.main = pts;
        } else if (v.kind === "time") {
          const complex = d.y2.some((y) => y !== 0);
          if (o.tags !== 0 && d.tags && d.tags.length) {
            // The stream tags as QT's time sink draws them: a mark on the trace, key and value.
            const shown = d.tags.slice(0, 20);
            marks.push({ label: `tags ${d.id}`, data: shown.map((t) => ({ x: t.at, y: d.y[t.at] })), pointRadius: 4,
              pointStyle: "rectRot", backgroundColor: colour, tagTexts: shown.map((t) => `${t.key}: ${t.value}`) });
          }
          datasets.push({ ...style, label: label(line, (complex ? "Re " : "") + d.id), data: d.y.map((y, k) => ({ x: k, y })) });
          line++;
          if (complex) {
            const { name: _n, alpha: _a, ...im } = look(view, line);
            datasets.push({ ...im, label: label(line, `Im ${d.id}`), data: d.y2.map((y, k) => ({ x: k, y })) });
            line++;
          }
        } else {
          const pts = d.x.map((re, k) => ({ x: re, y: d.y[k] }));
          // Persistence: this frame's points over those of the frames before it, fainter.
          if (view.history) {
            const h = view.history.get(d.id) || { frame: null, frames: [] };
            if (h.frame !== d.frames) {
              h.frame = d.frames;
              h.frames = [pts].concat(h.frames).slice(0, view.persistence);
              view.history.set(d.id, h);
            }
            const older = h.frames.slice(1).reverse();
            older.forEach((old, k) => {
              const faded = paint(name, alpha * (0.15 + 0.5 * (k + 1) / (older.length + 1)));
              datasets.push({ ...style, label: `${label(i, d.id)} (earlier)`, data: old, pointRadius: 1, backgroundColor: faded, borderColor: faded });
            });
          }
          datasets.push({ ...style, label: label(i, d.id), data: pts });
          line++;
        }
      });
      datasets.push(...marks);
      if (v.kind === "spectrum" && view.main && view.main.length) {
        // The peak and the markers, read from the first input's (averaged) trace.
        const peak = peakOf(view.main);
        const unitOf = (f) => (data[0].x_unit === "Hz" || o.rate ? hz(f) : `bin ${f.toFixed(0)}`);
        const marks = view.markers.map((x) => nearest(view.main, x));
        datasets.push({ label: "peak", data: [peak], pointRadius: 5, pointStyle: "triangle", backgroundColor: "#e63946" });
        if (marks.length) datasets.push({ label: "markers", data: marks, pointRadius: 5, pointStyle: "crossRot", borderColor: "#2a9d8f", borderWidth: 2 });
        view.readout.textContent = [`peak ${unitOf(peak.x)}: ${peak.y.toFixed(1)} dB`]
          .concat(marks.map((m, k) => `M${k + 1} ${unitOf(m.x)}: ${m.y.toFixed(1)} dB`)).join(" · ");
        view.readout.dataset.peak = String(peak.x);
        view.readout.dataset.markers = JSON.stringify(marks.map((m) => [m.x, m.y]));
      }
      view.chart.data.datasets = datasets;
      const unit = data[0].x_unit;
      const fixed = (lo, hi) => (o[lo] !== undefined && o[hi] !== undefined ? { min: o[lo], max: o[hi] } : {});
      if (v.kind === "constellation") {
        // Equal scales: a circle stays a circle (the sink's limits when it has them).
        let m = 1e-9;
        for (const d of data) for (const k of ["x", "y"]) { const [lo, hi] = extent(d[k]); m = Math.max(m, -lo, hi); }
        m *= 1.1;
        const auto = { min: -m, max: m };
        const xs = o.xmin !== undefined ? fixed("xmin", "xmax") : auto, ys = o.ymin !== undefined ? fixed("ymin", "ymax") : auto;
        view.chart.options.scales = { x: { ...xs, title: { display: true, text: "I" } }, y: { ...ys, title: { display: true, text: "Q" } } };
      } else {
        const rate = o.rate;
        view.chart.options.scales = {
          // The whole band (or frame), whatever the fixed y limits leave visible.
          x: { min: datasets[0].data[0].x, max: datasets[0].data[datasets[0].data.length - 1].x,
            title: { display: true, text: v.kind === "spectrum" ? (unit === "Hz" || o.rate ? "Hz" : "bin") : rate ? `sample (${rate} per s)` : "sample" } },
          y: { ...fixed("ymin", "ymax"), title: { display: true, text: v.kind === "spectrum" ? "dB" : "amplitude" } },
        };
      }
      view.chart.update("none");
    } catch (e) { /* the next refresh tries again */ }
  }
}

// The sinks drawn from plain samples (the probes' time view: `y` real, `y2` imaginary parts):
// number, histogram, eye, raster and vector. False for the other kinds.
function drawSamples(view, data) {
  const { v, o } = view;
  const label = (k, fallback) => (v.labels && v.labels[k]) || fallback;
  if (v.kind === "number") {
    // GNU Radio's number sink: each sample times the input's factor, through a one-pole
    // average (`avg`, 0 for none), the latest value shown.
    data.forEach((d, i) => {
      const n = view.numbers[i];
      // Each frame averaged in once, however often the page looks.
      if (!n || n.frame === d.frames) return;
      n.frame = d.frames;
      const factor = o[`factor${i}`] === undefined ? 1 : o[`factor${i}`];
      const a = o.avg > 0 ? o.avg : 1;
      for (const y of d.y) {
        const x = y * factor;
        n.state = n.state === null ? x : a * x + (1 - a) * n.state;
      }
      n.lo = Math.min(n.lo, n.state); n.hi = Math.max(n.hi, n.state);
      n.value.textContent = `${Number(n.state.toPrecision(6))} ${(v.units || [])[i] || ""}`.trim();
      if (o.autoscale === 1 && n.hi > n.lo) { n.bar.min = n.lo; n.bar.max = n.hi; }
      n.bar.value = n.state;
    });
    return true;
  }
  if (v.kind === "compass") {
    // GrCompass's stream input: the mean of what came (here, of the latest frame).
    const ys = data[0].y;
    if (ys.length) drawCompass(view, ys.reduce((a, b) => a + b, 0) / ys.length);
    return true;
  }
  if (v.kind === "raster") {
    const rows = o.rows || 1, cols = o.cols || 1;
    const lo = o.zmin === undefined ? -1 : o.zmin, hi = o.zmax === undefined ? 1 : o.zmax;
    data.forEach((d, i) => {
      const canvas = view.rasters[i];
      if (!canvas) return;
      const mult = o[`mult${i}`] === undefined ? 1 : o[`mult${i}`], offset = o[`offset${i}`] || 0;
      const c = canvas.getContext("2d");
      const img = c.createImageData(cols, rows);
      for (let k = 0; k < rows * cols && k < d.y.length; k++) {
        const [r, g, b] = heat(d.y[k] * mult + offset, lo, hi);
        img.data.set([r, g, b, 255], 4 * k);
      }
      c.putImageData(img, 0, 0);
    });
    return true;
  }
  let datasets = [];
  let xTitle = "sample", yTitle = "amplitude";
  if (v.kind === "histogram") {
    // Counts in `bins` bins over the fixed range, or over the frame's own range (autoscale);
    // accumulated over frames when the sink accumulates.
    const bins = Math.max(1, o.bins || 100);
    const all = data.flatMap((d) => d.y);
    const [lo, hi] = o.xmin !== undefined && o.xmax !== undefined ? [o.xmin, o.xmax]
      : extent(all);
    const width = (hi - lo) / bins || 1;
    view.counts = view.counts || [];
    data.forEach((d, i) => {
      const counts = o.accumulate === 1 && view.counts[i] && view.range === `${lo},${hi}` ? view.counts[i] : new Array(bins).fill(0);
      for (const y of d.y) {
        const k = Math.floor((y - lo) / width);
        if (k >= 0 && k < bins) counts[k] += 1; else if (y === hi) counts[bins - 1] += 1;
      }
      view.counts[i] = counts;
      const { name: _n, alpha: _a, ...style } = look(view, i);
      datasets.push({ ...style, label: label(i, d.id), data: counts.map((n, k) => ({ x: lo + (k + 0.5) * width, y: n })),
        stepped: "middle" });
    });
    view.range = `${lo},${hi}`;
    xTitle = "value"; yTitle = "count";
  } else if (v.kind === "eye") {
    // Two symbols per trace (2 sps + 1 samples, from each symbol's start), all traces of a
    // part in one line broken between traces; a complex input's real and imaginary parts apart.
    const sps = Math.max(1, Math.round(o.sps || 1));
    const span = 2 * sps;
    // The sink's trigger as the time sink's: the traces start where it fires (the last
    // triggered picture stays while it does not, in normal and tag modes).
    const size = v.size || data[0].y.length;
    let start = 0;
    if (o.trigger === 1 || o.trigger === 2) {
      const at = triggerStart(view, data, size);
      if (at === null && o.trigger === 2) return true;
      start = at || 0;
    } else if (o.trigger === 3) {
      const at = tagStart(view, data, size);
      if (at === null) return true;
      start = at;
    }
    if (o.trigger) data = data.map((d) => ({ ...d, y: d.y.slice(start, start + size), y2: d.y2.slice(start, start + size) }));
    let line = 0;
    data.forEach((d) => {
      const complex = d.y2.some((y) => y !== 0);
      for (const [part, ys] of complex ? [["Re ", d.y], ["Im ", d.y2]] : [["", d.y]]) {
        const pts = [];
        for (let start = 0; start + span < ys.length; start += sps) {
          for (let k = 0; k <= span; k++) pts.push({ x: o.rate ? k / o.rate : k, y: ys[start + k] });
          pts.push({ x: o.rate ? span / o.rate : span, y: null });
        }
        const { name: _n, alpha: _a, ...style } = look(view, line);
        datasets.push({ ...style, label: label(line, part + d.id), data: pts, spanGaps: false });
        line++;
      }
    });
    xTitle = o.rate ? "s" : "sample";
  } else if (v.kind === "vector") {
    // The latest whole vector of each input against x_start + k x_step, averaged over
    // frames by the sink's `average` (1 for none); the reference level as a line.
    const n = v.size || data[0].y.length;
    const a = o.average > 0 && o.average < 1 ? o.average : 1;
    view.avg = view.avg || new Map();
    data.forEach((d, i) => {
      const whole = Math.floor(d.y.length / n) * n;
      const ys = d.y.slice(Math.max(0, whole - n), whole);
      const prev = view.avg.get(d.id);
      const avg = prev && prev.length === ys.length ? ys.map((y, k) => a * y + (1 - a) * prev[k]) : ys;
      view.avg.set(d.id, avg);
      const { name: _n, alpha: _a, ...style } = look(view, i);
      datasets.push({ ...style, label: label(i, d.id), data: avg.map((y, k) => ({ x: (o.x_start || 0) + k * (o.x_step === undefined ? 1 : o.x_step), y })) });
    });
    if (o.ref_level && datasets.length && datasets[0].data.length) {
      const xs = datasets[0].data;
      datasets.push({ label: "reference", data: [{ x: xs[0].x, y: o.ref_level }, { x: xs[xs.length - 1].x, y: o.ref_level }],
        showLine: true, borderDash: [4, 4], borderColor: "#8d99ae", borderWidth: 1, pointRadius: 0 });
    }
    [xTitle, yTitle] = [(v.units || [])[0] || "index", (v.units || [])[1] || "value"];
  } else {
    return false;
  }
  view.chart.data.datasets = datasets;
  const fixed = (lo, hi) => (o[lo] !== undefined && o[hi] !== undefined ? { min: o[lo], max: o[hi] } : {});
  view.chart.options.scales = {
    // A histogram's fixed range; an eye's or vector's x axis from its first to its last point.
    x: { ...(v.kind === "histogram" ? fixed("xmin", "xmax") : datasets.length && datasets[0].data.length
      ? { min: datasets[0].data[0].x, max: datasets[0].data[datasets[0].data.length - 1].x } : {}),
      title: { display: true, text: xTitle } },
    y: { ...(v.kind === "histogram" ? {} : fixed("ymin", "ymax")), title: { display: true, text: yTitle } },
  };
  view.chart.update("none");
  return true;
}

function showCounters(r) {
  const status = document.getElementById("status");
  status.textContent = r.running ? "running" : "stopped";
  status.className = r.running ? "running" : "stopped";
  document.getElementById("bottleneck").textContent = r.bottleneck ? "bottleneck: " + r.bottleneck
    : r.paced_by ? `paced by ${r.paced_by} (it waits by design; no block is the bottleneck)` : "";
  const body = document.querySelector("#blocks tbody");
  body.innerHTML = "";
  for (const b of r.blocks) {
    const tr = el("tr", { id: "row-" + b.name, class: b.name === r.bottleneck ? "bottleneck" : "" });
    for (const v of [b.name, fmt(b.in_per_s), fmt(b.out_per_s), fmt(b.calls_per_s), (100 * b.share).toFixed(1) + " %",
      b.work_calls, b.input_empty, b.output_full, b.messages]) tr.appendChild(el("td", {}, String(v)));
    // What the block counts itself (a radio's overflows), by name.
    const events = Object.entries(b.events || {});
    tr.appendChild(el("td", { class: events.some(([, n]) => n > 0) ? "events" : "" },
      events.length ? events.map(([k, n]) => `${k} ${n}`).join(", ") : ""));
    body.appendChild(tr);
    const g = document.getElementById("block-" + b.name);
    if (g) g.setAttribute("class", "block" + (b.name === r.bottleneck ? " bottleneck" : ""));
    const rate = document.querySelector(`[data-rate="${CSS.escape(b.name)}"]`);
    if (rate) rate.textContent = `${fmt(b.in_per_s)}/s in, ${fmt(b.out_per_s)}/s out`;
    const share = document.querySelector(`[data-share="${CSS.escape(b.name)}"]`);
    if (share) share.textContent = `${(100 * b.share).toFixed(1)} % of time, ${b.work_calls} calls`;
  }
  for (const e of document.querySelectorAll("[data-edge]")) {
    const at = e.getAttribute("data-edge");
    const b = r.blocks.find((b) => at.startsWith(b.name + "."));
    const buf = (r.buffers || []).find((x) => `${x.block}.${x.port}` === at);
    if (b) e.textContent = fmt(b.out_per_s) + "/s" + (buf ? `, ${(100 * buf.fill).toFixed(0)} % full` : "");
  }
  const threads = document.querySelector("#threads tbody");
  threads.innerHTML = "";
  for (const t of r.threads) {
    const tr = el("tr");
    for (const v of [`${t.name} (${t.tid})`, (100 * t.cpu_share).toFixed(0) + " %", t.cpu_s.toFixed(2), t.voluntary_switches, t.involuntary_switches])
      tr.appendChild(el("td", {}, String(v)));
    threads.appendChild(tr);
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(proto + "//" + location.host + withToken("/api/stream?period_ms=250"));
  ws.onmessage = (m) => showCounters(JSON.parse(m.data));
  // A new server on the same address may serve another graph (bench --control: one per run).
  ws.onopen = () => api("/api/graph").then((g) => {
    if (graph && JSON.stringify(g.blocks) !== JSON.stringify(graph.blocks)) location.reload();
  }).catch(() => {});
  ws.onclose = () => { document.getElementById("status").textContent = "disconnected"; setTimeout(connect, 1000); };
}

document.getElementById("stop").onclick = () => api("/api/stop",
  { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
  .catch((e) => { document.getElementById("control-result").textContent = "error: " + e.message; });

api("/api/graph").then((g) => {
  graph = g;
  drawGraph(g);
  drawControls(g);
  setupProbes(g);
  setupViews(g);
  if (g.variables) refreshVariables();
  connect();
  setInterval(refreshProbes, 200);
  setInterval(refreshViews, 200);
}).catch((e) => { document.getElementById("status").textContent = "error: " + e.message; });
