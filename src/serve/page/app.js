// kifudex explorer: a board to click through the database. Everything it shows comes from the
// JSON API of the same server; the page keeps its whole state in its URL.
"use strict";

const TEXT = {
  ja: {
    player: "対局者", as: "手番", either: "どちらでも", sente: "先手", gote: "後手", event: "棋戦",
    opening: "戦型", since: "から", until: "まで", result: "結果", any: "すべて", senteWins: "先手勝ち",
    goteWins: "後手勝ち", draw: "引き分け", text: "コメント", apply: "絞り込む", clear: "解除", filterLine: "絞り込み",
    flip: "反転", moves: "指し手", move: "指し手", games: "局数", results: "結果", score: "勝率",
    first: "初出", last: "最終", gamesHere: "この局面の棋譜", date: "日付", explore: "この局面を調べる",
    close: "閉じる", reach: (n) => `${n}局`, noMoves: "この局面からの指し手はありません",
    noGames: "該当する棋譜はありません", promote: "成りますか？", hand: "持駒", none: "なし",
    start: "開始局面", lang: "English", loading: "読み込み中…", plies: "手数", terminal: "終局",
    senteWon: "先手勝ち", goteWon: "後手勝ち", drawn: "引き分け", unknown: "—", textHits: "コメント検索",
    textFound: (n) => `コメント「${n}」を含む棋譜`,
    shitateWon: "下手勝ち", uwateWon: "上手勝ち", shitate: "下手", uwate: "上手",
    missingGame: (id) => `棋譜 ${id} は見つかりません（削除されたか、番号の誤りです）`,
    terminals: {
      resign: "投了", abort: "中断", repetition: "千日手", impasse: "持将棋", time_up: "切れ負け",
      illegal_move: "反則", illegal_win: "反則勝ち", illegal_loss: "反則負け",
      entering_king_win: "入玉勝ち", entering_king_draw: "入玉引き分け", default_win: "不戦勝",
      default_loss: "不戦敗", mate: "詰み", no_mate: "不詰", takeback: "待った",
      max_moves: "最大手数", error: "エラー",
    },
  },
  en: {
    player: "Player", as: "Side", either: "either", sente: "Sente", gote: "Gote", event: "Event",
    opening: "Opening", since: "Since", until: "Until", result: "Result", any: "any", senteWins: "Sente won",
    goteWins: "Gote won", draw: "Draw", text: "Comment", apply: "Filter", clear: "Clear", filterLine: "Filter",
    flip: "Flip", moves: "Moves", move: "Move", games: "Games", results: "Results", score: "Score",
    first: "First", last: "Last", gamesHere: "Games reaching this position", date: "Date",
    explore: "Explore this position", close: "Close", reach: (n) => `${n} games`,
    noMoves: "No moves played from this position", noGames: "No games", promote: "Promote?",
    hand: "Hand", none: "none", start: "Start", lang: "日本語", loading: "Loading…", plies: "Plies",
    terminal: "End", senteWon: "Sente won", goteWon: "Gote won", drawn: "Draw", unknown: "—",
    textHits: "Comment search", textFound: (n) => `Games whose comments hold “${n}”`,
    shitateWon: "Shitate won", uwateWon: "Uwate won", shitate: "Shitate", uwate: "Uwate",
    missingGame: (id) => `There is no game ${id} (removed, or a wrong number)`,
    terminals: {
      resign: "resigned", abort: "aborted", repetition: "repetition (sennichite)",
      impasse: "impasse (jishogi)", time_up: "time up", illegal_move: "illegal move",
      illegal_win: "won by an illegal move", illegal_loss: "lost by an illegal move",
      entering_king_win: "entering king win", entering_king_draw: "entering king draw",
      default_win: "won by default", default_loss: "lost by default", mate: "mate",
      no_mate: "no mate", takeback: "takeback", max_moves: "move limit", error: "error",
    },
  },
};

const FILTER_KEYS = ["player", "as", "event", "opening", "strategy", "castle", "since", "until",
  "winner", "text"];
