// A learner's hint (issue 38): in a practice match (a bot at the table, L-2),
// on his turn, a button asks the server for the strong bot's choice from his
// own view (rooms/hints.py); the answer is shown with its one short reason.
// A match between people shows no button (and the server refuses anyway).
import { h } from "./dom.js";
import { gettext } from "./i18n.js";

const SUIT_SIGN = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

/** "TH" -> "10♥" (a joker or anything else as it is). */
function cardText(card) {
  if (!card || card.length !== 2 || !SUIT_SIGN[card[1]]) return card || "";
  return `${card[0] === "T" ? "10" : card[0]}${SUIT_SIGN[card[1]]}`;
}

export class Hints {
  constructor(app) {
    this.app = app;
    this.shown = null; // {v, card}: the hint on screen, for this version only
  }

  canAsk() {
    const app = this.app;
    const frame = app.liveFrame;
    if (!frame || frame.status !== "active" || !app.room || !app.room.seats.some((s) => s.bot)) return false;
    const view = frame.view;
    return Boolean(view.viewer && (view.legal || []).length && (view.to_act || []).includes(view.viewer));
  }

  footKey() {
    return `${this.canAsk()}|${this.app.connected}`;
  }

  footControls() {
    if (!this.canAsk()) return [];
    return [h("button.tool.tool-hint", { type: "button", "data-testid": "hint-ask", disabled: !this.app.connected,
      title: gettext("Hint: what the strong bot would play from your cards"),
      onclick: () => this.app.send({ type: "hint" }) }, h("span", { "aria-hidden": "true" }, "\u{1F4A1}"),
    h("span.hint-label", null, gettext("Hint")))];
  }

  /** The server's answer: the suggested action in words, its reason, and the card marked in the hand. */
  onHint(frame) {
    if (frame.v !== this.app.v) return; // the table has moved on
    const a = frame.action || {};
    let what = "";
    if (a.type === "play" || a.type === "early") what = cardText(a.card);
    else if (a.type === "trump") what = a.suit === "middle" ? gettext("Partner's middle card") : a.suit;
    else if (a.type === "call") what = a.call;
    else if (a.type === "bid") what = String(a.amount);
    this.shown = { v: frame.v, card: a.card || null };
    const text = what ? `\u2066${what}\u2069 \u2014 ${frame.reason}` : frame.reason;
    this.app.renderer.toast(text, "hint", 6000);
    for (const el of document.querySelectorAll("[data-card].hinted")) el.classList.remove("hinted");
    if (a.card) {
      const el = document.querySelector(`[data-testid=hand] [data-card="${a.card}"]`);
      if (el) el.classList.add("hinted");
    }
  }
}
