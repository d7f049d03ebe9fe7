// Notifications while the tab is hidden (issue 40): "your turn", "your invite",
// "the match starts", "a friend is online" (only a friend who shows it: the
// friends socket says online null otherwise). Off until the player turns them
// on for this device on his preferences page (settings.js), which asks the
// browser's permission; never asked here. The tab's title carries a marker
// while it is his turn. The table (static/js/table/main.js) and the friends
// socket (static/js/friends/me.js) each announce their frames with one DOM event.
const gettext = (s) => (window.gettext ? window.gettext(s) : s);
const interpolate = (fmt, obj) => (window.interpolate ? window.interpolate(fmt, obj, true) : fmt.replace(/%\((\w+)\)s/g, (_, k) => obj[k]));

export const STORAGE_KEY = "takhteh.notify";
export const TURN_MARK = "● ";

export function enabled() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "on" && "Notification" in window && Notification.permission === "granted";
  } catch (err) {
    return false;
  }
}

const shown = []; // what this page showed (tests and debugging read it)
window.takhtehNotify = { shown };

/** A system notification, through the service worker when there is one (phones need it). */
export async function notify(kind, title, body, url, tag) {
  if (!enabled() || document.visibilityState !== "hidden") return false;
  const options = { body, tag: tag || kind, data: { url: url || location.pathname, kind }, icon: "/static/notify/icon-192.png", lang: document.documentElement.lang };
  shown.push({ kind, title, body });
  try {
    const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration("/") : null;
    if (registration && registration.active) {
      await registration.showNotification(title, options);
      return true;
    }
    const note = new Notification(title, options);
    note.onclick = () => {
      window.focus();
      note.close();
    };
    return true;
  } catch (err) {
    console.warn("notification", err);
    return false;
  }
}

// --- the table ---------------------------------------------------------------------------
const baseTitle = () => document.title.replace(TURN_MARK, "");
let myTurnNow = false;
let lastMatch = null;
const pageStarted = Date.now();

const isMyTurn = (v) => Boolean(v && v.viewer && (v.legal || []).length && (v.to_act || []).includes(v.viewer));

function setTurnMark(mine) {
  const plain = baseTitle();
  document.title = mine ? TURN_MARK + plain : plain;
}

document.addEventListener("takhteh:state", (event) => {
  const frame = event.detail || {};
  const mine = frame.status === "active" && isMyTurn(frame.view);
  const started =
    frame.match !== lastMatch && frame.status === "active" && (lastMatch !== null || (Date.now() - pageStarted > 2000 && frame.v <= 3));
  lastMatch = frame.match;
  if (started && frame.view && frame.view.viewer) {
    notify("start", gettext("The match starts"), gettext("Your table's match has begun."), location.pathname, `start-${frame.match}`);
  }
  if (mine && !myTurnNow) {
    notify("turn", gettext("Your turn"), gettext("Your table is waiting for you."), location.pathname, `turn-${frame.match}`);
  }
  myTurnNow = mine;
  setTurnMark(mine);
});

// --- the friends socket --------------------------------------------------------------------
document.addEventListener("takhteh:friends", (event) => {
  const frame = event.detail || {};
  if (frame.type === "invite" && frame.invite) {
    const body = interpolate(gettext("%(name)s invites you to a %(game)s table"), { name: frame.invite.from, game: frame.invite.game_name });
    notify("invite", gettext("Your invite"), body, "/friends/", `invite-${frame.invite.id}`);
  } else if (frame.type === "presence" && frame.online === true) {
    notify("friend_online", gettext("A friend is online"), interpolate(gettext("%(name)s is online."), { name: frame.user }), "/friends/", `online-${frame.user}`);
  }
});

// The title's marker goes when the turn does, also after the tab comes back.
document.addEventListener("visibilitychange", () => setTurnMark(myTurnNow));
