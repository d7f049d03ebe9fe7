// The panel in the middle of the table: the waiting room's controls, the
// choice the viewer must make now (trump, bid, widow, sars, draft, call),
// the round's result and the match's end.
import { noteDraft } from "./draftmotion.js";
import { reviewLink } from "../replay/link.js";
import { cardFace, cardsInline, fmtNodes, SUIT_SYMBOL, suitName } from "./cards.js";
import { h, icon } from "./dom.js";
import { fmt, gettext, isolate, listText, ngettext, num, score as scoreNum, signed } from "./i18n.js";
import { callText, compassName, contractText, family, sideText } from "./games.js";
import { dealWords } from "./rubber.js";
import { callSpoken } from "./announce.js";

const BID_STEP = 5; // SH-3: bids are multiples of five
// The round's result comes once the last trick has stayed its second on the felt.
export const ROUND_AFTER_TRICK_MS = 450;

/** Is the round's result (the banner of the last round) to be shown now? */
export function bannerShowing(banner, now = Date.now()) {
  return Boolean(banner && now >= banner.from + ROUND_AFTER_TRICK_MS && now < banner.until);
}

/** "us – them" in the page's reading order (the same order as the scoreboard). */
function scorePair(a, b, testid = null) {
  return h("p.big-score", { "data-testid": testid },
    h("span.us", null, a), h("span.sep", { "aria-hidden": "true" }, " – "), h("span.them", null, b));
}

function card(kind, testid, ...children) {
  return h("div.panel-card", { class: `panel-${kind}`, "data-testid": testid, role: "region" }, ...children);
}

export function buildPanel(r) {
  const { app } = r;
  if (!app.room) return null;
  if (app.mode === "waiting") return waitPanel(r);
  const frame = app.liveFrame;
  if (!frame) return null;
  const view = frame.view;
  if (frame.status !== "active" || view.phase === "match_over") {
    // The deciding round's result first, like every other round, then the match's (issue 15).
    const banner = app.roundBanner;
    if (frame.status === "finished" && banner && Date.now() < banner.until) {
      return bannerShowing(banner) ? roundPanel(r, true) : null;
    }
    return resultPanel(r);
  }
  // Panels stay while an action is in flight (their buttons wait), so they do not flicker.
  const legal = app.choices();
  const types = new Set(legal.map((a) => a.type));
  const live = `${frame.v}:${app.connected}:${app.busy}`;
  // The last round's result, unless the next round already asks something of me.
  const banner = app.roundBanner;
  const choosing = [...types].some((t) => t !== "play");
  if (!choosing && (banner ? bannerShowing(banner) : view.phase === "round_over")) return roundPanel(r);
  if (types.has("trump")) return { kind: "trump", key: `trump:${live}`, el: trumpPanel(r, legal) };
  if (types.has("draft")) return { kind: "draft", key: `draft:${live}`, el: draftPanel(r, view) };
  const asking = askKey(r, frame);
  if (types.has("bid") || types.has("pass")) return { kind: "bid", key: `bid:${live}:${asking}`, el: bidPanel(r, legal) };
  if (types.has("discard")) {
    return { kind: "discard", key: `discard:${live}:${[...app.discardSel].join()}`, el: discardPanel(r, legal) };
  }
  if (types.has("sars")) return { kind: "sars", key: `sars:${live}`, el: sarsPanel(r) };
  if (types.has("call")) return { kind: "call", key: `call:${live}:${asking}:${stepKey(r, frame)}`, el: callPanel(r, view, legal) };
  if (family(view.game) === "bridge" && view.phase === "auction") {
    return { kind: "auction", key: `auction:${(view.calls || []).length}`, el: card("auction", "auction", auctionTable(view)) };
  }
  // (Taking an early card back is done on the card itself, in front of its player: render.js.)
  if (types.has("early") || types.has("run")) {
    return { kind: "extras", key: `extras:${live}:${app.earlyMode}`, el: extrasPanel(r, legal) };
  }
  return null;
}

// --- confirm bids (issue 40: misclicks) ---------------------------------------------

/** The bid or call waiting for its confirmation, for this version of the table only. */
function asked(r, frame) {
  return r.asking && frame && r.asking.v === frame.v ? r.asking : null;
}