const VIEWS = ["explorer", "players", "player", "openings"];
const KANJI = { P: "歩", L: "香", N: "桂", S: "銀", G: "金", B: "角", R: "飛", K: "玉",
  "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬", "+R": "龍" };
const HAND_ORDER = ["R", "B", "G", "S", "N", "L", "P"];
const RANKS = "abcdefghi";
const RANK_KANJI = "一二三四五六七八九";
const FILE_DIGITS = "１２３４５６７８９";
const START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

// The page's state: mirrored in the URL.
const state = {
  sfen: "startpos",   // the position the line starts from
  play: [],           // moves played from it (USI)
  at: 0,              // how many of them are on the board
  filter: {},
  flip: false,
  lang: "ja",
  game: null,         // the game open in the viewer
  gply: 0,
  view: "explorer",   // or a panel: players, player (name, opp), openings (by)
  name: "",
  opp: "",
  by: "",
};
let current = null;   // the last /api/tree answer
let selected = null;  // {from: "7g"} or {drop: "P"}
let viewerGame = null;
let requestSeq = 0;

function t(key, arg) {
  const v = TEXT[state.lang][key] ?? PANEL_TEXT[state.lang][key] ?? EVAL_TEXT[state.lang][key];
  return typeof v === "function" ? v(arg) : (v ?? key);
}

// ---- URL state -------------------------------------------------------------------------

function readUrl() {
  const q = new URLSearchParams(location.search);
  state.sfen = q.get("sfen") || "startpos";
  state.play = (q.get("play") || "").split(",").filter((m) => m);
  state.at = q.has("at") ? Math.max(0, Math.min(state.play.length, parseInt(q.get("at"), 10) || 0)) : state.play.length;
  state.filter = {};
  for (const k of FILTER_KEYS) if (q.get(k)) state.filter[k] = q.get(k);
  state.flip = q.get("flip") === "1";
  state.lang = q.get("lang") === "en" ? "en" : "ja";
  state.game = q.get("game");
  state.gply = parseInt(q.get("gply") || "0", 10) || 0;
  state.view = VIEWS.includes(q.get("view")) ? q.get("view") : "explorer";
  state.name = q.get("name") || "";
  state.opp = q.get("opp") || "";
  state.by = q.get("by") || "";
}

function urlOf(s) {
  const q = new URLSearchParams();
  if (s.sfen !== "startpos") q.set("sfen", s.sfen);
  if (s.play.length) q.set("play", s.play.join(","));
  if (s.at !== s.play.length) q.set("at", String(s.at));
  for (const k of FILTER_KEYS) if (s.filter[k]) q.set(k, s.filter[k]);
  if (s.flip) q.set("flip", "1");
  if (s.lang === "en") q.set("lang", "en");
  if (s.game) { q.set("game", s.game); q.set("gply", String(s.gply)); }
  if (s.view !== "explorer") q.set("view", s.view);
  if (s.name && (s.view === "players" || s.view === "player")) q.set("name", s.name);
  if (s.opp && s.view === "player") q.set("opp", s.opp);
  if (s.by && s.view === "openings") q.set("by", s.by);
  const qs = q.toString();
  return location.pathname + (qs ? "?" + qs : "");
}

function pushUrl(replace) {
  const u = urlOf(state);
  if (u !== location.pathname + location.search) {
    if (replace) history.replaceState(null, "", u); else history.pushState(null, "", u);
  }
}

function filterQuery() {
  const q = new URLSearchParams();
  for (const k of FILTER_KEYS) if (state.filter[k]) q.set(k, state.filter[k]);
  return q;
}

// ---- SFEN ------------------------------------------------------------------------------

// {board: {"7g": "P", "3c": "p", ...}, side: "b"|"w", hands: {b: {P: 2}, w: {}}}
function parseSfen(sfen) {
  const parts = sfen.trim().split(/\s+/);
  const board = {};
  const rows = parts[0].split("/");
  rows.forEach((row, r) => {
    let file = 9;
    for (let i = 0; i < row.length; i++) {
      const c = row[i];
      if (c >= "1" && c <= "9") { file -= parseInt(c, 10); continue; }
      let p = c;
      if (c === "+") { p = "+" + row[++i]; }
      board[`${file}${RANKS[r]}`] = p;
      file -= 1;
    }
  });
  const hands = { b: {}, w: {} };
  const h = parts[2] || "-";
  if (h !== "-") {
    let n = 0;
    for (const c of h) {
      if (c >= "0" && c <= "9") { n = n * 10 + parseInt(c, 10); continue; }
      const side = c === c.toUpperCase() ? "b" : "w";
      hands[side][c.toUpperCase()] = (n || 1);
      n = 0;
    }
  }
  return { board, side: parts[1] || "b", hands };
}

