// A minimal app bundled by Vite, as a web page or portal extension would use the package.
import { score, render, connectWorker } from "agenteval";

const dataset = {
  schemaVersion: "1.6.0",
  default_evaluators: { polite: {} },
  items: [{ prompt: "Hi", response: "Thanks for asking!" }],
};
const report = await score(dataset, { custom: { polite: (input) => /thank/i.test(input.response) } });
const worker = connectWorker();
const remote = await worker.score(dataset).catch((error) => ({ error: String(error) }));
worker.terminate();
globalThis.result = { status: report.items[0].status, markdown: render(report, "md").split("\n")[0], remote: remote.summary?.items ?? remote };
document.getElementById("out").textContent = JSON.stringify(globalThis.result);
