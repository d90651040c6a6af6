/* Table Companion scoreboard, Hexapod part: each player's display case as a grid of coloured
   cells, the P4 score with its breakdown per kind, coins and cards; the camera's candidate is
   drawn over the case it is about (dashed: the new card, green if legal, red if not; orange
   outline: cells the message is about). board.js calls TCHexapod.render(snap) for Hexapod. */
"use strict";
(function () {
  const LABEL = { B: "B", G: "G", Y: "Y", R: "R", K: "K", St: "S", Sb: "S", Ml: "M", Mr: "M", ".": "", "?": "?" };
  const KIND = { B: "blue beetle", G: "green beetle", Y: "gold beetle", R: "red leaf beetles", K: "dung beetle",
    St: "stag beetle (top)", Sb: "stag beetle (bottom)", Ml: "moth (left)", Mr: "moth (right)", ".": "empty" };

  function node(tag, cls, text, parent) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = String(text);
    if (parent) parent.appendChild(e);
    return e;
  }

  function cellClass(code) {
    return "cell c-" + (code === "." ? "empty" : code === "?" ? "unknown" : code);
  }

  function drawGrid(parent, seat, g, cand) {
    const grid = node("div", "hx-grid", null, parent);
    grid.style.gridTemplateColumns = `repeat(${g.case_cols}, 1fr)`;
    grid.setAttribute("role", "img");
    grid.setAttribute("aria-label", seat.name + "'s display case");
    const mine = cand && cand.seat === seat.seat;
    const act = mine && cand.action && cand.action.type === "table_play" ? cand.action : null;
    const flagged = new Set(mine ? (cand.cells || []).map(([c, r]) => c + "," + r) : []);
    for (let r = 0; r < g.case_rows; r++) {
      for (let c = 0; c < g.case_cols; c++) {
        let code = seat.case[r][c];
        let cls = "";
        if (act && c >= act.col && c < act.col + g.card_cols && r >= act.row && r < act.row + g.card_rows) {
          code = act.rows[r - act.row][c - act.col];
          cls = " ghost " + (cand.legal ? "legal" : "illegal");
        } else if (flagged.has(c + "," + r)) {
          cls = " flag";
        }
        const e = node("div", cellClass(code) + cls, LABEL[code] != null ? LABEL[code] : code, grid);
        e.title = (KIND[code] || code) + ` (column ${c + 1}, row ${r + 1})`;
        e.dataset.code = code;
      }
    }
  }

  function drawSeat(parent, seat, g, cand) {
    const box = node("article", "hx-seat" + (seat.to_play ? " to-play" : "") + (seat.passed ? " passed" : "") +
      (seat.winner ? " winner" : ""), null, parent);
    box.dataset.seat = seat.seat;
    const head = node("header", "hx-head", null, box);
    const name = node("span", "hx-name", (seat.to_play ? "▶ " : "") + seat.name, head);
    node("span", "tag", "player " + seat.player, name);
    if (seat.passed) node("span", "tag", "passed", name);
    if (seat.winner) node("span", "tag win", "winner", name);
    const score = node("span", "hx-total", null, head);
    const total = node("span", "hx-score", seat.score, score);
    total.id = "hx-score-" + seat.seat;
    node("small", null, " pts", score);
    const meta = node("div", "hx-meta", null, box);
    const coins = node("span", "hx-coins", "●".repeat(Math.min(seat.coins, 12)) + " " + seat.coins +
      (seat.coins === 1 ? " coin" : " coins"), meta);
    coins.id = "hx-coins-" + seat.seat;
    node("span", null, " · " + seat.cards + (seat.cards === 1 ? " card" : " cards"), meta);
    drawGrid(box, seat, g, cand);
    const dl = node("dl", "hx-breakdown", null, box);
    dl.id = "hx-breakdown-" + seat.seat;
    for (const kind of Object.keys(g.kinds)) {
      const d = node("div", "k-" + kind + (seat.breakdown[kind] ? "" : " zero"), null, dl);
      node("dt", null, g.kinds[kind], d);
      node("dd", null, seat.breakdown[kind], d);
    }
  }

  function render(snap) {
    const box = document.getElementById("hx-cases");
    if (!box) return;
    box.textContent = "";
    const g = snap.game;
    const set = (id, v) => { const e = document.getElementById(id); if (e) e.textContent = v == null ? "" : String(v); };
    set("hx-turns", g ? g.turns : "–");
    set("hx-cards-left", g ? g.cards_left : "–");
    set("hx-spider", g ? (g.spider ? "shown" : "hidden") : "–");
    if (!g || !g.seats) return;
    for (const seat of g.seats) drawSeat(box, seat, g, snap.candidate);
  }

  window.TCHexapod = { render: render };
})();