const isSente = (p) => p.replace("+", "") === p.replace("+", "").toUpperCase();

// ---- drawing ---------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Where a square is drawn: column and row from the top left, as the viewer sees it.
function cell(sq, flip) {
  const file = parseInt(sq[0], 10);
  const rank = RANKS.indexOf(sq[1]);
  return flip ? { c: file - 1, r: 8 - rank } : { c: 9 - file, r: rank };
}

function squareAt(c, r, flip) {
  return flip ? `${c + 1}${RANKS[8 - r]}` : `${9 - c}${RANKS[r]}`;
}

const CELL = 50, OX = 6, OY = 24;

function drawBoard(container, pos, opts) {
  const { flip, marks, last, onSquare } = opts;
  const svg = el("svg", { viewBox: "0 0 486 484", role: "group", "aria-label": t("board") });
  svg.appendChild(el("rect", { x: OX, y: OY, width: 9 * CELL, height: 9 * CELL, fill: "#f1d29a", stroke: "#333", "stroke-width": 2 }));
  for (let i = 1; i < 9; i++) {
    svg.appendChild(el("line", { x1: OX + i * CELL, y1: OY, x2: OX + i * CELL, y2: OY + 9 * CELL, stroke: "#333" }));
    svg.appendChild(el("line", { x1: OX, y1: OY + i * CELL, x2: OX + 9 * CELL, y2: OY + i * CELL, stroke: "#333" }));
  }
  for (let i = 0; i < 9; i++) {
    const file = flip ? i + 1 : 9 - i;
    const rank = flip ? 8 - i : i;
    svg.appendChild(el("text", { x: OX + i * CELL + CELL / 2, y: 17, "text-anchor": "middle", "font-size": 15, fill: "#333" }, FILE_DIGITS[file - 1]));
    svg.appendChild(el("text", { x: OX + 9 * CELL + 16, y: OY + i * CELL + CELL / 2 + 6, "text-anchor": "middle", "font-size": 15, fill: "#333" }, RANK_KANJI[rank]));
  }
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      const sq = squareAt(c, r, flip);
      const x = OX + c * CELL, y = OY + r * CELL;
      let fill = "transparent";
      if (last && (sq === last.from || sq === last.to)) fill = "rgba(255,170,0,.35)";
      if (marks && marks.sel === sq) fill = "rgba(0,120,255,.35)";
      const p0 = pos.board[sq];
      // Read square by square: ７六 ☗歩, ５五 (empty).
      const said = FILE_DIGITS[parseInt(sq[0], 10) - 1] + RANK_KANJI[RANKS.indexOf(sq[1])] +
        (p0 ? " " + (isSente(p0) ? "☗" : "☖") + KANJI[p0.toUpperCase()] : "");
      const rect = el("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill, "data-sq": sq, role: "img", "aria-label": said });
      svg.appendChild(rect);
      const p = pos.board[sq];
      if (p) {
        const up = isSente(p) !== flip;
        const g = el("g", { transform: up ? "" : `rotate(180 ${x + CELL / 2} ${y + CELL / 2})`, "pointer-events": "none" });
        const promoted = p.startsWith("+");
        g.appendChild(el("path", {
          d: `M${x + 25} ${y + 4} L${x + 40} ${y + 11} L${x + 44} ${y + 47} L${x + 6} ${y + 47} L${x + 10} ${y + 11} Z`,
          fill: "#f9e4b7", stroke: "#7a5c2e",
        }));
        g.appendChild(el("text", {
          x: x + 25, y: y + 38, "text-anchor": "middle", "font-size": 28,
          fill: promoted ? "#c00" : "#111", "data-piece": p,
        }, KANJI[p.toUpperCase()]));
        svg.appendChild(g);
      }
      if (marks && marks.targets && marks.targets.has(sq)) {
        svg.appendChild(el("circle", { cx: x + 25, cy: y + 25, r: 7, fill: "rgba(0,120,255,.55)", "pointer-events": "none" }));
      }
    }
  }
  if (onSquare) {
    svg.addEventListener("click", (e) => {
      const sq = e.target.getAttribute && e.target.getAttribute("data-sq");
      if (sq) onSquare(sq);
    });
  }
  container.replaceChildren(svg);
}

