// The table page: one socket, one state, everything rendered from it
// (docs/protocol.md). Waiting room, play and the match's end are one page.
import { h, fill } from "./dom.js";
import { teamOf } from "./geometry.js";
import { fmt, gettext, num } from "./i18n.js";
import { playSound, setSoundEnabled, soundEnabled, unlockAudio } from "./sound.js";
import { TableSocket } from "./socket.js";
import { botName } from "./names.js";
import { Renderer } from "./render.js";
import { FairTable } from "./fair.js";
import { TeaTable } from "./tea.js"; // H4-X4
import { Throws } from "./throws.js"; // H4-X5
import { Hints } from "./hint.js"; // issue 38
import { explainCalls } from "./meanings.js"; // issue 38: Bridge calls explained
import { Announcer } from "./announce.js"; // issue 40: the table said aloud

const ROUND_BANNER_MS = 3500;
const ROUND_BANNER_DELAY_MS = 800;
const PENDING_MAX_MS = 5000; // an unanswered action stops holding the cards back after this

/** The server's rules the page needs (leave points, reactions, their wait): sent with the page. */
function readConstants() {
  const el = document.getElementById("table-constants");
  return el
    ? JSON.parse(el.textContent)
    : { reactions: {}, reaction_ms: 8000, leave_points: {}, heartbeat_ms: 10000, arena_go_ms: 5000 };
}

function readConfig(el) {
  const d = el.dataset;
  return {
    constants: readConstants(),
    code: d.code,
    game: d.game,
    gameName: d.gameName || d.game,
    players: Number(d.players) || 4,
    wsPath: d.ws,
    user: d.user || null,
    authenticated: d.authenticated === "true",
    sounds: d.sounds !== "false",
    hideReactions: d.hideReactions === "true",
    fourColour: d.fourColour === "true",
    confirmCards: d.confirmCards === "true", // issue 40: a first tap lifts the card, a second plays it
    confirmBids: d.confirmBids === "true", // issue 40: Shelem and Bridge bids wait for a confirmation
    lobbyUrl: d.lobbyUrl,
    loginUrl: d.loginUrl,
    roomUrl: d.roomUrl,
  };
}

class App {
  constructor(root) {
    this.root = root;
    this.cfg = readConfig(root);
    this.room = null;
    this.you = { user: this.cfg.user, seat: null };
    this.frame = null; // the last accepted state frame
    this.match = null;
    this.v = -1;
    this.offset = 0; // server clock minus ours, ms
    this.pending = null; // {v, ref, at} of an act in flight: the cards wait for the answer
    this.refCounter = 0;
    this.discardSel = new Set();
    this.autoCards = new Set(); // cards the clock played (a small clock mark)
    this.cutCards = new Set(); // cards that cut this round
    this.roundBanner = null; // {event, from, until}: the last round's result on the table
    this.reactionsHidden = this.cfg.hideReactions;
    this.reactUntil = 0;
    this.earlyMode = false;
    this.botLevels = {}; // issue 21: by empty seat, the level its bot will have (default normal)
    this.arenaNext = null; // E-3: {url, stay}: the arena has seated this player at his next table
    this.arenaGo = null;
    setSoundEnabled(this.cfg.sounds);
    this.announcer = new Announcer(this); // before the renderer: its region is the table's first live one
    this.renderer = new Renderer(this);
    this.tea = new TeaTable(this); // H4-X4: tea with the narrator
    this.throws = new Throws(this); // H4-X5: throwing things
    this.hints = new Hints(this); // issue 38: a learner's hint in practice matches
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    this.socket = new TableSocket(`${scheme}://${window.location.host}${this.cfg.wsPath}`, {
      onFrame: (frame) => this.onFrame(frame),
      onStatus: (status) => this.onStatus(status),
      heartbeatMs: this.cfg.constants.heartbeat_ms,
    });
    // The page's own socket of friends and notices (friends/me.js) tells every page of the player.
    document.addEventListener("takhteh:friends", (event) => this.onNotice(event));
    document.addEventListener("pointerdown", () => unlockAudio(), { passive: true });
    document.addEventListener("keydown", () => unlockAudio());
    window.takhteh = { app: this, sent: this.socket.sent };
    this.render();
    this.socket.connect();
    this.ticker = setInterval(() => {
      this.renderer.tick();
      this.tea.tick();
    }, 250);
  }

