// Charts and files for run_js, and the two scenarios of seeds 001 and 004, as a user sees them.
//
//   node --test tests/e2e/chart.test.mjs      (serves target/site: build it first with `make site`)
//
// Index:
//   stock-chart   the scenario reads its sample CSV (made-up prices), prints its head, plots
//                 the closing price: the SVG has one polyline vertex per data row, an image role
//                 and name, and the width of its card; the answer quotes the numbers the code
//                 printed; the model's prompt carries the one-line summary, never the numbers
//   export        export → import draws the same chart from the trajectory file
//   bad files     a dropped CSV with a missing field and text in the Close column is an error
//                 observation naming the value, no chart, no page error; a binary file and a
//                 file chosen with the keyboard's file input
//   plot          bad arguments to plot() are error observations the model reads, in the tool
//                 and in an agent's trajectory (no picture); a hostile title stays text
//   huawei-phone  searches its own dated pages and answers with the newest model and its date,
//                 in English and Chinese
//   axe           no axe-core violation with the chart drawn and the sample listed, light and dark
//   screenshots   tests/e2e/out/chart-*.png: 1366×850 and 390×844, light and dark, English and
//                 Chinese, the chart in view

import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { setUp, openPage, waitStopped, OUT, assertClean } from "./helpers.mjs";
import { REPO_ROOT } from "./server.mjs";

/** The sample the stock-chart scenario reads, as the test reads it: rows, first and last. */
const SAMPLE = fs.readFileSync(path.join(REPO_ROOT, "www/samples/stock_prices.csv"), "utf8").trim().split("\n");
const ROWS = SAMPLE.slice(1).map((line) => line.split(","));

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.close();
});

/** Presses Run and approves each run_js call until the run stops; returns the stop reason. */
async function runApproving(page, { timeout = 30000 } = {}) {
  await page.selectOption('select[name="delayMs"]', "0");
  await page.click('button[data-action="run"]');
  const deadline = Date.now() + timeout;
  for (;;) {
    const state = await page.waitForFunction(() => {
      const reason = document.querySelector('tao-stats [data-stat="stop"]')?.dataset.reason;
      if (reason && reason !== "running" && reason !== "idle") return "stopped";
      const approve = document.querySelector('[data-approve="yes"]:not([disabled])');
      return approve ? "approve" : false;
    }, null, { timeout: Math.max(1000, deadline - Date.now()) });
    if ((await state.jsonValue()) === "stopped") return waitStopped(page, 1000);
    await page.click('[data-approve="yes"]:not([disabled])');
  }
}

/** The text of the cards of one kind, without their labels ("Observation", "Answer"). */
function texts(page, kind) {
  return page.$$eval(`tao-trajectory [data-kind="${kind}"]`, (cards) =>
    cards.map((card) => card.querySelector(":scope > pre, :scope > .card-text")?.textContent ?? ""));
}

/** What the chart in the trajectory shows: vertices, circles, name, and its width vs. its box. */
function chartFacts(page) {
  return page.$eval("tao-trajectory [data-chart]", (figure) => {
    const svg = figure.querySelector("svg");
    const points = svg?.querySelector("polyline")?.getAttribute("points")?.trim().split(/\s+/) ?? [];
    return {
      svgs: figure.querySelectorAll("svg").length,
      vertices: points.length,
      circles: svg?.querySelectorAll("circle").length ?? 0,
      role: svg?.getAttribute("role"),
      label: svg?.getAttribute("aria-label"),
      title: svg?.querySelector("title")?.textContent,
      width: svg?.getBoundingClientRect().width,
      box: figure.getBoundingClientRect().width,
      namespace: svg?.namespaceURI,
      // Every vertex and marker is inside the drawing.
      inside: [...points.map((p) => p.split(",").map(Number)),
        ...[...(svg?.querySelectorAll("circle") ?? [])].map((c) => [c.cx.baseVal.value, c.cy.baseVal.value])]
        .every(([x, y]) => x >= 0 && y >= 0 && x <= svg.width.baseVal.value && y <= svg.height.baseVal.value),
    };
  });
}

/** Waits for the chart to be drawn (chart.js loads on demand). */
async function waitForChart(page) {
  await page.waitForSelector("tao-trajectory [data-chart] svg polyline, tao-trajectory [data-chart] svg circle", { timeout: 10000 });
}

