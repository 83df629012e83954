// The explorer page in a real browser: Debian's chromium, headless, driven by playwright-core.
// Usage: node explorer.mjs KIFUDEX_BIN SAMPLE_DIR SCREENSHOT_DIR
// Imports SAMPLE_DIR into a temporary database, serves it, clicks through the page and
// compares what it shows with the CLI's answers. Ends with "N passed, M failed".
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVALS_DIR, evalGraph } from "./evals.mjs";
import { launch, serve } from "./serve.mjs";

const [bin, sample, shots] = process.argv.slice(2);
if (!bin || !sample || !shots) {
  console.error("usage: node explorer.mjs KIFUDEX_BIN SAMPLE_DIR SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const db = mkdtempSync(join(tmpdir(), "kifudex-browser-"));
execFileSync(bin, ["import", sample, "--db", db], { stdio: ["ignore", "ignore", "inherit"] });
// And a game with an engine's evaluations, for the viewer's graph (evals.mjs).
execFileSync(bin, ["import", EVALS_DIR, "--db", db], { stdio: ["ignore", "ignore", "inherit"] });
const cli = (...args) =>
  execFileSync(bin, [...args, "--db", db], { encoding: "utf8" })
    .trim().split("\n").filter((l) => l).map((l) => JSON.parse(l));

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok   ${name}`); }
  else { failed++; console.log(`FAIL ${name}${detail ? ": " + detail : ""}`); }
}

const [server, url] = await serve(bin, db);

// The whole of the element is inside the window (nothing of it scrolled away or cut off).
async function inView(page, selector) {
  const box = await page.locator(selector).boundingBox();
  const size = page.viewportSize();
  const ok = box && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width + 0.5 &&
    box.y + box.height <= size.height + 0.5;
  return [ok, JSON.stringify(box) + " in " + JSON.stringify(size)];
}

// The panels, the filter's castle, comment hits, a handicap game's words, an unknown game,
// the picture of a position and the evaluation graph, each at 1400 and at 400 pixels wide.
async function panels(page, url) {
  const widths = [[1400, 900, "desktop"], [400, 900, "phone"]];
  const everyGame = cli("search", "--json", "--limit", "1000");
  for (const [width, height, name] of widths) {
    await page.setViewportSize({ width, height });
    const at = (s) => `${s} (${name})`;

    // The filter's castle field narrows the games as `position --castle` does.
    await page.goto(url);
    await page.waitForFunction(() => Number(document.body.dataset.ready || 0) >= 1);
    // On a phone the filter is one line until tapped, and folds again once applied; on a
    // wide screen it is open and the line is not shown.
    const castleInput = '#filter input[name="castle"]';
    if (name === "phone") {
      check(at("the filter is folded"), !(await page.isVisible(castleInput)), "");
      check(at("the folded filter says it is empty"), (await page.textContent("#filtersum")) === "絞り込み",
        await page.textContent("#filtersum"));
      await page.click("#filtersum");
    } else {
      check(at("the filter is open, without its folded line"),
        (await page.isVisible(castleInput)) && !(await page.isVisible("#filtersum")), "");
    }
    await page.fill(castleInput, "美濃囲い");
    await page.click('#filter button[type="submit"]');
    await page.waitForFunction(() => Number(document.body.dataset.ready || 0) >= 2);
    check(at("the castle field is in the URL"), new URL(page.url()).searchParams.get("castle") === "美濃囲い", page.url());
    if (name === "phone") {
      check(at("the applied filter folds into a line that says what it holds"),
        !(await page.isVisible(castleInput)) && (await page.textContent("#filtersum")) === "絞り込み（囲い: 美濃囲い）",
        await page.textContent("#filtersum"));
    }
    const castleGames = await page.$$eval("#games tbody tr", (trs) => trs.map((tr) => tr.dataset.game));
    const castleHits = cli("position", "startpos", "--castle", "美濃囲い", "--json", "--limit", "20").filter((r) => r.id);
    check(at("the castle filter's games equal `position startpos --castle 美濃囲い`"),
      castleHits.length > 0 && JSON.stringify(castleGames) === JSON.stringify(castleHits.map((h) => String(h.id))),
      `${castleGames} vs ${castleHits.map((h) => h.id)}`);
    await page.screenshot({ path: join(shots, `castle-${name}.png`) });

    // A comment hit opens its game at the commented move, with the board in view.
    await page.goto(url + "?text=sample");
    await page.waitForFunction(() => Number(document.body.dataset.hits || -1) >= 0);
    const hits = cli("text", "sample", "--json", "--limit", "50");
    const rows = await page.$$eval("#hits tbody tr", (trs) => trs.map((tr) => ({ id: tr.dataset.game, ply: tr.dataset.ply })));
    check(at("the comment hits are `kifudex text sample`'s, with their plies"),
      JSON.stringify(rows) === JSON.stringify(hits.map((h) => ({ id: String(h.id), ply: String(h.ply ?? 0) }))),
      `${JSON.stringify(rows)} vs ${JSON.stringify(hits.map((h) => [h.id, h.ply]))}`);
    const snippet = await page.textContent("#hits tbody tr td.snippet mark");
    check(at("a hit's snippet marks the word"), snippet === "sample", snippet);
    await page.screenshot({ path: join(shots, `text-hits-${name}.png`) });
    const hit = hits.findIndex((h) => h.ply > 0);
    await page.click(`#hits tbody tr:nth-child(${hit + 1})`);
    await page.waitForSelector("#viewer:not([hidden]) #vmoves li.cur");
    const gply = Number(await page.evaluate(() => document.body.dataset.gply));
    check(at("the hit opens the game at its ply"), gply === hits[hit].ply, `${gply} vs ${hits[hit].ply}`);
    const comment = await page.textContent("#vcomment");
    check(at("the commented move's comment shows"), comment.includes("sample"), comment);
    const [boardOk, boardWhere] = await inView(page, "#vboard svg");
    check(at("the whole board is in view when the game opens at the hit"), boardOk, boardWhere);
    await page.screenshot({ path: join(shots, `text-hit-game-${name}.png`) });

    // A game opened at a late ply from its address: the board in view, not the move list.
    const long = everyGame.find((g) => g.plies > 100);
    await page.goto(`${url}?game=${long.id}&gply=90`);
    await page.waitForSelector("#viewer:not([hidden]) #vmoves li.cur");
    const [lateOk, lateWhere] = await inView(page, "#vboard svg");
    check(at("a game opened at ply 90 shows the whole board"), lateOk, lateWhere);
    const cur = await page.$eval("#vmoves li.cur", (li) => li.textContent);
    check(at("its move list shows ply 90"), cur.length > 0, cur);
    await page.screenshot({ path: join(shots, `game-ply90-${name}.png`) });
    // The picture to share is the CLI's.
    const href = await page.getAttribute("#vsvg", "href");
    const svg = await page.evaluate(async (h) => (await fetch(h)).text(), href);
    const shown = execFileSync(bin, ["show", String(long.id), "--ply", "90", "--svg", "--db", db], { encoding: "utf8" });
    check(at("the picture offered is `show --ply 90 --svg`'s"), svg === shown, href);
    // The same picture as a PNG, downloaded by its button: `show --png`'s bytes, an image the
    // browser decodes at 1120×1152 pixels.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#vpng")]);
    const png = readFileSync(await download.path());
    const shownPng = execFileSync(bin, ["show", String(long.id), "--ply", "90", "--png", "--db", db]);
    check(at("the PNG downloaded is `show --ply 90 --png`'s"),
      png.equals(shownPng) && download.suggestedFilename() === `kifudex-${long.id}-90.png`,
      `${png.length} bytes vs ${shownPng.length}, ${download.suggestedFilename()}`);
    const pngSize = await page.evaluate(async (h) => {
      const bitmap = await createImageBitmap(await (await fetch(h)).blob());
      return [bitmap.width, bitmap.height];
    }, await page.getAttribute("#vpng", "href"));
    check(at("the PNG decodes to 1120×1152 pixels"), pngSize[0] === 1120 && pngSize[1] === 1152,
      JSON.stringify(pngSize));
    const terminal = await page.$$eval("#vheaders dd", (dds) => dds.map((d) => d.textContent));
    if (long.terminal === "resign") {
      check(at("a resigned game ends in 投了"), terminal.includes("投了"), terminal.join(" "));
    }

    // A handicap game in its own words: 下手 and 上手.
    const handicap = everyGame.find((g) => g.handicap && g.handicap !== "even" && g.handicap !== "平手" && g.winner);
    if (handicap) {
      await page.goto(`${url}?game=${handicap.id}&gply=0`);
      await page.waitForSelector("#viewer:not([hidden]) #vmoves li.cur");
      const title = await page.textContent("#vtitle");
      check(at("a handicap game's sides are 下手 and 上手"), title.includes("下手") && title.includes("上手") && !title.includes("先手"), title);
      const facts = await page.$$eval("#vheaders dd", (dds) => dds.map((d) => d.textContent));
      const want = handicap.winner === "sente" ? "下手勝ち" : handicap.winner === "gote" ? "上手勝ち" : "引き分け";
      check(at("a handicap game's result is " + want), facts.includes(want), facts.join(" "));
      await page.screenshot({ path: join(shots, `handicap-${name}.png`) });
    } else {
      check(at("sample_db holds a decided handicap game"), false);
    }

    // An unknown game is said so in Japanese, without an empty board.
    await page.goto(`${url}?game=999999`);
    await page.waitForFunction(() => document.body.dataset.gply === "missing");
    const missing = await page.textContent("#vmissing");
    check(at("an unknown game is said so in Japanese"), missing.includes("見つかりません"), missing);
    check(at("no board beside it"), !(await page.isVisible("#vboard")));

    // The players: the list, a player's page, a head-to-head.
    await page.goto(`${url}?view=players`);
    await page.waitForFunction(() => document.body.dataset.panel === "players");
    const names = await page.$$eval("#playerrows tbody tr", (trs) => trs.map((tr) => tr.dataset.player));
    const players = cli("players", "--json", "--limit", "100");
    check(at("the players list is `kifudex players`'s"), JSON.stringify(names) === JSON.stringify(players.map((p) => p.name)),
      `${names.length} vs ${players.length}`);
    await page.screenshot({ path: join(shots, `players-${name}.png`) });
    const hanyu = cli("players", "羽生", "--json")[0];
    await page.goto(`${url}?view=player&name=${encodeURIComponent(hanyu.name)}`);
    await page.waitForFunction(() => document.body.dataset.panel === "player");
    const years = await page.$$eval("#playeryears tbody tr", (trs) => trs.map((tr) => [tr.dataset.year, Number(tr.children[1].textContent)]));
    const yearsSum = years.reduce((n, y) => n + y[1], 0);
    check(at("the player's years add up to their games"), years.length > 0 && yearsSum === hanyu.games, `${JSON.stringify(years)} vs ${hanyu.games}`);
    const reps = await page.$$eval("#playeropenings tbody tr", (trs) => trs.length);
    const repWant = cli("openings", "--player", hanyu.name, "--json").length;
    check(at("the player's openings are `openings --player`'s"), reps === repWant, `${reps} vs ${repWant}`);
    await page.screenshot({ path: join(shots, `player-${name}.png`) });
    const opponent = cli("search", "--player", hanyu.name, "--json", "--limit", "1")[0];
    const other = opponent.sente.includes("羽生") ? opponent.gote : opponent.sente;
    await page.fill('#vsform input[name="opp"]', other);
    await page.click('#vsform button[type="submit"]');
    await page.waitForFunction(() => new URL(location.href).searchParams.get("opp") && !document.getElementById("h2hgames").hidden);
    await page.waitForFunction(() => document.querySelectorAll("#h2hgames tbody tr[data-game]").length > 0);
    const h2h = await page.$$eval("#h2hgames tbody tr", (trs) => trs.map((tr) => tr.dataset.game));
    const h2hWant = cli("search", "--player", hanyu.name, "--vs", other, "--json", "--limit", "50").map((g) => String(g.id));
    check(at("the head-to-head games are `search --player --vs`'s"), JSON.stringify(h2h) === JSON.stringify(h2hWant), `${h2h} vs ${h2hWant}`);
    await page.screenshot({ path: join(shots, `head-to-head-${name}.png`) });

    // The openings: the table, the pairings, the trends with a chart per year.
    for (const [by, args] of [["", []], ["pair", ["--pairs"]], ["year", ["--by", "year"]]]) {
      await page.goto(`${url}?view=openings${by ? "&by=" + by : ""}`);
      await page.waitForFunction(() => document.body.dataset.panel === "openings");
      const shownRows = await page.$$eval("#openingrows tbody tr", (trs) => trs.map((tr) => tr.dataset.name));
      const want = cli("openings", "--json", ...args).map((r) => r.name);
      check(at(`the openings table${by ? " by " + by : ""} is \`openings ${args.join(" ")}\`'s`),
        JSON.stringify(shownRows) === JSON.stringify(want), `${shownRows.length} vs ${want.length}`);
      if (by === "year") {
        const charts = await page.$$eval("figure.yearchart", (fs) => fs.map((f) => f.dataset.year));
        const yearsWant = [...new Set(cli("openings", "--json", "--by", "year").map((r) => r.year).filter((y) => y))];
        check(at("one chart per year"), JSON.stringify(charts) === JSON.stringify(yearsWant), `${charts.length} vs ${yearsWant.length}`);
      }
      await page.screenshot({ path: join(shots, `openings${by ? "-" + by : ""}-${name}.png`) });
    }

    await evalGraph(page, url, { cli, check, shots, name, inView });
  }
}