  // --- what the page knows ------------------------------------------------

  get view() {
    return this.frame ? this.frame.view : null;
  }

  get players() {
    if (this.room) return this.room.seats.length;
    if (this.view) return this.view.players;
    return this.cfg.players;
  }

  get game() {
    return (this.room && this.room.game) || this.cfg.game;
  }

  /** The seat at the bottom: the viewer's own, else seat 1 (spectators). */
  get viewer() {
    const frame = this.liveFrame;
    if (frame && frame.view.viewer) return frame.view.viewer;
    return this.you.seat || null;
  }

  get mode() {
    return this.room ? this.room.status : "loading";
  }

  get connected() {
    return this.socket.open;
  }

  get isCreator() {
    return Boolean(this.room && this.cfg.user && this.room.creator === this.cfg.user);
  }

  /** The match on screen: during play and after its end (not an old one behind a waiting room). */
  get liveFrame() {
    if (!this.frame || !this.room) return null;
    if (this.room.status === "waiting") return null;
    if (this.room.match && this.frame.match !== this.room.match) return null;
    return this.frame;
  }

  seat(number) {
    return (this.room && this.room.seats.find((s) => s.number === number)) || null;
  }

  name(number) {
    const seat = this.seat(number);
    if (!seat) return fmt(gettext("Seat %(n)s"), { n: num(number) });
    if (seat.user) return seat.user;
    if (seat.bot) return botName(number);
    return gettext("Empty seat");
  }

  /**
   * L-7: is a stand-in playing for this seat? The state frame lists the seats a stand-in plays for
   * (``stand_in``: their players are gone; games/standin.py).
   */
  standIn(number) {
    const frame = this.liveFrame;
    if (!frame || frame.status !== "active") return false;
    return Array.isArray(frame.stand_in) && frame.stand_in.includes(number);
  }

  team(seat) {
    return teamOf(seat, this.players);
  }

  /** An action in flight: the table waits for its answer (a few seconds at most). */
  get busy() {
    return Boolean(this.pending && Date.now() - this.pending.at < PENDING_MAX_MS);
  }

  /** The viewer's legal actions now; none while disconnected or after the match. */
  choices() {
    const frame = this.liveFrame;
    if (!frame || frame.status !== "active" || !this.connected) return [];
    return frame.view.legal || [];
  }

  /** Legal actions that may be taken this instant (none while one is in flight). */
  legal() {
    return this.busy ? [] : this.choices();
  }

  legalOf(type) {
    return this.legal().filter((a) => a.type === type);
  }

  // --- frames ---------------------------------------------------------------

  onStatus(status) {
    if (status !== "open") this.pending = null;
    // The eye, toggled on this page, is told to a new connection too (H4-X5: no throws while hidden).
    if (status === "open" && this.reactionsHidden !== this.cfg.hideReactions) {
      this.socket.send({ type: "hide_reactions", hide: this.reactionsHidden });
    }
    this.render();
  }

  onFrame(frame) {
    (this.fair ||= new FairTable(this)).onFrame(frame); // the fair deal (F-1..F-3): its frames, and what this seat sees
    switch (frame.type) {
      case "room":
        this.room = frame.room;
        this.you = frame.you || this.you;
        this.render();
        break;
      case "state":
        this.onState(frame);
        break;
      case "reaction":
        this.reactionsHeard = (this.reactionsHeard || 0) + 1; // shown or not (tests wait on it)
        if (!this.reactionsHidden) this.renderer.popReaction(frame.seat, frame.reaction);
        break;
      case "throw":
        this.throws.onThrow(frame); // H4-X5
        break;
      case "hint":
        this.hints.onHint(frame); // issue 38
        break;
      case "confirm_leave":
        this.renderer.openLeaveDialog(frame.cost, frame.points);
        break;
      case "left":
        window.location.href = this.cfg.lobbyUrl;
        break;
      case "error":
        this.onError(frame);
        break;
      case "ack":
        // docs/protocol.md: the server accepted the act with this ref (its frame may come before or after).
        if (this.pending && frame.ref === this.pending.ref) {
          this.pending = null;
          this.render();
        }
        break;
      case "pong":
        // The database's version of the match: behind it (a lost frame), ask for the table again.
        if (frame.match === this.match && typeof frame.v === "number" && frame.v > this.v) this.resync();
        break;
      default:
        break; // anything newer than this page
    }
  }

