// Rubber bridge on paper (issue 16, B-5..B-10): the We / They score sheet with
// premiums above the line and trick points below, each game closed by a line,
// built from the view's `score` (the engine's RubberSheet.public); and a played
// deal's result in the words players use.
import { h } from "./dom.js";
import { fmt, gettext, ngettext, num, score } from "./i18n.js";
import { contractText, sideText } from "./games.js";

/** A bridge seat by its full compass name (B-1): "South". */
export function seatWord(seat) {
  return [gettext("North"), gettext("East"), gettext("South"), gettext("West")][seat - 1] || String(seat);
}

function kindText(kind) {
  return {
    contract: gettext("Tricks bid and made"), overtricks: gettext("Overtricks"), insult: gettext("Doubled contract made"),
    slam: gettext("Slam"), undertricks: gettext("Undertricks"), honours: gettext("Honours"), rubber: gettext("Rubber bonus"),
    game: gettext("Game bonus"), partscore: gettext("Part score bonus"), // a duplicate board (issue 37)
  }[kind] || kind;
}

/** "3NT by South, down 1: E–W +50"; "4♠ doubled by East, made with an overtrick: E–W +690". */
export function dealWords(res) {
  if (!res) return "";
  if (res.passed_out) return gettext("Passed out: nobody bid.");
  const c = res.contract;
  const base = contractText({ level: c.level, strain: c.strain, doubled: 0 });
  const contract = c.doubled === 2 ? fmt(gettext("%(contract)s redoubled"), { contract: base })
    : c.doubled === 1 ? fmt(gettext("%(contract)s doubled"), { contract: base }) : base;
  const diff = res.tricks - (6 + c.level);
  let outcome;
  if (diff < 0) outcome = fmt(gettext("down %(n)s"), { n: num(-diff) });
  else if (diff === 0) outcome = gettext("made");
  else if (diff === 1) outcome = gettext("made with an overtrick");
  else outcome = fmt(ngettext("made with %(n)s overtrick", "made with %(n)s overtricks", diff), { n: num(diff) });
  const points = [0, 0];
  for (const e of res.entries || []) points[e.team] += e.points;
  const gains = [0, 1].filter((t) => points[t]).map((t) => `${sideText(t)} +${num(points[t])}`);
  const head = fmt(gettext("%(contract)s by %(seat)s, %(outcome)s"), { contract, seat: seatWord(c.declarer), outcome });
  return gains.length ? `${head}: ${gains.join(", ")}` : head;
}

// The number is isolated left-to-right inside its cell; the cell itself keeps the
// page's direction, so the line between the two columns stays between them in RTL.
function cell(entry, team) {
  if (!entry) return h("td", { "data-team": team }, "");
  return h("td", {
    "data-team": team, "data-deal": entry.deal, "data-kind": entry.kind, "data-points": entry.points,
    class: `kind-${entry.kind}`, title: kindText(entry.kind),
  }, h("bdi", { dir: "ltr" }, num(entry.points)));
}

function rows(lists, line, cls, game = null) {
  const n = Math.max(lists[0].length, lists[1].length);
  const out = [];
  for (let i = 0; i < n; i += 1) {
    const tr = h("tr", { class: cls }, cell(lists[0][i], 0), cell(lists[1][i], 1));
    for (const td of tr.children) {
      td.dataset.line = line;
      if (game !== null) td.dataset.game = game;
    }
    out.push(tr);
  }
  return out;
}

/**
 * The sheet as players keep it: `sides` is [{team, label, us}, …] with the
 * viewer's side first ("We"); spectators see N–S and E–W.
 */
export function rubberSheetEl(sheet, sides, spectator) {
  const order = sides.map((s) => s.team);
  const pick = (pair) => order.map((t) => pair[t]);
  const heads = sides.map((s, i) => {
    const name = spectator ? sideText(s.team) : i === 0 ? gettext("We") : gettext("They");
    const vul = sheet.vulnerable[s.team];
    return h("th", { scope: "col", "data-team": s.team },
      h("span.rubber-side", null, name),
      spectator ? null : h("small.rubber-compass", null, sideText(s.team)),
      h("small.vul", { class: vul ? "yes" : "no", "data-testid": `vulnerable-${s.team}` },
        vul ? gettext("Vulnerable") : gettext("Not vulnerable")));
  });
  // Above the line: the first premium just above it, later ones higher up.
  const above = pick(sheet.above).map((list) => [...list].reverse());
  const aboveRows = rows(above, "above", "above");
  const below = [];
  sheet.games_below.forEach((game, g) => {
    below.push(...rows(pick(game), "below", "below", g));
    below.push(h("tr.game-line", { "data-testid": "game-line" }, h("td", { colspan: 2 }, h("span.sr-only", null,
      fmt(gettext("Game %(n)s"), { n: num(g + 1) })))));
  });
  below.push(...rows(pick(sheet.below), "below", "below current", sheet.games_below.length));
  const totals = pick(sheet.totals);
  const over = sheet.winner !== null && sheet.winner !== undefined;
  const foot = [h("tr.totals", { "data-testid": "rubber-totals" },
    totals.map((t, i) => h("td", { "data-team": order[i], "data-total": t }, h("bdi", { dir: "ltr" }, score(t)))))];
  const games = pick(sheet.games);
  if (!sheet.board) foot.push(h("tr.games", null, h("td", { colspan: 2 }, fmt(gettext("Games: %(a)s – %(b)s"),
    { a: num(games[0]), b: num(games[1]) }))));
  if (over) {
    const bonus = sheet.above[sheet.winner].find((e) => e.kind === "rubber");
    const winner = sides.findIndex((s) => s.team === sheet.winner);
    const who = spectator ? sideText(sheet.winner) : winner === 0 ? gettext("We") : gettext("They");
    foot.push(h("tr.rubber-won", { "data-testid": "rubber-won" }, h("td", { colspan: 2 },
      fmt(gettext("Rubber to %(side)s: bonus %(bonus)s; final %(a)s – %(b)s"),
        { side: who, bonus: num(bonus ? bonus.points : 0), a: num(totals[0]), b: num(totals[1]) }))));
  }
  return h("table.rubber", { "data-testid": "rubber-sheet" },
    // A duplicate board of the daily challenge (issue 37) is scored alone: its number, no rubber.
    h("caption", null, sheet.board ? fmt(gettext("Board %(n)s"), { n: num(sheet.board) }) : gettext("Rubber score")),
    h("thead", null, h("tr", null, heads)),
    h("tbody.rubber-above", null, aboveRows.length ? aboveRows : h("tr.above.empty", null, h("td", { colspan: 2 }, ""))),
    h("tbody.rubber-below", null, below),
    h("tfoot", null, foot));
}