function drawHand(container, pos, side, opts) {
  const { onPiece, sel, label } = opts;
  container.replaceChildren();
  container.className = "hand " + (side === "b" ? "sente" : "gote");
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = (side === "b" ? "☗" : "☖") + (label || t(side === "b" ? "sente" : "gote"));
  container.appendChild(who);
  const hand = pos.hands[side];
  let any = false;
  for (const k of HAND_ORDER) {
    const n = hand[k];
    if (!n) continue;
    any = true;
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.drop = k;
    b.textContent = KANJI[k] + (n > 1 ? n : "");
    if (sel === k) b.classList.add("sel");
    if (onPiece) b.addEventListener("click", () => onPiece(k)); else b.disabled = true;
    container.appendChild(b);
  }
  if (!any) {
    const s = document.createElement("span");
    s.textContent = t("none");
    container.appendChild(s);
  }
}

// ---- the explorer ----------------------------------------------------------------------

function lastMoveSquares(usi) {
  if (!usi) return null;
  if (usi[1] === "*") return { to: usi.slice(2, 4) };
  return { from: usi.slice(0, 2), to: usi.slice(2, 4) };
}

function renderExplorer() {
  if (!current) return;
  treeRow = -1;
  const pos = parseSfen(current.sfen);
  const legal = current.legal || [];
  const marks = { targets: new Set() };
  if (selected) {
    for (const m of legal) {
      if (selected.from && m.slice(0, 2) === selected.from) marks.targets.add(m.slice(2, 4));
      if (selected.drop && m.startsWith(selected.drop + "*")) marks.targets.add(m.slice(2, 4));
    }
    if (selected.from) marks.sel = selected.from;
  }
  drawBoard(document.getElementById("board"), pos, {
    flip: state.flip, marks, last: lastMoveSquares(state.play[state.at - 1]), onSquare: clickSquare,
  });
  const me = pos.side;
  const bottom = state.flip ? "w" : "b";
  const top = state.flip ? "b" : "w";
  const handOpts = (side) => ({
    onPiece: side === me ? (k) => { selected = selected && selected.drop === k ? null : { drop: k }; renderExplorer(); } : null,
    sel: side === me && selected ? selected.drop : null,
  });
  drawHand(document.getElementById("hand-bottom"), pos, bottom, handOpts(bottom));
  drawHand(document.getElementById("hand-top"), pos, top, handOpts(top));

  const line = document.getElementById("line");
  line.replaceChildren();
  const startSpan = document.createElement("span");
  startSpan.textContent = t("start");
  startSpan.className = state.at === 0 ? "cur" : "";
  startSpan.addEventListener("click", () => goTo(0));
  line.appendChild(startSpan);
  (current.line || []).forEach((m, i) => {
    const s = document.createElement("span");
    s.textContent = `${i + 1}.${m}`;
    if (i + 1 === state.at) s.className = "cur";
    s.addEventListener("click", () => goTo(i + 1));
    line.appendChild(s);
  });

  document.getElementById("reach").textContent = t("reach", current.games);
  const tbody = document.querySelector("#tree tbody");
  tbody.replaceChildren();
  if (!current.moves.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 6;
    td.textContent = t("noMoves");
    tr.appendChild(td);
    tbody.appendChild(tr);
  }
  for (const m of current.moves) {
    const tr = document.createElement("tr");
    tr.dataset.move = m.move;
    const known = m.sente_wins + m.draws + m.gote_wins;
    const pct = (n) => (known ? (100 * n) / known : 0);
    const bar = `<div class="bar" title="${m.sente_wins} / ${m.draws} / ${m.gote_wins}">` +
      `<span class="s" style="width:${pct(m.sente_wins)}%">${pct(m.sente_wins) >= 20 ? Math.round(pct(m.sente_wins)) + "%" : ""}</span>` +
      `<span class="d" style="width:${pct(m.draws)}%"></span>` +
      `<span class="g" style="width:${pct(m.gote_wins)}%">${pct(m.gote_wins) >= 20 ? Math.round(pct(m.gote_wins)) + "%" : ""}</span></div>`;
    tr.innerHTML = `<td></td><td class="num"></td><td>${bar}</td><td class="num"></td><td></td><td></td>`;
    tr.children[0].textContent = m.japanese;
    tr.children[1].textContent = m.count;
    tr.children[3].textContent = m.score == null ? "—" : Math.round(m.score * 100) + "%";
    tr.children[4].textContent = m.first_date || "";
    tr.children[5].textContent = m.last_date || "";
    tr.addEventListener("click", () => playMove(m.move));
    tbody.appendChild(tr);
  }
  renderGames(document.querySelector("#games tbody"), current.recent_games || []);
}