  onState(frame) {
    const newMatch = frame.match !== this.match;
    if (newMatch) {
      this.match = frame.match;
      this.v = -1;
      this.autoCards.clear();
      this.cutCards.clear();
      this.roundBanner = null;
      this.discardSel.clear();
    }
    // Versions (docs/protocol.md): older frames are stale; an equal one is only
    // taken when it is a full resend (after a seat change or a resync).
    if (frame.v < this.v || (frame.v === this.v && !frame.full)) return;
    // Its events cover the versions after frame.prev: if this page last saw an
    // older one, a frame was missed. Show this one, and ask for the whole table again.
    const prev = typeof frame.prev === "number" ? frame.prev : frame.v - 1;
    if (!newMatch && !frame.full && this.v >= 0 && prev > this.v) this.resync();
    const animate = !newMatch && this.frame !== null && prev === this.v && !frame.full;
    const previous = this.frame;
    this.v = frame.v;
    this.offset = frame.server_time - Date.now();
    this.frame = frame;
    const events = frame.events || [];
    if (this.pending && this.answered(frame, events)) this.pending = null;
    this.noteEvents(events, previous);
    if (animate) this.announcer.onEvents(frame, previous); // issue 40: only what just happened, never a resend
    document.dispatchEvent(new CustomEvent("takhteh:state", { detail: frame })); // issue 40: notify/notify.js
    // the cut mark stays on the card for the trick (the effect itself plays once, animated frames only).
    if (animate) for (const e of events) if (e.type === "card_played" && e.cut) this.cutCards.add(e.card);
    if (frame.view.phase !== "discard") this.discardSel.clear();
    this.render({ animate, events });
    this.tea.onState(frame, events); // H4-X4
  }

  /** Ask the server for the room and the full state again (a missed version). */
  resync() {
    const now = Date.now();
    if (now - (this.lastSync || 0) < 500) return;
    this.lastSync = now;
    this.socket.send({ type: "sync" });
  }

  /** Does this frame answer the action in flight? (Several seats may act at once: the hokm2 draft.) */
  answered(frame, events) {
    const me = frame.view.viewer;
    if (frame.full || !me || frame.status !== "active") return true;
    if (!(frame.view.to_act || []).includes(me)) return true;
    return events.some((e) => e.seat === me && e.type !== "auto");
  }

  noteEvents(events, previous) {
    let clockSeat = null;
    for (const event of events) {
      if (event.type === "dealt") {
        this.autoCards.clear();
        this.cutCards.clear();
      }
      if (event.type === "auto") clockSeat = event.seat;
      if (event.type === "card_played" && clockSeat === event.seat) {
        this.autoCards.add(event.card);
        clockSeat = null;
      }
      if (["round_won", "round_scored", "deal_scored"].includes(event.type)) {
        // Shown once the last trick has been gathered, for a few seconds.
        const from = Date.now() + ROUND_BANNER_DELAY_MS;
        this.roundBanner = { event, from, until: from + ROUND_BANNER_MS };
        setTimeout(() => this.render(), ROUND_BANNER_DELAY_MS + 20);
        setTimeout(() => this.render(), ROUND_BANNER_DELAY_MS + ROUND_BANNER_MS + 50);
      }
    }
    // A turn that comes to me: a light tick (the preference decides).
    const view = this.view;
    // (Only a turn: actions open off one's turn, H4-X1 pick-up and H4-X2 early play, are not one.)
    const myTurn = (v) => Boolean(v && v.viewer && (v.legal || []).length && (v.to_act || []).includes(v.viewer));
    if (view && myTurn(view) && previous && !myTurn(previous.view) && soundEnabled()) {
      playSound("turn");
    }
  }