/** Drops a file on the files panel's drop zone, as a drag from the desktop does. */
async function dropFile(page, name, text, type = "text/csv") {
  const dataTransfer = await page.evaluateHandle(([n, t, ty]) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([t], n, { type: ty }));
    return transfer;
  }, [name, text, type]);
  await page.dispatchEvent("[data-dropzone]", "dragover", { dataTransfer });
  await page.dispatchEvent("[data-dropzone]", "drop", { dataTransfer });
}

/** The names in the files panel, with what it says about each. */
function fileRows(page) {
  return page.$$eval("[data-file-list] li", (rows) => rows.map((row) => row.textContent.replace(/\s+/g, " ").trim()));
}

describe("stock-chart", () => {
  it("in Chinese: the code prints and labels in Chinese, and the answer has no English words", async () => {
    const page = await openPage(env, { query: "?scenario=stock-chart&lang=zh" });
    await page.waitForSelector('[data-file-list] li[data-file="stock_prices.csv"]');
    assert.equal(await runApproving(page), "answer");
    const [head, plotted] = await texts(page, "observation");
    assert.ok(head.startsWith(`共 ${ROWS.length} 行。前 5 行：`), head);
    assert.match(plotted, /\n走势：上涨 [\d.]+%，从 /);
    await waitForChart(page);
    assert.equal((await chartFacts(page)).title, "收盘价");
    const answer = (await texts(page, "answer"))[0];
    assert.match(answer, /收盘价上涨了 [\d.]+%，从 .*最低 [\d.]+，最高 [\d.]+/);
    assert.doesNotMatch(answer.replace(/^\S+/, ""), /[A-Za-z]{2,}/, answer);
    assertClean(page);
    await page.context().close();
  });

  it("plots the sample's closing price: one vertex per data row, named, as wide as its card", async () => {
    const page = await openPage(env, { query: "?scenario=stock-chart&lang=en", viewport: { width: 1366, height: 850 } });
    assert.doesNotMatch(await page.textContent("[data-scenario-description]"), /\bseed\b|^$/i);
    // Choosing the scenario brings its sample file.
    await page.waitForSelector('[data-file-list] li[data-file="stock_prices.csv"]');
    assert.match((await fileRows(page))[0], new RegExp(`^stock_prices\\.csv ${ROWS.length} rows · [\\d.]+ KB · sample`));

    assert.equal(await runApproving(page), "answer");
    const [head, plotted] = await texts(page, "observation");
    assert.ok(head.startsWith(`${ROWS.length} rows. The first 5:\n${SAMPLE.slice(0, 6).join("\n")}`), head);
    assert.ok(plotted.startsWith(`Plotted a line chart of ${ROWS.length} points: Closing price\nTrend: up `), plotted);
    assert.ok(!plotted.includes("<svg") && !plotted.includes("polyline"), "the model reads no SVG");

    await waitForChart(page);
    const chart = await chartFacts(page);
    assert.equal(chart.svgs, 1);
    assert.equal(chart.vertices, ROWS.length, "one polyline vertex per data row");
    assert.equal(chart.namespace, "http://www.w3.org/2000/svg");
    assert.equal(chart.role, "img");
    assert.equal(chart.title, "Closing price");
    const [first, last] = [ROWS[0], ROWS.at(-1)];
    assert.equal(chart.label, `Line chart: Closing price, ${ROWS.length} points; x from ${first[0]} to ${last[0]}, ` +
      `y from ${Math.min(...ROWS.map((r) => Number(r[4])))} to ${Math.max(...ROWS.map((r) => Number(r[4])))}`);
    assert.ok(chart.inside, "every vertex is inside the drawing");
    assert.ok(Math.abs(chart.width - chart.box) <= 1, `the chart is as wide as its box: ${chart.width} vs ${chart.box}`);

    // The answer describes the trend from the numbers the code printed.
    const change = (Math.abs(Number(last[4]) / Number(first[4]) - 1) * 100).toFixed(1);
    const answer = (await texts(page, "answer"))[0];
    assert.match(answer, new RegExp(`It went up ${change}%, ${Number(first[4])} \\(${first[0]}\\) → ${Number(last[4])} \\(${last[0]}\\)`));

    // The model's last prompt has the one-line summary, and none of the numbers behind the chart.
    await page.locator('tao-trajectory [data-step="3"] .step-head button[data-prompt]').click();
    await page.waitForSelector("tao-prompt dialog[open]");
    const prompt = await page.textContent("tao-prompt dialog[open]");
    assert.ok(prompt.includes(`Plotted a line chart of ${ROWS.length} points: Closing price`), "the summary is in the prompt");
    const middle = ROWS[Math.floor(ROWS.length / 2)];
    assert.ok(!prompt.includes(middle[0]), `a date only the picture holds (${middle[0]}) is not in the prompt`);
    await page.keyboard.press("Escape");

    // A narrower window redraws the chart at the new width.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => {
      const figure = document.querySelector("tao-trajectory [data-chart]");
      return Math.abs(figure.querySelector("svg").getBoundingClientRect().width - figure.getBoundingClientRect().width) <= 1;
    });
    assert.equal((await chartFacts(page)).vertices, ROWS.length);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(wide <= 0, `no sideways scrolling on a phone (${wide}px)`);
    assertClean(page);
    await page.context().close();
  });

  it("export → import keeps the chart: the trajectory file carries the picture", async () => {
    const page = await openPage(env, { query: "?scenario=stock-chart&lang=en" });
    assert.equal(await runApproving(page), "answer");
    await waitForChart(page);
    const before = await chartFacts(page);

    const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
    const file = path.join(OUT, "chart-trajectory.json");
    await download.saveAs(file);
    const json = JSON.parse(fs.readFileSync(file, "utf8"));
    const picture = json.steps[1].tool_calls[0].picture;
    assert.equal(picture.kind, "line");
    assert.equal(picture.title, "Closing price");
    assert.deepEqual(picture.x, ROWS.map((r) => r[0]));
    assert.deepEqual(picture.y, ROWS.map((r) => Number(r[4])));
    assert.equal(json.steps[0].tool_calls[0].picture, null, "the head of the file made no chart");

    const fresh = await openPage(env, { query: "?lang=en" });
    await fresh.setInputFiles("input[data-import-file]", file);
    await waitForChart(fresh);
    const after = await chartFacts(fresh);
    assert.equal(after.vertices, ROWS.length);
    assert.equal(after.label, before.label);
    assertClean(fresh);
    await page.context().close();
    await fresh.context().close();
  });

  it("an imported file's bad picture is a note, never markup", async () => {
    const page = await openPage(env, { query: "?scenario=stock-chart&lang=en" });
    assert.equal(await runApproving(page), "answer");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('button[data-action="export"]')]);
    const json = JSON.parse(fs.readFileSync(await download.path(), "utf8"));
    // A title that is markup, and a y value that is not a number.
    json.steps[1].tool_calls[0].picture = { kind: "line", title: "<img src=x onerror=window.pwned=1>", x: [1, 2, 3], y: [1, 2, 3] };
    json.steps[0].tool_calls[0].picture = { kind: "line", x: [1, 2], y: [1, "2"] };
    const fresh = await openPage(env, { query: "?lang=en" });
    await fresh.setInputFiles("input[data-import-file]", { name: "t.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(json)) });
    await waitForChart(fresh);
    const notes = await fresh.$$eval("tao-trajectory [data-chart] .card-note", (n) => n.map((x) => x.textContent));
    assert.deepEqual(notes, ['This chart cannot be drawn: y[1] is "2", not a finite number (at x = 2)']);
    assert.equal(await fresh.locator("tao-trajectory [data-chart] img").count(), 0);
    assert.equal(await fresh.$eval("tao-trajectory [data-chart] svg title", (n) => n.textContent), "<img src=x onerror=window.pwned=1>");
    assert.equal(await fresh.evaluate(() => window.pwned), undefined);
    assertClean(fresh);
    await page.context().close();
    await fresh.context().close();
  });
});

