// Issue 40: the table said aloud. One polite live region per table; each event of a
// state frame becomes one short sentence in the page's language, queued in order
// (new lines are appended to a role="log" region, so a screen reader reads them one
// after the other and nothing interrupts). The "h" key reads the viewer's hand by suit.
import { cardLabel, isJoker, suitName } from "./cards.js";
import { h } from "./dom.js";
import { fmt, gettext, isolate, listText, num } from "./i18n.js";
import { compassName, family, sideText } from "./games.js";

const KEEP = 30; // lines kept in the region (older ones are dropped: nothing is read twice)
const SUITS = ["S", "H", "D", "C"];

function rankWord(card) {
  return { A: gettext("Ace"), K: gettext("King"), Q: gettext("Queen"), J: gettext("Jack") }[card[0]]
    || num(card[0] === "T" ? "10" : card[0]);
}

/** A bridge call as spoken: "3 hearts", "1 no trump", "Pass". */
export function callSpoken(call) {
  if (call === "P") return gettext("Pass");
  if (call === "X") return gettext("Double");
  if (call === "XX") return gettext("Redouble");
  const m = /^(\d)(C|D|H|S|NT)$/.exec(call);
  if (!m) return call;
  const strain = m[2] === "NT" ? gettext("no trump") : suitName(m[2]);
  return fmt(gettext("%(level)s %(strain)s"), { level: num(m[1]), strain });
}

function contractSpoken(c) {
  let text = callSpoken(`${c.level}${c.strain}`);
  if (c.doubled === 1) text = fmt(gettext("%(contract)s doubled"), { contract: text });
  if (c.doubled === 2) text = fmt(gettext("%(contract)s redoubled"), { contract: text });
  return text;
}