function askKey(r, frame) {
  const a = asked(r, frame);
  return a ? JSON.stringify(a.action) : "";
}

/** Send a bid or call at once, or (preference "confirm bids") first ask to confirm it. */
function decide(r, action, text) {
  const { app } = r;
  if (!app.cfg.confirmBids) {
    app.act(action);
    return;
  }
  r.asking = { action, text, v: app.liveFrame.v };
  app.render();
}

function confirmBar(r) {
  const { app } = r;
  const a = asked(r, app.liveFrame);
  if (!a) return null;
  return h("div.confirm-bid", { role: "group", "data-testid": "confirm-bid", "aria-label": gettext("Confirm your bid") },
    h("span.confirm-text", null, fmtNodes(gettext("Send %(bid)s?"), { bid: h("b", { dir: "auto" }, a.text) })),
    h("button.btn", { type: "button", "data-testid": "confirm-bid-yes", "data-autofocus": "",
      onclick: () => { r.asking = null; app.act(a.action); } }, gettext("Confirm")),
    h("button.btn.btn-ghost", { type: "button", "data-testid": "confirm-bid-no",
      onclick: () => { r.asking = null; app.render(); } }, gettext("Change")));
}

// --- waiting room (R-1) ---------------------------------------------------------

function waitPanel(r) {
  const { app } = r;
  const room = app.room;
  const seats = room.seats;
  const empty = seats.filter((s) => !s.user && !s.bot).length;
  const unready = seats.filter((s) => s.user && s.user !== room.creator && !s.ready);
  const mySeat = app.you && app.you.seat ? app.seat(app.you.seat) : null;
  const key = `wait:${JSON.stringify(seats)}:${app.you.seat}:${app.connected}:${app.frame ? app.frame.status : ""}`;
  let line;
  if (empty) line = fmt(ngettext("Waiting for %(n)s more player…", "Waiting for %(n)s more players…", empty), { n: num(empty) });
  else if (unready.length) line = fmt(gettext("Waiting for %(names)s to be ready…"), { names: listText(unready.map((s) => s.user)) });
  else line = app.isCreator ? gettext("Everyone is here and ready. Start when you like.") : gettext("Everyone is ready. The host starts the match.");
  const parts = [h("h2", null, app.cfg.gameName), h("p.wait-line", { "data-testid": "wait-line" }, line)];
  const frame = app.frame;
  if (frame && frame.status === "abandoned") {
    if (r.leftSeen !== frame.match) {
      // Somebody left: the others see who, the score then and what is recorded, before the waiting room.
      const notice = [...leftNotice(r, frame), h("div.panel-actions", null, h("button.btn", { type: "button",
        "data-testid": "left-ok", onclick: () => { r.leftSeen = frame.match; app.render(); } }, gettext("Back to the waiting room")))];
      return { kind: "left", key: `left:${frame.match}:${app.connected}`, el: card("left", "left-notice", notice) };
    }
    parts.push(h("p.muted", null, gettext("The last match ended when a player left.")));
  }
  const buttons = [];
  if (app.isCreator) {
    const can = !empty && !unready.length && app.connected;
    buttons.push(h("button.btn.btn-start", { type: "button", disabled: !can, "data-testid": "start",
      onclick: () => app.send({ type: "start" }) }, gettext("Start the match")));
  } else if (mySeat) {
    const ready = Boolean(mySeat.ready);
    buttons.push(h("button.btn", { type: "button", class: ready ? "btn-ghost" : "", "aria-pressed": ready ? "true" : "false",
      "data-testid": "ready", onclick: () => app.send({ type: "ready", ready: !ready }) },
    ready ? gettext("Not ready after all") : gettext("I'm ready")));
  }
  if (mySeat && !app.isCreator) {
    buttons.push(h("button.btn.btn-ghost", { type: "button", "data-testid": "stand",
      onclick: () => app.send({ type: "stand" }) }, gettext("Stand up")));
  }
  // R-9: an empty seat can go to a friend (the friends page sends the ten-minute invite).
  if (mySeat && empty) {
    buttons.push(h("a.btn.btn-ghost", { href: "/friends/", "data-testid": "invite-friend" }, gettext("Invite a friend")));
  }
  if (buttons.length) parts.push(h("div.panel-actions", null, buttons));
  return { kind: "wait", key, el: card("wait", "wait-panel", parts) };
}

