// kifudex explorer: the panels beside the board — players (a list, a player's page, a
// head-to-head), openings (the table, the pairings, the trends with a chart per year) and the
// comment hits (each opening its game at the commented move). Loaded before app.js, whose
// state, t(), api() and openGame() they use when called.
"use strict";

const PANEL_TEXT = {
  ja: {
    tabExplorer: "局面", tabPlayers: "棋士", tabOpenings: "戦型", strategy: "戦法", castle: "囲い",
    moverScore: "手番勝率", ply: "手数", snippet: "該当箇所", playersTitle: "棋士", nameLabel: "名前",
    look: "表示", asSente: "先手番", asGote: "後手番", playerScore: "勝率", byYear: "年別成績",
    year: "年", repertoire: "戦型別成績", kind: "種類", wdl: "勝-分-敗", headToHead: "対戦成績",
    opponent: "相手", openingsTitle: "戦型", byName: "戦型・戦法・囲い", byPair: "対抗形",
    byYearTrend: "年別の推移", share: "比率", senteScore: "先手勝率", sideScore: "採用側勝率",
    picture: "図面(SVG)", picturePng: "図面(PNG)", toStart: "最初へ", backOne: "一手戻る", forwardOne: "一手進む",
    toEnd: "最後へ", openingsBy: "集計の単位", noHits: "該当するコメントはありません",
    playerSummary: (r) => `${r.games}局 ${r.wins}勝${r.losses}敗${r.draws ? r.draws + "分" : ""}` +
      (r.first ? `（${r.first}〜${r.last}）` : ""),
    h2h: (r) => `${r.games}局 ${r.wins}勝${r.losses}敗${r.draws ? r.draws + "分" : ""}`,
    kinds: { opening: "戦型", strategy: "戦法", castle: "囲い", pair: "対抗形" },
    matches: (n) => `同名の候補: ${n}`,
    board: "盤面",
  },
  en: {
    tabExplorer: "Position", tabPlayers: "Players", tabOpenings: "Openings", strategy: "Strategy",
    castle: "Castle", moverScore: "Score (side to move)", ply: "Ply", snippet: "Where",
    playersTitle: "Players", nameLabel: "Name", look: "Show", asSente: "As sente", asGote: "As gote",
    playerScore: "Score", byYear: "By year", year: "Year", repertoire: "Openings played", kind: "Kind",
    wdl: "W-D-L", headToHead: "Head to head", opponent: "Opponent", openingsTitle: "Openings",
    byName: "Openings, strategies, castles", byPair: "Pairings", byYearTrend: "Trends by year",
    share: "Share", senteScore: "Sente's score", sideScore: "Score of the side playing it",
    picture: "Picture (SVG)", picturePng: "Picture (PNG)", toStart: "To the start", backOne: "Back one move",
    forwardOne: "Forward one move", toEnd: "To the end", openingsBy: "Group by",
    noHits: "No comment matches",
    playerSummary: (r) => `${r.games} games, ${r.wins} won, ${r.draws} drawn, ${r.losses} lost` +
      (r.first ? ` (${r.first} to ${r.last})` : ""),
    h2h: (r) => `${r.games} games, ${r.wins} won, ${r.draws} drawn, ${r.losses} lost`,
    kinds: { opening: "opening", strategy: "strategy", castle: "castle", pair: "pairing" },
    matches: (n) => `Also matching: ${n}`,
    board: "Board",
  },
};

const pct = (s) => (s == null ? "—" : (s * 100).toFixed(1) + "%");
const wdl = (r) => `${r.wins}-${r.draws}-${r.losses}`;

function cells(tr, values) {
  for (const v of values) {
    const td = document.createElement("td");
    if (typeof v === "number") td.className = "num";
    td.textContent = v == null ? "" : String(v);
    tr.appendChild(td);
  }
  return tr;
}

function emptyRow(tbody, cols, text) {
  const tr = document.createElement("tr");
  const td = document.createElement("td");
  td.colSpan = cols;
  td.textContent = text;
  tr.appendChild(td);
  tbody.appendChild(tr);
}

function panelError(container, e) {
  const p = document.createElement("p");
  p.className = "status";
  p.textContent = e.message;
  container.prepend(p);
}

// ---- comment hits ------------------------------------------------------------------------