// A handicap game's sides are 下手 (who moves as sente) and 上手.
const isHandicap = (g) => g.handicap === true || (typeof g.handicap === "string" && g.handicap !== "" && g.handicap !== "even" && g.handicap !== "平手");

function resultText(g) {
  const h = isHandicap(g);
  if (g.winner === "sente") return t(h ? "shitateWon" : "senteWon");
  if (g.winner === "gote") return t(h ? "uwateWon" : "goteWon");
  if (g.winner === "draw") return t("drawn");
  return t("unknown");
}

function renderGames(tbody, games) {
  tbody.replaceChildren();
  if (!games.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 6;
    td.textContent = t("noGames");
    tr.appendChild(td);
    tbody.appendChild(tr);
  }
  for (const g of games) {
    const tr = document.createElement("tr");
    tr.dataset.game = g.id;
    const opening = g.recognised && g.opening && g.recognised !== g.opening
      ? `${g.opening}（${g.recognised}）` : (g.opening || g.recognised);
    for (const v of [g.date, g.sente, g.gote, g.event, opening, resultText(g)]) {
      const td = document.createElement("td");
      td.textContent = v || "";
      tr.appendChild(td);
    }
    tr.addEventListener("click", () => openGame(g.id, g.ply || 0));
    tbody.appendChild(tr);
  }
}

function clickSquare(sq) {
  if (!current) return;
  const pos = parseSfen(current.sfen);
  const legal = current.legal || [];
  if (selected) {
    const cands = legal.filter((m) => m.slice(2, 4) === sq &&
      (selected.from ? m.slice(0, 2) === selected.from : m.startsWith(selected.drop + "*")));
    if (cands.length) {
      let mv = cands[0];
      if (cands.length > 1) {
        // Promotion is optional here: ask.
        mv = cands.find((m) => m.endsWith("+") === confirm(t("promote")));
      }
      selected = null;
      playMove(mv);
      return;
    }
  }
  const p = pos.board[sq];
  if (p && isSente(p) === (pos.side === "b") && legal.some((m) => m.slice(0, 2) === sq)) {
    selected = selected && selected.from === sq ? null : { from: sq };
  } else {
    selected = null;
  }
  renderExplorer();
}

function playMove(usi) {
  if (!usi) return;
  state.play = state.play.slice(0, state.at);
  state.play.push(usi);
  state.at = state.play.length;
  selected = null;
  pushUrl(false);
  load();
}

function goTo(n) {
  n = Math.max(0, Math.min(state.play.length, n));
  if (n === state.at) return;
  state.at = n;
  selected = null;
  pushUrl(false);
  load();
}

