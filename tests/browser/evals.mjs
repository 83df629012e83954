// The game viewer's evaluation graph, on the game of evals/analysed.kifu (imported beside
// sample_db): the points drawn, the blunders marked on the graph and in the move list, a
// click on the graph going to its ply, and the words under it. The values expected are
// written here by hand from the record and compared with `show --evals` and `blunders` too.
import { join } from "node:path";

// The directory of the record, for the import.
export const EVALS_DIR = new URL("./evals", import.meta.url).pathname;

// analysed.kifu's evaluations as the graph draws them: sente's view, held within ±2000 (ply
// 14 is 先手の詰み, ply 15 a +2500).
const DRAWN = [[1, 40], [2, 30], [3, 60], [4, 50], [5, 55], [6, 45], [7, 70], [8, 60], [9, -400],
  [10, -380], [11, -420], [12, 900], [13, 850], [14, 2000], [15, 2000]];
// Its moves whose mover's evaluation fell by 300 or more, with the fall (a mate counts 30000):
// ☗７八玉 60 → −400, ☖８二玉 −420 → +900, ☖７二銀 850 → mate, ☗２五歩 mate → 2500.
const BLUNDERS = [[9, 460], [12, 1320], [14, 29150], [15, 27500]];

export async function evalGraph(page, url, { cli, check, shots, name, inView }) {
  const at = (s) => `${s} (${name})`;
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const game = cli("search", "--event", "kifudex評価値テスト", "--json")[0];
  await page.goto(`${url}?game=${game.id}&gply=0`);
  await page.waitForSelector("#viewer:not([hidden]) #vgraph:not([hidden]) svg circle.pt");

  const points = await page.$$eval("#vgraph circle.pt", (cs) => cs.map((c) => [Number(c.dataset.ply), Number(c.dataset.value)]));
  check(at("the graph draws each evaluation from sente's side, held within ±2000"), same(points, DRAWN), JSON.stringify(points));
  const shown = cli("show", String(game.id), "--evals", "--json")[0].evals.map((e) =>
    [e.ply, e.value != null ? Math.max(-2000, Math.min(2000, e.value)) : e.mate_for === "sente" ? 2000 : -2000]);
  check(at("the graph's points are `show --evals`'s"), same(points, shown), JSON.stringify(shown));

  const marked = await page.$$eval("#vgraph circle.blunder", (cs) => cs.map((c) => [Number(c.dataset.ply), Number(c.dataset.drop)]));
  check(at("the blunders are marked on the graph"), same(marked, BLUNDERS), JSON.stringify(marked));
  const listed = await page.$$eval("#vmoves li", (lis) => lis.map((li, i) => [i, li]).filter(([, li]) => li.classList.contains("blunder"))
    .map(([i, li]) => [i, Number(li.dataset.drop), li.querySelector(".bl").textContent]));
  check(at("the blunders are marked in the move list"),
    same(listed, BLUNDERS.map(([p, d]) => [p, d, `悪手 −${d}`])), JSON.stringify(listed));
  const cliBlunders = cli("blunders", "--json", "--limit", "0").filter((r) => r.id === game.id)
    .map((r) => [r.ply, r.drop]).sort((a, b) => a[0] - b[0]);
  check(at("they are `kifudex blunders`'s for the game"), same(cliBlunders, BLUNDERS), JSON.stringify(cliBlunders));

  // A click on the graph above ply 12 goes there (half way down, away from the line).
  const graph = await page.locator("#vgraph svg").boundingBox();
  const p12 = await page.locator('#vgraph circle.pt[data-ply="12"]').boundingBox();
  await page.mouse.click(p12.x + p12.width / 2, graph.y + graph.height * 0.75);
  await page.waitForFunction(() => document.body.dataset.gply === "12");
  const cur = await page.textContent("#vmoves li.cur");
  check(at("clicking the graph goes to that ply"), cur.startsWith("☖８二玉"), cur);
  const now = await page.textContent("#vevalnow .now");
  check(at("under the graph, the evaluation at the ply"), now === "評価値 +900（深さ22）", now);
  const cost = await page.textContent("#vevalnow .bl");
  check(at("and the blunder that reached it"), cost === "悪手 ☖８二玉: −420 → +900（1320損） 最善 ☖３二銀", cost);
  const cursor = await page.getAttribute("#vgraphcursor", "x1");
  const ptX = await page.getAttribute('#vgraph circle.pt[data-ply="12"]', "cx");
  check(at("the graph's cursor stands at the ply"), Number(cursor) === Number(ptX), `${cursor} vs ${ptX}`);
  const [boardOk, boardWhere] = await inView(page, "#vboard svg");
  check(at("the board stays in view"), boardOk, boardWhere);
  const size = page.viewportSize();
  check(at("the graph fits the width of the window"), graph.x >= 0 && graph.x + graph.width <= size.width + 0.5,
    JSON.stringify(graph));
  await page.screenshot({ path: join(shots, `evals-graph-${name}.png`) });

  // The engine's better move beside the blunder of ply 9, and a mate in words.
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.body.dataset.gply === "9");
  const nine = await page.textContent("#vevalnow .bl");
  check(at("a blunder names the engine's better move"), nine === "悪手 ☗７八玉: +60 → −400（460損） 最善 ☗５六歩", nine);
  // …and draws it on the board: an arrow from ５七 to ５六, the two squares' centres.
  const arrow = await page.$$eval("#vboard [data-better]", (gs) => gs.map((g) => {
    const l = g.querySelector("line");
    return [g.dataset.better, l && [l.getAttribute("x1"), l.getAttribute("y1")].join(","),
      g.querySelector("path") && g.querySelector("path").getAttribute("d").split(" ").slice(0, 2).join(" ")];
  }));
  check(at("the better move is an arrow from ５七 to ５六"),
    JSON.stringify(arrow) === JSON.stringify([["5g5f", "231,349", "M231 299"]]), JSON.stringify(arrow));
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.body.dataset.gply === "8");
  check(at("no arrow where no blunder was played"), (await page.$$("#vboard [data-better]")).length === 0, "");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => document.body.dataset.gply === "9");
  await page.goto(`${url}?game=${game.id}&gply=14`);
  await page.waitForFunction(() => document.body.dataset.gply === "14");
  const mate = await page.textContent("#vevalnow .now");
  check(at("a mate is said as one"), mate === "先手の詰み（11手）（深さ24）", mate);

  // In English on request.
  await page.goto(`${url}?game=${game.id}&gply=12&lang=en`);
  await page.waitForFunction(() => document.body.dataset.gply === "12");
  const en = await page.textContent("#vevalnow");
  check(at("in English with lang=en"), en === "Evaluation +900 (depth 22)Blunder ☖８二玉: −420 → +900 (lost 1320) best ☖３二銀", en);

  // A game without evaluations shows no graph and no blunder.
  const plain = cli("search", "--evaluated", "no", "--json", "--limit", "1")[0];
  await page.goto(`${url}?game=${plain.id}&gply=1`);
  await page.waitForFunction(() => document.body.dataset.gply === "1");
  check(at("a game without evaluations has no graph"), !(await page.isVisible("#vgraph")) &&
    (await page.$$eval("#vmoves li.blunder", (lis) => lis.length)) === 0);
}
