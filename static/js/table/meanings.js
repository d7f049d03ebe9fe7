// Explained calls in Bridge (issue 38): hovering or tapping a call of the
// auction shows what it means in the bots' system, in the page's language
// (rooms/explain.py answers a public auction; nothing hidden is asked).
const cache = new Map(); // "dealer|calls" -> [text, ...] or a promise

function key(table) {
  return `${table.dataset.dealer}|${table.dataset.calls}`;
}

function apply(table, meanings) {
  for (const td of table.querySelectorAll("td[data-call-index]")) {
    const text = meanings[Number(td.dataset.callIndex)];
    if (text) td.title = text;
  }
}

/** Give every call cell of every auction table under ``root`` its meaning (title; a tap shows it). */
export function explainCalls(root, app) {
  for (const table of root.querySelectorAll("table.auction[data-calls]")) {
    if (!table.dataset.calls) continue;
    if (!table.dataset.explained) {
      table.dataset.explained = "1";
      table.addEventListener("click", (ev) => {
        const td = ev.target.closest("td[data-call-index]");
        if (td && td.title) app.renderer.toast(td.title, "info", 5000);
      });
    }
    const k = key(table);
    const known = cache.get(k);
    if (Array.isArray(known)) {
      apply(table, known);
      continue;
    }
    if (known) continue; // on its way
    const url = `/rooms/explain/bridge/?dealer=${encodeURIComponent(table.dataset.dealer)}&calls=${encodeURIComponent(table.dataset.calls)}`;
    cache.set(k, fetch(url, { credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : { meanings: [] }))
      .then((data) => {
        cache.set(k, data.meanings || []);
        for (const t of root.querySelectorAll("table.auction[data-calls]")) if (key(t) === k) apply(t, data.meanings || []);
      })
      .catch(() => cache.delete(k)));
  }
}
