// An arena's live standings (E-3): one read-only socket; each message
// redraws the table, the podium and, for a seated player, the way to his table.
const gettext = window.gettext || ((s) => s);
const root = document.getElementById("arena");
const lang = document.documentElement.lang || "fa";
const fmt = new Intl.NumberFormat(lang === "fa" ? "fa-IR" : "en");

function state(r) {
  if (r.withdrawn) return gettext("withdrawn");
  if (r.busy) return gettext("playing");
  return r.present ? gettext("waiting") : gettext("away");
}

async function roomsOf(data) {
  const res = await fetch(root.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  return res.ok ? (await res.json()).rooms : {};
}

async function draw(data) {
  root.dataset.status = data.status;
  root.dataset.updates = String(Number(root.dataset.updates || 0) + 1);
  const rows = root.querySelector("[data-rows]");
  rows.replaceChildren(
    ...data.standings.map((r, i) => {
      const tr = document.createElement("tr");
      tr.dataset.user = String(r.user_id);
      const cells = [fmt.format(i + 1), r.name, fmt.format(r.score), (r.streak >= 2 ? "🔥" : "") + fmt.format(r.streak), fmt.format(r.played), state(r)];
      for (const c of cells) {
        const td = document.createElement("td");
        td.textContent = c;
        tr.append(td);
      }
      return tr;
    }),
  );
  const names = Object.fromEntries(data.standings.map((r) => [r.user_id, r.name]));
  const podium = root.querySelector("[data-podium]");
  if (data.podium && data.podium.length) {
    const ol = podium.querySelector("ol");
    ol.replaceChildren(...data.podium.map((uid, i) => {
      const li = document.createElement("li");
      li.className = `ev-medal-${i + 1}`;
      li.textContent = names[uid] || "?";
      return li;
    }));
    podium.hidden = false;
  }
  const me = root.dataset.me;
  const seated = root.querySelector("[data-seated]");
  const roomId = me && data.tables ? data.tables[me] : null;
  if (roomId) {
    const rooms = await roomsOf(data);
    const link = seated.querySelector("[data-seated-link]");
    if (rooms[String(roomId)]) link.href = rooms[String(roomId)];
    seated.hidden = false;
  } else {
    seated.hidden = true;
  }
}

let newest = 0;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/arena/${root.dataset.arena}/`);
  ws.addEventListener("open", () => { root.dataset.live = "true"; });
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(e.data);
    // Each frame is the whole table read at ``at``: an older one is never drawn over a newer.
    if (msg.type === "standings" && !(msg.at < newest)) {
      newest = msg.at;
      draw(msg);
    }
  });
  ws.addEventListener("close", () => {
    root.dataset.live = "false";
    setTimeout(connect, 2000);
  });
}

if (root) connect();
