/* Admin page: commands are posted with fetch (CSRF token in a header) and answered in place;
   seat and hand selectors follow the live state. Without JavaScript the forms still post. */
"use strict";
(function () {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const result = document.getElementById("result");

  function show(ok, message) {
    result.textContent = message;
    result.className = "result " + (ok ? "ok" : "bad");
  }

  document.querySelectorAll("form.act").forEach((form) => {
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = new URLSearchParams(new FormData(form));
      try {
        const r = await fetch(form.getAttribute("action"), {
          method: "POST", body: body, credentials: "same-origin",
          headers: { "X-CSRF-Token": token, "X-Requested-With": "fetch" },
        });
        const data = await r.json().catch(() => ({ ok: false, message: "HTTP " + r.status }));
        show(data.ok, data.message);
        form.querySelectorAll("select.to-play-default").forEach((sel) => { delete sel.dataset.touched; });
      } catch (e) {
        show(false, "The table did not answer: " + e);
      }
    });
  });

  function fillSelects(snap) {
    const g = snap.game;
    if (!g) return;
    const hexapod = g.game === "hexapod";
    document.querySelectorAll("select.seat-select").forEach((sel) => {
      const keep = sel.value;
      sel.textContent = "";
      for (const s of g.seats) {
        const o = document.createElement("option");
        o.value = s.seat;
        o.textContent = s.name;
        sel.appendChild(o);
      }
      if (sel.classList.contains("to-play-default") && !sel.dataset.touched && g.to_play != null) sel.value = g.to_play;
      else if (keep !== "") sel.value = keep;
    });
    document.querySelectorAll("select.deck-select").forEach((sel) => {
      if (hexapod || sel.options.length === g.deck.length) return;
      sel.textContent = "";
      for (const c of g.deck) { const o = document.createElement("option"); o.textContent = c; sel.appendChild(o); }
    });
    document.querySelectorAll("select.hx-deck-select").forEach((sel) => {
      if (!hexapod || sel.options.length === g.deck.length) return;
      sel.textContent = "";
      for (const c of g.deck) {
        const o = document.createElement("option");
        o.value = c.name;
        o.textContent = c.name + " · " + c.text;
        sel.appendChild(o);
      }
    });
  }
  document.querySelectorAll("select.to-play-default").forEach((sel) => {
    sel.addEventListener("change", () => { sel.dataset.touched = "1"; });
  });
  document.addEventListener("tc:render", (e) => fillSelects(e.detail));
  if (window.TC) fillSelects(window.TC.snap);
})();