/** L-3: who left the match, the score at that moment, and what is recorded for the viewer. */
function leftNotice(r, frame) {
  const { app } = r;
  const view = frame.view;
  const known = r.matchSeats && r.matchSeats.match === frame.match ? r.matchSeats : null;
  const leaver = frame.leaver;
  const name = (known && known.names[leaver]) || app.name(leaver);
  const practice = known ? known.practice : app.room.seats.some((s) => s.bot);
  const me = view.viewer;
  const mine = me ? app.team(me) : 0;
  const fam = family(view.game);
  const score = fam === "hokm" ? view.score.rounds : fam === "shelem" ? view.score.totals : view.score.totals;
  // M-5: no leaver: the table closed because nobody was connected (L-5, not a leave).
  const who = leaver == null ? gettext("The table closed: nobody was connected to it.")
    : me === leaver ? gettext("You left the match.") : fmt(gettext("%(name)s left the match."), { name: isolate(name) });
  const parts = [h("h3", { "data-testid": "left-who" }, who)];
  if (score) {
    parts.push(h("p.muted", null, gettext("The score when the match ended:")));
    parts.push(scorePair(scoreNum(score[mine]), scoreNum(score[1 - mine]), "left-score"));
  }
  let record;
  if (practice) record = gettext("A practice match with bots: nothing is recorded.");
  else if (leaver == null) record = gettext("For every player the match is recorded as unfinished: neither a win nor a loss.");
  else if (me && me !== leaver) record = gettext("For you the match is recorded as unfinished: neither a win nor a loss.");
  else if (!me) record = gettext("For the players who stayed, the match is recorded as unfinished.");
  if (record) parts.push(h("p", { "data-testid": "left-record" }, record));
  return parts;
}

// --- the viewer's choices --------------------------------------------------------------

function trumpPanel(r, legal) {
  const { app } = r;
  const suits = legal.filter((a) => a.type === "trump" && a.suit !== "middle").map((a) => a.suit);
  const middle = legal.some((a) => a.type === "trump" && a.suit === "middle");
  return card("trump", "trump-panel",
    h("h3", null, gettext("You are the hakem: choose trump")),
    h("div.suit-buttons", null, suits.map((suit) => h("button.suit-btn", {
      type: "button", class: suit === "H" || suit === "D" ? "red" : "black", "data-testid": `trump-${suit}`,
      "aria-label": suitName(suit), title: suitName(suit), onclick: () => app.act({ type: "trump", suit }),
    }, SUIT_SYMBOL[suit]))),
    middle ? h("button.btn.btn-ghost", { type: "button", "data-testid": "trump-middle",
      onclick: () => app.act({ type: "trump", suit: "middle" }) }, gettext("Partner's middle card")) : null);
}

function draftPanel(r, view) {
  const { app } = r;
  const left = view.pairs_left ? view.pairs_left[view.viewer - 1] : 0;
  return card("draft", "draft-panel",
    h("h3", null, gettext("Draft: take this card or refuse it")),
    h("div.draft-row", null,
      view.draft_card ? cardFace(view.draft_card) : null,
      h("div.draft-buttons", null,
        h("button.btn", { type: "button", "data-testid": "draft-take", onclick: () => { noteDraft(app, true); app.act({ type: "draft", take: true }); } },
          gettext("Take")),
        h("button.btn.btn-ghost", { type: "button", "data-testid": "draft-refuse",
          onclick: () => { noteDraft(app, false); app.act({ type: "draft", take: false }); } }, gettext("Refuse")),
        h("small.muted", null, fmt(ngettext("%(n)s pair left", "%(n)s pairs left", left), { n: num(left) })))));
}

