// How long the explorer page takes to show the start position's tree, in a real browser.
// Usage: node page_load.mjs KIFUDEX_BIN DB [RUNS]
// Serves DB (a database already imported, e.g. the 1,000,000-game one), then opens the page
// RUNS times (default 5), each in a fresh browser context (nothing cached by the browser),
// and prints the milliseconds from navigation to the tree's rows on screen. The first load
// is the server's first answer for the position; later ones may come from its answer cache,
// so both are printed. A measurement, not a test: it asserts nothing.
import { launch, serve } from "./serve.mjs";

const [bin, db, runsArg] = process.argv.slice(2);
if (!bin || !db) {
  console.error("usage: node page_load.mjs KIFUDEX_BIN DB [RUNS]");
  process.exit(2);
}
const runs = Number(runsArg || 5);

const [server, url] = await serve(bin, db, 120000);

const browser = await launch();
try {
  for (let i = 1; i <= runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() =>
      Number(document.body.dataset.ready || 0) >= 1 &&
      document.querySelectorAll("#tree tbody tr[data-move]").length > 0, null, { timeout: 60000 });
    // Milliseconds since the navigation started, when the rows were there.
    const ms = await page.evaluate(() => performance.now());
    const rows = await page.$$eval("#tree tbody tr[data-move]", (trs) => trs.length);
    // Where the time went: the page's own files and each API call (start → end, in ms).
    const parts = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      const res = performance.getEntriesByType("resource").map((r) =>
        `${new URL(r.name).pathname} ${r.startTime.toFixed(0)}→${r.responseEnd.toFixed(0)}`);
      return [`page ${nav.responseEnd.toFixed(0)}, DOM ready ${nav.domContentLoadedEventEnd.toFixed(0)}`, ...res].join("; ");
    });
    const games = await page.$eval("#reach", (e) => e.textContent);
    console.log(`load ${i}: start position's tree on screen after ${ms.toFixed(0)} ms (${rows} moves; ${games})`);
    console.log(`  ${parts}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.kill();
}
