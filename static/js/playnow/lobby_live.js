// The lobby that lives (M-5): ws/lobby/ sends the open tables, the tables to
// watch and how many people play now whenever they change (at most once a
// second); the room list and the counters are drawn again without a reload.
const FA_DIGITS = "۰۱۲۳۴۵۶۷۸۹";
const persian = document.documentElement.lang === "fa";
const num = (n) => (persian ? String(n).replace(/[0-9]/g, (d) => FA_DIGITS[d]) : String(n));
// A provisional rating (M-2) is marked with the page's question mark.
const MARK = persian ? "؟" : "?";
const fill = (fmt, obj) => fmt.replace(/\{(\w+)\}/g, (_, k) => obj[k]);

const t = document.querySelector("[data-lobby-live]")?.dataset;
const list = document.querySelector("[data-testid=room-list]");
const watchList = document.querySelector("[data-testid=watch-list]");
const playing = document.querySelectorAll("[data-testid=playing-now]");
const openCount = document.querySelectorAll("[data-testid=open-count]");
const filter = new URLSearchParams(window.location.search).get("game");
let last = null;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function waited(since) {
  const s = Math.max(0, Math.floor(Date.now() / 1000 - since));
  const m = Math.floor(s / 60);
  return m ? `${num(m)}:${num(String(s % 60).padStart(2, "0"))}` : `${num(s)}″`;
}

function card(item, waitingTable) {
  const li = el("li", "room-card live-card");
  li.dataset.room = item.code;
  const head = el("div");
  const title = el("h3", null, item.preset || item.name);
  title.append(" ", el("span", waitingTable ? "status-badge" : "status-badge playing", waitingTable ? t.tWaiting : t.tPlaying));
  head.append(title);
  const people = el("ul", "live-seats");
  for (const seat of item.seats) {
    const s = el("li", seat.bot ? "bot" : seat.name ? "person" : "free");
    if (seat.name) {
      const name = el("bdi", null, seat.name);
      const rating = el("span", "rating", num(seat.rating) + (seat.provisional ? MARK : ""));
      if (seat.provisional) rating.title = t.tProvisional;
      s.append(name, " ", rating);
    } else {
      s.textContent = seat.bot ? t.tBot : t.tEmpty;
    }
    people.append(s);
  }
  head.append(people);
  const meta = el("div", "meta");
  if (waitingTable) {
    meta.append(fill(t.tFree, { n: num(item.free) }), " · ");
    const since = el("span", "waited", fill(t.tWaited, { s: waited(item.since) }));
    since.dataset.since = item.since;
    meta.append(since);
  }
  head.append(meta);
  const rules = el("p", "live-rules muted", item.rules.join(" · "));
  const actions = el("div", "actions");
  if (waitingTable) {
    const join = el("a", "btn btn-small", t.tJoin);
    join.href = item.url;
    join.dataset.testid = `join-${item.code}`;
    actions.append(join);
  }
  const watch = el("a", "btn btn-ghost btn-small", t.tWatch);
  watch.href = `${item.url}?watch=1`;
  actions.append(watch);
  li.append(head, actions, rules);
  return li;
}

function render(data) {
  const waiting = data.waiting.filter((i) => !filter || i.game === filter);
  const watch = data.watch.filter((i) => !filter || i.game === filter);
  for (const node of playing) node.textContent = data.playing_text.replace(/[0-9]+/g, (d) => num(d));
  for (const node of openCount) node.textContent = num(data.waiting.length);
  if (list) {
    const items = waiting.map((i) => card(i, true));
    if (!watchList) items.push(...watch.map((i) => card(i, false)));
    list.replaceChildren(...(items.length ? items : [el("li", "muted", t.tNone)]));
  }
  if (watchList) watchList.replaceChildren(...watch.map((i) => card(i, false)));
}

function tick() {
  for (const node of document.querySelectorAll(".waited[data-since]")) {
    node.textContent = fill(t.tWaited, { s: waited(Number(node.dataset.since)) });
  }
}

function connect(delay) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/lobby/`);
  socket.addEventListener("message", (event) => {
    if (event.data === last) return;
    last = event.data;
    render(JSON.parse(event.data));
    document.body.dataset.lobbyUpdates = String(Number(document.body.dataset.lobbyUpdates || 0) + 1);
  });
  socket.addEventListener("close", () => window.setTimeout(() => connect(Math.min(delay * 2, 30000)), delay));
}

if (t) {
  connect(1000);
  window.setInterval(tick, 1000);
}