function bidPanel(r, legal) {
  const { app } = r;
  const amounts = legal.filter((a) => a.type === "bid").map((a) => a.amount).sort((a, b) => a - b);
  const canPass = legal.some((a) => a.type === "pass");
  const min = amounts[0];
  const max = amounts[amounts.length - 1];
  // Each turn to bid opens at the lowest legal bid of this auction (issue 15); the
  // value chosen stays only while the same turn's panel is redrawn.
  const frame = app.liveFrame;
  const turn = `${frame.match}:${frame.view.round}:${JSON.stringify(frame.view.bids)}`;
  if (r.bidTurn !== turn) {
    r.bidTurn = turn;
    r.bidValue = null;
  }
  let value = r.bidValue !== null && amounts.includes(r.bidValue) ? r.bidValue : min;
  const out = h("output.bid-value", { "data-testid": "bid-value", "aria-live": "polite" }, num(value ?? ""));
  const bidBtn = h("button.btn", { type: "button", "data-testid": "bid-button" });
  const slider = amounts.length ? h("input.bid-slider", {
    type: "range", min, max, step: BID_STEP, value, "data-testid": "bid-slider", "aria-label": gettext("Your bid"),
  }) : null;
  const less = h("button.step", { type: "button", "data-testid": "bid-less", "aria-label": fmt(gettext("%(n)s less"), { n: num(BID_STEP) }),
    onclick: () => set(value - BID_STEP) }, "−");
  const more = h("button.step", { type: "button", "data-testid": "bid-more", "aria-label": fmt(gettext("%(n)s more"), { n: num(BID_STEP) }),
    onclick: () => set(value + BID_STEP) }, "+");
  const set = (v) => {
    // Only legal amounts: never below this auction's minimum, never above the maximum.
    const want = Math.min(max, Math.max(min, v));
    value = amounts.includes(want) ? want : amounts.find((a) => a >= want) ?? max;
    r.bidValue = value;
    if (slider) slider.value = String(value);
    out.textContent = num(value);
    bidBtn.textContent = fmt(gettext("Bid %(n)s"), { n: num(value) });
    less.disabled = value <= min;
    more.disabled = value >= max;
  };
  if (slider) slider.addEventListener("input", () => set(Number(slider.value)));
  bidBtn.addEventListener("click", () => decide(r, { type: "bid", amount: value }, num(value)));
  const parts = [h("h3", null, gettext("Your bid")), confirmBar(r)];
  if (amounts.length) {
    set(value);
    parts.push(
      h("div.bid-row", { dir: "ltr" }, less, out, more),
      h("small.muted.bid-min", { "data-testid": "bid-min" }, fmt(gettext("Lowest bid now: %(n)s"), { n: num(min) })),
      h("div.slider-row", { dir: "ltr" }, slider));
  }
  parts.push(h("div.panel-actions", null, amounts.length ? bidBtn : null,
    canPass ? h("button.btn.btn-ghost", { type: "button", "data-testid": "pass-button",
      onclick: () => decide(r, { type: "pass" }, gettext("Pass")) }, gettext("Pass")) : null));
  if (!canPass) parts.push(h("small.muted", null, gettext("The first bidder must bid.")));
  return card("bid", "bid-panel", parts);
}

function discardPanel(r, legal) {
  const { app } = r;
  const need = legal.find((a) => a.type === "discard").count;
  const have = app.discardSel.size;
  return card("discard", "discard-panel",
    h("h3", null, fmt(ngettext("Put %(n)s card aside", "Put %(n)s cards aside", need), { n: num(need) })),
    h("p", null, fmt(gettext("Tap the cards in your hand: %(k)s of %(n)s chosen."), { k: num(have), n: num(need) })),
    h("div.panel-actions", null,
      h("button.btn", { type: "button", disabled: have !== need, "data-testid": "discard-confirm",
        onclick: () => app.act({ type: "discard", cards: [...app.discardSel] }) }, gettext("Put aside")),
      have ? h("button.btn.btn-ghost", { type: "button", onclick: () => { app.discardSel.clear(); app.render(); } },
        gettext("Clear")) : null));
}

