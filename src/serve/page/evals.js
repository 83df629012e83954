// kifudex explorer: the game viewer's evaluations. A graph of the engine's evaluation at every
// evaluated ply under the board (sente's point of view, so that up is always ☗), a click on
// it goes to that ply, and the game's blunders (the rows of `kifudex blunders` the game
// endpoint carries) marked on it and in the move list. Loaded before app.js, whose state,
// t() and viewerGo() it uses when called.
"use strict";

const EVAL_TEXT = {
  ja: {
    evalGraph: "評価値グラフ（先手から見た値）", evalNone: "評価値なし", evalValue: (v) => `評価値 ${v}`,
    evalMate: (e) => `${e.mate_for === "sente" ? "先手" : "後手"}の詰み${e.mate != null ? `（${Math.abs(e.mate)}手）` : ""}`,
    evalDepth: (d) => `（深さ${d}）`, senteAhead: "☗有利", goteAhead: "☖有利", blunderMark: "悪手",
    blunderLine: (b) => `悪手 ${b.move}: ${b.before} → ${b.after}（${b.drop}損）`,
    betterMove: (m) => `最善 ${m}`,
  },
  en: {
    evalGraph: "Evaluation graph (sente's point of view)", evalNone: "No evaluation",
    evalValue: (v) => `Evaluation ${v}`,
    evalMate: (e) => `${e.mate_for === "sente" ? "Sente" : "Gote"} mates${e.mate != null ? ` in ${Math.abs(e.mate)}` : ""}`,
    evalDepth: (d) => ` (depth ${d})`, senteAhead: "☗ ahead", goteAhead: "☖ ahead", blunderMark: "blunder",
    blunderLine: (b) => `Blunder ${b.move}: ${b.before} → ${b.after} (lost ${b.drop})`,
    betterMove: (m) => `best ${m}`,
  },
};

// Values beyond ±EVAL_CLIP, and mates, are drawn at the graph's edge: within it the graph
// shows the swings that decide games, where a +5000 and a mate both just say "won".
const EVAL_CLIP = 2000;
const GRAPH_W = 440, GRAPH_H = 110, GRAPH_PAD = 7;

// What the graph draws for an evaluation: sente's value held within ±EVAL_CLIP.
function evalDrawn(e) {
  if (e.value != null) return Math.max(-EVAL_CLIP, Math.min(EVAL_CLIP, e.value));
  return e.mate_for === "sente" ? EVAL_CLIP : -EVAL_CLIP;
}

// A value as a player writes it: +60, −400 (a true minus sign), ±0.
function signed(v) {
  if (v > 0) return "+" + v;
  if (v < 0) return "−" + -v;
  return "±0";
}

function evalWords(e) {
  if (!e) return t("evalNone");
  const main = e.value != null ? t("evalValue", (e.clamped ? (e.value > 0 ? "≥" : "≤") : "") + signed(e.value))
    : t("evalMate", e);
  return e.depth != null ? main + t("evalDepth", e.depth) : main;
}

// The graph, the blunders in the move list and the words under the graph for game `g` (an
// /api/game answer); hidden for a game without evaluations.
function showEvals(g) {
  const fig = document.getElementById("vgraph");
  const evals = g.evals || [];
  fig.hidden = evals.length === 0;
  const holder = document.getElementById("vgraphsvg");
  holder.replaceChildren();
  const items = document.querySelectorAll("#vmoves li");
  for (const b of g.blunders || []) {
    const li = items[b.ply];
    if (!li) continue;
    li.classList.add("blunder");
    li.dataset.drop = String(b.drop);
    const mark = document.createElement("span");
    mark.className = "bl";
    mark.textContent = `${t("blunderMark")} −${b.drop}`;
    li.appendChild(mark);
  }
  if (!evals.length) return;
  const plies = Math.max(1, g.moves.length);
  const x = (ply) => GRAPH_PAD + (ply * (GRAPH_W - 2 * GRAPH_PAD)) / plies;
  const y = (v) => GRAPH_H / 2 - (v * (GRAPH_H / 2 - GRAPH_PAD)) / EVAL_CLIP;
  const svg = el("svg", { viewBox: `0 0 ${GRAPH_W} ${GRAPH_H}`, role: "img", "aria-label": t("evalGraph") });
  svg.appendChild(el("rect", { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, fill: "#fff", stroke: "#e2d8c3" }));
  svg.appendChild(el("text", { x: 3, y: 12, "font-size": 11, fill: "#777" }, t("senteAhead")));
  svg.appendChild(el("text", { x: 3, y: GRAPH_H - 4, "font-size": 11, fill: "#777" }, t("goteAhead")));
  svg.appendChild(el("line", { x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2, stroke: "#bbb" }));
  // One line for each run of consecutive evaluated plies, shaded down to the zero line.
  let run = [];
  const flush = () => {
    if (run.length > 1) {
      const pts = run.map((e) => `${x(e.ply).toFixed(1)},${y(evalDrawn(e)).toFixed(1)}`);
      const area = `${x(run[0].ply).toFixed(1)},${GRAPH_H / 2} ${pts.join(" ")} ${x(run[run.length - 1].ply).toFixed(1)},${GRAPH_H / 2}`;
      svg.appendChild(el("polygon", { points: area, fill: "rgba(59,47,32,.18)" }));
      svg.appendChild(el("polyline", { points: pts.join(" "), fill: "none", stroke: "#3b2f20", "stroke-width": 1.5 }));
    }
    run = [];
  };
  for (const e of evals) {
    if (run.length && e.ply !== run[run.length - 1].ply + 1) flush();
    run.push(e);
  }
  flush();
  for (const e of evals) {
    svg.appendChild(el("circle", {
      class: "pt", cx: x(e.ply), cy: y(evalDrawn(e)), r: 1.6, fill: "#3b2f20",
      "data-ply": e.ply, "data-value": evalDrawn(e),
    }));
  }
  const at = new Map(evals.map((e) => [e.ply, e]));
  for (const b of g.blunders || []) {
    const e = at.get(b.ply);
    if (!e) continue;
    const c = el("circle", {
      class: "blunder", cx: x(b.ply), cy: y(evalDrawn(e)), r: 4.5, fill: "#c62828", stroke: "#fff",
      "data-ply": b.ply, "data-drop": b.drop,
    });
    c.appendChild(el("title", {}, `${b.ply}. ${b.japanese} −${b.drop}`));
    svg.appendChild(c);
  }
  svg.appendChild(el("line", { id: "vgraphcursor", x1: 0, y1: 0, x2: 0, y2: GRAPH_H, stroke: "#f7a000", "stroke-width": 2 }));
  // A click anywhere in the graph goes to the nearest ply.
  svg.addEventListener("click", (ev) => {
    const box = svg.getBoundingClientRect();
    const gx = ((ev.clientX - box.left) / box.width) * GRAPH_W;
    viewerGo(Math.round(((gx - GRAPH_PAD) * plies) / (GRAPH_W - 2 * GRAPH_PAD)));
  });
  holder.appendChild(svg);
}