describe("files for run_js", () => {
  it("a dropped CSV with bad rows is a clear observation; nothing crashes", async () => {
    const page = await openPage(env, { query: "?scenario=stock-chart&lang=en" });
    await page.waitForSelector('[data-file-list] li[data-file="stock_prices.csv"]');
    const bad = [
      "Date,Open,High,Low,Close,Volume",
      "2024-01-02,10.00,10.50,9.80,10.20,1000",
      "2024-01-03,10.20,10.90,10.10,10.80,1200",
      "2024-01-04,10.80,11.00",
      "2024-01-05,10.90,11.20,10.70,n/a,900",
    ].join("\n");
    await dropFile(page, "stock_prices.csv", bad);
    await page.waitForFunction(() => document.querySelector("[data-file-status]")?.textContent.includes("Added stock_prices.csv"));
    // The dropped file takes the sample's place: one file, no "sample".
    assert.deepEqual(await fileRows(page), [`stock_prices.csv 4 rows · ${Buffer.byteLength(bad)} B Remove`]);

    assert.equal(await runApproving(page), "answer");
    const observations = await texts(page, "observation");
    assert.ok(observations[0].startsWith("4 rows. The first 5:\nDate,Open,High,Low,Close,Volume\n2024-01-02"), observations[0]);
    assert.equal(observations[1], 'Error: plot: y[2] is NaN, not a finite number (at x = "2024-01-04")');
    assert.equal(await page.locator("tao-trajectory [data-chart]").count(), 0, "no chart");
    assert.equal((await texts(page, "answer"))[0],
      'I could not plot the file: plot: y[2] is NaN, not a finite number (at x = "2024-01-04"). Fix the file (or drop a corrected one) and run again.');

    // Without the missing field, the text in the Close column is the one named.
    await dropFile(page, "stock_prices.csv", bad.replace("\n2024-01-04,10.80,11.00", ""));
    assert.equal(await runApproving(page), "answer");
    assert.equal((await texts(page, "observation"))[1], 'Error: plot: y[2] is NaN, not a finite number (at x = "2024-01-05")');
    assertClean(page);
    await page.context().close();
  });

  it("a file chosen with the input is added and named to the model; a binary file is refused; Remove", async () => {
    const page = await openPage(env, { query: "?scenario=apple-ceo&lang=en" });
    // The drop zone is a labelled file input the keyboard reaches.
    const input = page.locator("[data-file-input]");
    assert.match(await input.evaluate((n) => n.labels[0].textContent.replace(/\s+/g, " ")), /Drop a CSV file here, or choose one/);
    await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("one\ntwo\n") });
    await page.waitForSelector('[data-file-list] li[data-file="notes.txt"]');
    assert.deepEqual(await fileRows(page), ["notes.txt 2 lines · 8 B Remove"]);
    await dropFile(page, "photo.png", "\u0089PNG\u0000\u0000", "image/png");
    await page.waitForFunction(() => document.querySelector("[data-file-status]")?.textContent.includes("photo.png"));
    assert.equal(await page.textContent("[data-file-status]"), "photo.png is not added: it is not a text file (CSV, TSV, JSON or plain text).");
    assert.equal(await page.locator('[data-file-list] li[data-file="photo.png"]').count(), 0);

    // What the model is told about run_js names the file.
    await page.evaluate(() => {
      const box = document.querySelector('tao-tools input[value="run_js"]');
      box.click();
    });
    await page.click("[data-tools-panel] > summary");
    await page.click(".model-view > summary");
    await page.waitForFunction(() => document.querySelector("[data-model-view]")?.textContent.includes("now: notes.txt"));

    await page.click('[data-remove-file="notes.txt"]');
    await page.waitForFunction(() => document.querySelectorAll("[data-file-list] li").length === 0);
    assert.equal(await page.evaluate(() => document.activeElement?.matches("[data-file-input]")), true, "the focus goes back to the drop zone");
    await page.waitForFunction(() => document.querySelector("[data-model-view]")?.textContent.includes("none now"));
    assertClean(page);
    await page.context().close();
  });
});

