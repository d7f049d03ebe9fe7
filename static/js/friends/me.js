// The per-user socket (ws/me/, R-9): invites and friends' online changes on
// any open page, a badge on the top bar's "Friends" link, and a small toast.
// Django's JavaScript catalog (loaded before this module) gives gettext.
const gettext = window.gettext || ((s) => s);
const interpolate = window.interpolate || ((fmt, obj) => fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));

const FA_DIGITS = "۰۱۲۳۴۵۶۷۸۹";
const persian = document.documentElement.lang === "fa";
const num = (n) => (persian ? String(n).replace(/[0-9]/g, (d) => FA_DIGITS[d]) : String(n));

const HEARTBEAT_MS = 10000;
const NO_RETRY = new Set([4401, 4403]); // signed out / deactivated, or anonymous
// invites: id -> invite (with `deadline`, this page's clock, from the server's `expires_in`);
// requests: pending friend requests only (invites are counted from the map, once each).
const state = { invites: new Map(), requests: 0, frames: [], open: false };
window.takhtehFriends = state;

const badge = document.querySelector("[data-testid=friends-badge]");

// An invite can be taken while it is valid and its room neither filled up nor started.
const takeable = (invite) => !invite.closed && invite.deadline > Date.now();

function renderBadge() {
  if (!badge) return;
  let count = state.requests;
  for (const invite of state.invites.values()) if (takeable(invite)) count += 1;
  badge.textContent = num(count);
  badge.hidden = count === 0;
  badge.setAttribute("aria-label", interpolate(gettext("%(n)s new"), { n: num(count) }, true));
}

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function postButton(action, label, ghost, testid) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = action;
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrfToken();
  const button = document.createElement("button");
  button.type = "submit";
  button.className = ghost ? "btn btn-ghost" : "btn";
  button.textContent = label;
  if (testid) button.dataset.testid = testid;
  form.append(token, button);
  return form;
}

function inviteText(invite) {
  return interpolate(gettext("%(name)s invites you to a %(game)s table"), { name: invite.from, game: invite.game_name }, true);
}

// "9:05": whole minutes and seconds left, in the page's digits.
function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  return num(`${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`);
}

function validFor(deadline) {
  return interpolate(gettext("valid for %(left)s"), { left: clockText(deadline - Date.now()) }, true);
}

function withDeadline(invite) {
  return { ...invite, deadline: Date.now() + 1000 * Number(invite.expires_in || 0) };
}

// Build (or rebuild, when its room filled, started or reopened) one invite's row.
function fillInvite(item, invite) {
  item.dataset.expiresIn = String(Math.round((invite.deadline - Date.now()) / 1000));
  item.dataset.deadline = String(invite.deadline);
  const key = invite.closed || "open";
  if (item.dataset.key === key) return;
  item.dataset.key = key;
  if (invite.closed) item.dataset.closed = invite.closed;
  else delete item.dataset.closed;
  const text = document.createElement("span");
  text.className = "fr-inv-text";
  const words = document.createElement("span");
  words.textContent = inviteText(invite);
  const left = document.createElement("small");
  left.className = "muted fr-countdown";
  left.dataset.testid = "invite-countdown";
  left.textContent = validFor(invite.deadline);
  text.append(words, " ", left);
  if (invite.closed) {
    const note = document.createElement("small");
    note.className = "fr-closed";
    note.dataset.testid = "invite-closed";
    note.textContent = invite.closed_message || "";
    text.append(" ", note);
  }
  const actions = document.createElement("span");
  actions.className = "fr-actions";
  if (!invite.closed) actions.append(postButton(`/friends/invites/${invite.id}/accept/`, gettext("Take the seat"), false, "take-seat"));
  actions.append(postButton(`/friends/invites/${invite.id}/decline/`, gettext("Decline"), true));
  item.replaceChildren(text, actions);
}

// The friends page's list follows the invites this page knows: new ones
// at the top, answered or expired ones gone, a filled or started room's without its button.
function renderInviteList() {
  const list = document.querySelector("[data-testid=invite-list]");
  if (!list) return;
  for (const item of list.querySelectorAll("li[data-invite]")) {
    if (!state.invites.has(Number(item.dataset.invite))) item.remove();
  }
  const ordered = [...state.invites.values()].sort((a, b) => a.deadline - b.deadline);
  for (const invite of ordered) {
    let item = list.querySelector(`[data-invite="${invite.id}"]`);
    if (!item) {
      item = document.createElement("li");
      item.dataset.invite = invite.id;
      list.prepend(item);
    }
    fillInvite(item, invite);
  }
  const empty = document.querySelector(".fr-invites .fr-empty");
  if (empty) empty.hidden = state.invites.size > 0;
}

