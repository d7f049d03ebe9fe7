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
const state = { invites: new Map(), requests: 0, frames: [], open: false };
window.takhtehFriends = state;

const badge = document.querySelector("[data-testid=friends-badge]");

function renderBadge() {
  if (!badge) return;
  const count = state.requests + state.invites.size;
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

function postButton(action, label, ghost) {
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
  form.append(token, button);
  return form;
}

function inviteText(invite) {
  return interpolate(gettext("%(name)s invites you to a %(game)s table"), { name: invite.from, game: invite.game_name }, true);
}

function addToInviteList(invite) {
  const list = document.querySelector("[data-testid=invite-list]");
  if (!list || list.querySelector(`[data-invite="${invite.id}"]`)) return;
  const item = document.createElement("li");
  item.dataset.invite = invite.id;
  const text = document.createElement("span");
  text.textContent = inviteText(invite);
  const actions = document.createElement("span");
  actions.className = "fr-actions";
  actions.append(
    postButton(`/friends/invites/${invite.id}/accept/`, gettext("Take the seat"), false),
    postButton(`/friends/invites/${invite.id}/decline/`, gettext("Decline"), true),
  );
  item.append(text, actions);
  list.prepend(item);
  const empty = document.querySelector(".fr-invites .fr-empty");
  if (empty) empty.hidden = true;
}

function toast(message, testid, withLink) {
  const box = document.createElement("div");
  box.className = "fr-toast";
  box.setAttribute("role", "status");
  box.dataset.testid = testid;
  const text = document.createElement("p");
  text.textContent = message;
  box.append(text);
  if (withLink) {
    const link = document.createElement("a");
    link.href = "/friends/";
    link.textContent = gettext("Open invitations");
    box.append(link);
  }
  document.body.append(box);
  setTimeout(() => box.remove(), 12000);
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
  if (frame.type === "hello") {
    state.invites = new Map(frame.invites.map((i) => [i.id, i]));
    state.requests = frame.requests;
  } else if (frame.type === "invite") {
    state.invites.set(frame.invite.id, frame.invite);
    addToInviteList(frame.invite);
    toast(inviteText(frame.invite), "invite-toast", true);
  } else if (frame.type === "changed") {
    state.requests = frame.requests - countLiveInvites();
  } else if (frame.type === "notice" && frame.kind === "warn") {
    toast(interpolate(gettext("A moderator warns you: %(reason)s"), { reason: frame.reason || "" }, true), "warn-toast", false);
  } else if (frame.type === "presence") {
    setPresence(frame.user, frame.online);
  }
  renderBadge();
}

function countLiveInvites() {
  const now = Date.now();
  for (const [id, invite] of state.invites) if (Date.parse(invite.expires_at) <= now) state.invites.delete(id);
  return state.invites.size;
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

connect();
