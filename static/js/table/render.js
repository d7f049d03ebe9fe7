// Everything the table shows, rebuilt from the app's state. Seats use
// physical sides (geometry.js); text and panels follow the page direction.
import { cardBack, cardFace, cardLabel, cardsText, cardText, SUIT_SYMBOL, suitName } from "./cards.js";
import { fill, fillChanged, h, icon, prefersReducedMotion } from "./dom.js";
import { seatPositions } from "./geometry.js";
import { fmt, gettext, isolate, ngettext, num, pgettext, score, signed } from "./i18n.js";
import { animateEvents, fastPlay, holdMs, setFastPlay } from "./motion.js";
import { ScoreSheet } from "./sheet.js";
import { saveSoundPreference, setSoundEnabled, soundEnabled, storedSoundChoice } from "./sound.js";
import { auctionTable, bannerShowing, buildPanel, STEP_BOX_MEDIA } from "./panels.js";
import { layoutFan } from "./fan.js";
import { callText, compassName, contractText, family, sideText } from "./games.js";

const POSITIONS = ["top", "left", "right", "bottom"];
const CHOICE_PANELS = new Set(["trump", "draft", "bid", "call", "discard", "sars", "round"]);
const BOT_LEVELS = ["easy", "normal", "strong"];

/** Issue 21: a bot's level, as the table names it. */
function botLevelName(level) {
  return { easy: gettext("Easy bot"), normal: gettext("Normal bot"), strong: gettext("Strong bot") }[level] || level;
}

/** A small picker of the three bot levels; ``onpick(level)`` on change. */
function botLevelPicker(current, testid, onpick) {
  return h("select.level-picker", { "data-testid": testid, "aria-label": gettext("Bot level"),
    onchange: (e) => onpick(e.target.value) },
  BOT_LEVELS.map((level) => h("option", { value: level, selected: level === current ? "selected" : null }, botLevelName(level))));
}

function reactionName(key) {
  return {
    clap: gettext("Clap"), laugh: gettext("Laugh"), wow: gettext("Wow"), sad: gettext("Sad"),
    angry: gettext("Angry"), thumbs: gettext("Thumbs up"), heart: gettext("Heart"), tea: gettext("Tea"),
  }[key] || key;
}

function presenceText(presence) {
  return {
    connected: gettext("connected"), connecting: gettext("connecting"), disconnected: gettext("disconnected"),
  }[presence] || presence;
}

function initials(name) {
  const parts = String(name).replace(/[_\-.]+/g, " ").trim().split(/\s+/);
  const text = parts.length > 1 ? parts[0][0] + parts[1][0] : String(name).slice(0, 2);
  return text.toUpperCase();
}

function hue(name) {
  let x = 7;
  for (const ch of String(name)) x = (x * 31 + ch.codePointAt(0)) % 360;
  return x;
}

/** "Match (to 7)" on wide screens, "Match" on a phone. */
function matchLabel(target) {
  return [h("span.wide", null, fmt(gettext("Match (to %(n)s)"), { n: num(target) })),
    h("span.narrow", null, gettext("Match"))];
}

export class Renderer {
  constructor(app) {
    this.app = app;
    const q = (sel) => app.root.querySelector(sel);
    this.el = {
      banner: q("[data-banner]"),
      eye: q("[data-eye]"),
      eyeCount: q("[data-eye-count]"),
      tbar: q("[data-tbar-main]"),
      felt: q("[data-felt]"),
      center: q("[data-center]"),
      trick: q("[data-trick]"),
      gather: q("[data-gather]"),
      status: q("[data-status]"),
      panel: q("[data-panel]"),
      middle: q("[data-middle]"),
      handZone: q("[data-hand-zone]"),
      hand: q("[data-hand]"),
      info: q("[data-room-info]"),
      foot: q("[data-foot]"),
      toasts: q("[data-toasts]"),
      dialog: q("[data-leave-dialog]"),
      dialogText: q("[data-leave-text]"),
      leave: q("[data-leave]"),
      rules: q("template[data-rules]"),
      last: q("[data-last]"),
      lastBtn: q("[data-last-btn]"),
      sheet: q("[data-sheet]"),
      sheetToggle: q("[data-sheet-toggle]"),
    };
    this.slots = {};
    for (const pos of POSITIONS) {
      const slot = q(`[data-slot="${pos}"]`);
      this.slots[pos] = { slot, body: slot.querySelector(".seat-body"), pops: slot.querySelector(".pops") };
    }
    this.positions = {};
    this.panelKey = null;
    this.everOpen = false;
    this.bidValue = null;
    this.bidTurn = null;
    this.lastOpen = false; // the last trick shown over the felt
    this.lastKey = null;
    this.lastBuilt = null;
    this.matchSeats = null; // who sat where in the match on screen (names of a player who left)
    if (!app.cfg.authenticated) {
      const stored = storedSoundChoice();
      if (stored !== null) setSoundEnabled(stored);
    }
    this.sheet = new ScoreSheet(this, this.el.sheet);
    this.wireStatic();
    new ResizeObserver(() => this.layoutHand()).observe(this.el.hand);
  }