function sarsPanel(r) {
  const { app } = r;
  return card("sars", "sars-panel",
    h("h3", null, gettext("Sars or trump?")),
    h("div.panel-actions", null,
      h("button.btn", { type: "button", "data-testid": "sars-yes", onclick: () => app.act({ type: "sars", sars: true }) },
        gettext("Sars: no trump")),
      h("button.btn", { type: "button", "data-testid": "sars-no", onclick: () => app.act({ type: "sars", sars: false }) },
        gettext("Trump by my first card"))));
}

export function auctionTable(view) {
  const calls = view.calls || [];
  const dealer = view.dealer || 1;
  const cells = Array.from({ length: dealer - 1 }, () => null);
  calls.forEach((c, i) => cells.push({ text: callText(c.call), i })); // data-call-index: its meaning (meanings.js)
  const rows = [];
  for (let i = 0; i < Math.max(cells.length, 1); i += 4) rows.push(cells.slice(i, i + 4));
  return h("table.auction", { dir: "ltr", "data-dealer": String(dealer), "data-calls": calls.map((c) => c.call).join(",") },
    h("thead", null, h("tr", null, [1, 2, 3, 4].map((seat) => h("th", null, compassName(seat))))),
    h("tbody", null, rows.map((row) => h("tr", null, [0, 1, 2, 3].map((i) => (row[i]
      ? h("td", { "data-call-index": String(row[i].i), tabindex: "0" }, row[i].text) : h("td", null, "")))))));
}

/** One call of the bidding box: enabled only when the table's legal calls hold it. */
function callButton(r, calls, call, spec = "button.bb", attrs = {}) {
  return h(spec, { type: "button", disabled: !calls.has(call), class: /[HD]$/.test(call) ? "red" : "", "data-call": call,
    "aria-label": callSpoken(call), onclick: () => decide(r, { type: "call", call }, callText(call)), ...attrs }, callText(call));
}

/** Pass, Double and Redouble, under either box. */
function otherCalls(r, calls) {
  return h("div.panel-actions", null, ["P", "X", "XX"].map((call) => callButton(r, calls, call, "button.btn",
    { class: call === "P" ? "btn-ghost" : "btn-danger", "aria-label": null })));
}

function callPanel(r, view, legal) {
  const calls = new Set(legal.map((a) => a.call));
  if (stepBox()) return stepCallPanel(r, calls);
  let low = 8;
  for (const c of calls) if (/^\d/.test(c)) low = Math.min(low, Number(c[0]));
  const rows = [];
  for (let level = Math.min(low, 7); level <= 7; level += 1) {
    rows.push(h("div.bb-row", null, STRAINS.map((s) => callButton(r, calls, `${level}${s}`))));
  }
  return card("call", "call-panel",
    auctionTable(view),
    confirmBar(r),
    h("div.bidding-box", { dir: "ltr", role: "group", "aria-label": gettext("Bidding box") }, rows),
    otherCalls(r, calls));
}

// --- the bidding box in two steps (issue 40: a 320 px phone) -------------------------
// The 35 bids at 40 px would cover the top seats' names on a narrow phone, and even the
// compact ones do on a short phone (360x640, 375x667): there the box shows the seven levels
// with Pass, Double and Redouble, and a level opens its five bids.

const STRAINS = ["C", "D", "H", "S", "NT"];
export const STEP_BOX_MEDIA = "(max-width: 340px), (max-width: 480px) and (max-height: 700px)";

export function stepBox() {
  return Boolean(window.matchMedia && window.matchMedia(STEP_BOX_MEDIA).matches);
}

/** This turn to call: a level chosen stays only while the auction has not moved on. */
function callTurn(frame) {
  return `${frame.match}:${frame.view.round}:${(frame.view.calls || []).length}`;
}

function chosenLevel(r, frame) {
  return r.callLevel && frame && r.callLevel.turn === callTurn(frame) ? r.callLevel.level : null;
}

function stepKey(r, frame) {
  return stepBox() ? `steps:${chosenLevel(r, frame) || ""}` : "full";
}

/** Open a level's bids (or, with null, go back to the levels); the focus follows inside the box. */
function chooseLevel(r, level, from = null) {
  const { app } = r;
  const had = r.el.panel.contains(document.activeElement);
  r.callLevel = level ? { level, turn: callTurn(app.liveFrame) } : null;
  app.render();
  if (!had) return;
  const target = level
    ? r.el.panel.querySelector(".bb-strains button:not([disabled])")
    : r.el.panel.querySelector(`[data-level="${from}"]:not([disabled])`) || r.el.panel.querySelector("button:not([disabled])");
  if (target) target.focus({ preventScroll: true });
}