// Once a second: every countdown on the page moves on; what expired goes by itself.
function tick() {
  const now = Date.now();
  let gone = false;
  for (const [id, invite] of state.invites) {
    if (invite.deadline <= now) {
      state.invites.delete(id);
      gone = true;
    }
  }
  if (gone) {
    renderInviteList();
    renderBadge();
  }
  for (const el of document.querySelectorAll("[data-deadline]")) {
    const deadline = Number(el.dataset.deadline);
    if (deadline <= now) {
      el.remove();
      continue;
    }
    const left = el.matches(".fr-countdown") ? el : el.querySelector(".fr-countdown");
    if (left) left.textContent = validFor(deadline);
  }
}

// What the page was served with: the invites' rows and the "Invited" notes of the friends list.
function startCountdowns() {
  const now = Date.now();
  for (const el of document.querySelectorAll("[data-expires-in]")) {
    if (!el.dataset.deadline) el.dataset.deadline = String(now + 1000 * Number(el.dataset.expiresIn));
  }
  setInterval(tick, 1000);
}

// link: { href, text } or null; the toast goes after `seconds`.
function toast(message, testid, link, seconds = 12) {
  const box = document.createElement("div");
  box.className = "fr-toast";
  box.setAttribute("role", "status");
  box.dataset.testid = testid;
  const text = document.createElement("p");
  text.textContent = message;
  box.append(text);
  if (link) {
    const a = document.createElement("a");
    a.href = link.href;
    a.textContent = link.text;
    box.append(a);
  }
  document.body.append(box);
  setTimeout(() => box.remove(), seconds * 1000);
}

// E-3: an arena seated him at a table. The arena's own page shows the way there
// itself; any other page (the table of his last arena match above all) says so
// until he goes: his turn's clock runs at the new table.
function arenaSeated(frame) {
  if (!frame.url || location.pathname === frame.url || document.querySelector("[data-testid=arena]")) return;
  for (const old of document.querySelectorAll("[data-testid=arena-seated-toast]")) old.remove();
  const message = interpolate(gettext("%(arena)s: your next table is ready."), { arena: frame.arena || "" }, true);
  toast(message, "arena-seated-toast", { href: frame.url, text: gettext("Go to your table") }, 120);
}

// online: true, false, or null while the friend hides his online status.
function setPresence(username, online) {
  const row = document.querySelector(`[data-friend="${CSS.escape(username)}"]`);
  const dot = row && row.querySelector(".fr-dot");
  if (!dot) return;
  const hidden = online === null || online === undefined;
  dot.classList.toggle("fr-on", online === true);
  dot.classList.toggle("fr-hidden", hidden);
  dot.dataset.online = hidden ? "hidden" : online ? "online" : "offline";
  const label = hidden ? gettext("Online status hidden") : online ? gettext("Online") : gettext("Offline");
  dot.title = label;
  dot.setAttribute("aria-label", label);
  let words = row.querySelector(".fr-state");
  if (hidden && !words) {
    words = document.createElement("small");
    words.className = "muted fr-state";
    words.setAttribute("aria-hidden", "true");
    words.textContent = gettext("status hidden");
    (row.querySelector(".fr-who a") || dot).after(" ", words);
  } else if (!hidden && words) {
    words.remove();
  }
}

function handle(frame) {
  state.frames.push(frame);
  // issue 40: notify/notify.js; a page that shows a frame its own way cancels it (the table: arena_seated)
  const unhandled = document.dispatchEvent(new CustomEvent("takhteh:friends", { detail: frame, cancelable: true }));
  if (frame.type === "hello" || frame.type === "changed") {
    // Both carry the whole picture: friend requests counted apart from the invites listed.
    state.requests = frame.requests;
    if (Array.isArray(frame.invites)) {
      state.invites = new Map(frame.invites.map((i) => [i.id, withDeadline(i)]));
      renderInviteList();
    }
  } else if (frame.type === "invite") {
    state.invites.set(frame.invite.id, withDeadline(frame.invite));
    renderInviteList();
    toast(inviteText(frame.invite), "invite-toast", { href: "/friends/", text: gettext("Open invitations") });
  } else if (frame.type === "notice" && frame.kind === "warn") {
    toast(interpolate(gettext("A moderator warns you: %(reason)s"), { reason: frame.reason || "" }, true), "warn-toast", null);
  } else if (frame.type === "arena_seated") {
    if (unhandled) arenaSeated(frame);
  } else if (frame.type === "presence") {
    setPresence(frame.user, frame.online);
  }
  renderBadge();
}

let retry = 1000;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/me/`);
  let beat = null;
  socket.addEventListener("open", () => {
    state.open = true;
    retry = 1000;
    beat = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), HEARTBEAT_MS);
  });
  socket.addEventListener("message", (event) => {
    try {
      handle(JSON.parse(event.data));
    } catch (err) {
      console.warn("friends socket frame", err);
    }
  });
  socket.addEventListener("close", (event) => {
    state.open = false;
    clearInterval(beat);
    if (NO_RETRY.has(event.code)) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

startCountdowns();
connect();
