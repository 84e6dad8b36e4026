/**
 * The Allure generator as a child process started at the beginning of a run
 * (harness/report/allure-generator.ts): it loads Allure 3's report core and its
 * Awesome plugin while the tests run, then waits for one line on stdin, the JSON
 * {"cwd", "config", "resultsDir", "output"}, and does what `allure generate
 * --config <config> --cwd <cwd> <resultsDir> --output <output>` does. Exit 0 when
 * the report is written; 1 with the reason on stderr otherwise. stdin closed with
 * no line (the run ended another way): exit 0 at once, nothing written.
 *
 * Plain JavaScript run by node alone: no TypeScript loader for Allure's hundreds
 * of modules.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [allurePackageJson] = process.argv.slice(2);
const requireFromAllure = createRequire(allurePackageJson);
const load = (name) => import(pathToFileURL(requireFromAllure.resolve(name)).href);

const request = new Promise((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    text += chunk;
    const end = text.indexOf('\n');
    if (end !== -1) resolve(text.slice(0, end));
  });
  process.stdin.on('end', () => resolve(null));
});

try {
  const core = await load('@allurereport/core');
  // The plugin the config names, loaded now rather than when the config is read (the same module instance).
  await load('@allurereport/plugin-awesome');
  const line = await request;
  if (line === null) process.exit(0);
  const { cwd, config: configPath, resultsDir, output } = JSON.parse(line);
  const config = await core.readConfig(cwd, configPath, { output });
  const report = new core.AllureReport(config);
  await report.restoreState([]);
  await report.start();
  await report.readDirectory(resultsDir);
  await report.done();
  process.exit(0);
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
}