function stepCallPanel(r, calls) {
  const frame = r.app.liveFrame;
  const level = chosenLevel(r, frame);
  const parts = [];
  if (asked(r, frame)) {
    parts.push(confirmBar(r));
  } else if (level) {
    parts.push(
      h("div.bb-step-head", null,
        h("button.btn.btn-ghost.bb-back", { type: "button", "data-testid": "bb-back", "aria-label": gettext("Back to the levels"),
          onclick: () => chooseLevel(r, null, level) },
        h("span.bb-back-arrow", { "aria-hidden": "true" }, "‹"), gettext("Back")),
        h("span.bb-step-title", { "data-testid": "bb-step-title" }, fmt(gettext("Level %(n)s: choose the suit"), { n: num(level) }))),
      h("div.bb-strains", { dir: "ltr", role: "group", "data-testid": "bb-strains",
        "aria-label": fmt(gettext("Bids at level %(n)s"), { n: num(level) }) },
      STRAINS.map((s) => callButton(r, calls, `${level}${s}`))));
  } else {
    const open = (l) => STRAINS.some((s) => calls.has(`${l}${s}`));
    parts.push(
      h("div.bb-levels", { dir: "ltr", role: "group", "data-testid": "bb-levels", "aria-label": gettext("Bidding box: choose a level") },
        [1, 2, 3, 4, 5, 6, 7].map((l) => h("button.bb.bb-level", { type: "button", disabled: !open(l), "data-level": String(l),
          "data-testid": `bb-level-${l}`, "aria-label": fmt(gettext("Level %(n)s"), { n: num(l) }),
          onclick: () => chooseLevel(r, l) }, num(l)))),
      otherCalls(r, calls));
  }
  const el = card("call", "call-panel", parts);
  el.classList.add("bb-steps");
  el.dataset.step = asked(r, frame) ? "confirm" : level ? "strain" : "level";
  el.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && chosenLevel(r, r.app.liveFrame) && !asked(r, r.app.liveFrame)) {
      event.preventDefault();
      chooseLevel(r, null, level);
    }
  });
  return el;
}

function extrasPanel(r, legal) {
  // H4-X2 early play (lay a card face down before one's turn) and H4-X3 runs.
  const { app } = r;
  const parts = [];
  if (legal.some((a) => a.type === "early")) {
    parts.push(h("button.btn.btn-ghost.btn-small", { type: "button", "aria-pressed": app.earlyMode ? "true" : "false",
      "data-testid": "early-mode", onclick: () => { app.earlyMode = !app.earlyMode; app.render(); } },
    app.earlyMode ? gettext("Cancel early play") : gettext("Lay a card early")));
    if (app.earlyMode) parts.push(h("p.muted.extras-hint", null, gettext("Choose the card to lay face down.")));
  }
  legal.filter((a) => a.type === "run").forEach((run, i) => {
    parts.push(h("button.btn.btn-small", { type: "button", "data-testid": `run-${i}`, "data-cards": run.cards.join(" "),
      onclick: () => app.act({ type: "run", cards: run.cards }) },
    fmtNodes(gettext("Lead the run %(cards)s"), { cards: cardsInline(run.cards) })));
  });
  return h("div.panel-card.panel-extras", { "data-testid": "extras-panel" }, parts);
}

// --- results ------------------------------------------------------------------------

function sideName(r, team) {
  const { app } = r;
  const view = app.liveFrame.view;
  if (view.viewer) {
    const mine = app.team(view.viewer) === team;
    if (app.players === 2) return mine ? gettext("You") : app.name(team + 1);
    return mine ? gettext("Your side") : gettext("The other side");
  }
  const names = [];
  for (let s = 1; s <= app.players; s += 1) if (app.team(s) === team) names.push(app.name(s));
  return listText(names);
}