describe("plot", () => {
  it("bad arguments are error observations the model reads", async () => {
    const page = await openPage(env, { query: "?lang=en" });
    const cases = await page.evaluate(async () => {
      const { codeTool } = await import("/www/code-tool.js");
      const tool = codeTool({ files: () => ({ "a.csv": "x,y\n1,2\n" }) });
      const codes = [
        "plot({x: [1, 2], y: [1]})",
        "plot({x: [1, 2], y: [1, Infinity]})",
        'plot({x: ["a"], y: ["1"]})',
        "plot({x: [1], y: [1], type: 'bar'})",
        "plot({x: [1], y: [1], kind: 'pie'})",
        "plot({x: [1], y: [1], title: 42})",
        "plot({x: [], y: []})",
        "plot([1, 2, 3])",
        "plot({x: 'abc', y: [1]})",
        "const n = 5001; plot({x: Array.from({length: n}, (_, i) => i), y: Array(n).fill(1)})",
        "plot({x: [1], y: [1]}); plot({x: [2], y: [2]})",
        "plot({x: [{}], y: [1]})",
      ];
      const out = [];
      for (const code of codes) out.push(await tool.fn({ code }));
      out.push(await tool.fn({ code: 'plot({x: [1, 2, 3], y: [3, 1, 2], kind: "scatter", title: "t"}); files["a.csv"]' }));
      return out;
    });
    assert.deepEqual(cases.slice(0, -1), [
      "Error: plot: x and y must have the same length (x has 2, y has 1)",
      "Error: plot: y[1] is Infinity, not a finite number (at x = 2)",
      'Error: plot: y[0] is "1", not a finite number (at x = "a")',
      'Error: plot: unknown option "type"; the options are x, y, kind, title, xLabel, yLabel',
      'Error: plot: kind must be "line" or "scatter", not "pie"',
      "Error: plot: title must be a text, not 42",
      "Error: plot: x and y are empty: there is nothing to plot",
      'Error: plot: give an object: {x: [...], y: [...], kind: "line" or "scatter", title: "..."}',
      "Error: plot: x and y must be arrays (x is string, y is one)",
      "Error: plot: too many points (5001); at most 5000",
      // The chart made before the error is kept, as a notebook keeps a figure drawn before one.
      {
        observation: "Plotted a line chart of 1 point\nError: plot: one chart per run_js call; call run_js again for another",
        picture: { kind: "line", x: [1], y: [1] },
      },
      "Error: plot: x[0] is [object Object]: each x must be a finite number or a short text",
    ]);
    // A good call: the observation says what was plotted, the picture rides beside it.
    assert.deepEqual(cases.at(-1), {
      observation: 'Plotted a scatter chart of 3 points: t\n=> "x,y\\n1,2\\n"',
      picture: { kind: "scatter", x: [1, 2, 3], y: [3, 1, 2], title: "t" },
    });
    assertClean(page);
    await page.context().close();
  });

  it("in an agent's run: the error is the observation and no picture is kept; a good chart is drawn", async () => {
    const page = await openPage(env, { query: "?lang=en" });
    const steps = await page.evaluate(async () => {
      const tao = await import("/pkg/tao_agent.js");
      await tao.default();
      const { codeTool } = await import("/www/code-tool.js");
      const agent = new tao.Agent({ format: "mrkl", replies: [
        'Thought: plot it\nAction: run_js\nAction Input: {"code": "plot({x: [1, 2, 3], y: [1, 2]})"}\n',
        'Thought: fix it\nAction: run_js\nAction Input: {"code": "plot({x: [1, 2, 3], y: [1, 4, 9], title: \\"Squares\\"})"}\n',
        "Thought: done\nFinal Answer: plotted",
      ] });
      const tool = codeTool();
      agent.registerTool(tool.spec, tool.fn);
      const trajectory = await agent.run("Plot the squares of 1, 2, 3.");
      document.querySelector("tao-trajectory").render(trajectory);
      return trajectory.steps;
    });
    assert.equal(steps[0].tool_calls[0].observation, "Error: plot: x and y must have the same length (x has 3, y has 2)");
    assert.equal(steps[0].tool_calls[0].picture, null);
    assert.equal(steps[1].tool_calls[0].observation, "Plotted a line chart of 3 points: Squares");
    assert.deepEqual(steps[1].tool_calls[0].picture, { kind: "line", x: [1, 2, 3], y: [1, 4, 9], title: "Squares" });
    await waitForChart(page);
    const chart = await chartFacts(page);
    assert.equal(chart.vertices, 3);
    assert.match(chart.label, /^Line chart: Squares, 3 points; x from 1 to 3, y from 1 to 9$/);

    // A scatter chart: one marker per point, on a numeric x axis.
    await page.evaluate(() => {
      const x = Array.from({ length: 50 }, (_, i) => i * 0.5);
      const picture = { kind: "scatter", title: "Noise", x, y: x.map((v) => Math.sin(v) * 100) };
      const call = { action: { tool: "run_js", input: "plot(…)", id: null }, observation: "Plotted a scatter chart of 50 points: Noise", picture };
      const step = { index: 1, thought: "", tool_calls: [call], model_calls: [] };
      document.querySelector("tao-trajectory").render({ task: "scatter", steps: [step], stop: { reason: "answer" } });
    });
    await waitForChart(page);
    const scatter = await chartFacts(page);
    assert.equal(scatter.circles, 50, "one marker per point");
    assert.equal(scatter.vertices, 0);
    assert.ok(scatter.inside, "every marker is inside the drawing");
    assert.match(scatter.label, /^Scatter chart: Noise, 50 points; x from 0 to 24\.5, y from -99\.\d+ to 99\.\d+$/);
    assertClean(page);
    await page.context().close();
  });
});

