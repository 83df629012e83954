// What the browser scripts share: a `kifudex serve` of a database, and Debian's chromium.
import { spawn } from "node:child_process";
import { chromium } from "playwright-core";

// Starts `BIN serve --db DB` on a free port; resolves to [process, page address] once it
// listens (it prints the address on stderr).
export async function serve(bin, db, waitMs = 30000) {
  const server = spawn(bin, ["serve", "--db", db, "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((resolve, reject) => {
    let err = "";
    const timer = setTimeout(() => reject(new Error("the server did not start: " + err)), waitMs);
    server.stderr.on("data", (d) => {
      err += d;
      const m = /at (http:\/\/\S+)/.exec(err);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on("exit", (code) => reject(new Error(`the server exited (${code}): ${err}`)));
  });
  return [server, url];
}

// Debian's chromium, headless (CHROMIUM names another), nothing fetched of its own.
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
