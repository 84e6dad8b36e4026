/**
 * The provenance of a run (harness/provenance/) and its certificate
 * (harness/certify/) as the reports show them: key/value facts for junit.xml
 * <properties> and the Allure environment, and two sections of index.html: the
 * certificate block (who signed, what scope, which verdict) and "How this run
 * was made" (suite source, digests, command, the settings table with defaults
 * marked and changed values highlighted, expectations, target identity).
 */
import escapeHtml from 'escape-html';
import type { Provenance, SuiteSource } from '../provenance/types.js';
import type { ConformanceResult } from './result-file.js';

const e = (value: unknown): string => escapeHtml(value === undefined || value === null ? '' : String(value));

export function sourceText(source: SuiteSource): string {
  if (source.kind === 'git') {
    const tree = source.clean === null ? 'work tree state unknown' : source.clean ? 'clean work tree' : 'work tree with uncommitted changes';
    return `git commit ${source.commit}${source.branch ? ` (branch ${source.branch})` : ' (detached)'}, ${tree}`;
  }
  return `installed package ${source.path}, integrity ${source.integrity ?? 'unknown'}${source.integritySource ? ` (from ${source.integritySource})` : ''}`;
}

/** The command line as one string, each argument quoted where the shell would need it. */
export function commandText(p: Provenance): string {
  return ['lockconf', ...p.command.argv].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function targetText(t: Provenance['target'], mode?: Provenance['mode']): string {
  const parts = [mode === 'client' ? 'the grading mock (lockconf mock --grade)' : t.mock ? 'embedded reference mock' : null, t.authUrl ? `auth ${t.authUrl}` : null, t.baseUrl ? `API ${t.baseUrl}` : null, t.receiverUrl ? `receiver ${t.receiverUrl}` : null, t.clientId ? `client ${t.clientId}` : null];
  return parts.filter(Boolean).join(', ') || '—';
}

/** Key/value facts of provenance and certificate (lockconf.*), for junit <properties> and Allure's environment. */
export function provenanceFacts(result: ConformanceResult): Array<[string, string]> {
  const p = result.provenance;
  const facts: Array<[string, string]> = [];
  if (p) {
    facts.push(
      ['lockconf.suite', `${p.suite.name} ${p.suite.version}`],
      ['lockconf.source', sourceText(p.suite.source)],
      ['lockconf.spec.sha256', p.spec.sha256],
      ['lockconf.catalog.sha256', `${p.catalog.sha256} (${p.catalog.requirements} requirements)`],
      ['lockconf.runtime', `node ${p.runtime.node}, ${p.runtime.os} (${p.runtime.platform}/${p.runtime.arch})`],
      ['lockconf.command', commandText(p)],
      ['lockconf.mode', p.mode],
      ['lockconf.seed', p.seed === null ? '' : String(p.seed)],
      ['lockconf.target', targetText(p.target, p.mode)],
    );
    if (p.target.profileSha256) facts.push(['lockconf.target.profileSha256', p.target.profileSha256]);
    if (p.expectations) facts.push(['lockconf.expect', `${p.expectations.file} (sha256 ${p.expectations.sha256})`]);
    for (const s of p.settings.filter((x) => x.changed)) facts.push([`lockconf.setting.${s.name}`, s.value ?? '']);
    facts.push(['lockconf.startedAt', p.startedAt], ['lockconf.finishedAt', p.finishedAt], ['lockconf.durationMs', String(p.durationMs)]);
  }
  const c = result.certificate;
  if (c) facts.push(['lockconf.certificate.key', c.keyFingerprint], ['lockconf.certificate.signedAt', c.signedAt]);
  return facts;
}

const CSS = `<style>
.cert{border:2px solid #2a6;border-radius:6px;padding:.6em 1em;margin:1em 0}.cert.v-bad{border-color:#c33}.cert h2{margin-top:0}
.prov table{border-collapse:collapse;margin:.4em 0}.prov th,.prov td{text-align:left;vertical-align:top;padding:.15em .6em;border-bottom:1px solid #ddd}
.prov td.hash,.cert td.hash{font-family:monospace;word-break:break-all}.prov tr.changed td{background:#fff3c4;font-weight:600}.prov .dflt{color:#777}
.prov pre{white-space:pre-wrap;background:#f6f6f6;padding:.4em}
</style>`;

/** The certificate block (a certified run only). */
export function renderCertificate(result: ConformanceResult): string {
  const c = result.certificate;
  if (!c) return '';
  const rows: Array<[string, string, boolean?]> = [
    ['Signed by (key fingerprint)', c.keyFingerprint, true],
    ['Signed at', c.signedAt],
    ['Mode', c.mode],
    ['Scope', c.scope],
    ['Verdict', c.verdict],
  ];
  return `${CSS}<section class="cert${c.verdict === 'conformant' ? '' : ' v-bad'}" id="certificate" data-key="${e(c.keyFingerprint)}"><h2>Certificate</h2>
<table>${rows.map(([k, v, hash]) => `<tr><th>${e(k)}</th><td${hash ? ' class="hash"' : ''}>${e(v)}</td></tr>`).join('')}</table>
<p>Every file of this folder is listed with its SHA-256 in manifest.json, signed in manifest.sig. Check it with <code>npx lockconf verify &lt;this folder&gt; --key &lt;the signer's public key&gt;</code> (docs/certification.md).</p></section>`;
}

/** "How this run was made" (a run written by the CLI; older files have no provenance). */
export function renderProvenance(result: ConformanceResult): string {
  const p = result.provenance;
  if (!p) return '';
  const rows: Array<[string, string, boolean?]> = [
    ['Suite', `${p.suite.name} ${p.suite.version}`],
    ['Source', sourceText(p.suite.source)],
    ['Spec', `${p.spec.path} sha256 ${p.spec.sha256}`, true],
    ['Requirement catalog', `sha256 ${p.catalog.sha256} (${p.catalog.requirements} requirements)`, true],
    ['Runtime', `Node ${p.runtime.node} on ${p.runtime.os} (${p.runtime.platform}/${p.runtime.arch})`],
    ['Command', commandText(p)],
    ['Working directory', p.command.cwd],
    ['Mode', p.mode],
    ['Seed', p.seed === null ? '—' : String(p.seed)],
    ['Scope', p.scope.only ? `${p.scope.inScope ?? p.scope.only.length} of ${p.scope.total ?? '?'} requirements (--only ${p.scope.only.join(' ')})` : `all ${p.scope.total ?? ''} requirements`],
    ['Target', targetText(p.target, p.mode)],
    ['Profile fingerprint', p.target.profileSha256 ? `sha256 ${p.target.profileSha256} (the profile without its secrets)` : '—', true],
    // When it started and how long it took: once, in the run's details above (index-html.ts runSpan).
  ];
  // The settings given (an option or a variable), a row each, changed ones highlighted; the rest on one line, at their defaults.
  const given = p.settings.filter((s) => s.source !== 'default');
  const rest = p.settings.filter((s) => s.source === 'default');
  const settings = given.map((s) => `<tr class="${s.changed ? 'changed' : 'unchanged'}" data-setting="${e(s.name)}"><td>${e(s.name)}</td><td>${e(s.value)}</td><td>${e(s.default ?? '—')}</td><td>${s.changed ? 'changed' : 'as default'}</td></tr>`);
  const defaults = rest.map((s) => `${e(s.name)}${s.default === null ? '' : `=${e(s.default)}`}`).join(', ');
  const changed = p.settings.filter((s) => s.changed).length;
  const expect = p.expectations
    ? `<h3>Expected failures (--expect)</h3><p>${e(p.expectations.file)}, sha256 <code>${e(p.expectations.sha256)}</code></p><pre>${e(p.expectations.content)}</pre>`
    : '';
  return `${result.certificate ? '' : CSS}<section class="prov" id="provenance"><h2>How this run was made</h2>
<table>${rows.map(([k, v, hash]) => `<tr><th>${e(k)}</th><td${hash ? ' class="hash"' : ''}>${e(v)}</td></tr>`).join('')}</table>
<h3>Settings (${changed} changed from the default, highlighted)</h3>
<table class="settings"><tr><th>Setting</th><th>Value</th><th>Default</th><th></th></tr>${settings.join('')}</table>
<p class="dflt">At their defaults (not set): ${defaults || 'none'}</p>
${expect}</section>`;
}