describe("huawei-phone", () => {
  for (const [lang, newest, date] of [["en", "Pura 80", "11 June 2025"], ["zh", "Pura 80", "2025 年 6 月 11 日"]]) {
    it(`answers with the newest model and its date, from its own dated pages (${lang})`, async () => {
      const page = await openPage(env, { query: `?scenario=huawei-phone&lang=${lang}` });
      // The scenario says what it shows in the reader's words, not the project's (no "seed").
      assert.doesNotMatch(await page.textContent("[data-scenario-description]"), /\bseed\b|种子|^$/i);
      const fetched = [];
      page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
      assert.equal(await runApproving(page), "answer");
      const pages = lang === "en" ? "/www/samples/huawei-phones.json" : "/www/samples/huawei-phones.zh.json";
      assert.ok(fetched.includes(pages), `searched ${pages}: ${fetched.join(", ")}`);
      assert.ok(!fetched.includes("/www/docs.json"), "not the site's own docs");
      const observations = await texts(page, "observation");
      assert.equal(observations.length, 2);
      assert.match(observations[0], /Mate 70/);
      assert.match(observations[1], new RegExp(`${newest}.*${date}`));
      const answer = (await texts(page, "answer"))[0];
      assert.ok(answer.includes(newest) && answer.includes(date), answer);
      assert.match(answer, lang === "en" ? /^As of 11 June 2025 \(the newest page\)/ : /^截至 2025 年 6 月 11 日\(最新页面的日期\)/);
      assert.match(answer, lang === "en" ? /changes over time/ : /会随时间变化/);
      assertClean(page);
      await page.context().close();
    });
  }
});