function roundPanel(r, final = false) {
  const { app } = r;
  const frame = app.liveFrame;
  const view = frame.view;
  const banner = app.roundBanner;
  const fam = family(view.game);
  const mine = view.viewer ? app.team(view.viewer) : 0;
  const other = 1 - mine;
  const parts = [];
  let key = `round:${view.round}`;
  if (fam === "hokm") {
    const res = view.last_result || (banner && banner.event);
    if (!res) return null;
    const winner = res.winner ?? res.team;
    key += `:${winner}`;
    parts.push(h("h3", null, fmt(gettext("Round %(n)s: %(side)s won"), { n: num(res.round || view.round), side: sideName(r, winner) })));
    parts.push(scorePair(num(res.tricks[mine]), num(res.tricks[other])));
    if (res.kot) parts.push(h("p.kot", { "data-testid": "round-kot" }, res.kot === "hakem_kot" ? gettext("Hakem kot!") : gettext("Kot!")));
    parts.push(h("p.muted", null, fmt(gettext("%(side)s: %(points)s"), { side: sideName(r, winner), points: signed(res.points) })));
  } else if (fam === "shelem") {
    const res = view.score.last_result || (banner && banner.event);
    if (!res) return null;
    const bidderTeam = app.team(res.bidder);
    const made = res.score[bidderTeam] >= 0;
    key += `:${res.round}`;
    parts.push(h("h3", null, fmt(gettext("Round %(n)s: %(name)s bid %(bid)s and took %(took)s"),
      { n: num(res.round), name: isolate(app.name(res.bidder)), bid: num(res.bid), took: num(res.points[bidderTeam]) })));
    parts.push(h("p", { class: made ? "made" : "down" }, made ? gettext("Made it!") : gettext("Went down.")));
    parts.push(scorePair(signed(res.score[mine]), signed(res.score[other])));
    if (res.totals) {
      parts.push(h("p.muted", { "data-testid": "round-totals" }, fmt(gettext("Match: %(us)s – %(them)s"),
        { us: scoreNum(res.totals[mine]), them: scoreNum(res.totals[other]) })));
    }
  } else {
    const res = view.last_result || (banner && banner.event);
    if (!res) return null;
    key += `:${res.round}`;
    if (res.passed_out) parts.push(h("h3", null, gettext("Passed out: nobody bid.")));
    else {
      // Issue 16: the result in players' words, then the auction by seat (N E S W).
      parts.push(h("h3", { "data-testid": "deal-result" }, dealWords(res)));
      parts.push(h("p.muted.small", null, fmt(ngettext("%(n)s trick", "%(n)s tricks", res.tricks), { n: num(res.tricks) })));
      if ((view.calls || []).length) parts.push(auctionTable(view));
      for (const e of res.entries || []) {
        parts.push(h("p.muted", null, fmt(gettext("%(side)s: %(points)s"), { side: sideText(e.team), points: signed(e.points) })));
      }
    }
  }
  if (final) {
    key += ":final";
    parts.push(h("div.panel-actions", null, h("button.btn", { type: "button", "data-testid": "see-match-result",
      onclick: () => { app.roundBanner = null; app.render(); } }, gettext("The match's result"))));
  } else if (frame.deadlines && frame.deadlines["0"]) {
    parts.push(h("p.muted.next-round", null, gettext("The next round starts in a moment.")));
  }
  return { kind: "round", key, el: card("round", "round-result", parts) };
}