async function api(path, params) {
  const r = await fetch(path + (params ? "?" + params.toString() : ""));
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

async function load() {
  const seq = ++requestSeq;
  const q = filterQuery();
  q.set("sfen", state.sfen);
  if (state.play.length) q.set("play", state.play.join(","));
  if (state.at !== state.play.length) q.set("at", String(state.at));
  const status = document.getElementById("status");
  try {
    const answer = await api("/api/tree", q);
    if (seq !== requestSeq) return;
    current = answer;
    status.textContent = "";
    document.body.dataset.ready = String(seq);
    renderExplorer();
  } catch (e) {
    if (seq !== requestSeq) return;
    status.textContent = e.message;
    document.body.dataset.ready = String(seq);
  }
}

// ---- the game viewer -------------------------------------------------------------------

async function openGame(id, ply) {
  state.game = String(id);
  state.gply = ply || 0;
  pushUrl(false);
  await showViewer();
}

async function showViewer() {
  for (const id of ["explorer", "players", "openings"]) document.getElementById(id).hidden = true;
  const viewer = document.getElementById("viewer");
  viewer.hidden = false;
  const missing = document.getElementById("vmissing");
  const opening = !viewerGame || String(viewerGame.id) !== state.game;
  try {
    if (opening) viewerGame = await api("/api/game/" + encodeURIComponent(state.game));
  } catch (e) {
    // No such game: said in the page's language, with nothing of a board beside it.
    viewerGame = null;
    viewer.classList.add("nogame");
    missing.hidden = false;
    missing.textContent = /^no game|is no game id/.test(e.message) ? t("missingGame", state.game) : e.message;
    document.getElementById("vtitle").textContent = "";
    document.getElementById("vheaders").replaceChildren();
    document.getElementById("vmoves").replaceChildren();
    document.body.dataset.gply = "missing";
    return;
  }
  viewer.classList.remove("nogame");
  missing.hidden = true;
  const g = viewerGame;
  state.gply = Math.max(0, Math.min(g.moves.length, state.gply));
  const dl = document.getElementById("vheaders");
  dl.replaceChildren();
  const h = isHandicap(g);
  document.getElementById("vtitle").textContent =
    `☗${t(h ? "shitate" : "sente")} ${g.sente || "?"} − ☖${t(h ? "uwate" : "gote")} ${g.gote || "?"}`;
  const ending = g.terminal ? (t("terminals")[g.terminal] || g.terminal) : null;
  const facts = [[t("date"), g.date], [t("event"), g.event], [t("opening"), g.opening],
    [t("plies"), g.plies], [t("result"), resultText(g)], [t("terminal"), ending]];
  for (const r of g.recognised || []) facts.push([`${r.side === "sente" ? "☗" : "☖"}${r.kind}`, `${r.name} (${r.ply})`]);
  for (const [k, v] of facts) {
    if (v === null || v === undefined || v === "") continue;
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v;
    dl.append(dt, dd);
  }
  const ol = document.getElementById("vmoves");
  ol.replaceChildren();
  const li0 = document.createElement("li");
  li0.textContent = t("start");
  li0.addEventListener("click", () => viewerGo(0));
  ol.appendChild(li0);
  g.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m.japanese;
    if (m.time) {
      const s = document.createElement("span"); s.className = "t"; s.textContent = m.time;
      li.appendChild(s);
    }
    li.addEventListener("click", () => viewerGo(i + 1));
    ol.appendChild(li);
  });
  showEvals(g);
  renderViewer();
  if (opening) boardInView();
}

// On a narrow screen the move list is below the board: the page is scrolled so that the
// board, not the list, is what shows when a game opens.
function boardInView() {
  const col = document.querySelector("#viewer .boardcol");
  const box = col.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) col.scrollIntoView({ block: "start" });
}

