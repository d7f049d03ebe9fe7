// The match score round by round, drawn as an SVG line chart by the page.
import { num } from "../table/i18n.js";

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = null) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
}

/**
 * data.chart: [[a, b] before round 1, after round 1, ...]. `current` (a round
 * index) is marked. The chart is laid out left to right in both languages,
 * like a score sheet's time axis. The viewer's own side (``usTeam``) has the
 * table's "us" colour, as on the seats and the bar.
 */
export function scoreChart(box, data, current, sideLabel, usTeam = 0) {
  const tone = (team) => (team === usTeam ? 0 : 1);
  const points = data.chart;
  const W = 320;
  const H = 150;
  const pad = { l: 36, r: 10, t: 10, b: 22 };
  const values = points.flat();
  let lo = Math.min(0, ...values);
  let hi = Math.max(1, ...values);
  if (hi === lo) hi = lo + 1;
  const n = Math.max(1, points.length - 1);
  const x = (i) => pad.l + ((W - pad.l - pad.r) * i) / n;
  const y = (v) => pad.t + ((H - pad.t - pad.b) * (hi - v)) / (hi - lo);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "rp-svg", direction: "ltr" });
  svg.append(el("title", {}, `${sideLabel(0)} / ${sideLabel(1)}`));
  // axes: zero line, the top value, round numbers
  svg.append(el("line", { x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0), class: "rp-axis" }));
  svg.append(el("text", { x: pad.l - 4, y: y(hi) + 4, class: "rp-tick", "text-anchor": "end" }, num(hi)));
  svg.append(el("text", { x: pad.l - 4, y: y(0) + 4, class: "rp-tick", "text-anchor": "end" }, num(0)));
  if (lo < 0) svg.append(el("text", { x: pad.l - 4, y: y(lo) + 4, class: "rp-tick", "text-anchor": "end" }, num(lo)));
  const every = Math.ceil(n / 10);
  for (let i = 1; i <= n; i += 1) {
    if (i % every && i !== n) continue;
    svg.append(el("text", { x: x(i), y: H - 6, class: "rp-tick", "text-anchor": "middle" }, num(i)));
  }
  if (current !== null && current + 1 <= n) {
    svg.append(el("rect", { x: x(current), y: pad.t, width: Math.max(2, x(current + 1) - x(current)), height: H - pad.t - pad.b, class: "rp-now" }));
  }
  for (const team of [0, 1]) {
    const d = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p[team]).toFixed(1)}`).join(" ");
    svg.append(el("path", { d, class: `rp-line rp-line-${tone(team)}`, "data-team": team }));
    points.forEach((p, i) => svg.append(el("circle", { cx: x(i), cy: y(p[team]), r: 2.5, class: `rp-dot rp-line-${tone(team)}` })));
  }
  const legend = document.createElement("div");
  legend.className = "rp-legend";
  for (const team of [0, 1]) {
    const item = document.createElement("span");
    item.className = `rp-key rp-key-${tone(team)}`;
    item.dataset.team = String(team);
    item.textContent = sideLabel(team);
    legend.append(item);
  }
  box.replaceChildren(svg, legend);
}
