/**
 * allure-vitest's reporter, writing allure-results/ without an fsync per file.
 *
 * allure-js-commons' FileSystemWriter writes every result and attachment to a
 * temporary file, fsyncs it and renames it: a full run writes about 1,300 files
 * there, and the fsyncs alone held the main process for 1 to 4 s after the last
 * test (measured with --timings, `after-tests`). Nothing reads allure-results/
 * while the run is on, and a run that dies half-way is rerun, not recovered, so
 * the files are written plainly here. Everything else is allure-vitest's own.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter, { type AllureVitestReporterConfig } from 'allure-vitest/reporter';
import type { Vitest } from 'vitest/node';

type Result = Parameters<FileSystemWriter['writeResult']>[0];
type Group = Parameters<FileSystemWriter['writeGroup']>[0];
type Globals = Parameters<FileSystemWriter['writeGlobals']>[1];
type Categories = Parameters<FileSystemWriter['writeCategoriesDefinitions']>[0];

/** FileSystemWriter's files, each written once in place: no temporary file, no fsync. */
export class PlainFileWriter extends FileSystemWriter {
  readonly #dir: string;
  #made = false;

  constructor(config: { resultsDir: string }) {
    super(config);
    this.#dir = config.resultsDir;
  }

  #path(name: string): string {
    if (!this.#made) {
      mkdirSync(this.#dir, { recursive: true });
      this.#made = true;
    }
    return join(this.#dir, name);
  }

  override writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(this.#path(distFileName), content);
  }

  override writeAttachmentFromPath(distFileName: string, from: string): void {
    copyFileSync(from, this.#path(distFileName));
  }

  override writeResult(result: Result): void {
    writeFileSync(this.#path(`${result.uuid}-result.json`), JSON.stringify(result), 'utf8');
  }

  override writeGroup(result: Group): void {
    writeFileSync(this.#path(`${result.uuid}-container.json`), JSON.stringify(result), 'utf8');
  }

  override writeGlobals(distFileName: string, info: Globals): void {
    writeFileSync(this.#path(distFileName), JSON.stringify(info), 'utf8');
  }

  override writeCategoriesDefinitions(categories: Categories): void {
    writeFileSync(this.#path('categories.json'), JSON.stringify(categories), 'utf8');
  }
}

/** The runtime allure-vitest keeps (a private field of its reporter, reached with care). */
interface RuntimeHolder {
  allureReporterRuntime?: { writer?: unknown };
}

export default class LockconfAllureReporter extends AllureVitestReporter {
  readonly #resultsDir: string;

  constructor(config: AllureVitestReporterConfig & { resultsDir: string }) {
    super(config);
    this.#resultsDir = config.resultsDir;
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    // Only allure's own file writer is replaced (ALLURE_TEST_MODE's message writer stays);
    // should a later allure-vitest keep its runtime elsewhere, its writer is simply kept.
    const runtime = (this as unknown as RuntimeHolder).allureReporterRuntime;
    if (runtime && runtime.writer instanceof FileSystemWriter && !(runtime.writer instanceof PlainFileWriter)) {
      runtime.writer = new PlainFileWriter({ resultsDir: this.#resultsDir });
    }
  }
}