// The cursor and the words under the graph at `ply`: the evaluation there and, when the move
// that reached it was a blunder, what it cost and the engine's better move.
function showEvalAt(g, ply) {
  const evals = g.evals || [];
  if (!evals.length) return;
  const plies = Math.max(1, g.moves.length);
  const cx = GRAPH_PAD + (ply * (GRAPH_W - 2 * GRAPH_PAD)) / plies;
  const cursor = document.getElementById("vgraphcursor");
  if (cursor) { cursor.setAttribute("x1", cx); cursor.setAttribute("x2", cx); }
  const byPly = (p) => evals.find((e) => e.ply === p);
  const now = document.getElementById("vevalnow");
  now.replaceChildren();
  const here = byPly(ply);
  const line = document.createElement("span");
  line.className = "now";
  line.textContent = evalWords(here);
  now.appendChild(line);
  now.dataset.ply = String(ply);
  now.dataset.value = here ? String(evalDrawn(here)) : "";
  const b = (g.blunders || []).find((x) => x.ply === ply);
  if (b) {
    const before = byPly(ply - 1), after = here;
    const words = (e) => (e && e.value != null ? signed(e.value) : e ? t("evalMate", e) : "?");
    const s = document.createElement("span");
    s.className = "bl";
    s.textContent = t("blunderLine", { move: b.japanese, before: words(before), after: words(after), drop: b.drop }) +
      (b.better_japanese ? " " + t("betterMove", b.better_japanese) : "");
    now.appendChild(s);
  }
}

// At a blunder's ply, the engine's better move (played instead of it, from the position
// before) as an arrow on the board: from its square to its target, or a ring on the target
// of a drop.
function drawBetterMove(container, g, ply, flip) {
  const b = (g.blunders || []).find((x) => x.ply === ply);
  const svg = container.querySelector("svg");
  if (!b || !b.better || !svg) return;
  const centre = (sq) => {
    const file = parseInt(sq[0], 10), rank = RANKS.indexOf(sq[1]);
    const c = flip ? file - 1 : 9 - file, r = flip ? 8 - rank : rank;
    return [OX + c * CELL + CELL / 2, OY + r * CELL + CELL / 2];
  };
  const [tx, ty] = centre(b.better.slice(2, 4));
  const mark = { "data-better": b.better, "pointer-events": "none", stroke: "rgba(30,140,60,.85)", fill: "none" };
  if (b.better[1] === "*") {
    svg.appendChild(el("circle", { ...mark, cx: tx, cy: ty, r: 20, "stroke-width": 5 }));
    return;
  }
  const [fx, fy] = centre(b.better.slice(0, 2));
  // The shaft stops short of the target's centre, where the head's point is.
  const len = Math.hypot(tx - fx, ty - fy), ux = (tx - fx) / len, uy = (ty - fy) / len;
  const bx = tx - ux * 16, by = ty - uy * 16;
  const g2 = el("g", mark);
  g2.appendChild(el("line", { x1: fx, y1: fy, x2: bx, y2: by, "stroke-width": 8, "stroke-linecap": "round" }));
  g2.appendChild(el("path", {
    d: `M${tx} ${ty} L${bx - uy * 12} ${by + ux * 12} L${bx + uy * 12} ${by - ux * 12} Z`,
    fill: "rgba(30,140,60,.85)", stroke: "none",
  }));
  svg.appendChild(g2);
}