  wireStatic() {
    const { app } = this;
    this.el.leave.addEventListener("click", () => app.leave());
    const dialog = this.el.dialog;
    dialog.querySelector("[data-leave-cancel]").addEventListener("click", () => dialog.close());
    dialog.querySelector("[data-leave-confirm]").addEventListener("click", () => {
      dialog.close();
      app.confirmLeave();
    });
    this.el.hand.addEventListener("keydown", (event) => this.handKeys(event));
    // Issue 40: a keyboard player whose card left the hand finds the focus there again on his next turn.
    this.el.hand.addEventListener("focusin", () => { this.handFocus = true; });
    this.el.hand.addEventListener("focusout", (event) => {
      if (event.relatedTarget && !this.el.hand.contains(event.relatedTarget)) this.handFocus = false;
    });
    document.addEventListener("pointerdown", (event) => {
      app.keyboardUser = false;
      if (!this.el.hand.contains(event.target)) this.handFocus = false;
    }, { passive: true });
    document.addEventListener("keydown", (event) => {
      if (["Tab", "Enter", " ", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) app.keyboardUser = true;
    });
    this.el.panel.addEventListener("keydown", (event) => this.panelKeys(event));
    // Issue 40: the bidding box comes in two steps on a narrow phone; turning the phone redraws it.
    if (window.matchMedia) window.matchMedia(STEP_BOX_MEDIA).addEventListener("change", () => app.render());
    // The last trick: the button, or a tap on the trick pile.
    this.el.lastBtn.addEventListener("click", () => this.toggleLastTrick());
    this.el.trick.parentElement.addEventListener("click", () => {
      if (this.lastTrickAvailable()) this.toggleLastTrick();
    });
    if (this.el.sheetToggle) {
      this.el.sheetToggle.addEventListener("click", () => {
        this.sheet.toggle();
        this.el.sheetToggle.setAttribute("aria-expanded", this.sheet.open ? "true" : "false");
        // A phone keeps the sheet below the table (table.css): bring it into view.
        if (this.sheet.open && getComputedStyle(this.el.sheet).position === "static") {
          this.el.sheet.scrollIntoView({ block: "nearest" });
        }
      });
    }
  }

  // --- the whole page -------------------------------------------------------------

  render(ctx = {}) {
    const { app } = this;
    const frame = app.liveFrame;
    const view = frame ? frame.view : null;
    this.positions = seatPositions(app.players, app.viewer, app.game === "bridge");
    const root = app.root;
    root.dataset.mode = app.mode;
    root.dataset.phase = view ? view.phase : "";
    root.dataset.players = String(app.players);
    root.classList.toggle("offline", this.everOpen && !app.connected);
    root.classList.toggle("spectating", !app.viewer || !view || !view.viewer);
    root.classList.toggle("four-colour", app.cfg.fourColour);
    if (app.connected) this.everOpen = true;
    this.noteMatchSeats(frame);
    this.checkLifted();
    this.holdColumns(frame, ctx);
    this.sheet.note(frame || app.frame);
    this.renderBanner();
    this.renderTopBar();
    this.renderSeats();
    this.renderCenter();
    this.renderHand();
    this.renderInfo();
    this.renderFoot();
    this.renderLastTrick();
    this.sheet.render();
    this.tick();
    if (ctx.animate && ctx.events && ctx.events.length) animateEvents(this, ctx.events);
  }

  /** Names and bots of the match on screen, kept for after somebody leaves (L-3). */
  noteMatchSeats(frame) {
    const { app } = this;
    if (!frame || !app.room || frame.status !== "active") return;
    const names = {};
    for (const seat of app.room.seats) if (seat.user || seat.bot) names[seat.number] = app.name(seat.number);
    this.matchSeats = { match: frame.match, names, practice: app.room.seats.some((s) => s.bot) };
  }

  // --- the last trick (issue 15) ----------------------------------------------------

  lastTrickAvailable() {
    const frame = this.app.liveFrame;
    return Boolean(frame && frame.status === "active" && frame.view.last_trick &&
      (frame.view.last_trick.cards || []).length);
  }

  toggleLastTrick(open = !this.lastOpen) {
    this.lastOpen = open && this.lastTrickAvailable();
    this.renderLastTrick();
  }

  renderLastTrick() {
    const { app } = this;
    const available = this.lastTrickAvailable();
    const last = available ? app.liveFrame.view.last_trick : null;
    const key = last ? JSON.stringify([last, this.positions]) : null;
    if (key !== this.lastKey) {
      // A newer trick (or none) closes the view of the older one.
      if (this.lastKey !== null) this.lastOpen = false;
      this.lastKey = key;
      this.lastBuilt = null;
    }
    if (!available) this.lastOpen = false;
    const btn = this.el.lastBtn;
    btn.hidden = !available;
    btn.setAttribute("aria-pressed", this.lastOpen ? "true" : "false");
    btn.textContent = this.lastOpen ? gettext("Back to the trick") : gettext("Last trick");
    this.el.last.hidden = !this.lastOpen;
    this.el.center.classList.toggle("showing-last", this.lastOpen);
    if (!this.lastOpen) {
      this.el.center.querySelectorAll(".last-caption").forEach((el) => el.remove());
      this.lastBuilt = null; // built again, caption and all, when opened again
    }
    if (!this.lastOpen || this.lastBuilt === key) return;
    this.lastBuilt = key;
    const seen = {};
    const cards = last.cards.map(({ seat, card }) => {
      const pos = this.posOf(seat);
      seen[pos] = (seen[pos] || 0) + 1;
      const wrap = this.trickCard(card, pos, seen[pos] - 1, seat, false);
      if (seat === last.winner) wrap.classList.add("winner");
      return wrap;
    });
    fill(this.el.last, cards);
    // The caption sits in the middle's corner under the button, not under the trick, where it
    // covered the player's own name (issue 34).
    this.el.center.querySelectorAll(".last-caption").forEach((el) => el.remove());
    this.el.lastBtn.after(h("p.last-caption", { "data-testid": "last-trick-caption" },
      fmt(gettext("Last trick: %(name)s took it"), { name: isolate(app.name(last.winner)) })));
  }

  posOf(seat) {
    return this.positions[seat] || "bottom";
  }

  renderBanner() {
    const { app } = this;
    const status = app.socket.status;
    const banner = this.el.banner;
    if (status === "gone") {
      banner.hidden = false;
      fill(banner, h("span", null, gettext("This room no longer exists.")), " ",
        h("a.btn.btn-ghost", { href: app.cfg.lobbyUrl }, gettext("Back to the lobby")));
      return;
    }
    if (status === "signed_out") {
      banner.hidden = false;
      fill(banner, h("span", { "data-testid": "signed-out" }, gettext("You are no longer signed in at this table.")), " ",
        h("a.btn.btn-ghost", { href: app.cfg.loginUrl }, gettext("Sign in")));
      return;
    }
    if (app.connected && app.socket.stalled) {
      // the socket is open but the server has not answered since a heartbeat was missed:
      // the others see this player "connecting"; he is told, before the socket is dropped.
      banner.hidden = false;
      banner.dataset.state = "stalled";
      fill(banner,
        h("span.spinner", { "aria-hidden": "true" }),
        h("strong", { "data-testid": "stalled-banner" }, gettext("The table is not answering.")), " ",
        h("span", null, gettext("The other players see you as connecting; your cards wait until the table is back.")), " ",
        h("button.btn.btn-ghost.btn-small", { type: "button", onclick: () => app.socket.drop() },
          gettext("Retry now")));
      return;
    }
    delete banner.dataset.state;
    if (app.connected || !this.everOpen) {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
    fill(banner,
      h("span.spinner", { "aria-hidden": "true" }),
      h("strong", null, gettext("Connection lost.")), " ",
      h("span", null, gettext("Reconnecting… your cards wait until the table is back.")), " ",
      h("button.btn.btn-ghost.btn-small", { type: "button", onclick: () => app.socket.reconnectNow() },
        gettext("Retry now")));
  }

  // --- top bar (DESIGN.md: always visible) ------------------------------------------

  renderTopBar() {
    const { app } = this;
    const count = app.room ? app.room.spectators : 0;
    this.el.eyeCount.textContent = num(count);
    this.el.eye.setAttribute("aria-label", fmt(gettext("Spectators: %(n)s"), { n: num(count) }));
    this.el.eye.title = this.el.eye.getAttribute("aria-label");
    this.el.leave.hidden = !(app.you && app.you.seat);

    const frame = app.liveFrame;
    const chips = [];
    if (!frame) {
      chips.push(h("div.chip.chip-title", null, h("strong", null, app.cfg.gameName)));
      if (app.room) {
        const seats = app.room.seats;
        const taken = seats.filter((s) => s.user || s.bot).length;
        chips.push(h("div.chip", null, fmt(gettext("Players: %(taken)s of %(total)s"),
          { taken: num(taken), total: num(seats.length) })));
      }
    } else {
      chips.push(this.trumpChip(frame.view));
      chips.push(this.scoreboard(frame.view));
      chips.push(h("div.chip.chip-clock", { "data-clock": "", "data-testid": "turn-clock" }));
    }
    fillChanged(this.el.tbar, chips);
  }

  trumpChip(view) {
    const fam = family(view.game);
    if (fam === "bridge") {
      const c = view.contract;
      if (!c) return h("div.chip.chip-trump", null, h("small", null, gettext("Contract")), h("b", null, "—"));
      return h("div.chip.chip-trump", { "data-testid": "contract" },
        h("small", null, gettext("Contract")),
        h("b", { dir: "ltr", class: ["H", "D"].includes(c.strain) ? "red" : "" }, contractText(c)),
        h("span.by", null, fmt(gettext("by %(seat)s"), { seat: compassName(c.declarer) })));
    }
    let value = "—";
    let red = false;
    let label = gettext("Trump");
    if (view.trump) {
      value = SUIT_SYMBOL[view.trump];
      red = view.trump === "H" || view.trump === "D";
    } else if (fam === "shelem" && view.sars) {
      value = gettext("Sars");
      label = gettext("No trump");
    }
    const parts = [h("small", null, label),
      h("b.trump-mark", { class: red ? "red" : "", "data-testid": "trump", "aria-label": view.trump ? suitName(view.trump) : value }, value)];
    if (fam === "shelem" && view.bid) {
      parts.push(h("span.by", null, fmt(gettext("%(bid)s by %(name)s"), { bid: num(view.bid), name: isolate(this.app.name(view.bidder)) })));
      parts.push(h("span.by-short", { "aria-hidden": "true" }, num(view.bid)));
    }
    return h("div.chip.chip-trump", null, parts);
  }

  /** Us / them for players; team 1 / team 2 (N–S / E–W in bridge) for spectators. */
  sides() {
    const { app } = this;
    const n = app.players;
    const me = app.liveFrame && app.liveFrame.view.viewer;
    const bridge = app.game === "bridge";
    const label = (team) => {
      if (bridge) return sideText(team);
      if (n === 2) return app.name(team + 1);
      return fmt(gettext("Team %(n)s"), { n: num(team + 1) });
    };
    if (!me) return [{ team: 0, label: label(0) }, { team: 1, label: label(1) }];
    const mine = app.team(me);
    const them = 1 - mine;
    if (n === 2) return [{ team: mine, label: gettext("You"), us: true }, { team: them, label: app.name(them + 1) }];
    return [{ team: mine, label: bridge ? `${gettext("Us")} · ${label(mine)}` : gettext("Us"), us: true },
      { team: them, label: bridge ? label(them) : gettext("Them") }];
  }

  scoreboard(view) {
    const fam = family(view.game);
    const sides = this.sides();
    const rows = [];
    if (fam === "hokm") {
      rows.push([gettext("Tricks"), (t) => num(view.score.tricks[t])]);
      rows.push([matchLabel(view.score.target), (t) => num(view.score.rounds[t])]);
      // The row is there from the first round ("·"), so the top bar never grows mid-match.
      const last = view.last_result;
      rows.push([gettext("Last round"), (t) => (last && last.winner === t ? signed(last.points) : "·")]);
    } else if (fam === "shelem") {
      rows.push([gettext("Points"), (t) => num(view.score.points[t])]);
      rows.push([matchLabel(view.rules.cap), (t) => score(view.score.totals[t])]);
      const last = view.score.last_result;
      rows.push([gettext("Last round"), (t) => (last ? signed(last.score[t]) : "·")]);
    } else {
      rows.push([gettext("Tricks"), (t) => num(view.tricks_won[t])]);
      rows.push([gettext("Total"), (t) => score(view.score.totals[t])]);
      const last = view.last_result;
      if (last && last.entries) {
        rows.push([gettext("Last deal"), (t) => {
          const pts = last.entries.filter((e) => e.team === t).reduce((a, e) => a + e.points, 0);
          return pts ? signed(pts) : "·";
        }]);
      }
    }
    return h("table.scoreboard", { "data-testid": "scoreboard" },
      h("thead", null, h("tr", null, h("th", null, ""),
        sides.map((s) => h("th", { class: s.us ? "us" : "them", scope: "col" }, s.label)))),
      h("tbody", null, rows.map(([label, value]) =>
        h("tr", null, h("th", { scope: "row" }, label),
          sides.map((s) => h("td", { class: s.us ? "us" : "them", dir: "ltr" }, value(s.team)))))));
  }

  // --- seats -------------------------------------------------------------------

  renderSeats() {
    const { app } = this;
    const used = new Set();
    for (let n = 1; n <= app.players; n += 1) {
      const pos = this.posOf(n);
      used.add(pos);
      const { slot, body } = this.slots[pos];
      slot.hidden = false;
      slot.dataset.seat = String(n);
      fillChanged(body, this.seatEl(n, pos), this.seatExtra(n, pos));
    }
    for (const pos of POSITIONS) {
      if (!used.has(pos)) {
        this.slots[pos].slot.hidden = true;
        fillChanged(this.slots[pos].body);
      }
    }
  }

  seatEl(n, pos) {
    const { app } = this;
    const seat = app.seat(n) || { number: n, user: null, bot: false, presence: "disconnected" };
    const frame = app.liveFrame;
    const view = frame ? frame.view : null;
    const empty = !seat.user && !seat.bot;
    // A seat the viewer played in a finished match but has since left (the arena moved
    // him to his next table, E-3) is an empty seat now, not his.
    const mine = app.viewer === n && (app.you.seat === n || (view && view.viewer === n && !empty));
    const fam = family(app.game);
    const name = app.name(n);
    const classes = [`pos-${pos}`];
    if (mine) classes.push("me");
    if (empty) classes.push("empty");
    if (view && view.viewer) classes.push(app.team(n) === app.team(view.viewer) ? "team-us" : "team-them");
    const acting = view && frame.status === "active" && (view.to_act || []).includes(n);
    if (acting) classes.push("acting");
    if (app.mode === "finished" && seat.rematch && !empty) classes.push("consent");

    const avatar = empty
      ? h("div.avatar.avatar-empty", { "aria-hidden": "true" }, icon("plus"))
      : seat.bot
        ? h("div.avatar.avatar-bot", { "aria-hidden": "true" }, icon("bot"))
        : h("div.avatar", { "aria-hidden": "true", style: { "--hue": hue(name) } }, initials(name));
    const ring = h("div.ring", { "aria-hidden": "true", html:
      '<svg viewBox="0 0 48 48"><circle class="ring-bg" cx="24" cy="24" r="22"/><circle class="ring-fg" cx="24" cy="24" r="22"/></svg>' });
    // one's own seat shows "connecting" as the others see it while the server does not answer.
    const shown = mine && app.socket.stalled ? "connecting" : seat.presence;
    const presence = empty ? null : h(`span.presence.presence-${shown}`, {
      title: presenceText(shown), "data-testid": `presence-${n}`,
    }, h("span.sr-only", null, presenceText(shown)));

    // Bid / call bubble above the avatar (SH-3; bridge calls).
    let bubble = null;
    if (view && fam === "shelem" && ["bidding", "discard", "sars"].includes(view.phase)) {
      const bid = view.bids[n - 1];
      const said = (text) => fmt(gettext("%(name)s: %(bid)s"), { name: isolate(name), bid: text });
      if (bid === "pass") {
        bubble = h("div.bubble.pass", { "data-testid": `bid-${n}`, title: said(gettext("Pass")), "aria-label": said(gettext("Pass")) },
          gettext("Pass"));
      } else if (bid !== null && bid !== undefined) {
        bubble = h("div.bubble", { class: view.high_bidder === n ? "high" : "", "data-testid": `bid-${n}`,
          title: said(num(bid)), "aria-label": said(num(bid)) }, num(bid));
      }
    }
    if (view && fam === "bridge" && view.phase === "auction") {
      const calls = (view.calls || []).filter((c) => c.seat === n);
      if (calls.length) {
        const text = callText(calls[calls.length - 1].call);
        bubble = h("div.bubble", { dir: "ltr", title: fmt(gettext("%(name)s: %(bid)s"), { name: isolate(name), bid: text }) }, text);
      }
    }

    const tags = [];
    if (view) {
      if (fam === "hokm" && view.hakem === n) tags.push(h("span.tag.tag-hakem", { "data-testid": `hakem-${n}` }, gettext("Hakem")));
      if (fam === "shelem" && view.bidder === n) tags.push(h("span.tag.tag-hakem", null, gettext("Bidder")));
      if (fam === "bridge" && view.declarer === n) tags.push(h("span.tag.tag-hakem", null, gettext("Declarer")));
      if (fam === "bridge" && view.dummy === n) tags.push(h("span.tag", null, gettext("Dummy")));
    }
    if (app.game === "bridge") tags.unshift(h("span.tag.tag-compass", null, compassName(n)));
    if (seat.bot && seat.level && !(app.mode === "waiting" && app.isCreator)) {
      tags.push(h("span.tag.tag-level", { "data-testid": `bot-level-tag-${n}` }, botLevelName(seat.level)));
    }
    if (app.mode === "waiting" && !empty) {
      if (app.room && seat.user === app.room.creator) tags.push(h("span.tag", null, gettext("Host")));
      else if (seat.ready) tags.push(h("span.tag.tag-ready", { "data-testid": `ready-${n}` }, icon("check"), gettext("Ready")));
      else tags.push(h("span.tag.tag-wait", null, gettext("Not ready")));
    }
    // L-7: a player gone for two clock moves in a row has a stand-in playing his turns (its own badge).
    const standIn = !empty && !seat.bot && app.standIn(n);
    if (standIn) {
      tags.unshift(h("span.tag.tag-standin", { "data-testid": `stand-in-${n}`, title: gettext("A stand-in plays for this player until he is back") },
        icon("bot"), h("span.standin-long", null, gettext("Stand-in playing")),
        h("span.standin-short", { "aria-hidden": "true" }, pgettext("short badge", "Stand-in"))));
    }
    if (app.mode === "finished" && !empty && seat.rematch) {
      tags.push(h("span.tag.tag-ready", { "data-testid": `rematch-${n}` }, gettext("Play again")));
    }

    let count = null;
    if (view && !mine && view.hand_counts && frame.status === "active") {
      const c = view.hand_counts[n - 1];
      if (c) count = h("span.hand-count", { title: fmt(ngettext("%(n)s card", "%(n)s cards", c), { n: num(c) }) }, cardBack("mini"), h("b", null, num(c)));
    }

    const actions = [];
    if (app.mode === "waiting" && empty && app.room) {
      if (app.cfg.authenticated && !app.you.seat) {
        actions.push(h("button.btn.btn-small", { type: "button", "data-testid": `take-seat-${n}`,
          onclick: () => app.sit(n) }, gettext("Take this seat")));
      }
      if (app.isCreator) {
        // Issue 21: the bot's level is chosen when it is added (and can be changed below).
        actions.push(h("button.btn.btn-ghost.btn-small", { type: "button", "data-testid": `bot-seat-${n}`,
          onclick: () => app.send({ type: "bot", seat: n, bot: true, level: app.botLevels[n] || "normal" }) },
        icon("bot"), gettext("Fill with a bot")),
        botLevelPicker(app.botLevels[n] || "normal", `bot-level-${n}`, (level) => { app.botLevels[n] = level; }));
      }
      if (!app.cfg.authenticated) {
        actions.push(h("a.btn.btn-ghost.btn-small", { href: app.cfg.loginUrl }, gettext("Sign in to sit")));
      }
    }
    if (app.mode === "waiting" && seat.bot && app.isCreator) {
      actions.push(botLevelPicker(seat.level || "normal", `bot-level-${n}`,
        (level) => app.send({ type: "bot", seat: n, bot: true, level })));
      actions.push(h("button.btn.btn-ghost.btn-small", { type: "button", "data-testid": `unbot-seat-${n}`,
        onclick: () => app.send({ type: "bot", seat: n, bot: false }) }, gettext("Remove the bot")));
    }

    const label = [name, empty ? "" : presenceText(seat.presence), standIn ? gettext("Stand-in playing") : ""]
      .filter(Boolean).join(" · ");
    if (standIn) classes.push("stand-in");
    return h("div.seat", { class: classes.join(" "), "data-seat": n, "data-testid": `seat-${n}`, "aria-label": label, role: "group" },
      bubble,
      h("div.avatar-wrap", null, ring, avatar, presence, count),
      h("div.seat-name", { title: name }, mine ? fmt(gettext("%(name)s (you)"), { name }) : name),
      tags.length ? h("div.seat-tags", null, tags) : null,
      actions.length ? h("div.seat-actions", null, actions) : null);
  }

  /** Shelem for two: the opponent's columns; bridge: dummy's hand. */
  seatExtra(n, pos) {
    const { app } = this;
    const frame = app.liveFrame;
    if (!frame) return null;
    const view = frame.view;
    // Shelem for two: each player's columns between his hand and the middle (DESIGN.md).
    if (view.columns) return this.columnsEl(n, n === view.viewer);
    if (app.game === "bridge" && view.dummy === n && view.dummy_hand && view.viewer !== n) {
      const legal = view.next_hand === n ? new Set(app.legalOf("play").map((a) => a.card)) : new Set();
      if (pos === "top" || pos === "bottom") {
        return h("div.dummy", { class: `dummy-${pos}`, "data-testid": "dummy" },
          view.dummy_hand.map((card) => this.playableCard(card, legal.has(card))));
      }
      // At the sides, the classic diagram: one overlapping row per suit.
      const rows = ["S", "H", "D", "C"].map((suit) => view.dummy_hand.filter((c) => c[1] === suit))
        .filter((cards) => cards.length);
      return h("div.dummy", { class: `dummy-${pos}`, "data-testid": "dummy" },
        rows.map((cards) => h("div.dummy-suit", null, cards.map((card) => this.playableCard(card, legal.has(card))))));
    }
    return null;
  }

  /**
   * S2-6: the card under a used column turns only once the trick has been gathered.
   * The frame that ends a trick already shows it; until the held trick has left the
   * felt, a column whose top changed in that frame shows a card back instead. The
   * turn waits for the gathered cards to be gone, not for a clock of its own (a busy
   * page's timers drift: the card must never turn while the four cards still show).
   */
  holdColumns(frame, ctx) {
    const view = frame ? frame.view : null;
    const seen = this.columnsSeen;
    if (!view || !view.columns) {
      this.columnsSeen = null;
      this.heldColumns = null;
      return;
    }
    if (seen && seen.v !== frame.v) {
      if (ctx.animate && (ctx.events || []).some((e) => e.type === "trick_won")) {
        this.heldColumns = { columns: seen.columns, until: Date.now() + holdMs() + 320 };
        this.awaitGather();
      }
    }
    this.columnsSeen = { v: frame.v, columns: JSON.parse(JSON.stringify(view.columns)) };
  }

  /** The columns as they were before the trick ended, while that trick is still on the felt (else null). */
  columnsHeld() {
    const held = this.heldColumns;
    if (!held) return null;
    return Date.now() < held.until || this.el.gather.childElementCount > 0 ? held.columns : null;
  }

  /** Turn the held columns as soon as the gathered trick is gone. */
  awaitGather() {
    clearTimeout(this.gatherWait);
    const check = () => {
      if (!this.heldColumns) return;
      if (this.columnsHeld()) {
        this.gatherWait = setTimeout(check, 50);
        return;
      }
      this.heldColumns = null;
      this.render();
    };
    this.gatherWait = setTimeout(check, holdMs() + 340);
  }

  columnsEl(seat, mine) {
    const { app } = this;
    const view = app.liveFrame.view;
    const cols = view.columns[seat - 1] || [];
    const heldAll = this.columnsHeld();
    const held = heldAll ? heldAll[seat - 1] || [] : null;
    const waiting = (i) => Boolean(held && cols[i] && cols[i].top && (!held[i] || held[i].top !== cols[i].top));
    const legal = mine ? new Set(app.legalOf("play").map((a) => a.card)) : new Set();
    return h("div.columns", { class: mine ? "mine" : "theirs", "data-testid": mine ? "my-columns" : "their-columns" },
      cols.map((col, i) => h("div.column", { "data-column": i },
        Array.from({ length: Math.max(0, col.count - (col.top ? 1 : 0)) }, () => cardBack("stacked")),
        col.top && waiting(i) ? cardBack("stacked turning-soon") : null,
        col.top && !waiting(i) ? this.playableCard(col.top, legal.has(col.top)) : null,
        h("span.col-count", null, num(col.count)))));
  }

  playableCard(card, legal) {
    if (!legal) return cardFace(card);
    return this.tapCard(card, { type: "play", card }, "legal");
  }

  /**
   * A legal card as a button that sends ``action``. Issue 40, "confirm each card": the
   * first tap (or Enter) lifts the card, a second one on the same card plays it; another
   * card moves the lift, Escape drops it. Without the preference one tap plays.
   */
  tapCard(card, action, cls) {
    const { app } = this;
    const confirm = app.cfg.confirmCards;
    const lifted = confirm && this.lifted === card;
    const label = lifted ? fmt(gettext("%(card)s: lifted, press again to play it"), { card: cardLabel(card) }) : null;
    const el = cardFace(card, { button: true, cls: `${cls}${lifted ? " lifted" : ""}`, label });
    if (confirm) el.setAttribute("aria-pressed", lifted ? "true" : "false");
    el.addEventListener("click", (event) => {
      event.stopPropagation();
      if (!confirm || this.lifted === card) {
        this.lifted = null;
        app.act(action);
        return;
      }
      this.lifted = card;
      app.announcer.say(fmt(gettext("%(card)s lifted: press again to play it."), { card: cardLabel(card) }));
      app.render();
    });
    return el;
  }

  /** The lifted card (confirm each card) stays lifted only while it can still be played. */
  checkLifted() {
    if (!this.lifted) return;
    const still = this.app.legal().some((a) => (a.type === "play" || a.type === "early") && a.card === this.lifted);
    if (!still && !this.app.busy) this.lifted = null;
  }

  // --- the middle of the table ----------------------------------------------------

  renderCenter() {
    const { app } = this;
    const frame = app.liveFrame;
    this.renderTrick();
    this.renderMiddle(frame);
    fillChanged(this.el.status, this.statusText());
    const panel = buildPanel(this);
    const key = panel ? panel.key : null;
    if (key !== this.panelKey || (panel && panel.always)) {
      this.panelKey = key;
      if (panel) {
        // Slide in only when a new kind of panel comes, not for each new version of the same one.
        if (panel.kind !== this.panelKind) panel.el.classList.add("enter");
        const had = this.el.panel.contains(document.activeElement);
        fill(this.el.panel, panel.el);
        this.focusPanel(panel, had);
      } else {
        fill(this.el.panel);
      }
      this.panelKind = panel ? panel.kind : null;
    }
    this.el.panel.hidden = !panel;
    this.el.center.dataset.panel = panel ? panel.kind : "";
    const busy = app.busy;
    this.el.panel.setAttribute("aria-busy", busy ? "true" : "false");
    if (busy) for (const control of this.el.panel.querySelectorAll("button, input")) control.disabled = true;
  }

  /**
   * Issue 40: a keyboard player is taken to the choice the table asks of him (trump, draft,
   * bid, call…) when his focus was nowhere or in the panel just replaced; never stolen from elsewhere.
   */
  focusPanel(panel, had) {
    const { app } = this;
    if (!app.keyboardUser || !CHOICE_PANELS.has(panel.kind)) return;
    const active = document.activeElement;
    if (!had && active && active !== document.body && !this.el.hand.contains(active)) return;
    if (this.el.hand.contains(active) && this.el.hand.querySelector("button.card")) return;
    const target = panel.el.querySelector("[data-autofocus]:not([disabled])") ||
      panel.el.querySelector("button:not([disabled]), input:not([disabled])");
    if (target) target.focus({ preventScroll: true });
  }

  /** Arrow keys move between the panel's buttons (the bidding box, the suits); Tab leaves it. */
  panelKeys(event) {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) return;
    if (event.target.tagName === "INPUT") return; // the bid slider keeps its own arrows
    const buttons = [...this.el.panel.querySelectorAll("button:not([disabled])")];
    const i = buttons.indexOf(event.target);
    if (i < 0) return;
    // Screen order: the bidding box is left to right; the page's other rows follow its direction.
    const ltr = event.target.closest("[dir=ltr]") || document.documentElement.dir !== "rtl";
    let step = event.key === "ArrowDown" || event.key === "ArrowRight" ? 1 : -1;
    if (!ltr && (event.key === "ArrowLeft" || event.key === "ArrowRight")) step = -step;
    buttons[(i + step + buttons.length) % buttons.length].focus();
    event.preventDefault();
  }

  /**
   * Beside the trick: the partner's face-up middle card (H4-X1) with his pick-up
   * button, and the cards of a run still to be led (H4-X3), both seen by everyone.
   */
  renderMiddle(frame) {
    const { app } = this;
    const view = frame && frame.status === "active" ? frame.view : null;
    const pickUp = app.legalOf("pick_up").length > 0;
    const run = view && view.run && view.run.cards.length ? view.run : null;
    const key = JSON.stringify([view && view.middle, pickUp, run, view && view.viewer]);
    if (key === this.middleKey) return;
    this.middleKey = key;
    const parts = [];
    if (view && view.middle) {
      parts.push(h("div.middle-group", { "data-testid": "middle-card" },
        cardFace(view.middle, { cls: "small" }),
        h("span.middle-label", null, gettext("Partner's middle card")),
        pickUp ? h("button.btn.btn-small", { type: "button", "data-testid": "pick-up",
          onclick: () => app.act({ type: "pick_up" }) }, gettext("Pick it up")) : null));
    }
    if (run) {
      const who = run.seat === view.viewer ? gettext("you") : isolate(app.name(run.seat));
      parts.push(h("div.middle-group.run-left", { "data-testid": "run-left", "data-seat": run.seat },
        h("span.run-cards", null, run.cards.map((card) => cardFace(card, { cls: "small" }))),
        h("span.middle-label", null, fmt(gettext("Run of %(name)s: still to lead"), { name: who }))));
    }
    fill(this.el.middle, parts);
  }

  renderTrick() {
    const { app } = this;
    const frame = app.liveFrame;
    const view = frame && frame.status === "active" ? frame.view : null;
    const trick = view ? view.trick || [] : [];
    // H4-X2: the seats with a card laid face down (everyone sees its back; its owner sees it).
    const early = view && view.early ? view.early : [];
    const mine = view ? view.my_early || null : null;
    const key = JSON.stringify([trick, this.positions, [...app.cutCards], [...app.autoCards], early, mine,
      app.legalOf("take_back").length]);
    if (key === this.trickKey) return; // a card sliding in keeps sliding
    this.trickKey = key;
    const seen = {};
    const els = trick.map(({ seat, card }) => {
      const pos = this.posOf(seat);
      seen[pos] = (seen[pos] || 0) + 1;
      return this.trickCard(card, pos, seen[pos] - 1, seat);
    });
    early.forEach((laid, i) => {
      const seat = i + 1;
      if (!laid || trick.some((t) => t.seat === seat)) return;
      const own = seat === view.viewer && mine;
      const label = own ? fmt(gettext("You laid %(card)s early"), { card: cardLabel(mine) })
        : fmt(gettext("%(name)s laid a card early"), { name: isolate(app.name(seat)) });
      let face = cardBack();
      let tag = gettext("Early");
      let title = label;
      if (own) {
        // His own card, face up and marked, played when his turn comes; a tap takes it back.
        const back = app.legalOf("take_back").length > 0;
        title = fmt(gettext("Your %(card)s lies face down; it is played when your turn comes."), { card: cardsText(mine) });
        face = cardFace(mine, { button: back, label: back ? `${label}. ${gettext("Take back")}` : label });
        if (back) {
          tag = gettext("Take back");
          face.dataset.testid = "take-back-card";
          face.addEventListener("click", (event) => {
            event.stopPropagation(); // not a tap on the trick (which opens the last trick)
            app.act({ type: "take_back" });
          });
        }
      }
      els.push(h("div.tc.early-laid", { class: `pos-${this.posOf(seat)}${own ? " mine" : ""}`,
        "data-testid": `early-${seat}`, "data-seat": seat, title, "aria-label": own ? null : label,
        role: own ? null : "img" },
      face, h("span.early-label", { "aria-hidden": "true" }, tag)));
    });
    fill(this.el.trick, els);
  }

  trickCard(card, pos, stackIndex, seat, marks = true) {
    const face = cardFace(card);
    const wrap = h("div.tc", { class: `pos-${pos}${stackIndex ? " second" : ""}`, "data-card": card, "data-seat": seat }, face);
    if (!marks) return wrap;
    if (this.app.cutCards.has(card)) {
      wrap.classList.add("cut");
      wrap.append(h("span.cut-label", { "aria-hidden": "true" }, gettext("Cut!")));
    }
    if (this.app.autoCards.has(card)) {
      wrap.append(h("span.auto-mark", { title: gettext("Played by the clock") }, icon("clock"),
        h("span.sr-only", null, gettext("Played by the clock"))));
    }
    return wrap;
  }

  statusText() {
    const { app } = this;
    if (!app.room) return h("p.status-line", null, gettext("Connecting to the table…"));
    const frame = app.liveFrame;
    if (!frame) return null;
    const view = frame.view;
    if (frame.status !== "active") return null;
    if (!app.connected) return h("p.status-line", null, gettext("Waiting for the connection…"));
    const acting = (view.to_act || []).filter((s) => s !== 0);
    const mine = view.viewer && acting.includes(view.viewer);
    const who = acting.length === 1 ? isolate(app.name(acting[0])) : ""; // a Latin name in a Persian line keeps its order
    const say = (text) => h("p.status-line", null, text);
    switch (view.phase) {
      case "draw": return say(gettext("Drawing for the hakem…"));
      case "deal": return say(gettext("Dealing…"));
      case "trump": return mine ? null : say(fmt(gettext("%(name)s is choosing trump…"), { name: who }));
      case "draft":
        return say(this.draftProgress(view));
      case "bidding": return mine ? null : say(fmt(gettext("%(name)s is bidding…"), { name: who }));
      case "discard": return mine ? null : say(fmt(gettext("%(name)s takes the widow and puts cards aside…"), { name: who }));
      case "sars": return mine ? null : say(fmt(gettext("%(name)s chooses sars or trump…"), { name: who }));
      case "auction": return mine ? null : say(fmt(gettext("%(name)s is calling…"), { name: who }));
      case "play":
        if (mine && !(view.trick || []).length && view.game.startsWith("shelem") && view.trump === null &&
            view.sars === null) {
          return say(view.rules && view.rules.jokers
            ? gettext("Your lead: its suit becomes trump; a joker led makes the round sars.")
            : gettext("Your lead: its suit becomes trump."));
        }
        // Bridge: the auction stays in sight as a small table by seat during the play (issue 16).
        if (view.game === "bridge" && (view.calls || []).length) {
          return h("div.auction-mini", { "data-testid": "auction-during-play" }, auctionTable(view));
        }
        return this.earlyWait(view); // else whose turn it is: the ring on the avatar, the clock, the glowing cards
      default: return null;
    }
  }

  /** H4-X2: the three-trick wait after an early card, shown to its player ("again from trick 6"). */
  earlyWait(view) {
    if (!view.rules || !view.rules.early_play || !view.viewer || !view.early_from) return null;
    const done = (view.score.tricks || []).reduce((a, b) => a + b, 0); // tricks finished this round
    const from = view.early_from[view.viewer - 1];
    if (from <= done) return null;
    return h("p.status-line.early-wait", { "data-testid": "early-wait" },
      fmt(gettext("You can play early again from trick %(n)s."), { n: num(from + 1) }));
  }

  /** H2-6: both players' draft progress by name, the viewer first ("you: 5 of 8 · Sara: 3 of 8"). */
  draftProgress(view) {
    const { app } = this;
    const drafted = view.drafted || view.pairs_left.map((left) => 8 - left);
    const seats = [1, 2];
    if (view.viewer === 2) seats.reverse();
    const part = (seat) => fmt(gettext("%(name)s: %(done)s of %(total)s"), {
      name: seat === view.viewer ? gettext("you") : isolate(app.name(seat)),
      done: num(drafted[seat - 1]), total: num(8) });
    // Each player's part stays on one line (a phone breaks between them, never inside "3 of 8").
    const parts = seats.map((seat) => h("span.draft-part", null, part(seat)));
    return h("span", { "data-testid": "draft-progress" }, parts[0], " · ", parts[1]);
  }

  // --- your hand ------------------------------------------------------------------

  renderHand() {
    const { app } = this;
    const frame = app.liveFrame;
    const view = frame ? frame.view : null;
    const zone = this.el.handZone;
    const focused = document.activeElement && this.el.hand.contains(document.activeElement)
      ? document.activeElement.dataset.card : null;
    if (!view || !view.hand || frame.status !== "active") {
      this.handKey = null;
      fill(this.el.hand);
      zone.classList.toggle("no-hand", true);
      return;
    }
    zone.classList.toggle("no-hand", false);
    const discard = app.legalOf("discard")[0];
    const bridgeDummyTurn = app.game === "bridge" && view.next_hand && view.next_hand !== view.viewer;
    const plays = new Set(bridgeDummyTurn ? [] : app.legalOf("play").map((a) => a.card));
    if (app.earlyMode && !app.choices().some((a) => a.type === "early")) app.earlyMode = false; // H4-X2: laid, or too late
    const early = app.earlyMode ? new Set(app.legalOf("early").map((a) => a.card)) : new Set();
    const widow = new Set(view.widow || []);
    // Rebuild only when something the hand shows has changed (keeps hover and focus steady).
    const key = JSON.stringify([view.hand, [...plays], [...early], discard ? [...app.discardSel] : null,
      view.widow, view.my_early, view.columns, app.busy, app.connected, this.lifted]);
    if (key === this.handKey) return;
    this.handKey = key;
    const cards = view.hand.map((card) => {
      let el;
      if (discard) {
        const selected = app.discardSel.has(card);
        el = cardFace(card, { button: true, cls: `selectable${selected ? " selected" : ""}${widow.has(card) ? " from-widow" : ""}`,
          label: widow.has(card) ? fmt(gettext("%(card)s, from the widow"), { card: cardLabel(card) }) : null });
        el.setAttribute("aria-pressed", selected ? "true" : "false");
        el.addEventListener("click", () => {
          if (app.discardSel.has(card)) app.discardSel.delete(card);
          else if (app.discardSel.size < discard.count) app.discardSel.add(card);
          app.render();
        });
      } else if (plays.has(card)) {
        el = this.tapCard(card, { type: "play", card }, "legal");
      } else if (early.has(card)) {
        el = this.tapCard(card, { type: "early", card }, "legal early");
      } else {
        el = cardFace(card, { cls: widow.has(card) ? "from-widow" : "" });
        el.setAttribute("aria-disabled", "true");
      }
      if (view.my_early === card) el.classList.add("laid-early");
      return el;
    });
    // New cards take their place in the fan at once, without sliding from nowhere.
    this.el.hand.classList.add("settling");
    fill(this.el.hand, cards);
    requestAnimationFrame(() => requestAnimationFrame(() => this.el.hand.classList.remove("settling")));
    this.el.hand.setAttribute("aria-label", plays.size
      ? fmt(ngettext("Your hand: %(n)s card, %(legal)s playable", "Your hand: %(n)s cards, %(legal)s playable", cards.length),
        { n: num(cards.length), legal: num(plays.size) })
      : fmt(ngettext("Your hand: %(n)s card", "Your hand: %(n)s cards", cards.length), { n: num(cards.length) }));
    this.layoutHand();
    // Issue 40: one tab stop for the whole hand (a roving tabindex); the arrows move inside it.
    const buttons = [...this.el.hand.querySelectorAll("button.card")];
    const stop = buttons.find((b) => b.dataset.card === focused) || buttons.find((b) => b.dataset.card === this.lifted) ||
      buttons.find((b) => b.dataset.card === this.handStop) || buttons[0];
    for (const b of buttons) b.tabIndex = b === stop ? 0 : -1;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (focused || (this.handFocus && lost && app.keyboardUser)) {
      // The card just played is gone (or the hand was inert while it went): the focus stays in the hand.
      const again = focused && this.el.hand.querySelector(`button[data-card="${focused}"]`);
      if (again) again.focus({ preventScroll: true });
      else if (stop) stop.focus({ preventScroll: true });
    }
  }

  layoutHand() {
    layoutFan(this.el.hand);
  }

  /** Arrow keys move between the playable cards. */
  handKeys(event) {
    if (event.key === "Escape" && this.lifted) {
      this.lifted = null;
      this.app.render();
      event.preventDefault();
      return;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
    const buttons = [...this.el.hand.querySelectorAll("button.card")];
    if (!buttons.length) return;
    const i = buttons.indexOf(document.activeElement);
    let j = i;
    // The hand is laid out left to right in both languages (dir="ltr"): the arrows follow the screen.
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") j = i <= 0 ? buttons.length - 1 : i - 1;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") j = i >= buttons.length - 1 ? 0 : i + 1;
    if (event.key === "Home") j = 0;
    if (event.key === "End") j = buttons.length - 1;
    for (const b of buttons) b.tabIndex = b === buttons[j] ? 0 : -1;
    this.handStop = buttons[j].dataset.card;
    buttons[j].focus();
    event.preventDefault();
  }

  // --- room information (waiting) and the foot ---------------------------------------

  renderInfo() {
    const { app } = this;
    const show = app.mode === "waiting";
    this.el.info.hidden = !show;
    if (!show || this.el.info.dataset.built) return;
    this.el.info.dataset.built = "1";
    const input = h("input.room-link", { type: "text", readonly: true, value: app.cfg.roomUrl,
      "aria-label": gettext("Room link"), "data-testid": "room-link", onfocus: (e) => e.target.select() });
    const copy = h("button.btn.btn-ghost.btn-small", { type: "button", "data-testid": "copy-link" }, icon("copy"), gettext("Copy"));
    copy.addEventListener("click", async () => {
      let ok = false;
      try {
        await navigator.clipboard.writeText(app.cfg.roomUrl);
        ok = true;
      } catch (err) {
        input.select();
        ok = document.execCommand && document.execCommand("copy");
      }
      this.toast(ok ? gettext("Link copied. Send it to your friends.") : gettext("Select the link and copy it."));
    });
    const rules = this.el.rules ? this.el.rules.content.cloneNode(true) : null;
    const details = rules ? h("details.rules-details", { open: window.innerWidth > 700 },
      h("summary", null, gettext("Table rules of this room")), rules) : null;
    fill(this.el.info,
      h("div.link-row", null, h("label.sr-only", null, gettext("Room link")), input, copy),
      details);
  }

  renderFoot() {
    const { app } = this;
    const foot = this.el.foot;
    const parts = [];
    const seated = Boolean(app.you && app.you.seat);
    if (seated && app.room) {
      const wait = Math.max(0, app.reactUntil - Date.now());
      const palette = h("div.reactions", { role: "group", "aria-label": gettext("Reactions"), "data-testid": "reactions",
        class: wait ? "cooling" : "" },
      Object.entries(this.app.cfg.constants.reactions).map(([key, emoji]) => h("button.reaction", {
        type: "button", "data-reaction": key, "aria-label": reactionName(key), title: reactionName(key),
        disabled: wait > 0 || !app.connected, onclick: () => app.react(key),
      }, emoji)),
      wait ? h("span.cooldown", { "data-cooldown": "", "aria-live": "off" }, num(Math.ceil(wait / 1000))) : null);
      parts.push(palette);
    } else if (app.room && !(app.liveFrame && app.liveFrame.view.viewer)) {
      // (Not said to a player of the match on screen who has since left its seat: E-3's next table.)
      const note = [h("span.watching", null, icon("eye"), gettext("You are watching live."))];
      const free = app.mode === "waiting" && app.room.seats.some((s) => !s.user && !s.bot);
      if (!app.cfg.authenticated) {
        // A seat is offered only when one is free (a full table has none to take).
        if (free) note.push(h("a.btn.btn-small", { href: app.cfg.loginUrl, "data-testid": "sign-in-to-sit" }, gettext("Sign in to take a seat")));
      } else if (app.mode === "waiting" && app.room.seats.some((s) => !s.user && !s.bot)) {
        note.push(h("span.muted", null, gettext("Pick an empty seat to play.")));
      }
      parts.push(h("div.visitor-note", { "data-testid": "visitor-note" }, note));
    }
    // H4-X4, H4-X5: ask for tea, throw something (tea.js, throws.js).
    if (app.tea) parts.push(...app.tea.footControls());
    if (app.throws) parts.push(...app.throws.footControls());
    if (app.hints) parts.push(...app.hints.footControls()); // issue 38
    if (app.room) {
      // each viewer may hide reactions for himself (the eye).
      const hidden = app.reactionsHidden;
      parts.push(h("button.tool.tool-reactions", {
        type: "button", "data-testid": "toggle-reactions", "aria-pressed": hidden ? "true" : "false",
        title: hidden ? gettext("Show reactions") : gettext("Hide reactions"),
        onclick: () => app.toggleReactions(),
      }, icon(hidden ? "eyeOff" : "eye"), h("span.sr-only", null, hidden ? gettext("Show reactions") : gettext("Hide reactions"))));
    }
    if (app.room) {
      // The mute toggle: sound on or off at once, kept in the profile ("card sounds").
      const on = soundEnabled();
      const label = on ? gettext("Mute card sounds") : gettext("Turn card sounds on");
      parts.push(h("button.tool.tool-sound", {
        type: "button", "data-testid": "toggle-sound", "aria-pressed": on ? "false" : "true", title: label,
        onclick: () => this.toggleSound(),
      }, icon(on ? "sound" : "mute"), h("span.sr-only", null, label)));
      const fast = fastPlay();
      const fastLabel = fast ? gettext("Normal pace") : gettext("Fast play");
      parts.push(h("button.tool.tool-fast", {
        type: "button", "data-testid": "toggle-fast", "aria-pressed": fast ? "true" : "false",
        title: gettext("Fast play: a finished trick is gathered sooner (not with reduced motion)"),
        onclick: () => { setFastPlay(!fastPlay()); this.footKey = null; this.renderFoot(); },
      }, h("span.fast-mark", { "aria-hidden": "true" }, "»"), h("span.sr-only", null, fastLabel)));
    }
    const key = JSON.stringify([seated, app.mode, Math.ceil(Math.max(0, app.reactUntil - Date.now()) / 1000),
      app.connected, app.cfg.authenticated, app.reactionsHidden, soundEnabled(), fastPlay(),
      app.room && app.room.seats.map((s) => Boolean(s.user || s.bot)),
      app.tea && app.tea.footKey(), app.throws && app.throws.footKey(), app.hints && app.hints.footKey()]);
    if (key === this.footKey) return;
    this.footKey = key;
    fill(foot, parts);
  }

  async toggleSound() {
    const on = !soundEnabled();
    this.footKey = null;
    const saving = saveSoundPreference(on, this.app.root);
    this.renderFoot();
    const ok = await saving;
    if (!ok) this.toast(gettext("The sound setting could not be saved in your profile."), "error");
  }

  // --- the clock, reactions, toasts, dialogs ---------------------------------------------

  tick() {
    const { app } = this;
    const frame = app.liveFrame;
    const now = Date.now() + app.offset;
    const clock = this.el.tbar.querySelector("[data-clock]");
    for (const ringFg of this.el.felt.querySelectorAll(".seat .ring-fg")) {
      const seatEl = ringFg.closest(".seat");
      const n = seatEl.dataset.seat;
      const deadline = frame && frame.status === "active" ? frame.deadlines[n] : null;
      const seat = app.seat(Number(n));
      if (!deadline || !seatEl.classList.contains("acting") || (seat && seat.bot)) {
        seatEl.classList.remove("timed", "hurry");
        continue;
      }
      const total = (frame.turn_seconds || 30) * 1000;
      const left = Math.max(0, deadline - now);
      const frac = Math.max(0, Math.min(1, left / total));
      ringFg.style.strokeDashoffset = String(138.2 * (1 - frac));
      seatEl.classList.add("timed");
      seatEl.classList.toggle("hurry", left < 6000);
    }
    if (clock && frame) {
      const view = frame.view;
      const acting = (view.to_act || []).filter((s) => s !== 0);
      let text = "";
      let seconds = null;
      if (frame.status !== "active") {
        text = gettext("Match over");
      } else if (acting.length === 1) {
        const d = frame.deadlines[String(acting[0])];
        seconds = d ? Math.max(0, Math.ceil((d - now) / 1000)) : null;
        text = acting[0] === view.viewer ? gettext("Your turn") : app.name(acting[0]);
      } else if (acting.length > 1 && acting.includes(view.viewer)) {
        // Several seats act at once (the hokm2 draft, H2-4): each player sees his own clock, never the other's.
        const d = frame.deadlines[String(view.viewer)];
        seconds = d ? Math.max(0, Math.ceil((d - now) / 1000)) : null;
        text = gettext("Your turn");
      } else if (acting.length > 1) {
        // A spectator (or a player who is done): the clock that runs out first.
        text = gettext("Everyone");
        const ds = acting.map((s) => frame.deadlines[String(s)]).filter(Boolean);
        seconds = ds.length ? Math.max(0, Math.ceil((Math.min(...ds) - now) / 1000)) : null;
      } else if (frame.deadlines["0"]) {
        text = gettext("Next round");
        seconds = Math.max(0, Math.ceil((frame.deadlines["0"] - now) / 1000));
      }
      const mineHurry = seconds !== null && seconds <= 5 && frame.status === "active" &&
        acting.includes(view.viewer);
      const sig = `${text}|${seconds}|${mineHurry}`;
      if (clock.dataset.sig !== sig) {
        clock.dataset.sig = sig;
        clock.dataset.seconds = seconds === null ? "" : String(seconds);
        clock.classList.toggle("no-seconds", seconds === null);
        // The last five seconds of the viewer's own clock: the whole chip warns (and says so to a screen reader).
        clock.classList.toggle("hurry", mineHurry);
        if (mineHurry) clock.setAttribute("role", "alert");
        else clock.removeAttribute("role");
        fill(clock, icon("clock"), h("span.clock-who", null, text),
          seconds === null ? null : h("b.clock-sec", { class: seconds <= 5 ? "hurry" : "" }, num(seconds)),
          mineHurry ? h("span.clock-warn", { "data-testid": "clock-warning" },
            view.phase === "draft" ? gettext("Hurry: the clock drafts for you") : gettext("Hurry: the clock plays for you")) : null);
      }
    }
    if (app.reactUntil && Date.now() < app.reactUntil + 300) this.renderFoot();
    if (app.roundBanner && Date.now() > app.roundBanner.until) {
      app.roundBanner = null;
      this.renderCenter();
    } else if (app.roundBanner && bannerShowing(app.roundBanner) !== (this.panelKind === "round")) {
      this.renderCenter(); // the round's result comes (or goes) between frames
    }
  }

  popReaction(seat, reaction) {
    const emoji = this.app.cfg.constants.reactions[reaction];
    if (!emoji) return;
    const pos = this.posOf(seat);
    const { pops } = this.slots[pos];
    const el = h("span.pop", { role: "img", "aria-label": fmt(gettext("%(name)s: %(reaction)s"),
      { name: isolate(this.app.name(seat)), reaction: reactionName(reaction) }), "data-testid": "reaction-pop" }, emoji);
    pops.append(el);
    setTimeout(() => el.remove(), prefersReducedMotion() ? 3000 : 2600);
  }

  clearReactions() {
    for (const { pops } of Object.values(this.slots)) fill(pops);
  }

  /** An error that names another table, with a link to it. */
  toastLink(message, href, label) {
    const el = h("div.toast", { class: "toast-error", role: "alert", "data-testid": "toast" }, message, " ",
      h("a", { href, "data-testid": "toast-link" }, label));
    this.el.toasts.append(el);
    setTimeout(() => el.classList.add("leaving"), 7600);
    setTimeout(() => el.remove(), 8000);
  }

  toast(message, kind = "info", ms = null) {
    const el = h("div.toast", { class: `toast-${kind}`, role: kind === "error" ? "alert" : "status", "data-testid": "toast" }, message);
    this.el.toasts.append(el);
    const stay = ms || (kind === "error" ? 4000 : 2400);
    setTimeout(() => el.classList.add("leaving"), stay - 400);
    setTimeout(() => el.remove(), stay);
  }

  /**
   * L-3, L-2: say what leaving costs (the points the server names, else the
   * ledger's), true to the game at hand, then leave only when confirmed.
   */
  openLeaveDialog(cost, points = null) {
    const { app } = this;
    const lose = Math.abs(Number(points ?? app.cfg.constants.leave_points[cost] ?? 0)) || 0;
    const practice = Boolean(app.room && app.room.seats.some((s) => s.bot));
    const two = app.players === 2;
    let text;
    if (practice) {
      text = gettext("This is a practice match with bots: leaving costs you nothing and nothing is recorded. The match ends.");
    } else if (lose) {
      text = two
        ? fmt(ngettext(
          "The match ends now. You lose %(n)s point and the match counts as a loss for you. For your opponent it is recorded as unfinished.",
          "The match ends now. You lose %(n)s points and the match counts as a loss for you. For your opponent it is recorded as unfinished.",
          lose), { n: num(lose) })
        : fmt(ngettext(
          "The match ends now. You lose %(n)s point and the match counts as a loss for you. Your partner loses nothing; for the other players it is recorded as unfinished.",
          "The match ends now. You lose %(n)s points and the match counts as a loss for you. Your partner loses nothing; for the other players it is recorded as unfinished.",
          lose), { n: num(lose) });
    } else {
      text = two ? gettext("The match ends now and counts as a loss for you. For your opponent it is recorded as unfinished.")
        : gettext("The match ends now and counts as a loss for you. Your partner loses nothing; for the other players it is recorded as unfinished.");
    }
    this.el.dialog.dataset.kind = practice ? "practice" : two ? "two" : "four";
    fill(this.el.dialogText, text);
    if (typeof this.el.dialog.showModal === "function") this.el.dialog.showModal();
    else this.el.dialog.setAttribute("open", "");
  }

  cardText(card) {
    return cardText(card);
  }
}
