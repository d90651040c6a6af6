/* Table Companion scoreboard: renders the referee's JSON views and stays live over SSE.
   One EventSource per page; the browser resumes with Last-Event-ID after a drop, and after a
   server restart (when the browser gives up) we open a new one passing ?last= ourselves. */
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const SVGNS = "http://www.w3.org/2000/svg";
  const SQ3 = Math.sqrt(3);
  const SIZE = 10;  // corner radius of a drawn card
  const COLOURS = { R: "#d2241e", B: "#1e50be", V: "#1e1e22", Y: "#f0be00" };
  const page = JSON.parse($("page-config").textContent);
  const TC = (window.TC = { snap: JSON.parse($("initial").textContent), lastId: null, es: null });

  function el(tag, attrs, parent) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function centre(cell) { const [q, r] = cell; return [SIZE * SQ3 * (q + r / 2), SIZE * 1.5 * r]; }
  function hexPoints(cx, cy, s) {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = Math.PI / 180 * (60 * i - 30);
      pts.push((cx + s * Math.cos(a)).toFixed(2) + "," + (cy + s * Math.sin(a)).toFixed(2));
    }
    return pts.join(" ");
  }
  function mark(svg, letter, x, y, edition) {
    const c = COLOURS[letter] || "#888";
    const r = 1.9;
    if (letter === "V") return el("circle", { cx: x, cy: y, r: r, fill: "none", stroke: c, "stroke-width": 1.1 }, svg);
    if (edition === "web" && letter === "B")
      return el("polygon", { points: `${x},${y - r * 1.3} ${x + r},${y} ${x},${y + r * 1.3} ${x - r},${y}`, fill: c }, svg);
    if (letter === "Y")
      return el("polygon", { points: `${x},${y - r * 1.2} ${x + r * 1.1},${y + r * .8} ${x - r * 1.1},${y + r * .8}`, fill: c }, svg);
    if (letter === "?") return el("text", { x: x, y: y + 1.4 }, svg).appendChild(document.createTextNode("?"));
    return el("circle", { cx: x, cy: y, r: r, fill: c }, svg);
  }
  function drawCard(svg, cell, oriented, cls, edition) {
    const [cx, cy] = centre(cell);
    el("polygon", { points: hexPoints(cx, cy, SIZE * 0.96), class: cls }, svg);
    if (!oriented) return;
    const apothem = SIZE * SQ3 / 2;
    for (let d = 0; d < 6; d++) {
      const a = -Math.PI / 3 * d;  // edge d's outward normal (y down)
      mark(svg, oriented[d], cx + 0.64 * apothem * Math.cos(a), cy + 0.64 * apothem * Math.sin(a), edition);
    }
  }

  function renderBoard(snap) {
    const svg = $("board");
    if (!svg) return;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const g = snap.game, cand = snap.candidate || {};
    const cells = [];
    const edition = g ? g.edition : "holodex";
    if (g) {
      const last = g.layout.length ? g.layout[g.layout.length - 1].n : -1;
      for (const p of g.layout) {
        drawCard(svg, p.cell, p.oriented, "card" + (p.n === last && g.layout.length > 3 ? " last" : ""), edition);
        cells.push(p.cell);
      }
    }
    const act = cand.action;
    if (act && act.type === "place") {
      drawCard(svg, act.cell, cand.symbols, "card ghost " + (cand.legal ? "legal" : "illegal"), edition);
      cells.push(act.cell);
    }
    for (const c of cand.cells || []) {
      const [cx, cy] = centre(c);
      el("polygon", { points: hexPoints(cx, cy, SIZE * 1.02), class: "flag" }, svg);
      cells.push(c);
    }
    if (!cells.length) { svg.setAttribute("viewBox", "-40 -25 80 50"); return; }
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const c of cells) {
      const [x, y] = centre(c);
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
    const pad = SIZE * 1.6;
    let w = x1 - x0 + 2 * pad, h = y1 - y0 + 2 * pad;
    if (h < w * 0.5) { const extra = w * 0.5 - h; y0 -= extra / 2; h = w * 0.5; }
    svg.setAttribute("viewBox", `${(x0 - pad).toFixed(1)} ${(y0 - pad).toFixed(1)} ${w.toFixed(1)} ${h.toFixed(1)}`);
  }

  function text(id, value) { const e = $(id); if (e) e.textContent = value == null ? "" : String(value); }

  function renderSeats(g) {
    const body = document.querySelector("#seats tbody");
    if (!body) return;
    body.textContent = "";
    if (!g) return;
    for (const s of g.seats) {
      const tr = document.createElement("tr");
      tr.className = (s.to_play ? "to-play " : "") + (s.out ? "out" : "");
      tr.dataset.seat = s.seat;
      const name = document.createElement("td");
      name.textContent = (s.to_play ? "▶ " : "") + s.name;
      if (s.dealer) { const t = document.createElement("span"); t.className = "tag"; t.textContent = "dealer"; name.appendChild(t); }
      if (s.out) { const t = document.createElement("span"); t.className = "tag"; t.textContent = "out"; name.appendChild(t); }
      tr.appendChild(name);
      for (const [v, cls] of [[s.stock, "stock"], [s.hedge, "hedge"], [s.hand, "hand"], [s.cards, "cards"]]) {
        const td = document.createElement("td");
        td.className = cls;
        td.textContent = v;
        if (cls === "hand" && s.frozen) { td.classList.add("frozen"); td.textContent = "❄ " + v; td.title = "frozen until the next game"; }
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  function renderCandidate(c) {
    const box = $("candidate");
    if (!box || !c) return;
    box.className = "candidate kind-" + c.kind + (c.kind === "move" ? (c.legal ? " legal" : " illegal") : "");
    text("candidate-text", c.message);
  }

  function renderAnnounce(last) {
    text("announce-word", last ? last.headline || "" : "Welcome");
    text("announce-who", last ? last.who || "" : "");
    text("announce-lines", last ? (last.lines || []).join(" · ") : "");
  }

  function renderHistory(history) {
    const ol = $("history");
    if (!ol) return;
    ol.textContent = "";
    for (const h of history || []) {
      const li = document.createElement("li");
      li.value = h.n;
      const b = document.createElement("b");
      b.textContent = h.headline;
      li.appendChild(b);
      li.appendChild(document.createTextNode(" " + (h.lines || []).join(" · ")));
      ol.appendChild(li);
    }
  }

  const hexapod = () => window.TCHexapod && TC.snap && TC.snap.game_name === "hexapod";

  function render(snap) {
    TC.snap = snap;
    const g = snap.game;
    document.body.dataset.game = snap.game_name || "";
    text("turn", g ? (g.turn_text || (g.to_play_name ? g.to_play_name + " to play" : g.phase_text)) : "No match yet: start one on the admin page");
    renderAnnounce(snap.last);
    renderCandidate(snap.candidate);
    if (hexapod()) {
      window.TCHexapod.render(snap);
    } else {
      text("stake", g ? g.stake : "–");
      text("round", g ? g.round : "–");
      text("cards-left", g ? g.cards_left : "–");
      text("game-no", g ? g.game_no : "–");
      renderSeats(g);
      renderBoard(snap);
    }
    renderHistory(snap.history);
    if (snap.status) text("status", snap.status.message);
    document.body.dataset.actions = g ? String(snap.last ? snap.last.n : 0) : "";
    document.dispatchEvent(new CustomEvent("tc:render", { detail: snap }));
  }
  TC.render = render;

  function flash() {
    const a = $("announce");
    if (!a) return;
    a.classList.remove("flash-in");
    void a.offsetWidth;
    a.classList.add("flash-in");
  }

  function setConn(state) {
    const c = $("conn");
    if (!c) return;
    c.className = "conn " + state;
    c.title = state === "live" ? "live" : "reconnecting…";
    document.body.dataset.conn = state;
  }

  let notieTimer = null;
  function notice(n) {
    const box = $("notice");
    if (!box) return;
    box.textContent = n.text;
    box.hidden = false;
    clearTimeout(notieTimer);
    notieTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }
  TC.notice = notice;

  function connect() {
    const url = TC.lastId ? "/events?last=" + encodeURIComponent(TC.lastId) : "/events";
    const es = (TC.es = new EventSource(url));
    const track = (e) => { if (e.lastEventId) TC.lastId = e.lastEventId; document.body.dataset.eventId = TC.lastId || ""; };
    es.onopen = () => setConn("live");
    es.addEventListener("state", (e) => { track(e); render(JSON.parse(e.data)); });
    es.addEventListener("candidate", (e) => {
      track(e);
      TC.snap.candidate = JSON.parse(e.data);
      renderCandidate(TC.snap.candidate);
      if (hexapod()) window.TCHexapod.render(TC.snap); else renderBoard(TC.snap);
    });
    es.addEventListener("announce", (e) => { track(e); flash(); });
    es.addEventListener("status", (e) => { track(e); const s = JSON.parse(e.data); TC.snap.status = s; text("status", s.message); });
    es.addEventListener("notice", (e) => { track(e); notice(JSON.parse(e.data)); });
    es.onerror = () => {
      setConn("down");
      if (es.readyState === EventSource.CLOSED) {  // the browser gave up (server restarting)
        setTimeout(connect, page.retry_ms || 1500);
      }
    };
  }

  function pollFrame() {
    const img = $("frame");
    if (!img) return;
    let busy = false;
    img.onload = () => { busy = false; img.hidden = false; };
    img.onerror = () => { busy = false; img.hidden = true; };
    const tick = () => {
      if (!document.hidden && !busy) { busy = true; img.src = "/frame.jpg?t=" + Date.now(); }
    };
    tick();
    setInterval(tick, page.frame_ms || 1000);
  }

  render(TC.snap);
  connect();
  pollFrame();
})();