const browser = await launch();
let code = 1;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const external = [];
  page.on("request", (r) => { if (!r.url().startsWith(url)) external.push(r.url()); });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));

  // Waits for the answer to the n-th tree request the page makes.
  const ready = (n) => page.waitForFunction((n) => Number(document.body.dataset.ready || 0) >= n, n);
  await page.goto(url);
  await ready(1);
  const startRows = await page.$$eval("#tree tbody tr", (trs) => trs.map((tr) => tr.dataset.move));
  const startTree = cli("tree", "startpos", "--json").filter((r) => r.move);
  check("the start position's tree lists the CLI's moves",
    JSON.stringify(startRows) === JSON.stringify(startTree.map((r) => r.move)),
    `${startRows} vs ${startTree.map((r) => r.move)}`);
  await page.screenshot({ path: join(shots, "explorer-start.png") });

  // Click the pawn on 7g, then 7f: ７六歩.
  await page.click('rect[data-sq="7g"]');
  const targets = await page.$$eval("circle", (cs) => cs.length);
  check("selecting the 7g pawn marks one destination", targets === 1, `${targets} marked`);
  await page.click('rect[data-sq="7f"]');
  await ready(2);
  check("the URL holds the move", new URL(page.url()).searchParams.get("play") === "7g7f", page.url());
  const rows = await page.$$eval("#tree tbody tr", (trs) =>
    trs.map((tr) => ({ move: tr.dataset.move, count: Number(tr.children[1].textContent) })));
  const expected = cli("tree", "startpos moves 7g7f", "--json").filter((r) => r.move)
    .map((r) => ({ move: r.move, count: r.count }));
  check("after ７六歩 the tree's counts equal `kifudex tree \"startpos moves 7g7f\"`",
    JSON.stringify(rows) === JSON.stringify(expected),
    `${JSON.stringify(rows)} vs ${JSON.stringify(expected)}`);
  const line = await page.textContent("#line");
  check("the line shows ☗７六歩", line.includes("☗７六歩"), line);
  await page.screenshot({ path: join(shots, "explorer-7g7f.png") });

  // Play the most played reply by clicking its row, then go back with the arrow key.
  if (expected.length) {
    await page.click(`#tree tbody tr[data-move="${expected[0].move}"]`);
    await ready(3);
    check("clicking a tree row plays it",
      new URL(page.url()).searchParams.get("play") === `7g7f,${expected[0].move}`, page.url());
    await page.keyboard.press("ArrowLeft");
    await ready(4);
    const back = await page.$$eval("#tree tbody tr", (trs) => trs.map((tr) => tr.dataset.move));
    check("the left arrow goes back one move",
      JSON.stringify(back) === JSON.stringify(expected.map((r) => r.move)));
  }

  // Open the newest game reaching the position and step through it.
  const games = await page.$$eval("#games tbody tr", (trs) => trs.map((tr) => tr.dataset.game));
  const hits = cli("position", "startpos moves 7g7f", "--json", "--limit", "20").filter((r) => r.id);
  check("the games list equals `kifudex position`'s first rows",
    JSON.stringify(games) === JSON.stringify(hits.map((h) => String(h.id))),
    `${games} vs ${hits.map((h) => h.id)}`);
  await page.click("#games tbody tr");
  await page.waitForSelector("#viewer:not([hidden]) #vmoves li.cur");
  check("the explorer is hidden while the viewer shows", !(await page.isVisible("#explorer")));
  const startPly = Number(await page.evaluate(() => document.body.dataset.gply));
  check("the viewer opens at the ply that reaches the position", startPly === hits[0].ply, `${startPly}`);
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  const gply = Number(await page.evaluate(() => document.body.dataset.gply));
  check("the right arrow steps through the game", gply === startPly + 3, `${gply}`);
  const cur = await page.textContent("#vmoves li.cur");
  check("the viewer's move list highlights the current move", cur && cur.length > 0, cur);
  await page.screenshot({ path: join(shots, "viewer.png") });
  await page.click("#vexplore");
  await page.waitForSelector("#explorer:not([hidden])");
  const play = new URL(page.url()).searchParams.get("play") || "";
  check("“explore this position” carries the game's moves to the explorer",
    play.split(",").length === gply, play);

  // A phone-sized screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(shots, "phone.png"), fullPage: false });

  await panels(page, url);
  check("nothing was fetched from outside the server", external.length === 0, external.join(" "));
  check("no script error", pageErrors.length === 0, pageErrors.join(" "));
  code = failed ? 1 : 0;
  console.log("screenshots: " + readdirSync(shots).filter((f) => f.endsWith(".png")).sort()
    .map((f) => join(shots, f)).join(" "));
} catch (e) {
  failed++;
  console.log(`FAIL ${e.stack || e}`);
} finally {
  await browser.close();
  server.kill();
  rmSync(db, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(code);