describe("axe", () => {
  for (const colorScheme of ["light", "dark"]) {
    it(`no violation with the chart drawn and a file listed (${colorScheme})`, async () => {
      const page = await openPage(env, { query: "?scenario=stock-chart&lang=en", viewport: { width: 1366, height: 850 }, colorScheme });
      assert.equal(await runApproving(page), "answer");
      await waitForChart(page);
      await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
      await page.waitForTimeout(250); // buttons fade between enabled and disabled
      const violations = await page.evaluate(async () =>
        (await window.axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
      assert.deepEqual(violations, []);
      await page.context().close();
    });
  }
});

describe("screenshots", () => {
  for (const [size, viewport] of [["1366", { width: 1366, height: 850 }], ["390", { width: 390, height: 844 }]]) {
    for (const colorScheme of ["light", "dark"]) {
      for (const lang of ["en", "zh"]) {
        it(`chart-${size}-${colorScheme}-${lang}.png`, async () => {
          const page = await openPage(env, { query: `?scenario=stock-chart&lang=${lang}`, viewport, colorScheme });
          assert.equal(await runApproving(page), "answer");
          await waitForChart(page);
          // The chart at the bottom of the window, the code and the observation above it.
          await page.locator("tao-trajectory [data-chart]").evaluate((n) => n.scrollIntoView({ block: "end" }));
          await page.evaluate(() => window.scrollBy(0, 12));
          await page.screenshot({ path: path.join(OUT, `chart-${size}-${colorScheme}-${lang}.png`) });
          const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(wide <= 0, `no sideways scrolling (${wide}px)`);
          assertClean(page);
          await page.context().close();
        });
      }
    }
  }
  it("chart-files-390-light-en.png: the files panel with the sample", async () => {
    const page = await openPage(env, { query: "?scenario=stock-chart&lang=en", viewport: { width: 390, height: 844 } });
    await page.waitForSelector('[data-file-list] li[data-file="stock_prices.csv"]');
    await page.locator("[data-files]").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(OUT, "chart-files-390-light-en.png") });
    assertClean(page);
    await page.context().close();
  });
});