function renderViewer() {
  const g = viewerGame;
  const pos = parseSfen(g.positions[state.gply]);
  const lastUsi = state.gply > 0 ? g.moves[state.gply - 1].usi : null;
  drawBoard(document.getElementById("vboard"), pos, { flip: state.flip, last: lastMoveSquares(lastUsi) });
  drawBetterMove(document.getElementById("vboard"), g, state.gply, state.flip);
  const bottom = state.flip ? "w" : "b";
  const top = state.flip ? "b" : "w";
  const h = isHandicap(g);
  const label = (side) => side === "b" ? `${t(h ? "shitate" : "sente")} ${g.sente || ""}`
    : `${t(h ? "uwate" : "gote")} ${g.gote || ""}`;
  drawHand(document.getElementById("vhand-bottom"), pos, bottom, { label: label(bottom) });
  drawHand(document.getElementById("vhand-top"), pos, top, { label: label(top) });
  const items = document.querySelectorAll("#vmoves li");
  items.forEach((li, i) => li.classList.toggle("cur", i === state.gply));
  // The list scrolls within itself (scrollIntoView would scroll the page away from the board).
  const li = items[state.gply];
  const ol = document.getElementById("vmoves");
  if (li && (li.offsetTop < ol.scrollTop || li.offsetTop + li.offsetHeight > ol.scrollTop + ol.clientHeight)) {
    ol.scrollTop = li.offsetTop - ol.clientHeight / 2;
  }
  for (const kind of ["svg", "png"]) {
    const a = document.getElementById(`v${kind}`);
    a.href = `/api/board.${kind}?id=${encodeURIComponent(g.id)}&ply=${state.gply}`;
    a.download = `kifudex-${g.id}-${state.gply}.${kind}`;
  }
  const comments = (g.comments || []).filter((c) => c.ply === state.gply).map((c) => c.text);
  document.getElementById("vcomment").textContent = comments.join("\n");
  showEvalAt(g, state.gply);
  document.body.dataset.gply = String(state.gply);
}

function viewerGo(n) {
  if (!viewerGame) return;
  n = Math.max(0, Math.min(viewerGame.moves.length, n));
  state.gply = n;
  pushUrl(true);
  renderViewer();
}

function closeViewer() {
  state.game = null;
  pushUrl(false);
  showView();
}

function exploreFromViewer() {
  const g = viewerGame;
  state.sfen = g.start_sfen;
  state.play = g.moves.slice(0, state.gply).map((m) => m.usi);
  state.at = state.play.length;
  closeViewer();
  load();
}

// ---- wiring ----------------------------------------------------------------------------

function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll("[data-label]")) e.setAttribute("aria-label", t(e.dataset.label));
  document.getElementById("lang").textContent = t("lang");
}

// The section the state asks for (the viewer over all of them), and its answers.
function showView() {
  const sections = { explorer: "explorer", players: "players", player: "players", openings: "openings" };
  for (const [tab, view] of [["tab-explorer", "explorer"], ["tab-players", "players"], ["tab-openings", "openings"]]) {
    const on = sections[state.view] === view;
    document.getElementById(tab).classList.toggle("sel", on);
    if (on) document.getElementById(tab).setAttribute("aria-current", "page");
    else document.getElementById(tab).removeAttribute("aria-current");
  }
  if (state.game) { showViewer(); return; }
  document.getElementById("viewer").hidden = true;
  for (const id of ["explorer", "players", "openings"]) {
    document.getElementById(id).hidden = id !== sections[state.view];
  }
  if (state.view === "players") loadPlayers();
  else if (state.view === "player") loadPlayer();
  else if (state.view === "openings") loadOpenings();
}

function fillForm() {
  const f = document.getElementById("filter");
  for (const k of FILTER_KEYS) if (f.elements[k]) f.elements[k].value = state.filter[k] || "";
  summariseFilter(f);
}

// On a phone the filter folds into one line that says what it holds (the line shows only
// below 600 px); it opens when tapped, and folds again once applied.
const PHONE = window.matchMedia("(max-width: 600px)");
const filterBox = document.getElementById("filterbox");
filterBox.open = !PHONE.matches;
PHONE.addEventListener("change", () => { filterBox.open = !PHONE.matches; });

function summariseFilter(f) {
  const held = FILTER_KEYS.filter((k) => state.filter[k] && f.elements[k]).map((k) => {
    const el = f.elements[k];
    const value = el.tagName === "SELECT" ? el.options[el.selectedIndex].text : state.filter[k];
    return `${el.closest("label").querySelector("span").textContent}: ${value}`;
  });
  document.getElementById("filtersum").textContent =
    t("filterLine") + (held.length ? "（" + held.join("、") + "）" : "");
}