// The comments matching the filter's words, each with its snippet; a row opens its game at
// the commented move (a hit in the headers, at the start).
async function loadTextHits() {
  const box = document.getElementById("texthits");
  const words = state.filter.text;
  box.hidden = !words;
  if (!words) return;
  document.getElementById("texttitle").textContent = t("textFound", words);
  const q = filterQuery();
  q.delete("text");
  q.set("q", words);
  q.set("limit", "50");
  const tbody = document.querySelector("#hits tbody");
  try {
    const answer = await api("/api/text", q);
    tbody.replaceChildren();
    if (!answer.hits.length) emptyRow(tbody, 5, t("noHits"));
    for (const h of answer.hits) {
      const tr = cells(document.createElement("tr"), [h.date, h.sente, h.gote, h.ply ?? ""]);
      tr.dataset.game = h.id;
      tr.dataset.ply = h.ply ?? 0;
      const td = document.createElement("td");
      td.className = "snippet";
      // The matches are in […]: shown in bold, the rest as text.
      for (const [i, part] of h.snippet.split(/[[\]]/).entries()) {
        const span = document.createElement(i % 2 ? "mark" : "span");
        span.textContent = part;
        td.appendChild(span);
      }
      tr.appendChild(td);
      tr.addEventListener("click", () => openGame(h.id, h.ply || 0));
      tbody.appendChild(tr);
    }
    document.body.dataset.hits = String(answer.hits.length);
  } catch (e) {
    tbody.replaceChildren();
    emptyRow(tbody, 5, e.message);
  }
}

// ---- players -----------------------------------------------------------------------------

function playerLink(name) {
  const a = document.createElement("a");
  a.href = "?view=player&name=" + encodeURIComponent(name);
  a.textContent = name;
  a.addEventListener("click", (e) => { e.preventDefault(); showPlayer(name); });
  return a;
}

function showPlayer(name, opp) {
  state.view = "player";
  state.name = name;
  state.opp = opp || "";
  pushUrl(false);
  route();
}

async function loadPlayers() {
  document.getElementById("playerlist").hidden = false;
  document.getElementById("playerpage").hidden = true;
  const q = filterQuery();
  if (state.name) q.set("name", state.name);
  q.set("limit", "100");
  document.querySelector("#playerform [name=name]").value = state.name || "";
  const tbody = document.querySelector("#playerrows tbody");
  try {
    const answer = await api("/api/players", q);
    tbody.replaceChildren();
    if (!answer.players.length) emptyRow(tbody, 7, t("noGames"));
    for (const r of answer.players) {
      const tr = document.createElement("tr");
      tr.dataset.player = r.name;
      const td = document.createElement("td");
      td.appendChild(playerLink(r.name));
      tr.appendChild(td);
      cells(tr, [r.games, wdl(r.sente), wdl(r.gote), pct(r.score), r.first_date, r.last_date]);
      tr.addEventListener("click", (e) => { if (e.target.tagName !== "A") showPlayer(r.name); });
      tbody.appendChild(tr);
    }
  } catch (e) {
    tbody.replaceChildren();
    emptyRow(tbody, 7, e.message);
  }
  document.body.dataset.panel = "players";
}

const both = (a, b) => ({
  games: a.games + b.games, wins: a.wins + b.wins, draws: a.draws + b.draws,
  losses: a.losses + b.losses,
});

async function loadPlayer() {
  document.getElementById("playerlist").hidden = true;
  const page = document.getElementById("playerpage");
  page.hidden = false;
  page.querySelectorAll("p.status").forEach((p) => p.remove());
  const q = filterQuery();
  q.delete("player");
  q.set("name", state.name);
  if (state.opp) q.set("vs", state.opp);
  document.querySelector("#vsform [name=opp]").value = state.opp || "";
  let v;
  try {
    v = await api("/api/player", q);
  } catch (e) {
    document.getElementById("playername").textContent = state.name;
    panelError(page, e);
    document.body.dataset.panel = "player";
    return;
  }
  const r = v.player;
  document.getElementById("playername").textContent = r.name;
  const all = both(r.sente, r.gote);
  document.getElementById("playersummary").textContent =
    t("playerSummary", { ...all, first: r.first_date, last: r.last_date }) +
    (v.matches.length > 1 ? " " + t("matches", v.matches.slice(1).join("、")) : "");
  const years = document.querySelector("#playeryears tbody");
  years.replaceChildren();
  for (const y of v.years) {
    const tr = cells(document.createElement("tr"),
      [y.year, y.row.games, wdl(y.row.sente), wdl(y.row.gote), pct(y.row.score)]);
    tr.dataset.year = y.year;
    tr.addEventListener("click", () => {
      state.view = "explorer";
      state.filter = { ...state.filter, player: r.name, since: y.year, until: y.year };
      pushUrl(false);
      route();
    });
    years.appendChild(tr);
  }
  const ops = document.querySelector("#playeropenings tbody");
  ops.replaceChildren();
  for (const o of v.openings) {
    const tr = cells(document.createElement("tr"), [t("kinds")[o.kind] || o.kind, o.name, o.games,
      `${o.wins ?? 0}-${o.draws}-${o.losses ?? 0}`, pct(o.score)]);
    tr.addEventListener("click", () => {
      state.view = "explorer";
      state.filter = { ...state.filter, player: r.name, [o.kind === "opening" ? "opening" : o.kind]: o.name };
      pushUrl(false);
      route();
    });
    ops.appendChild(tr);
  }
  const h2h = v.head_to_head;
  const games = document.querySelector("#h2hgames tbody");
  document.getElementById("h2hsummary").textContent = h2h ? t("h2h", all) : "";
  document.getElementById("h2hgames").hidden = !h2h;
  if (h2h) renderGames(games, h2h.games);
  document.body.dataset.panel = "player";
}