function resultPanel(r) {
  const { app } = r;
  const frame = app.liveFrame;
  const view = frame.view;
  const result = frame.result || {};
  const seats = app.room.seats;
  const agreed = seats.filter((s) => s.rematch || s.bot).length;
  const mySeat = app.you && app.you.seat ? app.seat(app.you.seat) : null;
  const next = app.arenaNext; // E-3: the arena has seated this player at his next table
  const key = `result:${frame.match}:${app.mode}:${app.you.seat}:${JSON.stringify(seats.map((s) => [s.user, s.rematch]))}:${app.connected}:${next ? `${next.url}:${next.stay}` : ""}`;
  const parts = [];
  let title = gettext("The match is over");
  if (frame.status === "abandoned") title = gettext("The match was abandoned");
  else if (result.winner !== undefined && result.winner !== null) {
    if (view.viewer) {
      const won = app.team(view.viewer) === result.winner;
      if (app.players === 2) title = won ? gettext("You won the match!") : gettext("You lost the match.");
      else title = won ? gettext("Your side won the match!") : gettext("Your side lost the match.");
    } else {
      title = fmt(gettext("%(side)s won the match"), { side: sideName(r, result.winner) });
    }
  }
  parts.push(h("h2", null, title));
  if (frame.status === "abandoned") parts.push(...leftNotice(r, frame));
  const score = frame.status === "abandoned" ? null : result.score || (view.score && (view.score.rounds || view.score.totals));
  if (score) {
    const mine = view.viewer ? app.team(view.viewer) : 0;
    parts.push(scorePair(scoreNum(score[mine]), scoreNum(score[1 - mine]), "final-score"));
  }
  const arena = app.room.arena_url; // E-3: the arena seats its players at their next table
  if (arena && next) {
    parts.push(h("p.arena-ready", { "data-testid": "arena-next", role: "status" }, next.stay
      ? gettext("Your next table in the arena is ready.")
      : gettext("Your next table in the arena is ready: you will be taken there in a few seconds.")));
  } else if (arena) {
    parts.push(h("p.muted", { "data-testid": "arena-next" },
      gettext("The arena seats you at your next table as soon as enough players are free.")));
  } else {
    parts.push(h("p.muted", { "data-testid": "rematch-count" },
      fmt(gettext("Play again: %(k)s of %(n)s agreed"), { k: num(agreed), n: num(seats.length) })));
  }
  const buttons = [];
  if (arena && next) {
    buttons.push(h("a.btn", { href: next.url, "data-testid": "arena-next-table" }, gettext("Go to your next table")));
    if (!next.stay) {
      buttons.push(h("button.btn.btn-ghost", { type: "button", "data-testid": "arena-stay", onclick: () => app.stayHere() },
        gettext("Stay here")));
    }
  }
  if (arena) {
    buttons.push(h(next ? "a.btn.btn-ghost" : "a.btn", { href: arena, "data-testid": "back-to-arena" }, gettext("Back to the arena")));
  }
  if (mySeat && app.mode === "finished") {
    if (arena) {
      // No rematch at an arena's table (the server refuses it too: arena_table).
    } else if (mySeat.rematch) {
      buttons.push(h("button.btn.btn-ghost", { type: "button", "data-testid": "rematch-cancel",
        onclick: () => app.send({ type: "rematch", agree: false }) }, gettext("I changed my mind")));
    } else {
      buttons.push(h("button.btn", { type: "button", "data-testid": "rematch",
        onclick: () => app.send({ type: "rematch", agree: true }) }, gettext("Play again")));
    }
    buttons.push(h("button.btn.btn-ghost", { type: "button", "data-testid": "result-leave", onclick: () => app.leave() },
      icon("leave"), gettext("Leave")));
  }
  // R-10: each player of the match may review its hands.
  if (view.viewer && frame.status !== "active") buttons.push(reviewLink(frame.match));
  // SH-11: why a Shelem match ended (the cap, minus the cap, the lead), with this room's own options.
  if (family(view.game) === "shelem" && frame.status === "finished") {
    const code = encodeURIComponent(app.cfg.code);
    buttons.push(h("a.btn.btn-ghost", { href: `/rules/${encodeURIComponent(view.game)}/?room=${code}&back=/rooms/${code}/#match-end`,
      "data-testid": "why-match-ended" }, gettext("How a match ends")));
  }
  // R-9: a player may report another, with this match attached.
  if (view.viewer) {
    for (const s of seats.filter((x) => x.user && x.user !== app.you.user)) {
      buttons.push(h("a.btn.btn-ghost", { href: `/friends/?report=${encodeURIComponent(s.user)}&match=${encodeURIComponent(frame.match)}`,
        "data-testid": "report-player" }, fmt(gettext("Report %(name)s"), { name: s.user })));
    }
  }
  if (buttons.length) parts.push(h("div.panel-actions", null, buttons));
  return { kind: "result", key, el: card("result", "match-result", parts) };
}