function route() {
  readUrl();
  applyLanguage();
  fillForm();
  showView();
  load();
  loadTextHits();
}

document.getElementById("filter").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  state.filter = {};
  for (const k of FILTER_KEYS) {
    const v = f.elements[k] && f.elements[k].value.trim();
    if (v) state.filter[k] = v;
  }
  if (PHONE.matches) filterBox.open = false;
  pushUrl(false);
  route();
});
document.getElementById("clear").addEventListener("click", () => {
  state.filter = {};
  fillForm();
  pushUrl(false);
  route();
});
for (const [tab, view] of [["tab-explorer", "explorer"], ["tab-players", "players"], ["tab-openings", "openings"]]) {
  document.getElementById(tab).addEventListener("click", (e) => {
    e.preventDefault();
    state.view = view;
    state.game = null;
    if (view !== "players") state.name = "";
    pushUrl(false);
    showView();
  });
}
wirePanels();
document.getElementById("lang").addEventListener("click", (e) => {
  e.preventDefault();
  state.lang = state.lang === "ja" ? "en" : "ja";
  pushUrl(true);
  applyLanguage();
  if (!document.getElementById("viewer").hidden) showViewer(); else { renderExplorer(); showView(); loadTextHits(); }
});
document.getElementById("flip").addEventListener("click", () => {
  state.flip = !state.flip; pushUrl(true); renderExplorer();
});
document.getElementById("first").addEventListener("click", () => goTo(0));
document.getElementById("back").addEventListener("click", () => goTo(state.at - 1));
document.getElementById("forward").addEventListener("click", () => goTo(state.at + 1));
document.getElementById("last").addEventListener("click", () => goTo(state.play.length));
document.getElementById("vfirst").addEventListener("click", () => viewerGo(0));
document.getElementById("vback").addEventListener("click", () => viewerGo(state.gply - 1));
document.getElementById("vforward").addEventListener("click", () => viewerGo(state.gply + 1));
document.getElementById("vlast").addEventListener("click", () => viewerGo(viewerGame ? viewerGame.moves.length : 0));
document.getElementById("vclose").addEventListener("click", closeViewer);
document.getElementById("vexplore").addEventListener("click", exploreFromViewer);
// ← → step through the line or the game, ↑ ↓ choose a move of the tree (Enter plays it),
// f flips the board.
let treeRow = -1;
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.altKey || e.ctrlKey || e.metaKey) return;
  const viewer = !document.getElementById("viewer").hidden;
  if (e.key === "f") {
    state.flip = !state.flip;
    pushUrl(true);
    if (viewer) renderViewer(); else renderExplorer();
    return;
  }
  const rows = [...document.querySelectorAll("#tree tbody tr[data-move]")];
  if (!viewer && (e.key === "ArrowUp" || e.key === "ArrowDown") && rows.length) {
    e.preventDefault();
    treeRow = Math.max(0, Math.min(rows.length - 1, treeRow + (e.key === "ArrowDown" ? 1 : -1)));
    rows.forEach((tr, i) => { tr.classList.toggle("kbd", i === treeRow); tr.setAttribute("aria-selected", String(i === treeRow)); });
    return;
  }
  if (!viewer && e.key === "Enter" && rows[treeRow]) {
    e.preventDefault();
    const mv = rows[treeRow].dataset.move;
    treeRow = -1;
    playMove(mv);
    return;
  }
  const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
  if (step === undefined) return;
  e.preventDefault();
  if (viewer) viewerGo(state.gply + step); else goTo(state.at + step);
});
// A swipe across the viewer's board steps through the game.
(() => {
  let x0 = null;
  const board = document.getElementById("vboard");
  board.addEventListener("touchstart", (e) => { x0 = e.touches[0].clientX; }, { passive: true });
  board.addEventListener("touchend", (e) => {
    if (x0 === null) return;
    const dx = e.changedTouches[0].clientX - x0;
    x0 = null;
    if (Math.abs(dx) > 40) viewerGo(state.gply + (dx < 0 ? 1 : -1));
  });
})();
window.addEventListener("popstate", route);
route();