export class Announcer {
  constructor(app) {
    this.app = app;
    this.said = []; // every line, in order (tests read it)
    this.region = h("div.sr-only.announcer", {
      role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-atomic": "false",
      "data-testid": "announcer", "aria-label": gettext("Table announcements"),
    });
    app.root.append(this.region);
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  say(text) {
    if (!text) return;
    this.said.push(text);
    this.region.append(h("p", null, text));
    while (this.region.childElementCount > KEEP) this.region.firstElementChild.remove();
  }

  /** "you" or the seat's name (isolated: a Latin name in a Persian sentence keeps its order). */
  who(seat) {
    return isolate(this.app.name(seat));
  }

  mine(seat) {
    const view = this.app.view;
    return Boolean(view && view.viewer && view.viewer === seat);
  }

  // --- a state frame ------------------------------------------------------------------

  /** Called with each accepted frame that follows the last one (never for a full resend). */
  onEvents(frame, previous) {
    const lines = [];
    for (const event of frame.events || []) {
      const line = this.eventText(event, frame);
      if (line) lines.push(line);
    }
    const turn = this.turnText(frame, previous);
    if (turn && turn.mine) {
      lines.forEach((l) => this.say(l));
      this.say(turn.text);
      return;
    }
    // Somebody else's turn rides on the frame's last line (one message per event, no more).
    if (turn && lines.length) lines[lines.length - 1] = `${lines[lines.length - 1]} ${turn.text}`;
    lines.forEach((l) => this.say(l));
  }

  turnText(frame, previous) {
    const view = frame.view;
    if (frame.status !== "active") return null;
    const acting = (view.to_act || []).filter((s) => s !== 0);
    const before = previous ? (previous.view.to_act || []).filter((s) => s !== 0) : [];
    const myNow = Boolean(view.viewer && acting.includes(view.viewer) && (view.legal || []).length);
    const myBefore = Boolean(previous && previous.view.viewer && before.includes(previous.view.viewer) &&
      (previous.view.legal || []).length);
    if (myNow && !myBefore) return { mine: true, text: this.yourTurn(view) };
    if (myNow || acting.length !== 1) return null;
    if (before.length === 1 && before[0] === acting[0]) return null;
    return { mine: false, text: fmt(gettext("%(name)s's turn."), { name: this.who(acting[0]) }) };
  }

  yourTurn(view) {
    const types = new Set((view.legal || []).map((a) => a.type));
    if (types.has("trump")) return gettext("Your turn: choose trump.");
    if (types.has("draft")) {
      return view.draft_card ? fmt(gettext("Your turn: take or refuse %(card)s."), { card: cardLabel(view.draft_card) })
        : gettext("Your turn: take or refuse the card.");
    }
    if (types.has("bid") || types.has("pass")) return gettext("Your turn to bid.");
    if (types.has("call")) return gettext("Your turn to call.");
    if (types.has("discard")) return gettext("Your turn: put cards aside.");
    if (types.has("sars")) return gettext("Your turn: sars or trump?");
    if (types.has("play")) return gettext("Your turn: play a card. Press H to hear your hand.");
    return gettext("Your turn");
  }

  eventText(e, frame) {
    const view = frame.view;
    const you = this.mine(e.seat);
    switch (e.type) {
      case "card_played":
        return you ? fmt(gettext("You played %(card)s."), { card: cardLabel(e.card) })
          : fmt(gettext("%(name)s played %(card)s."), { name: this.who(e.seat), card: cardLabel(e.card) });
      case "trick_won":
        return you ? gettext("You took the trick.")
          : fmt(gettext("%(name)s took the trick."), { name: this.who(e.seat) });
      case "hakem":
        return you ? gettext("You are the hakem.") : fmt(gettext("%(name)s is the hakem."), { name: this.who(e.seat) });
      case "trump_named":
        if (e.sars) return gettext("Sars: no trump this round.");
        return e.suit ? fmt(gettext("Trump is %(suit)s."), { suit: suitName(e.suit) }) : null;
      case "sars_chosen":
        return e.sars ? gettext("Sars: no trump this round.") : null;
      case "bid":
        return you ? fmt(gettext("You bid %(n)s."), { n: num(e.amount) })
          : fmt(gettext("%(name)s bid %(n)s."), { name: this.who(e.seat), n: num(e.amount) });
      case "passed":
        return you ? gettext("You passed.") : fmt(gettext("%(name)s passed."), { name: this.who(e.seat) });
      case "auction_won":
        return you ? fmt(gettext("You won the bidding with %(n)s."), { n: num(e.amount) })
          : fmt(gettext("%(name)s won the bidding with %(n)s."), { name: this.who(e.seat), n: num(e.amount) });
      case "call":
        return fmt(gettext("%(name)s: %(call)s."), { name: you ? gettext("You") : this.who(e.seat), call: callSpoken(e.call) });
      case "auction_over":
        return e.contract ? fmt(gettext("The contract is %(contract)s by %(seat)s."),
          { contract: contractSpoken(e.contract), seat: compassName(e.contract.declarer) }) : null;
      case "passed_out":
        return gettext("Passed out: nobody bid.");
      case "round_won":
        return this.hokmRound(e, view);
      case "round_scored":
        return this.shelemRound(e, view);
      case "deal_scored":
        return this.bridgeDeal(view);
      case "match_won":
        return gettext("The match is over");
      default:
        return null;
    }
  }

  side(team, view) {
    const { app } = this;
    if (view.viewer) {
      const mine = app.team(view.viewer) === team;
      if (app.players === 2) return mine ? gettext("You") : app.name(team + 1);
      return mine ? gettext("Your side") : gettext("The other side");
    }
    return family(view.game) === "bridge" ? sideText(team) : fmt(gettext("Team %(n)s"), { n: num(team + 1) });
  }

  pair(values, view) {
    const mine = view.viewer ? this.app.team(view.viewer) : 0;
    return { us: num(values[mine]), them: num(values[1 - mine]) };
  }

  hokmRound(e, view) {
    const score = this.pair(e.score, view);
    return fmt(gettext("Round over: %(side)s won it with %(points)s points. Match score: %(us)s to %(them)s."),
      { side: this.side(e.team, view), points: num(e.points), ...score });
  }

  shelemRound(e, view) {
    const team = this.app.team(e.bidder);
    const made = e.score[team] >= 0;
    const text = made ? gettext("Round over: the bidder made it.") : gettext("Round over: the bidder went down.");
    const totals = this.pair(e.totals, view);
    return `${text} ${fmt(gettext("Match score: %(us)s to %(them)s."), totals)}`;
  }

  bridgeDeal(view) {
    const totals = view.score && view.score.totals;
    if (!totals) return gettext("The deal is over.");
    return `${gettext("The deal is over.")} ${fmt(gettext("Match score: %(us)s to %(them)s."), this.pair(totals, view))}`;
  }

  // --- the hand, read out ---------------------------------------------------------------

  handText() {
    const view = this.app.view;
    const hand = view && view.hand;
    if (!hand || !hand.length) return gettext("You have no cards.");
    const legal = new Set(this.app.legalOf("play").map((a) => a.card));
    const parts = [];
    for (const suit of SUITS) {
      const cards = hand.filter((c) => !isJoker(c) && c[1] === suit);
      if (cards.length) parts.push(fmt(gettext("%(suit)s: %(ranks)s"), { suit: suitName(suit), ranks: listText(cards.map(rankWord)) }));
    }
    const jokers = hand.filter(isJoker).map(cardLabel);
    if (jokers.length) parts.push(listText(jokers));
    let text = `${gettext("Your hand")}. ${parts.join(". ")}.`;
    if (legal.size) text += ` ${fmt(gettext("%(n)s playable."), { n: num(legal.size) })}`;
    return text;
  }

  onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const t = event.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    // By the key's place, not its letter: "h" on a Persian keyboard too.
    if (event.code === "KeyH" || event.key === "h" || event.key === "H") {
      if (!this.app.view) return;
      this.say(this.handText());
      event.preventDefault();
    }
  }
}
