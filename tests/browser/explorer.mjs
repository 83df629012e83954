// The explorer page in a real browser: Debian's chromium, headless, driven by playwright-core.
// Usage: node explorer.mjs KIFUDEX_BIN SAMPLE_DIR SCREENSHOT_DIR
// Imports SAMPLE_DIR into a temporary database, serves it, clicks through the page and
// compares what it shows with the CLI's answers. Ends with "N passed, M failed".
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launch, serve } from "./serve.mjs";

const [bin, sample, shots] = process.argv.slice(2);
if (!bin || !sample || !shots) {
  console.error("usage: node explorer.mjs KIFUDEX_BIN SAMPLE_DIR SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });
const db = mkdtempSync(join(tmpdir(), "kifudex-browser-"));
execFileSync(bin, ["import", sample, "--db", db], { stdio: ["ignore", "ignore", "inherit"] });
const cli = (...args) =>
  execFileSync(bin, [...args, "--db", db], { encoding: "utf8" })
    .trim().split("\n").filter((l) => l).map((l) => JSON.parse(l));

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok   ${name}`); }
  else { failed++; console.log(`FAIL ${name}${detail ? ": " + detail : ""}`); }
}

const [server, url] = await serve(bin, db);

const browser = await launch();
let code = 1;
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
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
  check("nothing was fetched from outside the server", external.length === 0, external.join(" "));
  check("no script error", pageErrors.length === 0, pageErrors.join(" "));
  code = failed ? 1 : 0;
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