// ---- openings ----------------------------------------------------------------------------

function openingHead(by) {
  const cols = by === "year"
    ? ["year", "opening", "games", "share"]
    : ["kind", "opening", "games", "results", by === "pair" ? "senteScore" : "sideScore", "first", "last"];
  const tr = document.createElement("tr");
  for (const c of cols) {
    const th = document.createElement("th");
    th.textContent = t(c);
    tr.appendChild(th);
  }
  document.querySelector("#openingrows thead").replaceChildren(tr);
  return cols.length;
}

// A small bar chart per year: the share of each of the year's three most played openings.
function openingChart(rows) {
  const box = document.getElementById("openingchart");
  box.replaceChildren();
  const byYear = new Map();
  for (const r of rows) {
    if (!r.year) continue;
    if (!byYear.has(r.year)) byYear.set(r.year, []);
    byYear.get(r.year).push(r);
  }
  for (const [year, list] of byYear) {
    const fig = document.createElement("figure");
    fig.className = "yearchart";
    fig.dataset.year = year;
    const cap = document.createElement("figcaption");
    cap.textContent = year;
    fig.appendChild(cap);
    const svg = el("svg", { viewBox: "0 0 160 60", role: "img",
      "aria-label": `${year}: ` + list.slice(0, 3).map((r) => `${r.name} ${pct(r.share)}`).join(", ") });
    list.slice(0, 3).forEach((r, i) => {
      const w = Math.max(1, Math.round((r.share || 0) * 100));
      svg.appendChild(el("rect", { x: 0, y: i * 20 + 2, width: w, height: 14, fill: ["#8a5a00", "#c08a30", "#e0c080"][i] }));
      svg.appendChild(el("text", { x: w + 3, y: i * 20 + 13, "font-size": 10, fill: "#222" }, `${r.name} ${Math.round((r.share || 0) * 100)}%`));
    });
    fig.appendChild(svg);
    box.appendChild(fig);
  }
}

async function loadOpenings() {
  const by = state.by || "name";
  for (const b of document.querySelectorAll("#openings [data-by]")) {
    b.classList.toggle("sel", b.dataset.by === by);
    b.setAttribute("aria-pressed", String(b.dataset.by === by));
  }
  const cols = openingHead(by);
  const q = filterQuery();
  if (by !== "name") q.set("by", by);
  const tbody = document.querySelector("#openingrows tbody");
  try {
    const v = await api("/api/openings", q);
    tbody.replaceChildren();
    if (!v.rows.length) emptyRow(tbody, cols, t("noGames"));
    for (const r of v.rows) {
      const tr = document.createElement("tr");
      tr.dataset.name = r.name;
      if (by === "year") {
        cells(tr, [r.year || "—", r.name, r.games, pct(r.share)]);
      } else {
        cells(tr, [t("kinds")[r.kind] || r.kind, r.name, r.games,
          `${r.sente_wins}-${r.draws}-${r.gote_wins}`, pct(r.score), r.first_date, r.last_date]);
      }
      // A row narrows the explorer to its games (a pairing has no field of its own).
      if (r.kind !== "pair") {
        tr.addEventListener("click", () => {
          state.view = "explorer";
          const field = r.kind === "strategy" || r.kind === "castle" ? r.kind : "opening";
          state.filter = { ...state.filter, [field]: r.name };
          pushUrl(false);
          route();
        });
      }
      tbody.appendChild(tr);
    }
    document.getElementById("openingchart").hidden = by !== "year";
    if (by === "year") openingChart(v.rows);
  } catch (e) {
    tbody.replaceChildren();
    emptyRow(tbody, cols, e.message);
  }
  document.body.dataset.panel = "openings";
}

function wirePanels() {
  document.getElementById("playerform").addEventListener("submit", (e) => {
    e.preventDefault();
    state.view = "players";
    state.name = e.target.elements.name.value.trim();
    pushUrl(false);
    route();
  });
  document.getElementById("vsform").addEventListener("submit", (e) => {
    e.preventDefault();
    showPlayer(state.name, e.target.elements.opp.value.trim());
  });
  for (const b of document.querySelectorAll("#openings [data-by]")) {
    b.addEventListener("click", () => {
      state.by = b.dataset.by === "name" ? "" : b.dataset.by;
      pushUrl(false);
      loadOpenings();
    });
  }
}