  onError(frame) {
    if (this.pending && (frame.ref === undefined || frame.ref === this.pending.ref)) this.pending = null;
    // One table at a time: asked before moving from a waiting table; a table in play is named and linked.
    if (frame.code === "seated_elsewhere" && this.lastSit && window.confirm(frame.message)) {
      this.send({ type: "sit", seat: this.lastSit, move: true });
      return;
    }
    if (frame.code === "playing_elsewhere" && frame.detail) {
      this.renderer.toastLink(frame.message, `/rooms/${encodeURIComponent(frame.detail)}/`, frame.detail);
      return;
    }
    if (frame.code === "too_soon") this.reactUntil = Math.max(this.reactUntil, Date.now() + 2000);
    this.renderer.toast(frame.message || frame.code, "error");
    this.render();
  }

  // --- sending --------------------------------------------------------------

  send(frame) {
    const ok = this.socket.send(frame);
    if (!ok) this.renderer.toast(gettext("Not connected: reconnecting…"), "error");
    return ok;
  }

  /** One game action with the version this page saw; the cards wait for the answer. */
  act(action) {
    const frame = this.liveFrame;
    if (!frame) return;
    // Issue 40: a double tap never sends two actions; the answer to the first is awaited
    // (and the server refuses a second one for the same version anyway).
    if (this.busy) return;
    this.refCounter += 1;
    const ref = this.refCounter;
    if (this.send({ type: "act", action, v: frame.v, ref })) {
      this.pending = { v: frame.v, ref, at: Date.now() };
      setTimeout(() => this.render(), PENDING_MAX_MS + 50);
      this.render();
    }
  }

  sit(number) {
    this.lastSit = number;
    this.send({ type: "sit", seat: number });
  }

  react(reaction) {
    if (Date.now() < this.reactUntil) return;
    if (this.send({ type: "react", reaction })) {
      this.reactUntil = Date.now() + this.cfg.constants.reaction_ms;
      this.renderer.renderFoot();
    }
  }

  leave() {
    this.send({ type: "leave" });
  }

  /**
   * E-3: the arena seated this player at his next table while this page shows the
   * table of his finished arena match. The result panel says so (instead of a
   * toast) and the page goes there after the server's arena_go_ms
   * (TABLE["ARENA_GO_SECONDS"]) unless he stays.
   */
  onNotice(event) {
    const frame = event.detail;
    if (!frame || frame.type !== "arena_seated" || !frame.url || frame.url === window.location.pathname) return;
    // An arena seats only its free players: this table's match is over, though its
    // last frames may still be on their way. Elsewhere the toast says it.
    if (!this.room || !this.room.arena_url) return;
    event.preventDefault();
    this.arenaNext = { url: frame.url, stay: false };
    clearTimeout(this.arenaGo);
    this.arenaGo = setTimeout(() => {
      if (this.arenaNext && !this.arenaNext.stay) window.location.assign(this.arenaNext.url);
    }, this.cfg.constants.arena_go_ms);
    this.render();
  }

  stayHere() {
    if (!this.arenaNext) return;
    this.arenaNext.stay = true;
    clearTimeout(this.arenaGo);
    this.render();
  }

  confirmLeave() {
    this.send({ type: "leave", confirm: true });
  }

  toggleReactions() {
    this.reactionsHidden = !this.reactionsHidden;
    this.send({ type: "hide_reactions", hide: this.reactionsHidden }); // throws too (H4-X5)
    this.renderer.clearReactions();
    this.render();
  }

  render(ctx = {}) {
    this.renderer.render(ctx);
    if (this.tea) this.tea.render(); // H4-X4
    if (this.game === "bridge") explainCalls(this.root, this); // issue 38
  }
}

const root = document.getElementById("table-app");
if (root) {
  try {
    new App(root); // eslint-disable-line no-new
  } catch (err) {
    fill(root.querySelector("[data-center]") || root, h("p.table-error", null, String(err)));
    throw err;
  }
}
